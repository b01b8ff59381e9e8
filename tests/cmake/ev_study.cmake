# EV study (issue 4): bounds/threads/units unit tests, the study's claims on a reduced instance
# (regression), the full study (slow: ctest --test-dir build/release -L slow -R ev), CLI smoke.
dpref_add_test(ev_study_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/ev_study_test.cpp)
dpref_add_test(ev_study_regression LABELS regression SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/regression/ev_study_regression.cpp)
target_compile_definitions(ev_study_regression PRIVATE DPREF_EV_BASE_LOAD="${PROJECT_SOURCE_DIR}/data/ev/base_load_taylor.csv")
dpref_add_test(ev_study_slow LABELS slow SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/regression/ev_study_regression.cpp)
target_compile_definitions(ev_study_slow PRIVATE DPREF_EV_STUDY_SLOW DPREF_EV_BASE_LOAD="${PROJECT_SOURCE_DIR}/data/ev/base_load_taylor.csv")
if(TARGET dpref_cli)
  add_test(NAME cli_ev_study COMMAND dpref_cli ev study --runs 3 --reference-runs 0 --figures 1,2 --units household --c-list 10,20 --users 1000 --groups 10 --fig1-mode grouped --base-load ${PROJECT_SOURCE_DIR}/data/ev/base_load_taylor.csv)
  set_tests_properties(cli_ev_study PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"flat_in_c\"")
endif()

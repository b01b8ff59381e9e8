# dda (issue 8): networks, DP-DDA, calibrations, bounds (spec/dda.md).
dpref_add_test(dda_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/dda_test.cpp)
dpref_add_test(dda_run_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/dda_run_test.cpp)
dpref_add_test(dda_prop LABELS property SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/property/dda_prop.cpp)
dpref_add_test(dda_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/dda_audit.cpp)
dpref_add_test(dda_claims LABELS regression SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/regression/dda_claims.cpp)
if(TARGET dpref_cli)
  add_test(NAME cli_dda_run COMMAND dpref_cli dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json)
  set_tests_properties(cli_dda_run PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"calibration\": \"rdp\"")
  add_test(NAME cli_dda_rejects_bad_reg COMMAND dpref_cli dda run --regularizer l3)
  set_tests_properties(cli_dda_rejects_bad_reg PROPERTIES LABELS unit WILL_FAIL TRUE)
  # Full dda §5 study (real data from scripts/real_data.sh): JSON + PNG.
  add_test(NAME dda_study_full
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/dda_study.sh $<TARGET_FILE:dpref_cli>
                   ${PROJECT_BINARY_DIR}/dda_study)
  set_tests_properties(dda_study_full PROPERTIES LABELS slow TIMEOUT 7200)
endif()

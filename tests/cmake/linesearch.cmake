# DP backtracking line search (issue 7, spec/linesearch.md).
dpref_add_test(linesearch_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/linesearch_test.cpp)
dpref_add_test(linesearch_prop LABELS property SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/property/linesearch_prop.cpp)
dpref_add_test(linesearch_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/linesearch_audit.cpp)
dpref_add_test(linesearch_claims LABELS regression SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/regression/linesearch_claims.cpp)
target_compile_definitions(linesearch_claims PRIVATE
  DPREF_LS_SUBSET="${CMAKE_CURRENT_SOURCE_DIR}/regression/data/linesearch_fertility_3000.csv")
dpref_add_test(linesearch_claims_slow LABELS slow SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/regression/linesearch_claims.cpp)
target_compile_definitions(linesearch_claims_slow PRIVATE DPREF_LS_SLOW
  DPREF_LS_SUBSET="${CMAKE_CURRENT_SOURCE_DIR}/regression/data/linesearch_fertility_3000.csv"
  DPREF_LS_FULL="${PROJECT_SOURCE_DIR}/data/real/fertility.csv")
# CLI smoke tests (wiring only; the numbers are tested above).
if(TARGET dpref_cli)
  add_test(NAME linesearch_cli_run
           COMMAND dpref_cli linesearch run --synthetic-n 800 --synthetic-d 3 --eps 1 --max-order 64 --no-steps)
  set_tests_properties(linesearch_cli_run PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"guarantee\"")
  add_test(NAME linesearch_cli_run_mp50
           COMMAND dpref_cli linesearch run --precision mp50 --synthetic-n 200 --synthetic-d 2 --eps 2 --max-order 32)
  set_tests_properties(linesearch_cli_run_mp50 PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"precision\": \"mp50\"")
  add_test(NAME linesearch_cli_study
           COMMAND dpref_cli linesearch study --figures 2,3 --folds 2 --reps 1 --synthetic-n 400 --synthetic-d 3
                   --eps-list 1 --max-order 64 --losses logistic,hinge)
  set_tests_properties(linesearch_cli_study PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"figure34\"")
  # The full study of spec/linesearch.md (hours; needs scripts/real_data.sh; label slow).
  add_test(NAME linesearch_study_full
           COMMAND dpref_cli linesearch study
                   --data ${PROJECT_SOURCE_DIR}/data/real/fertility.csv,${PROJECT_SOURCE_DIR}/data/real/shuttle.csv,${PROJECT_SOURCE_DIR}/data/real/grants_other.svm
                   --out ${PROJECT_BINARY_DIR}/linesearch_study.json --png-dir ${PROJECT_BINARY_DIR}/linesearch_study
                   --plot-script ${PROJECT_SOURCE_DIR}/scripts/linesearch_study_plots.py)
  set_tests_properties(linesearch_study_full PROPERTIES LABELS slow TIMEOUT 172800)
  add_test(NAME linesearch_cli_rejects_algorithm COMMAND dpref_cli linesearch run --algorithm nope)
  set_tests_properties(linesearch_cli_rejects_algorithm PROPERTIES LABELS unit WILL_FAIL TRUE)
endif()

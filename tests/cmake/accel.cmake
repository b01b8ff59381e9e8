# Accelerated private optimisation (issue 6, spec/accel.md).
dpref_add_test(accel_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/accel_test.cpp)
dpref_add_test(accel_prop LABELS property SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/property/accel_prop.cpp)
# Full-size claims (ACCEL.CLAIMS_FULL), not in CI:
#   ctest --test-dir build/<dir> -L slow -R ACCEL_CLAIMS_FULL
dpref_add_test(accel_claims LABELS slow SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/regression/accel_claims.cpp)
# CLI smoke tests of `dpref accel` (real data path: the missing-file error names the script).
if(TARGET dpref_cli)
  add_test(NAME cli_accel_run_small COMMAND dpref_cli accel run --n 300 --d 4 --T 5 --no-trace)
  set_tests_properties(cli_accel_run_small PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"eps_total\"")
  add_test(NAME cli_accel_missing_data COMMAND dpref_cli accel run --data ${PROJECT_BINARY_DIR}/no_such_file.csv)
  set_tests_properties(cli_accel_missing_data PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "scripts/real_data.sh")
endif()

# Secure mode of the accel algorithms (issue 20 part 2, spec/accel.md SEC.ACCEL): ledger,
# lattice, budget and precision checks (`unit`); one-step low-order-bit audits (`audit`).
dpref_test_sources(accel_tests ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_accel_test.cpp)
dpref_test_sources(accel_audit ${CMAKE_CURRENT_SOURCE_DIR}/audit/secure_accel_audit.cpp)
if(TARGET dpref_cli)
  # SEC.ACCEL: `--secure` runs, the result says "noise": "secure" and `dpref account` re-derives
  # the guarantee from the ledger bit for bit (every algorithm, full batch and m of n)
  foreach(alg gd nag_opt masg_opt)
    foreach(batch n 50)
      if(batch STREQUAL "n")
        set(batch_flags "")
      else()
        set(batch_flags --m ${batch})
      endif()
      add_test(NAME SEC_ACCEL_cli_roundtrip_${alg}_m${batch}
               COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py
                       --schema result --roundtrip $<TARGET_FILE:dpref_cli> --precision double
                       --expect paper=accel --expect algorithm=${alg}
                       -- $<TARGET_FILE:dpref_cli> accel run --n 200 --d 3 --iterations 12
                       --algorithm ${alg} ${batch_flags} --secure)
      set_tests_properties(SEC_ACCEL_cli_roundtrip_${alg}_m${batch} PROPERTIES LABELS unit)
    endforeach()
  endforeach()
  add_test(NAME SEC_ACCEL_cli_secure
           COMMAND dpref_cli accel run --n 100 --d 2 --iterations 3 --secure)
  set_tests_properties(SEC_ACCEL_cli_secure PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"noise\": \"secure\"")
  add_test(NAME SEC_ACCEL_cli_release_secure
           COMMAND dpref_cli accel run --n 100 --d 2 --iterations 3 --release secure)
  set_tests_properties(SEC_ACCEL_cli_release_secure PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"noise\": \"secure\"")
  add_test(NAME SEC_ACCEL_cli_both_flags_refused
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:dpref_cli> accel run --n 100 --d 2 --iterations 3 --secure --release idealised 2>&1; test $? -ne 0 && echo REFUSED")
  set_tests_properties(SEC_ACCEL_cli_both_flags_refused PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "REFUSED")
  add_test(NAME SEC_ACCEL_cli_mp50_refused
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:dpref_cli> accel run --n 100 --d 2 --iterations 3 --secure --precision mp50 2>&1; test $? -ne 0 && echo REFUSED")
  set_tests_properties(SEC_ACCEL_cli_mp50_refused PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "release must be idealised at precision mp50 .the lattice release.*REFUSED")
endif()
# Cost of secure mode for accel, dda and linesearch (SEC.ACCEL.COST, SEC.DDA.COST,
# SEC.LINESEARCH.COST): `dpref reproduce` claims (reproduce.cmake; utility ratios) and
# bench/secure_cost_bench.cpp (wall-time ratios).

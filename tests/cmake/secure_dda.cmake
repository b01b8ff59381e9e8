# Secure mode of dda Algorithm 1 (issue 20 part 2, spec/dda.md SEC.DDA): ledger, accountant
# (SEC.ACC.GAUSS.WOR), lattice, budget and precision checks (`unit`); one-round low-order-bit
# audits (`audit`).
dpref_test_sources(dda_tests ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_dda_test.cpp)
dpref_test_sources(dda_audit ${CMAKE_CURRENT_SOURCE_DIR}/audit/secure_dda_audit.cpp)
if(TARGET dpref_cli)
  # SEC.DDA: `--secure` on the example; "noise": "secure"; `dpref account` re-derives the
  # guarantee from the ledger bit for bit
  add_test(NAME SEC_DDA_cli_roundtrip
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py
                   --schema result --roundtrip $<TARGET_FILE:dpref_cli> --precision double
                   --expect paper=dda
                   -- $<TARGET_FILE:dpref_cli> dda run --params
                   ${PROJECT_SOURCE_DIR}/examples/dda.json --secure --no-optimum)
  set_tests_properties(SEC_DDA_cli_roundtrip PROPERTIES LABELS unit)
  add_test(NAME SEC_DDA_cli_secure
           COMMAND dpref_cli dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json --secure
                   --no-optimum)
  set_tests_properties(SEC_DDA_cli_secure PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"noise\": \"secure\"")
  add_test(NAME SEC_DDA_cli_both_flags_refused
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:dpref_cli> dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json --secure --release idealised 2>&1; test $? -ne 0 && echo REFUSED")
  set_tests_properties(SEC_DDA_cli_both_flags_refused PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "REFUSED")
  add_test(NAME SEC_DDA_cli_mp50_refused
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:dpref_cli> dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json --secure --precision mp50 2>&1; test $? -ne 0 && echo REFUSED")
  set_tests_properties(SEC_DDA_cli_mp50_refused PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "release must be idealised at precision mp50 .the lattice release.*REFUSED")
endif()

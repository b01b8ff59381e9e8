# The shared shape of the paper modules (spec/architecture.md) and the ledger/accountant
# (spec/accounting.md ACC.EVENT, ACC.ACCOUNT, ACC.LEDGER.JSON, ACC.CERT.THREADS).
dpref_add_test(core_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/core_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/unit/ledger_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/unit/ledger_joint_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/unit/mpfr_scope_test.cpp
               TSAN_FILTER "ACC_CERT_THREADS.*:ARCH_MPFR_SCOPE.*"
               TSAN_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/ledger_test.cpp
                            ${CMAKE_CURRENT_SOURCE_DIR}/unit/mpfr_scope_test.cpp)
if(TARGET dpref_cli)
  set(DPREF_CHECK_OUTPUT /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py)
  # `dpref account --json` validates against spec/schema/account.schema.json at two precisions.
  add_test(NAME ACC_LEDGER_SCHEMA_account_double
           COMMAND ${DPREF_CHECK_OUTPUT} --schema account -- $<TARGET_FILE:dpref_cli> account
                   ${PROJECT_SOURCE_DIR}/examples/account_events.json --json)
  add_test(NAME ACC_LEDGER_SCHEMA_account_mp50
           COMMAND ${DPREF_CHECK_OUTPUT} --schema account -- $<TARGET_FILE:dpref_cli> account
                   ${PROJECT_SOURCE_DIR}/examples/account_events.json --json --precision mp50)
  # negative control: the same output is NOT a run result
  add_test(NAME ACC_LEDGER_SCHEMA_negative_control
           COMMAND ${DPREF_CHECK_OUTPUT} --schema result -- $<TARGET_FILE:dpref_cli> account
                   ${PROJECT_SOURCE_DIR}/examples/account_events.json --json)
  set_tests_properties(ACC_LEDGER_SCHEMA_negative_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(ACC_LEDGER_SCHEMA_account_double ACC_LEDGER_SCHEMA_account_mp50
                       ACC_LEDGER_SCHEMA_negative_control PROPERTIES LABELS unit)
endif()

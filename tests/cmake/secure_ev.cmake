# Secure mode of ev Algorithm 2 (issue 20 part 2; spec/ev.md SEC.EV): the ledger, lattice,
# budget and refusal checks (`unit`), the low-order-bit audit of the release k = 2 (`audit`), and
# the command line (`--secure`, the ledger re-accounted by `dpref account`, the refusals).
dpref_test_sources(ev_tests ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_ev_test.cpp)
dpref_test_sources(ev_audit ${CMAKE_CURRENT_SOURCE_DIR}/audit/secure_ev_audit.cpp)

if(TARGET dpref_cli AND NOT DPREF_TSAN)
  set(SEC_EV_DPREF $<TARGET_FILE:dpref_cli>)
  set(SEC_EV_SMALL ev run --mode grouped --groups 10 --users 1000 --iterations 5 --units household)
  # SEC.EV: `--secure` runs the lattice release; its ledger re-read by `dpref account` bit for bit
  add_test(NAME ACC_LEDGER_ROUNDTRIP_ev_secure
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py --schema result
                   --roundtrip ${SEC_EV_DPREF} --precision double --expect paper=ev
                   -- ${SEC_EV_DPREF} ${SEC_EV_SMALL} --secure)
  add_test(NAME SEC_EV_CLI_noise COMMAND ${SEC_EV_DPREF} ${SEC_EV_SMALL} --secure)
  set_tests_properties(SEC_EV_CLI_noise PROPERTIES PASS_REGULAR_EXPRESSION
                       "\"noise\": \"secure\".*\"mechanism\": \"snapped_vector_laplace\"")
  add_test(NAME SEC_MODE_ev_release_flag
           COMMAND ${SEC_EV_DPREF} ${SEC_EV_SMALL} --release secure)
  set_tests_properties(SEC_MODE_ev_release_flag PROPERTIES PASS_REGULAR_EXPRESSION
                       "\"noise\": \"secure\"")
  # both spellings at once are refused (SEC.MODE)
  add_test(NAME SEC_MODE_ev_both_refused
           COMMAND ${SEC_EV_DPREF} ${SEC_EV_SMALL} --secure --release idealised)
  set_tests_properties(SEC_MODE_ev_both_refused PROPERTIES WILL_FAIL TRUE)
  add_test(NAME SEC_EV_CLI_both_message
           COMMAND ${SEC_EV_DPREF} ${SEC_EV_SMALL} --secure --release idealised)
  set_tests_properties(SEC_EV_CLI_both_message PROPERTIES PASS_REGULAR_EXPRESSION
                       "--secure|--release")
  # secure mode at 50 digits is refused naming the field and the value
  add_test(NAME SEC_EV_CLI_mp50_refused
           COMMAND ${SEC_EV_DPREF} ${SEC_EV_SMALL} --secure --precision mp50)
  set_tests_properties(SEC_EV_CLI_mp50_refused PROPERTIES PASS_REGULAR_EXPRESSION
                       "ev::params.release must be idealised at precision mp50 \\(the lattice release is defined on doubles")
  set_tests_properties(ACC_LEDGER_ROUNDTRIP_ev_secure SEC_EV_CLI_noise
                       SEC_MODE_ev_release_flag SEC_MODE_ev_both_refused
                       SEC_EV_CLI_both_message SEC_EV_CLI_mp50_refused
                       PROPERTIES LABELS unit)
endif()

# SEC.EV.COST (label `slow`): utility and wall time of idealised vs secure on examples/ev.json
dpref_add_test(secure_ev_cost LABELS slow SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_ev_cost.cpp)
target_compile_definitions(secure_ev_cost PRIVATE DPREF_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/examples")

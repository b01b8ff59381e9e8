# Secure mode of the pwa mechanisms (issue 20 part 2; spec/pwa.md SEC.PWA): ledger, lattice,
# budget and refusal checks (`unit`), low-order-bit audits of M_P and M_S (`audit`), and the
# command line (`--secure`, the ledger re-accounted by `dpref account`, the refusals).
dpref_test_sources(pwa_tests ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_pwa_test.cpp)
dpref_test_sources(pwa_audit ${CMAKE_CURRENT_SOURCE_DIR}/audit/secure_pwa_audit.cpp)

if(TARGET dpref_cli AND NOT DPREF_TSAN)
  set(SEC_PWA_DPREF $<TARGET_FILE:dpref_cli>)
  foreach(alg perturb_data perturb_solution private_subgradient exponential)
    add_test(NAME ACC_LEDGER_ROUNDTRIP_pwa_secure_${alg}
             COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py --schema result
                     --roundtrip ${SEC_PWA_DPREF} --precision double --expect paper=pwa
                     -- ${SEC_PWA_DPREF} pwa run --algorithm ${alg} --m 10 --d 2 --secure)
    add_test(NAME SEC_PWA_CLI_noise_${alg}
             COMMAND ${SEC_PWA_DPREF} pwa run --algorithm ${alg} --m 10 --d 2 --secure)
    set_tests_properties(SEC_PWA_CLI_noise_${alg} PROPERTIES PASS_REGULAR_EXPRESSION
                         "\"noise\": \"secure\"")
    set_tests_properties(ACC_LEDGER_ROUNDTRIP_pwa_secure_${alg} SEC_PWA_CLI_noise_${alg}
                         PROPERTIES LABELS unit)
  endforeach()
  add_test(NAME SEC_PWA_CLI_lattice_event
           COMMAND ${SEC_PWA_DPREF} pwa run --algorithm perturb_data --m 10 --d 2 --release secure)
  add_test(NAME SEC_MODE_pwa_both_refused
           COMMAND ${SEC_PWA_DPREF} pwa run --algorithm perturb_data --secure --release idealised)
  add_test(NAME SEC_PWA_CLI_mp50_refused
           COMMAND ${SEC_PWA_DPREF} pwa run --algorithm perturb_data --secure --precision mp50)
  add_test(NAME SEC_PWA_CLI_nonprivate_refused
           COMMAND ${SEC_PWA_DPREF} pwa run --algorithm regular_subgradient --secure)
  set_tests_properties(SEC_PWA_CLI_lattice_event PROPERTIES PASS_REGULAR_EXPRESSION
                       "\"mechanism\": \"snapped_vector_laplace\"")
  set_tests_properties(SEC_MODE_pwa_both_refused PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(SEC_PWA_CLI_mp50_refused PROPERTIES PASS_REGULAR_EXPRESSION
                       "pwa::params.release must be idealised at precision mp50")
  set_tests_properties(SEC_PWA_CLI_nonprivate_refused PROPERTIES PASS_REGULAR_EXPRESSION
                       "pwa::params.release must be idealised for regular_subgradient")
  set_tests_properties(SEC_PWA_CLI_lattice_event SEC_MODE_pwa_both_refused
                       SEC_PWA_CLI_mp50_refused SEC_PWA_CLI_nonprivate_refused
                       PROPERTIES LABELS unit)
endif()

# SEC.PWA.COST (label `slow`): utility and wall time of idealised vs secure M_P / M_S (pwa §5.1)
dpref_add_test(secure_pwa_cost LABELS slow SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_pwa_cost.cpp)

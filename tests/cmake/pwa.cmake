# Piecewise-affine objectives (issue 5; spec/pwa.md). The GLPK cross-check is compiled only when
# libglpk is found (Debian libglpk-dev); otherwise PWA_GLPK skips with a message.
find_library(DPREF_GLPK_LIBRARY glpk)
find_path(DPREF_GLPK_INCLUDE_DIR glpk.h)
# one executable (one unity translation unit) for the paper's unit and property tests; the
# secure variants add theirs (secure_pwa.cmake). CI.UNITY (spec/ci.md)
dpref_add_test(pwa_tests LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_run_test.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_noise_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_prop.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_bounds_prop.cpp)
if(DPREF_GLPK_LIBRARY AND DPREF_GLPK_INCLUDE_DIR)
  target_compile_definitions(pwa_tests PRIVATE DPREF_HAVE_GLPK)
  target_include_directories(pwa_tests SYSTEM PRIVATE ${DPREF_GLPK_INCLUDE_DIR})
  target_link_libraries(pwa_tests PRIVATE ${DPREF_GLPK_LIBRARY})
else()
  message(STATUS "dpref: GLPK not found; PWA_GLPK (LP cross-check) will be skipped")
endif()
dpref_add_test(pwa_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_audit.cpp
                                             ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_bounds_audit.cpp)
# the §5 findings (PWA.REGRESSION.*) are `dpref reproduce` claims at the paper's 1000 runs
# (reproduce.cmake: PWA_REGRESSION_*_reproduced)
# CLI smoke tests of `dpref pwa run|study` (the numbers are tested in the library tests)
if(TARGET dpref_cli)
  add_test(NAME pwa_cli_run COMMAND dpref_cli pwa run --algorithm private_subgradient --m 10 --d 2)
  set_tests_properties(pwa_cli_run PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"epsilon\": 0.1")
  add_test(NAME pwa_cli_run_mp50 COMMAND dpref_cli pwa run --algorithm perturb_solution --precision mp50 --m 5
                                         --diagnostics --optimum)
  set_tests_properties(pwa_cli_run_mp50 PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "certificate_gap")
  # PWA.RUN.RELEASE: a private run's document lists its enforced constants and carries no
  # non_private section unless --diagnostics
  # (--iterations applies only to the subgradient methods: HARD.APPLIES)
  set(PWA_ITERATIONS_private_subgradient --iterations 5)
  set(PWA_ITERATIONS_regular_subgradient --iterations 5)
  foreach(alg private_subgradient perturb_data perturb_solution exponential)
    add_test(NAME PWA_RUN_RELEASE_cli_${alg}
             COMMAND dpref_cli pwa run --algorithm ${alg} --m 8 --d 2 ${PWA_ITERATIONS_${alg}})
    set_tests_properties(PWA_RUN_RELEASE_cli_${alg} PROPERTIES LABELS unit
                         PASS_REGULAR_EXPRESSION "\"enforced\": \\[" FAIL_REGULAR_EXPRESSION "non_private")
  endforeach()
  add_test(NAME PWA_RUN_RELEASE_cli_diagnostics
           COMMAND dpref_cli pwa run --m 8 --d 2 --iterations 5 --diagnostics --trace)
  set_tests_properties(PWA_RUN_RELEASE_cli_diagnostics PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"non_private\".*\"objective_trace\"")
  add_test(NAME pwa_cli_rejects_bad_mechanism COMMAND dpref_cli pwa run --algorithm nope)
  set_tests_properties(pwa_cli_rejects_bad_mechanism PROPERTIES LABELS unit WILL_FAIL TRUE)
  add_test(NAME pwa_cli_study COMMAND dpref_cli pwa study --runs 5 --figures 1,2 --k-list 1,10 --c-list 1,2)
  set_tests_properties(pwa_cli_study PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "figure2_box_size")
  # ACC.LEDGER.ROUNDTRIP: each private algorithm's ledger re-accounted by `dpref account` bit
  # for bit (double and mp50); the non-private ones: schema-valid, no guarantee claimed
  set(PWA_CHECK /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py)
  set(PWA_SMALL pwa run --m 8 --d 2)
  foreach(prec double mp50)
    foreach(alg private_subgradient perturb_data perturb_solution exponential)
      add_test(NAME ACC_LEDGER_ROUNDTRIP_pwa_${alg}_${prec}
               COMMAND ${PWA_CHECK} --schema result --roundtrip $<TARGET_FILE:dpref_cli>
                       --precision ${prec} --expect paper=pwa --expect algorithm=${alg}
                       -- $<TARGET_FILE:dpref_cli> ${PWA_SMALL} ${PWA_ITERATIONS_${alg}}
                       --algorithm ${alg} --precision ${prec})
      set_tests_properties(ACC_LEDGER_ROUNDTRIP_pwa_${alg}_${prec} PROPERTIES LABELS unit)
    endforeach()
    foreach(alg regular_subgradient optimum)
      add_test(NAME PWA_JSON_nonprivate_${alg}_${prec}
               COMMAND $<TARGET_FILE:dpref_cli> ${PWA_SMALL} ${PWA_ITERATIONS_${alg}}
                       --algorithm ${alg} --precision ${prec})
      set_tests_properties(PWA_JSON_nonprivate_${alg}_${prec} PROPERTIES LABELS unit
                           PASS_REGULAR_EXPRESSION "\"privacy\": {[\r\n ]*\"private\": false[\r\n ]*}")
    endforeach()
  endforeach()
  # HARD.CATALOGUE: every bad input of tests/cli/catalogue/pwa.jsonl refused clearly
  dpref_add_catalogue(pwa unit 900)
endif()

# ---- (was tests/cmake/pwa_sampler.cmake)
# Exact samplers of the continuous exponential mechanism M_E (pwa Theorem 19) and the
# approximate Metropolis path (issue 5, spec/pwa_sampler.md).
dpref_test_sources(pwa_tests ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_sampler_test.cpp)
dpref_test_sources(pwa_audit ${CMAKE_CURRENT_SOURCE_DIR}/pwa/pwa_sampler_audit.cpp)
# CLI smoke tests of `dpref pwa sample` (the numbers are tested in tests/pwa/pwa_sampler_test.cpp).
if(TARGET dpref_cli)
  add_test(NAME cli_pwa_sample_exact COMMAND dpref_cli pwa sample --method envelope -n 2 --m 8 --d 2 --epsilon 1)
  set_tests_properties(cli_pwa_sample_exact PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"certified\": true")
  add_test(NAME cli_pwa_sample_mp50 COMMAND dpref_cli pwa sample --method inverse-cdf --precision mp50 --m 5 --d 1)
  set_tests_properties(cli_pwa_sample_mp50 PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"exactness\": \"exact\"")
  add_test(NAME cli_pwa_sample_metropolis COMMAND dpref_cli pwa sample --method metropolis --steps 50 --m 5)
  set_tests_properties(cli_pwa_sample_metropolis PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "NOT CERTIFIED")
  add_test(NAME cli_pwa_sample_rejects_bad_method COMMAND dpref_cli pwa sample --method mcmc)
  set_tests_properties(cli_pwa_sample_rejects_bad_method PROPERTIES LABELS unit WILL_FAIL TRUE)
  # PRIV.RELEASE: the proposal counts (functions of the private b) only with --diagnostics
  add_test(NAME cli_pwa_sample_no_counts COMMAND dpref_cli pwa sample --m 8 --d 2 --epsilon 1)
  set_tests_properties(cli_pwa_sample_no_counts PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"samples\"" FAIL_REGULAR_EXPRESSION "attempts")
  add_test(NAME cli_pwa_sample_counts_asked
           COMMAND dpref_cli pwa sample --m 8 --d 2 --epsilon 1 --diagnostics)
  set_tests_properties(cli_pwa_sample_counts_asked PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"attempts\".*NOT covered")
endif()

# ---- (was tests/cmake/secure_pwa.cmake)
# Secure mode of the pwa mechanisms (issue 20 part 2; spec/pwa.md SEC.PWA): ledger, lattice,
# budget and refusal checks (`unit`), low-order-bit audits of M_P and M_S (`audit`), and the
# command line (`--secure`, the ledger re-accounted by `dpref account`, the refusals).
dpref_test_sources(pwa_tests ${CMAKE_CURRENT_SOURCE_DIR}/pwa/secure_pwa_test.cpp)
dpref_test_sources(pwa_audit ${CMAKE_CURRENT_SOURCE_DIR}/pwa/secure_pwa_audit.cpp)

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
dpref_add_test(secure_pwa_cost LABELS slow SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pwa/secure_pwa_cost.cpp)

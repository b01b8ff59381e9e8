# ev (Han–Topcu–Pappas, spec/ev.md): unit, property and regression tests in one executable
# (ev_tests, label unit; the threaded tests EV_THREADS.* also run under ThreadSanitizer), the
# audit of Algorithm 2 (ev_audit), the full study of §VII (ev_slow and, for the claims of Figs.
# 2-4, EV_STUDY_FULL_claims in reproduce.cmake:
# ctest --test-dir build/release -L slow -R ev), and the command-line checks (round trips of the
# ledger, non-private labelling, the example, refusals, the bad-input catalogue).
set(EV_TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/ev)
dpref_add_test(ev_tests LABELS unit TSAN_FILTER "EV_THREADS.*" TSAN_SOURCES ${EV_TEST_DIR}/ev_study_test.cpp
               SOURCES ${EV_TEST_DIR}/ev_algorithms_test.cpp ${EV_TEST_DIR}/ev_projection_test.cpp
                       ${EV_TEST_DIR}/ev_study_test.cpp ${EV_TEST_DIR}/ev_prop.cpp
                       ${EV_TEST_DIR}/ev_arch_test.cpp
                       ${EV_TEST_DIR}/ev_privacy_bounds_test.cpp)
dpref_add_test(ev_audit LABELS audit
               SOURCES ${EV_TEST_DIR}/ev_audit.cpp ${EV_TEST_DIR}/ev_privacy_bounds_audit.cpp)
dpref_add_test(ev_slow LABELS slow SOURCES ${EV_TEST_DIR}/ev_study_regression.cpp)
target_compile_definitions(ev_slow PRIVATE DPREF_EV_STUDY_SLOW)

if(TARGET dpref_cli AND NOT DPREF_TSAN)
  set(EV_DPREF $<TARGET_FILE:dpref_cli>)
  set(EV_CHECK /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py)
  set(EV_SMALL ev run --mode grouped --groups 10 --users 1000 --iterations 5 --units household)
  foreach(prec double mp50)
    # ACC.LEDGER.ROUNDTRIP: Algorithm 2's ledger re-accounted by `dpref account` bit for bit
    add_test(NAME ACC_LEDGER_ROUNDTRIP_ev_private_projected_gradient_${prec}
             COMMAND ${EV_CHECK} --schema result --roundtrip ${EV_DPREF} --precision ${prec}
                     --expect paper=ev --expect algorithm=private_projected_gradient
                     -- ${EV_DPREF} ${EV_SMALL} --precision ${prec})
    set_tests_properties(ACC_LEDGER_ROUNDTRIP_ev_private_projected_gradient_${prec}
                         PROPERTIES LABELS unit)
    # the non-private algorithms: schema-valid, and "privacy": {"private": false} (no ε claimed)
    foreach(alg projected_gradient projected_sgd optimum)
      add_test(NAME EV_JSON_schema_${alg}_${prec}
               COMMAND ${EV_CHECK} --schema result --expect algorithm=${alg}
                       -- ${EV_DPREF} ${EV_SMALL} --algorithm ${alg} --precision ${prec})
      add_test(NAME EV_JSON_nonprivate_${alg}_${prec}
               COMMAND ${EV_DPREF} ${EV_SMALL} --algorithm ${alg} --precision ${prec})
      set_tests_properties(EV_JSON_nonprivate_${alg}_${prec} PROPERTIES LABELS unit
                           PASS_REGULAR_EXPRESSION "\"privacy\": {[\r\n ]*\"private\": false[\r\n ]*}")
      set_tests_properties(EV_JSON_schema_${alg}_${prec} PROPERTIES LABELS unit)
    endforeach()
  endforeach()
  # examples/ev.json (a complete configuration) at 50 digits, its ledger re-accounted
  add_test(NAME ACC_LEDGER_ROUNDTRIP_ev_example_mp50
           COMMAND ${EV_CHECK} --schema result --roundtrip ${EV_DPREF} --precision mp50
                   -- ${EV_DPREF} ev run --params ${PROJECT_SOURCE_DIR}/examples/ev.json
                   --precision mp50)
  set_tests_properties(ACC_LEDGER_ROUNDTRIP_ev_example_mp50 PROPERTIES LABELS unit)
  # a bad value through a flag and through --params: refused naming the flag / the JSON path
  add_test(NAME EV_CLI_bad_flag COMMAND ${EV_DPREF} ${EV_SMALL} --epsilon -0.5)
  set_tests_properties(EV_CLI_bad_flag PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION
                       "--epsilon: ev::params.epsilon must be finite and > 0, got -0.5")
  add_test(NAME EV_CLI_bad_params
           COMMAND ${EV_DPREF} ev run --params ${PROJECT_SOURCE_DIR}/tests/cli/catalogue/data/ev_bad_params.json)
  set_tests_properties(EV_CLI_bad_params PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION
                       "ev_bad_params.json: /params/iterations: ev::params.iterations must be >= 2")
  # the study and the sensitivity commands end to end (small)
  add_test(NAME EV_CLI_study
           COMMAND ${EV_DPREF} ev study --runs 3 --reference-runs 0 --figures 1,2 --units household
                   --step-list 10,20 --users 1000 --groups 10 --fig1-mode grouped)
  set_tests_properties(EV_CLI_study PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"flat_in_c\"")
  add_test(NAME EV_CLI_sensitivity
           COMMAND ${EV_DPREF} ev sensitivity --restarts 2 --steps 100)
  set_tests_properties(EV_CLI_sensitivity PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION
                       "\"tight\": 28.4478")
  # HARD.CATALOGUE: every bad input of tests/cli/catalogue/ev.jsonl refused clearly
  dpref_add_catalogue(ev unit 900)
endif()

# ---- (was tests/cmake/secure_ev.cmake)
# Secure mode of ev Algorithm 2 (issue 20 part 2; spec/ev.md SEC.EV): the ledger, lattice,
# budget and refusal checks (`unit`), the low-order-bit audit of the release k = 2 (`audit`), and
# the command line (`--secure`, the ledger re-accounted by `dpref account`, the refusals).
dpref_test_sources(ev_tests ${CMAKE_CURRENT_SOURCE_DIR}/ev/secure_ev_test.cpp)
dpref_test_sources(ev_audit ${CMAKE_CURRENT_SOURCE_DIR}/ev/secure_ev_audit.cpp)

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
dpref_add_test(secure_ev_cost LABELS slow SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ev/secure_ev_cost.cpp)
target_compile_definitions(secure_ev_cost PRIVATE DPREF_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/examples")

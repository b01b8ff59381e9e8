# DP backtracking line search (spec/linesearch.md): unit + property tests in one executable, the
# audits and noise-scale tests, and the CLI checks (the §5 claims run through `dpref reproduce`,
# reproduce.cmake).
set(LS_DIR ${CMAKE_CURRENT_SOURCE_DIR}/linesearch)
set(LS_SUBSET ${CMAKE_CURRENT_SOURCE_DIR}/regression/data/linesearch_fertility_3000.csv)
dpref_add_test(linesearch_tests LABELS unit SOURCES
  ${LS_DIR}/unit_test.cpp ${LS_DIR}/mlp_test.cpp ${LS_DIR}/prop_test.cpp ${LS_DIR}/api_test.cpp
  ${LS_DIR}/bounds_test.cpp)
target_compile_definitions(linesearch_tests PRIVATE DPREF_LS_SUBSET="${LS_SUBSET}")
dpref_add_test(linesearch_audit LABELS audit SOURCES ${LS_DIR}/audit.cpp ${LS_DIR}/noise_test.cpp
  ${LS_DIR}/bounds_audit.cpp)

if(TARGET dpref_cli)
  set(LS_DPREF $<TARGET_FILE:dpref_cli>)
  set(LS_CHECK /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py)
  # ACC.LEDGER.ROUNDTRIP: every private algorithm, double and mp50: the result validates against
  # spec/schema/result.schema.json and `dpref account` re-accounts its ledger bit for bit.
  set(LS_SMALL --synthetic-n 1500 --synthetic-d 3 --epsilon 1 --max-order 64)
  set(LS_TINY --synthetic-n 120 --synthetic-d 2 --epsilon 2 --max-order 32)
  foreach(a blsgd blsgd_ac blgd dpsgd dpagd outpert objpert)
    add_test(NAME ACC_LEDGER_ROUNDTRIP_linesearch_${a}_double
             COMMAND ${LS_CHECK} --schema result --expect algorithm=${a} --roundtrip ${LS_DPREF}
                     --precision double -- ${LS_DPREF} linesearch run --algorithm ${a} ${LS_SMALL})
    add_test(NAME ACC_LEDGER_ROUNDTRIP_linesearch_${a}_mp50
             COMMAND ${LS_CHECK} --schema result --expect algorithm=${a} --roundtrip ${LS_DPREF}
                     --precision mp50 -- ${LS_DPREF} linesearch run --algorithm ${a} ${LS_TINY}
                     --precision mp50)
    set_tests_properties(ACC_LEDGER_ROUNDTRIP_linesearch_${a}_double
                         ACC_LEDGER_ROUNDTRIP_linesearch_${a}_mp50 PROPERTIES LABELS unit)
  endforeach()
  # the paper-reproduction mode (allow_over_budget) still writes a ledger that round-trips
  add_test(NAME ACC_LEDGER_ROUNDTRIP_linesearch_blsgd_paper_double
           COMMAND ${LS_CHECK} --schema result --roundtrip ${LS_DPREF} --precision double --
                   ${LS_DPREF} linesearch run ${LS_SMALL} --svt-bound unproven_eq4_5
                   --batch-accounting per_call --allow-over-budget)
  # examples/linesearch.json (a complete config) at 50 digits, ledger re-accounted
  add_test(NAME ACC_LEDGER_ROUNDTRIP_linesearch_example_mp50
           COMMAND ${LS_CHECK} --schema result --roundtrip ${LS_DPREF} --precision mp50 --
                   ${LS_DPREF} linesearch run --params ${PROJECT_SOURCE_DIR}/examples/linesearch.json
                   --precision mp50)
  set_tests_properties(ACC_LEDGER_ROUNDTRIP_linesearch_blsgd_paper_double
                       ACC_LEDGER_ROUNDTRIP_linesearch_example_mp50 PROPERTIES LABELS unit)
  # Non-private baselines: valid results that claim no guarantee ("private": false).
  foreach(a nonprivate majority)
    add_test(NAME LS_API_cli_${a}
             COMMAND ${LS_CHECK} --schema result --expect algorithm=${a} -- ${LS_DPREF} linesearch
                     run --algorithm ${a} --synthetic-n 500 --synthetic-d 3)
    set_tests_properties(LS_API_cli_${a} PROPERTIES LABELS unit)
  endforeach()
  # PRIV.RELEASE: a private run's document has no "non_private" key unless --diagnostics asks
  # for it, and lists its enforced constants (PRIV.BOUNDS).
  add_test(NAME PRIV_RELEASE_linesearch_cli_default
           COMMAND ${LS_DPREF} linesearch run --algorithm blsgd --synthetic-n 300 --synthetic-d 2
                   --epsilon 1 --max-order 32 --trace)
  set_tests_properties(PRIV_RELEASE_linesearch_cli_default PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"enforced\": \\[.*\"constant\": \"C_grad\""
                       FAIL_REGULAR_EXPRESSION "non_private|training_accuracy")
  add_test(NAME PRIV_RELEASE_linesearch_cli_diagnostics
           COMMAND ${LS_DPREF} linesearch run --algorithm blsgd --synthetic-n 300 --synthetic-d 2
                   --epsilon 1 --max-order 32 --trace --diagnostics)
  set_tests_properties(PRIV_RELEASE_linesearch_cli_diagnostics PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"non_private\": {.*\"objective_trace\"")
  # A bad value through a flag and through --params: refused, naming the flag / the JSON path.
  add_test(NAME LS_API_cli_bad_flag COMMAND ${LS_DPREF} linesearch run --epsilon -1)
  set_tests_properties(LS_API_cli_bad_flag PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION
                       "--epsilon: linesearch::params.epsilon must be finite and in \\(0, 1e6\\], got -1")
  add_test(NAME LS_API_cli_bad_params
           COMMAND ${LS_DPREF} linesearch run --params ${LS_DIR}/data/bad_q.json)
  set_tests_properties(LS_API_cli_bad_params PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION
                       "bad_q.json: /params/q: linesearch::params.q must be in \\(0, 1\\], got 1.5")
  # The study (Figures 2-4, reduced) with plots found next to the binary (share/dpref/scripts).
  add_test(NAME LS_STUDY_cli
           COMMAND ${LS_DPREF} linesearch study --figures 2,3 --folds 2 --reps 1 --synthetic-n 400
                   --synthetic-d 3 --eps-list 1 --max-order 64 --losses logistic,hinge
                   --out ${PROJECT_BINARY_DIR}/ls_study_smoke.json
                   --png-dir ${PROJECT_BINARY_DIR}/ls_study_smoke_png)
  set_tests_properties(LS_STUDY_cli PROPERTIES LABELS unit)
  # §5.7 on synthetic 10-class data; a missing --data-dir must fail (never skip).
  add_test(NAME LS_MLP_RUN_cli
           COMMAND ${LS_DPREF} linesearch mlp --synthetic-n 300 --synthetic-d 8 --hidden 6
                   --iterations 12 --eval-every 4 --q 0.1 --epsilon 4 --max-order 64)
  add_test(NAME LS_MLP_DATA_cli_missing_data
           COMMAND ${LS_DPREF} linesearch mlp --data-dir ${PROJECT_BINARY_DIR}/no-such-fashion-mnist
                   --iterations 2)
  set_tests_properties(LS_MLP_RUN_cli PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION
                       "\"schema\": \"dpref.linesearch.mlp/1\".*\"budget_met\": true.*\"budget_met\": true")
  set_tests_properties(LS_MLP_DATA_cli_missing_data PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION
                       "--data-dir must hold the Fashion-MNIST IDX files")
  # The bad-input catalogue of the linesearch commands (spec/hardening.md HARD.CATALOGUE).
  dpref_add_catalogue(linesearch unit 1800)
  # The full study and the Fashion-MNIST run of spec/linesearch.md (hours; need
  # scripts/real_data.sh; label slow). The full study is over the default work bound
  # (folds × reps × cells = 24300 > 20000 runs, HARD.WORK), so it says --force.
  add_test(NAME linesearch_study_full
           COMMAND ${LS_DPREF} linesearch study
                   --data ${PROJECT_SOURCE_DIR}/data/real/fertility.csv,${PROJECT_SOURCE_DIR}/data/real/shuttle.csv,${PROJECT_SOURCE_DIR}/data/real/grants_other.svm
                   --out ${PROJECT_BINARY_DIR}/linesearch_study.json --png-dir ${PROJECT_BINARY_DIR}/linesearch_study
                   --force)
  set_tests_properties(linesearch_study_full PROPERTIES LABELS slow TIMEOUT 172800)
  add_test(NAME linesearch_mlp_full
           COMMAND ${LS_DPREF} linesearch mlp --data-dir ${PROJECT_SOURCE_DIR}/data/real/fashion-mnist
                   --iterations 2000 --eval-every 50 --early-until 200 --early-every 10 --epsilon 2
                   --delta 1e-5 --calibration paper_same_rho --allow-over-budget --seed 1 --diagnostics --out ${PROJECT_BINARY_DIR}/linesearch_mlp.json
                   --png-dir ${PROJECT_BINARY_DIR}/linesearch_mlp)
  set_tests_properties(linesearch_mlp_full PROPERTIES LABELS slow TIMEOUT 36000)
endif()

# ---- (was tests/cmake/secure_linesearch.cmake)
# Secure mode of the linesearch algorithms (issue 20 part 2, spec/linesearch.md SEC.LINESEARCH):
# DP-SGD, output perturbation and the DP-BLSGD family (`unit`); low-order-bit audits (`audit`).
dpref_test_sources(linesearch_tests ${CMAKE_CURRENT_SOURCE_DIR}/linesearch/secure_linesearch_test.cpp)
dpref_test_sources(linesearch_audit ${CMAKE_CURRENT_SOURCE_DIR}/linesearch/secure_linesearch_audit.cpp)
if(TARGET dpref_cli)
  foreach(a dpsgd outpert blsgd dpagd)
    add_test(NAME SEC_LINESEARCH_cli_roundtrip_${a}
             COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py
                     --schema result --expect algorithm=${a} --roundtrip $<TARGET_FILE:dpref_cli>
                     --precision double -- $<TARGET_FILE:dpref_cli> linesearch run --algorithm ${a}
                     --synthetic-n 1500 --synthetic-d 3 --epsilon 1 --max-order 64 --secure)
    set_tests_properties(SEC_LINESEARCH_cli_roundtrip_${a} PROPERTIES LABELS unit)
  endforeach()
  add_test(NAME SEC_LINESEARCH_cli_secure
           COMMAND dpref_cli linesearch run --algorithm dpsgd --synthetic-n 500 --synthetic-d 2
                   --epsilon 1 --max-order 64 --secure)
  set_tests_properties(SEC_LINESEARCH_cli_secure PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"noise\": \"secure\"")
  dpref_add_secure_refusals(SEC_LINESEARCH linesearch run --algorithm dpsgd --synthetic-n 500 --synthetic-d 2)
endif()

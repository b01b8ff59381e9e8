# Accelerated private optimisation (issue 6, spec/accel.md).
# one executable (one unity translation unit) for the paper's unit and property tests; the
# secure variants are below. CI.UNITY (spec/ci.md)
dpref_add_test(accel_tests LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accel/accel_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/accel/accel_run_test.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/accel/accel_prop.cpp)
# The §5 claims (ACCEL.CLAIMS, full size ACCEL.CLAIMS_FULL) are defined once in
# src/reproduce/accel_claims.cpp and checked through `dpref reproduce` (reproduce.cmake).
# CLI smoke tests of `dpref accel run|study` (the numbers are tested in the library tests; real
# data path: the missing-file error names the script).
if(TARGET dpref_cli)
  add_test(NAME ACCEL_CLI_run_small
           COMMAND dpref_cli accel run --n 300 --d 4 --iterations 5 --algorithm nag_opt)
  set_tests_properties(ACCEL_CLI_run_small PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"schema\": \"dpref.result/1\"")
  add_test(NAME ACCEL_CLI_missing_data
           COMMAND dpref_cli accel run --data ${PROJECT_BINARY_DIR}/no_such_file.csv)
  set_tests_properties(ACCEL_CLI_missing_data PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "scripts/real_data.sh")
  add_test(NAME ACCEL_STUDY_cli_small
           COMMAND dpref_cli accel study --figures 2,3 --n 200 --d 3 --runs 1 --T-list 5
                   --m-list 0 --c-list 1 --T-fig2 50)
  set_tests_properties(ACCEL_STUDY_cli_small PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"mean_excess\"")
  # ACC.LEDGER.ROUNDTRIP / ACCEL.LEDGER: each algorithm's ledger (full batch and a minibatch of
  # m of n without replacement) re-accounted by `dpref account` bit for bit, double and mp50
  set(ACCEL_CHECK /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py)
  set(ACCEL_SMALL accel run --n 200 --d 3 --iterations 12)
  # dpref_accel_roundtrip(<test> <alg> <batch: n or m> <precision> <run flags...>): the ledger of
  # a small run of <alg> (full batch or m of n) re-accounted at <precision>
  function(dpref_accel_roundtrip test alg batch prec)
    set(batch_flags "")
    if(NOT batch STREQUAL "n")
      set(batch_flags --m ${batch})
    endif()
    add_test(NAME ${test}
             COMMAND ${ACCEL_CHECK} --schema result --roundtrip $<TARGET_FILE:dpref_cli>
                     --precision ${prec} --expect paper=accel --expect algorithm=${alg}
                     -- $<TARGET_FILE:dpref_cli> ${ACCEL_SMALL} --algorithm ${alg}
                     ${batch_flags} ${ARGN})
    set_tests_properties(${test} PROPERTIES LABELS unit)
  endfunction()
  foreach(prec double mp50)
    foreach(alg gd shb nag nag_opt masg masg_opt)
      foreach(batch n 50)
        dpref_accel_roundtrip(ACC_LEDGER_ROUNDTRIP_accel_${alg}_m${batch}_${prec} ${alg} ${batch}
                              ${prec} --precision ${prec})
      endforeach()
    endforeach()
    add_test(NAME ACCEL_JSON_nonprivate_${prec}
             COMMAND $<TARGET_FILE:dpref_cli> ${ACCEL_SMALL} --noise none --precision ${prec})
    set_tests_properties(ACCEL_JSON_nonprivate_${prec} PROPERTIES LABELS unit
                         PASS_REGULAR_EXPRESSION "\"privacy\": {[\r\n ]*\"private\": false[\r\n ]*}")
  endforeach()
  # ARCH.BUDGET: a fixed noise scale over the budget runs only with allow_over_budget, reported
  # budget_met = false with a warning on stderr
  add_test(NAME ACCEL_CLI_over_budget_warning
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:dpref_cli> accel run --n 100 --d 2 --iterations 3 --noise fixed --noise-scale 0.001 --allow-over-budget 2>&1 >/dev/null")
  set_tests_properties(ACCEL_CLI_over_budget_warning PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "WARNING: the certified guarantee")
  # PRIV.RELEASE: a private run's document has no non-private diagnostics unless asked for
  # (--diagnostics), and then under "non_private" with its note; PRIV.BOUNDS: it lists its
  # enforced public bounds (the clamp too in secure mode)
  add_test(NAME PRIV_RELEASE_accel_cli_default
           COMMAND dpref_cli accel run --n 100 --d 2 --iterations 3)
  set_tests_properties(PRIV_RELEASE_accel_cli_default PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"constant\": \"l1_bound\""
                       FAIL_REGULAR_EXPRESSION "non_private|objective")
  add_test(NAME PRIV_RELEASE_accel_cli_diagnostics
           COMMAND dpref_cli accel run --n 100 --d 2 --iterations 3 --diagnostics --trace --fstar)
  set_tests_properties(PRIV_RELEASE_accel_cli_diagnostics PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"non_private\": {[\r\n ]*\"note\": \"not covered")
  add_test(NAME PRIV_BOUNDS_accel_cli_secure
           COMMAND dpref_cli accel run --n 100 --d 2 --iterations 3 --secure --clamp 7)
  set_tests_properties(PRIV_BOUNDS_accel_cli_secure PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"constant\": \"clamp\",[\r\n ]*\"value\": 7(\\.0)?,[\r\n ]*\"enforcement\": \"clip\"")
  # HARD.CATALOGUE: every bad input of tests/cli/catalogue/accel.jsonl refused clearly
  dpref_add_catalogue(accel unit 900)
endif()
# the run contract of the accel module (ACCEL.PARAMS, ACCEL.LEDGER, ACCEL.RUN, ACCEL.JSON)

# ---- (was tests/cmake/accel_audit.cmake)
dpref_add_test(accel_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accel/accel_audit.cpp
                                               ${CMAKE_CURRENT_SOURCE_DIR}/accel/priv_accel_audit.cpp)
# PRIV.ACCEL.AUDIT (spec/privacy_bounds.md): the public l1 bound B — a record above it is refused;
# one step of the shipped release passes at its certified ε on the tightest admitted pair, and the
# same engine with the bound not enforced (a record at 100B admitted) is flagged (idealised and
# secure).

# ---- (was tests/cmake/secure_accel.cmake)
# Secure mode of the accel algorithms (issue 20 part 2, spec/accel.md SEC.ACCEL): ledger,
# lattice, budget and precision checks (`unit`); one-step low-order-bit audits (`audit`).
dpref_test_sources(accel_tests ${CMAKE_CURRENT_SOURCE_DIR}/accel/secure_accel_test.cpp)
dpref_test_sources(accel_audit ${CMAKE_CURRENT_SOURCE_DIR}/accel/secure_accel_audit.cpp)
if(TARGET dpref_cli)
  # SEC.ACCEL: `--secure` runs, the result says "noise": "secure" and `dpref account` re-derives
  # the guarantee from the ledger bit for bit (every algorithm, full batch and m of n)
  foreach(alg gd nag_opt masg_opt)
    foreach(batch n 50)
      dpref_accel_roundtrip(SEC_ACCEL_cli_roundtrip_${alg}_m${batch} ${alg} ${batch} double --secure)
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
  dpref_add_secure_refusals(SEC_ACCEL accel run --n 100 --d 2 --iterations 3)
endif()
# Cost of secure mode for accel, dda and linesearch (SEC.ACCEL.COST, SEC.DDA.COST,
# SEC.LINESEARCH.COST): `dpref reproduce` claims (reproduce.cmake; utility ratios) and
# bench/secure_cost_bench.cpp (wall-time ratios).

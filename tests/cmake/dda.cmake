# dda (issue 8): networks, DP-DDA, calibrations, bounds (spec/dda.md).
# one executable (one unity translation unit) for the paper's unit and property tests; the
# secure variants are below. CI.UNITY (spec/ci.md)
dpref_add_test(dda_tests LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/dda/dda_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/dda/dda_run_test.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/dda/dda_noise_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/dda/dda_study_test.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/dda/dda_prop.cpp)
dpref_add_test(dda_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/dda/dda_audit.cpp
                                              ${CMAKE_CURRENT_SOURCE_DIR}/dda/priv_dda_audit.cpp)
if(TARGET dpref_cli)
  add_test(NAME cli_dda_run COMMAND dpref_cli dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json)
  set_tests_properties(cli_dda_run PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"calibration\": \"rdp\"")
  # ACC.LEDGER.ROUNDTRIP: the ledger of dda::run re-accounted by `dpref account` bit for bit
  # (examples/dda.json; public active sets; hidden active sets in node mode; the paper's
  # over-budget calibration); mp50 for the example
  set(DDA_CHECK /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py)
  set(DDA_EXAMPLE dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json)
  foreach(variant example hidden_nodes paper_over_budget)
    set(extra)
    if(variant STREQUAL "hidden_nodes")
      set(extra --active-set-hidden --network-activation nodes --network-per-step 3)
    elseif(variant STREQUAL "paper_over_budget")
      set(extra --calibration paper_theorem1 --allow-over-budget)
    endif()
    add_test(NAME ACC_LEDGER_ROUNDTRIP_dda_${variant}_double
             COMMAND ${DDA_CHECK} --schema result --roundtrip $<TARGET_FILE:dpref_cli>
                     --precision double --expect paper=dda
                     -- $<TARGET_FILE:dpref_cli> ${DDA_EXAMPLE} ${extra})
    set_tests_properties(ACC_LEDGER_ROUNDTRIP_dda_${variant}_double PROPERTIES LABELS unit)
  endforeach()
  add_test(NAME ACC_LEDGER_ROUNDTRIP_dda_example_mp50
           COMMAND ${DDA_CHECK} --schema result --roundtrip $<TARGET_FILE:dpref_cli>
                   --precision mp50 -- $<TARGET_FILE:dpref_cli> ${DDA_EXAMPLE} --precision mp50)
  set_tests_properties(ACC_LEDGER_ROUNDTRIP_dda_example_mp50 PROPERTIES LABELS unit)
  # the bad-input catalogue of `dpref dda run` (spec/hardening.md HARD.CATALOGUE)
  dpref_add_catalogue(dda unit 900)
  # the study through dda::run on the synthetic data (a few seconds)
  add_test(NAME cli_dda_study_synthetic
           COMMAND dpref_cli dda study --datasets synthetic --eps 0.8 --edges 1 --epochs 0.2
                   -o ${PROJECT_BINARY_DIR}/dda_study_synthetic.json)
  set_tests_properties(cli_dda_study_synthetic PROPERTIES LABELS unit)
  add_test(NAME cli_dda_rejects_bad_reg COMMAND dpref_cli dda run --regularizer l3)
  set_tests_properties(cli_dda_rejects_bad_reg PROPERTIES LABELS unit WILL_FAIL TRUE)
  # Full dda §5 study (real data from scripts/real_data.sh): JSON + PNG.
  add_test(NAME dda_study_full
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/dda_study.sh $<TARGET_FILE:dpref_cli>
                   ${PROJECT_BINARY_DIR}/dda_study)
  set_tests_properties(dda_study_full PROPERTIES LABELS slow TIMEOUT 7200)
endif()

# ---- (was tests/cmake/secure_dda.cmake)
# Secure mode of dda Algorithm 1 (issue 20 part 2, spec/dda.md SEC.DDA): ledger, accountant
# (SEC.ACC.GAUSS.WOR), lattice, budget and precision checks (`unit`); one-round low-order-bit
# audits (`audit`).
dpref_test_sources(dda_tests ${CMAKE_CURRENT_SOURCE_DIR}/dda/secure_dda_test.cpp)
dpref_test_sources(dda_audit ${CMAKE_CURRENT_SOURCE_DIR}/dda/secure_dda_audit.cpp)
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
  dpref_add_secure_refusals(SEC_DDA dda run --params ${PROJECT_SOURCE_DIR}/examples/dda.json)
endif()

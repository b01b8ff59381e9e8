# `dpref reproduce` (spec/reproduce.md): REPRO_quick runs the quick report (fixture repro_report)
# and validates it (schema, every paper, every row's verdict and numbers, <= 180 s); the REPRO_*
# checks below read that report; REPRO_CMD_flags checks the refusals; REPRO_browser renders
# report.html in headless Chromium (skipped, with the reason, only when Chromium is absent) and
# saves a screenshot in the build tree; REPRO_browser_broken_* are the negative controls (a broken
# image, an empty table) that must fail the same check.
if(TARGET dpref_cli)
  set(DPREF_REPRO_DIR ${CMAKE_BINARY_DIR}/tests/repro_quick)
  set(DPREF_REPRO_CHECK /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reproduce/check_reproduce.py)
  add_test(NAME REPRO_quick COMMAND ${DPREF_REPRO_CHECK} quick $<TARGET_FILE:dpref_cli>
                                    ${DPREF_REPRO_DIR})
  set_tests_properties(REPRO_quick PROPERTIES LABELS cli TIMEOUT 900 FIXTURES_SETUP repro_report
                       RUN_SERIAL TRUE)
  add_test(NAME REPRO_CMD_flags COMMAND ${DPREF_REPRO_CHECK} flags $<TARGET_FILE:dpref_cli>
                                        ${CMAKE_BINARY_DIR}/tests/repro_flags)
  set_tests_properties(REPRO_CMD_flags PROPERTIES LABELS cli TIMEOUT 300)
  # checks of the quick report (one ctest per spec ID; check_reproduce.py MODE)
  add_test(NAME REPRO_JSON_schema COMMAND ${DPREF_REPRO_CHECK} schema ${DPREF_REPRO_DIR})
  add_test(NAME REPRO_VERDICT_rederive COMMAND ${DPREF_REPRO_CHECK} verdict ${DPREF_REPRO_DIR})
  add_test(NAME REPRO_VERDICT_SIZE_rule COMMAND ${DPREF_REPRO_CHECK} size ${DPREF_REPRO_DIR})
  add_test(NAME REPRO_ERRATA_rows COMMAND ${DPREF_REPRO_CHECK} errata ${DPREF_REPRO_DIR})
  add_test(NAME REPRO_PERF_rows COMMAND ${DPREF_REPRO_CHECK} perf ${DPREF_REPRO_DIR})
  add_test(NAME REPRO_HTML_selfcontained COMMAND ${DPREF_REPRO_CHECK} html ${DPREF_REPRO_DIR})
  add_test(NAME REPRO_ACC_ABADI_claim COMMAND ${DPREF_REPRO_CHECK} abadi ${DPREF_REPRO_DIR})
  add_test(NAME REPRO_ACC_EXACT_claim COMMAND ${DPREF_REPRO_CHECK} exact ${DPREF_REPRO_DIR})
  add_test(NAME REPRO_LS_HINGE_claim COMMAND ${DPREF_REPRO_CHECK} hinge ${DPREF_REPRO_DIR})
  set_tests_properties(REPRO_JSON_schema REPRO_VERDICT_rederive REPRO_VERDICT_SIZE_rule
                       REPRO_ERRATA_rows REPRO_PERF_rows
                       REPRO_HTML_selfcontained REPRO_ACC_ABADI_claim REPRO_ACC_EXACT_claim
                       REPRO_LS_HINGE_claim
                       PROPERTIES LABELS cli TIMEOUT 300 FIXTURES_REQUIRED repro_report)
  # REPRO.FULL.COMMITTED: the committed full-size report (reports/full, `dpref reproduce --full`)
  add_test(NAME REPRO_FULL_COMMITTED_report
           COMMAND ${DPREF_REPRO_CHECK} committed ${PROJECT_SOURCE_DIR}/reports/full
                   ${DPREF_REPRO_DIR})
  set_tests_properties(REPRO_FULL_COMMITTED_report PROPERTIES LABELS cli TIMEOUT 120
                       FIXTURES_REQUIRED repro_report)
  set(DPREF_REPRO_BROWSER /usr/bin/python3
                          ${PROJECT_SOURCE_DIR}/tests/reproduce/check_report_browser.py)
  # Skip reason (exit 77): the page is rendered by Chromium, which scripts/install_deps.sh
  # installs, so CI always runs these; a machine without Chromium reports them skipped, not passed.
  add_test(NAME REPRO_browser COMMAND ${DPREF_REPRO_BROWSER} ${DPREF_REPRO_DIR}/report.html
                                      ${CMAKE_BINARY_DIR}/tests/repro_report.png)
  set_tests_properties(REPRO_browser PROPERTIES LABELS cli TIMEOUT 300 SKIP_RETURN_CODE 77
                       FIXTURES_REQUIRED repro_report)
  foreach(kind image table)
    add_test(NAME REPRO_browser_broken_${kind}
             COMMAND ${DPREF_REPRO_BROWSER} ${DPREF_REPRO_DIR}/report.html
                     ${CMAKE_BINARY_DIR}/tests/repro_report_broken_${kind}.png --break ${kind})
    set_tests_properties(REPRO_browser_broken_${kind} PROPERTIES LABELS cli TIMEOUT 300
                         WILL_FAIL TRUE SKIP_RETURN_CODE 77 FIXTURES_REQUIRED repro_report)
  endforeach()
endif()
# The papers' claims as regression tests (REPRO.RULE.ONCE): each claim is defined once, in
# src/reproduce/<paper>_claims.cpp (experiment, statistic, negative control, rule); these tests
# read its verdict in the quick report (label regression) or run it at the papers' size with
# `dpref reproduce --full --claims` (label slow), and expect the verdict spec/reproduce.md records.
if(TARGET dpref_cli)
  add_test(NAME DDA_CLAIMS_IOTA_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} DDA.CLAIMS.IOTA=reproduced)
  add_test(NAME DDA_CLAIMS_EPS_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} DDA.CLAIMS.EPS=reproduced)
  add_test(NAME EV_STUDY_C_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} EV.STUDY.C=reproduced)
  add_test(NAME EV_STUDY_K_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} EV.STUDY.K=reproduced)
  add_test(NAME EV_STUDY_EPS_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} EV.STUDY.EPS=reproduced)
  add_test(NAME LS_CLAIM_HEADLINE_inconclusive
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} LS.CLAIM.HEADLINE=inconclusive)
  add_test(NAME LS_CLAIM_BUDGET_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} LS.CLAIM.BUDGET=reproduced)
  add_test(NAME ACCEL_CLAIMS_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} ACCEL.CLAIMS=reproduced)
  add_test(NAME SEC_ACCEL_COST_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} SEC.ACCEL.COST=reproduced)
  add_test(NAME SEC_DDA_COST_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} SEC.DDA.COST=reproduced)
  add_test(NAME SEC_LINESEARCH_COST_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} SEC.LINESEARCH.COST=reproduced)
  add_test(NAME PWA_REGRESSION_LOWEST_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} PWA.REGRESSION.LOWEST=reproduced)
  add_test(NAME PWA_REGRESSION_PIECES_reproduced
           COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} PWA.REGRESSION.PIECES=reproduced)
  set_tests_properties(DDA_CLAIMS_IOTA_reproduced DDA_CLAIMS_EPS_reproduced
                       EV_STUDY_C_reproduced EV_STUDY_K_reproduced EV_STUDY_EPS_reproduced
                       LS_CLAIM_HEADLINE_inconclusive LS_CLAIM_BUDGET_reproduced
                       ACCEL_CLAIMS_reproduced PWA_REGRESSION_LOWEST_reproduced
                       PWA_REGRESSION_PIECES_reproduced SEC_ACCEL_COST_reproduced
                       SEC_DDA_COST_reproduced SEC_LINESEARCH_COST_reproduced
                       PROPERTIES LABELS regression TIMEOUT 120 FIXTURES_REQUIRED repro_report)
  # the papers' sizes (hours on 2 cores; not in CI): ctest -L slow -R _full
  add_test(NAME ACCEL_CLAIMS_FULL_reproduced
           COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                   ${CMAKE_BINARY_DIR}/tests/repro_accel_full full ACCEL.CLAIMS=reproduced)
  add_test(NAME EV_STUDY_FULL_claims
           COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                   ${CMAKE_BINARY_DIR}/tests/repro_ev_full full EV.STUDY.C=reproduced
                   EV.STUDY.K=reproduced EV.STUDY.EPS=reproduced)
  add_test(NAME LS_CLAIM_BUDGET_full
           COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                   ${CMAKE_BINARY_DIR}/tests/repro_ls_full full LS.CLAIM.BUDGET=reproduced)
  add_test(NAME SEC_ACCEL_COST_full
           COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                   ${CMAKE_BINARY_DIR}/tests/repro_sec_accel_full full SEC.ACCEL.COST=reproduced)
  add_test(NAME SEC_DDA_COST_full
           COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                   ${CMAKE_BINARY_DIR}/tests/repro_sec_dda_full full SEC.DDA.COST=reproduced)
  add_test(NAME SEC_LINESEARCH_COST_full
           COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                   ${CMAKE_BINARY_DIR}/tests/repro_sec_ls_full full SEC.LINESEARCH.COST=reproduced)
  set_tests_properties(ACCEL_CLAIMS_FULL_reproduced EV_STUDY_FULL_claims LS_CLAIM_BUDGET_full
                       SEC_ACCEL_COST_full SEC_DDA_COST_full SEC_LINESEARCH_COST_full
                       PROPERTIES LABELS slow TIMEOUT 21600)
  # --claims runs exactly the listed claims (the refusals are in the bad-input catalogue)
  add_test(NAME REPRO_CMD_CLAIMS_subset
           COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                   ${CMAKE_BINARY_DIR}/tests/repro_claims_subset quick DDA-E1=contradicted
                   REPRO.ACC.EXACT=reproduced)
  set_tests_properties(REPRO_CMD_CLAIMS_subset PROPERTIES LABELS cli TIMEOUT 120)
  # a claim another claim's experiment decides (LS.CLAIM.BUDGET, decided by LS.CLAIM.HEADLINE's
  # runs) is selectable and reported alone
  add_test(NAME REPRO_CMD_CLAIMS_secondary
           COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                   ${CMAKE_BINARY_DIR}/tests/repro_claims_secondary quick LS.CLAIM.BUDGET=reproduced)
  set_tests_properties(REPRO_CMD_CLAIMS_secondary PROPERTIES LABELS cli TIMEOUT 300)
  # REPRO.RESUME: --resume reuses the jobs of DIR/progress.json and refuses another build's
  add_test(NAME REPRO_RESUME_check
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reproduce/check_resume.py
                   $<TARGET_FILE:dpref_cli> ${CMAKE_BINARY_DIR}/tests/repro_resume)
  set_tests_properties(REPRO_RESUME_check PROPERTIES LABELS cli TIMEOUT 600)
endif()
# the bad-input catalogue of the command (spec/hardening.md HARD.CATALOGUE)
if(TARGET dpref_cli)
  add_test(NAME HARD_CATALOGUE_reproduce
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/catalogue.py
                   $<TARGET_FILE:dpref_cli> --only reproduce)
  set_tests_properties(HARD_CATALOGUE_reproduce PROPERTIES LABELS cli TIMEOUT 300)
endif()
# REPRO.RULE: the claims' decision-rule evaluator (the one in the CLI), and the scan that every
# claim is decided by its rule only (REPRO.RULE.ONCE; source scan, no report needed).
dpref_add_test(reproduce_rule_test LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/reproduce_rule_test.cpp
                       ${PROJECT_SOURCE_DIR}/src/reproduce/rule.cpp)
if(TARGET reproduce_rule_test)
  target_include_directories(reproduce_rule_test PRIVATE ${PROJECT_SOURCE_DIR}/src)
endif()
add_test(NAME REPRO_RULE_ONCE_scan COMMAND /usr/bin/python3
                                           ${PROJECT_SOURCE_DIR}/tests/reproduce/check_reproduce.py
                                           rules-once ${PROJECT_SOURCE_DIR})
set_tests_properties(REPRO_RULE_ONCE_scan PROPERTIES LABELS unit TIMEOUT 60)

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
  # dpref_repro_report_check(<test> <MODE>): check_reproduce.py MODE on the quick report (one
  # ctest per spec ID)
  function(dpref_repro_report_check test mode)
    add_test(NAME ${test} COMMAND ${DPREF_REPRO_CHECK} ${mode} ${DPREF_REPRO_DIR})
    set_tests_properties(${test} PROPERTIES LABELS cli TIMEOUT 300 FIXTURES_REQUIRED repro_report)
  endfunction()
  dpref_repro_report_check(REPRO_JSON_schema schema)
  dpref_repro_report_check(REPRO_VERDICT_rederive verdict)
  dpref_repro_report_check(REPRO_VERDICT_SIZE_rule size)
  dpref_repro_report_check(REPRO_ERRATA_rows errata)
  dpref_repro_report_check(REPRO_PERF_rows perf)
  dpref_repro_report_check(REPRO_HTML_selfcontained html)
  dpref_repro_report_check(REPRO_ACC_ABADI_claim abadi)
  dpref_repro_report_check(REPRO_ACC_EXACT_claim exact)
  dpref_repro_report_check(REPRO_LS_HINGE_claim hinge)
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
  # dpref_repro_expect(<CLAIM.ID>=<verdict>): ctest CLAIM_ID_verdict reads the claim's verdict in
  # the quick report (scripts/check_spec_ids reads the ID from the call)
  function(dpref_repro_expect expect)
    string(REGEX REPLACE "[.=]" "_" test ${expect})
    add_test(NAME ${test} COMMAND ${DPREF_REPRO_CHECK} expect ${DPREF_REPRO_DIR} ${expect})
    set_tests_properties(${test} PROPERTIES LABELS regression TIMEOUT 120
                         FIXTURES_REQUIRED repro_report)
  endfunction()
  dpref_repro_expect(DDA.CLAIMS.IOTA=reproduced)
  dpref_repro_expect(DDA.CLAIMS.EPS=reproduced)
  dpref_repro_expect(EV.STUDY.C=reproduced)
  dpref_repro_expect(EV.STUDY.K=reproduced)
  dpref_repro_expect(EV.STUDY.EPS=reproduced)
  dpref_repro_expect(LS.CLAIM.HEADLINE=inconclusive)
  dpref_repro_expect(LS.CLAIM.BUDGET=reproduced)
  dpref_repro_expect(ACCEL.CLAIMS=reproduced)
  dpref_repro_expect(SEC.ACCEL.COST=reproduced)
  dpref_repro_expect(SEC.DDA.COST=reproduced)
  dpref_repro_expect(SEC.LINESEARCH.COST=reproduced)
  dpref_repro_expect(PWA.REGRESSION.LOWEST=reproduced)
  dpref_repro_expect(PWA.REGRESSION.PIECES=reproduced)
  # dpref_repro_run(<test> <dir> <quick|full> <CLAIM=verdict...>): `dpref reproduce` of those
  # claims into tests/<dir>, expecting each verdict (check_reproduce.py run-expect)
  function(dpref_repro_run test dir size)
    add_test(NAME ${test} COMMAND ${DPREF_REPRO_CHECK} run-expect $<TARGET_FILE:dpref_cli>
                                  ${CMAKE_BINARY_DIR}/tests/${dir} ${size} ${ARGN})
  endfunction()
  # the papers' sizes (hours on 2 cores; not in CI): ctest -L slow -R _full
  dpref_repro_run(ACCEL_CLAIMS_FULL_reproduced repro_accel_full full ACCEL.CLAIMS=reproduced)
  dpref_repro_run(EV_STUDY_FULL_claims repro_ev_full full EV.STUDY.C=reproduced
                  EV.STUDY.K=reproduced EV.STUDY.EPS=reproduced)
  dpref_repro_run(LS_CLAIM_BUDGET_full repro_ls_full full LS.CLAIM.BUDGET=reproduced)
  dpref_repro_run(SEC_ACCEL_COST_full repro_sec_accel_full full SEC.ACCEL.COST=reproduced)
  dpref_repro_run(SEC_DDA_COST_full repro_sec_dda_full full SEC.DDA.COST=reproduced)
  dpref_repro_run(SEC_LINESEARCH_COST_full repro_sec_ls_full full SEC.LINESEARCH.COST=reproduced)
  set_tests_properties(ACCEL_CLAIMS_FULL_reproduced EV_STUDY_FULL_claims LS_CLAIM_BUDGET_full
                       SEC_ACCEL_COST_full SEC_DDA_COST_full SEC_LINESEARCH_COST_full
                       PROPERTIES LABELS slow TIMEOUT 21600)
  # --claims runs exactly the listed claims (the refusals are in the bad-input catalogue)
  dpref_repro_run(REPRO_CMD_CLAIMS_subset repro_claims_subset quick DDA-E1=contradicted
                  REPRO.ACC.EXACT=reproduced)
  set_tests_properties(REPRO_CMD_CLAIMS_subset PROPERTIES LABELS cli TIMEOUT 120)
  # a claim another claim's experiment decides (LS.CLAIM.BUDGET, decided by LS.CLAIM.HEADLINE's
  # runs) is selectable and reported alone
  dpref_repro_run(REPRO_CMD_CLAIMS_secondary repro_claims_secondary quick
                  LS.CLAIM.BUDGET=reproduced)
  set_tests_properties(REPRO_CMD_CLAIMS_secondary PROPERTIES LABELS cli TIMEOUT 300)
  # REPRO.RESUME: --resume reuses the jobs of DIR/progress.json and refuses another build's
  add_test(NAME REPRO_RESUME_check
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reproduce/check_resume.py
                   $<TARGET_FILE:dpref_cli> ${CMAKE_BINARY_DIR}/tests/repro_resume)
  set_tests_properties(REPRO_RESUME_check PROPERTIES LABELS cli TIMEOUT 600)
  # the bad-input catalogue of the command (spec/hardening.md HARD.CATALOGUE)
  dpref_add_catalogue(reproduce cli 300)
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

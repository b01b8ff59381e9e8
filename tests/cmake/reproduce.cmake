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
  set(DPREF_REPRO_BROWSER /usr/bin/python3
                          ${PROJECT_SOURCE_DIR}/tests/reproduce/check_report_browser.py)
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

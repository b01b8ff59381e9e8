# CI.BUDGET (spec/ci.md): the cold-run estimate of scripts/ci_budget.py on synthetic runs whose
# estimates are known by hand, with a budget it must fail (negative control). Script only: run
# once, in the build that has the command-line tool (the release phase).
if(TARGET dpref_cli)
  add_test(NAME CI_BUDGET_estimate
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/ci/check_ci_budget.py
                   ${PROJECT_SOURCE_DIR}/scripts/ci_budget.py)
  set_tests_properties(CI_BUDGET_estimate PROPERTIES LABELS unit)
endif()
# ARCH.RELEASE.SITES (spec/architecture.md): the audits exercise the shipped release functions
# (registry tests/audit/release_sites.json; the checker carries its own negative controls).
if(TARGET dpref_cli)
  add_test(NAME ARCH_RELEASE_SITES_registry
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/ci/check_release_sites.py
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(ARCH_RELEASE_SITES_registry PROPERTIES LABELS unit)
endif()

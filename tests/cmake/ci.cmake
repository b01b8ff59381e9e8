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
# CI.UNITY (spec/ci.md): every test executable of this build compiles as one unity translation
# unit (the checker reads this build's compile_commands.json; its --self-test plants a lone
# source, a split target and a source in two units, which must be reported).
add_test(NAME CI_UNITY_check COMMAND ${PROJECT_SOURCE_DIR}/scripts/check_unity_build
         ${PROJECT_BINARY_DIR})
add_test(NAME CI_UNITY_negative_control
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/check_unity_build --self-test)
set_tests_properties(CI_UNITY_check CI_UNITY_negative_control PROPERTIES LABELS unit)

# Exact samplers of the continuous exponential mechanism M_E (pwa Theorem 19) and the
# approximate Metropolis path (issue 5, spec/pwa_sampler.md).
dpref_test_sources(pwa_tests ${CMAKE_CURRENT_SOURCE_DIR}/unit/pwa_sampler_test.cpp)
dpref_test_sources(pwa_audit ${CMAKE_CURRENT_SOURCE_DIR}/audit/pwa_sampler_audit.cpp)
# CLI smoke tests of `dpref pwa sample` (the numbers are tested in tests/unit/pwa_sampler_test.cpp).
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

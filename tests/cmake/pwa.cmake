# Piecewise-affine objectives (issue 5; spec/pwa.md). The GLPK cross-check is compiled only when
# libglpk is found (Debian libglpk-dev); otherwise PWA_GLPK skips with a message.
find_library(DPREF_GLPK_LIBRARY glpk)
find_path(DPREF_GLPK_INCLUDE_DIR glpk.h)
# one executable (one unity translation unit) for the paper's unit and property tests; the
# secure variants add theirs (secure_pwa.cmake). CI.UNITY (spec/ci.md)
dpref_add_test(pwa_tests LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/pwa_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/unit/pwa_run_test.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/unit/pwa_noise_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/property/pwa_prop.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/property/pwa_bounds_prop.cpp)
if(DPREF_GLPK_LIBRARY AND DPREF_GLPK_INCLUDE_DIR)
  target_compile_definitions(pwa_tests PRIVATE DPREF_HAVE_GLPK)
  target_include_directories(pwa_tests SYSTEM PRIVATE ${DPREF_GLPK_INCLUDE_DIR})
  target_link_libraries(pwa_tests PRIVATE ${DPREF_GLPK_LIBRARY})
else()
  message(STATUS "dpref: GLPK not found; PWA_GLPK (LP cross-check) will be skipped")
endif()
dpref_add_test(pwa_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/pwa_audit.cpp
                                             ${CMAKE_CURRENT_SOURCE_DIR}/audit/pwa_bounds_audit.cpp)
# the §5 findings (PWA.REGRESSION.*) are `dpref reproduce` claims at the paper's 1000 runs
# (reproduce.cmake: PWA_REGRESSION_*_reproduced)
# CLI smoke tests of `dpref pwa run|study` (the numbers are tested in the library tests)
if(TARGET dpref_cli)
  add_test(NAME pwa_cli_run COMMAND dpref_cli pwa run --algorithm private_subgradient --m 10 --d 2)
  set_tests_properties(pwa_cli_run PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "\"epsilon\": 0.1")
  add_test(NAME pwa_cli_run_mp50 COMMAND dpref_cli pwa run --algorithm perturb_solution --precision mp50 --m 5
                                         --diagnostics --optimum)
  set_tests_properties(pwa_cli_run_mp50 PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "certificate_gap")
  # PWA.RUN.RELEASE: a private run's document lists its enforced constants and carries no
  # non_private section unless --diagnostics
  # (--iterations applies only to the subgradient methods: HARD.APPLIES)
  set(PWA_ITERATIONS_private_subgradient --iterations 5)
  set(PWA_ITERATIONS_regular_subgradient --iterations 5)
  foreach(alg private_subgradient perturb_data perturb_solution exponential)
    add_test(NAME PWA_RUN_RELEASE_cli_${alg}
             COMMAND dpref_cli pwa run --algorithm ${alg} --m 8 --d 2 ${PWA_ITERATIONS_${alg}})
    set_tests_properties(PWA_RUN_RELEASE_cli_${alg} PROPERTIES LABELS unit
                         PASS_REGULAR_EXPRESSION "\"enforced\": \\[" FAIL_REGULAR_EXPRESSION "non_private")
  endforeach()
  add_test(NAME PWA_RUN_RELEASE_cli_diagnostics
           COMMAND dpref_cli pwa run --m 8 --d 2 --iterations 5 --diagnostics --trace)
  set_tests_properties(PWA_RUN_RELEASE_cli_diagnostics PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "\"non_private\".*\"objective_trace\"")
  add_test(NAME pwa_cli_rejects_bad_mechanism COMMAND dpref_cli pwa run --algorithm nope)
  set_tests_properties(pwa_cli_rejects_bad_mechanism PROPERTIES LABELS unit WILL_FAIL TRUE)
  add_test(NAME pwa_cli_study COMMAND dpref_cli pwa study --runs 5 --figures 1,2 --k-list 1,10 --c-list 1,2)
  set_tests_properties(pwa_cli_study PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "figure2_box_size")
  # ACC.LEDGER.ROUNDTRIP: each private algorithm's ledger re-accounted by `dpref account` bit
  # for bit (double and mp50); the non-private ones: schema-valid, no guarantee claimed
  set(PWA_CHECK /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_output.py)
  set(PWA_SMALL pwa run --m 8 --d 2)
  foreach(prec double mp50)
    foreach(alg private_subgradient perturb_data perturb_solution exponential)
      add_test(NAME ACC_LEDGER_ROUNDTRIP_pwa_${alg}_${prec}
               COMMAND ${PWA_CHECK} --schema result --roundtrip $<TARGET_FILE:dpref_cli>
                       --precision ${prec} --expect paper=pwa --expect algorithm=${alg}
                       -- $<TARGET_FILE:dpref_cli> ${PWA_SMALL} ${PWA_ITERATIONS_${alg}}
                       --algorithm ${alg} --precision ${prec})
      set_tests_properties(ACC_LEDGER_ROUNDTRIP_pwa_${alg}_${prec} PROPERTIES LABELS unit)
    endforeach()
    foreach(alg regular_subgradient optimum)
      add_test(NAME PWA_JSON_nonprivate_${alg}_${prec}
               COMMAND $<TARGET_FILE:dpref_cli> ${PWA_SMALL} ${PWA_ITERATIONS_${alg}}
                       --algorithm ${alg} --precision ${prec})
      set_tests_properties(PWA_JSON_nonprivate_${alg}_${prec} PROPERTIES LABELS unit
                           PASS_REGULAR_EXPRESSION "\"privacy\": {[\r\n ]*\"private\": false[\r\n ]*}")
    endforeach()
  endforeach()
  # HARD.CATALOGUE: every bad input of tests/cli/catalogue/pwa.jsonl refused clearly
  add_test(NAME HARD_CATALOGUE_pwa
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/catalogue.py
                   $<TARGET_FILE:dpref_cli> --only pwa)
  set_tests_properties(HARD_CATALOGUE_pwa PROPERTIES LABELS unit TIMEOUT 900)
endif()

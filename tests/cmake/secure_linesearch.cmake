# Secure mode of the linesearch algorithms (issue 20 part 2, spec/linesearch.md SEC.LINESEARCH):
# DP-SGD, output perturbation and the DP-BLSGD family (`unit`); low-order-bit audits (`audit`).
dpref_test_sources(linesearch_tests ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_linesearch_test.cpp)
dpref_test_sources(linesearch_audit ${CMAKE_CURRENT_SOURCE_DIR}/audit/secure_linesearch_audit.cpp)
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
  add_test(NAME SEC_LINESEARCH_cli_both_flags_refused
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:dpref_cli> linesearch run --algorithm dpsgd --synthetic-n 500 --synthetic-d 2 --secure --release idealised 2>&1; test $? -ne 0 && echo REFUSED")
  set_tests_properties(SEC_LINESEARCH_cli_both_flags_refused PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "REFUSED")
  add_test(NAME SEC_LINESEARCH_cli_mp50_refused
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:dpref_cli> linesearch run --algorithm dpsgd --synthetic-n 500 --synthetic-d 2 --secure --precision mp50 2>&1; test $? -ne 0 && echo REFUSED")
  set_tests_properties(SEC_LINESEARCH_cli_mp50_refused PROPERTIES LABELS unit
                       PASS_REGULAR_EXPRESSION "release must be idealised at precision mp50 .the lattice release.*REFUSED")
endif()

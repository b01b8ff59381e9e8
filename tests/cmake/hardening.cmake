# The bad-input catalogue (spec/hardening.md HARD.CATALOGUE): every case must be refused with a
# non-zero exit code, a message naming the argument and the value, no crash, no hang, bounded
# memory. One ctest per catalogue file (each paper adds tests/cli/catalogue/<paper>.jsonl).
if(TARGET dpref_cli)
  foreach(part account)
    add_test(NAME HARD_CATALOGUE_${part}
             COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/catalogue.py
                     $<TARGET_FILE:dpref_cli> --only ${part})
    set_tests_properties(HARD_CATALOGUE_${part} PROPERTIES LABELS unit TIMEOUT 900)
  endforeach()
endif()

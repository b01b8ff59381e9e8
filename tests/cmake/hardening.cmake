# The bad-input catalogue (spec/hardening.md HARD.CATALOGUE): every case must be refused with a
# non-zero exit code, a message naming the argument and the value, no crash, no hang, bounded
# memory. One ctest per catalogue file (each paper adds tests/cli/catalogue/<paper>.jsonl).
if(TARGET dpref_cli)
  foreach(part account sample audit cli studies)
    dpref_add_catalogue(${part} unit 900)
  endforeach()
  # HARD.SAMPLE: streamed `dpref sample` (layout and bounded memory)
  add_test(NAME HARD_SAMPLE_streamed
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_sample_stream.py
                   $<TARGET_FILE:dpref_cli>)
  set_tests_properties(HARD_SAMPLE_streamed PROPERTIES LABELS unit TIMEOUT 300)
  # HARD.AUDIT_FLAGS: the audit's text report rounds each bound conservatively; the tampered
  # negative control (ε_lb rounded up) must fail
  add_test(NAME HARD_AUDIT_FLAGS_text_rounding
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_audit_text.py
                   $<TARGET_FILE:dpref_cli>)
  add_test(NAME HARD_AUDIT_FLAGS_text_rounding_negative_control
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_audit_text.py
                   $<TARGET_FILE:dpref_cli> --tamper)
  set_tests_properties(HARD_AUDIT_FLAGS_text_rounding HARD_AUDIT_FLAGS_text_rounding_negative_control
                       PROPERTIES LABELS unit TIMEOUT 300)
  set_tests_properties(HARD_AUDIT_FLAGS_text_rounding_negative_control PROPERTIES WILL_FAIL TRUE)
endif()

# HARD.FUZZ in every build: each libFuzzer target's entry point replays its committed seed
# corpus through tests/fuzz/replay_main.cpp (the fuzz preset runs the fuzzers themselves).
if(NOT DPREF_FUZZ AND NOT DPREF_TSAN)
  include(${PROJECT_SOURCE_DIR}/tests/fuzz/targets.cmake)  # dpref_fuzz_targets
  function(dpref_add_corpus_replay name source)
    cmake_parse_arguments(ARG "CLI" "" "DEFINES" ${ARGN})
    add_executable(replay_${name} ${PROJECT_SOURCE_DIR}/tests/fuzz/${source}
                                  ${PROJECT_SOURCE_DIR}/tests/fuzz/replay_main.cpp)
    target_link_libraries(replay_${name} PRIVATE dpref::dpref)
    dpref_set_warnings(replay_${name})
    target_compile_definitions(replay_${name} PRIVATE ${ARG_DEFINES})
    if(ARG_CLI)
      target_include_directories(replay_${name} PRIVATE ${PROJECT_SOURCE_DIR}/src/cli)
    endif()
    add_test(NAME HARD_FUZZ_replay_${name}
             COMMAND replay_${name} ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/${name})
    set_tests_properties(HARD_FUZZ_replay_${name} PROPERTIES LABELS unit TIMEOUT 120)
  endfunction()
  dpref_fuzz_targets(dpref_add_corpus_replay)
endif()

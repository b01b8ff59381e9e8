# The one run contract, checked the same way for every paper (spec/architecture.md ARCH.RUN,
# ARCH.CLI; tests/cli/check_contract.py): schema, shared statuses, same config → same bytes,
# the echoed config reproduces the run, the shared flag vocabulary, flags == --params values,
# refusals with exit codes 2/3. Every paper with an examples/<paper>.json is listed here.
if(TARGET dpref_cli)
  foreach(paper ${DPREF_PAPERS})
    add_test(NAME ARCH_RUN_contract_${paper}
             COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_contract.py run
                     $<TARGET_FILE:dpref_cli> ${paper})
    add_test(NAME ARCH_CLI_contract_${paper}
             COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_contract.py cli
                     $<TARGET_FILE:dpref_cli> ${paper})
    set_tests_properties(ARCH_RUN_contract_${paper} ARCH_CLI_contract_${paper}
                         PROPERTIES LABELS unit TIMEOUT 900)
  endforeach()
  # ARCH.INSTANCES: run_json compiled once, in dpref_papers; the CLI's objects define none.
  add_test(NAME ARCH_INSTANCES_run_json
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_instances.py
                   $<TARGET_FILE:dpref_papers> "$<JOIN:${DPREF_PAPERS},$<COMMA>>"
                   $<TARGET_OBJECTS:dpref_cli>
           COMMAND_EXPAND_LISTS)
  # Negative control: dpref_papers' own objects define run_json, so the check must fail on them.
  add_test(NAME ARCH_INSTANCES_negative_control
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_instances.py
                   $<TARGET_FILE:dpref_papers> ev $<TARGET_OBJECTS:dpref_papers>
           COMMAND_EXPAND_LISTS)
  set_tests_properties(ARCH_INSTANCES_run_json ARCH_INSTANCES_negative_control
                       PROPERTIES LABELS unit)
  set_tests_properties(ARCH_INSTANCES_negative_control PROPERTIES WILL_FAIL TRUE)
endif()
# ARCH.MEASUREMENTS (issue #29): paper code draws privacy noise only through the measurement
# types of include/dpref/mechanisms; other draws carry `// not privacy noise: <why>`. pwa joins
# the scan when its conversion lands. Negative control: the scanner must flag exactly the three
# raw draws of a synthetic header (not 0: a scanner that sees nothing fails it).
add_test(NAME ARCH_MEASUREMENTS_paper_code
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/ci/check_measurements.py
                 ${PROJECT_SOURCE_DIR}/include/dpref/random
                 ${PROJECT_SOURCE_DIR}/include/dpref/dda ${PROJECT_SOURCE_DIR}/include/dpref/ev
                 ${PROJECT_SOURCE_DIR}/include/dpref/accel
                 ${PROJECT_SOURCE_DIR}/include/dpref/linesearch
                 ${PROJECT_SOURCE_DIR}/include/dpref/pwa)
add_test(NAME ARCH_MEASUREMENTS_negative_control
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/ci/check_measurements.py
                 ${PROJECT_SOURCE_DIR}/include/dpref/random
                 ${PROJECT_SOURCE_DIR}/tests/ci/data/raw_privacy_noise.hpp.txt --expect 3)
set_tests_properties(ARCH_MEASUREMENTS_paper_code ARCH_MEASUREMENTS_negative_control
                     PROPERTIES LABELS unit)

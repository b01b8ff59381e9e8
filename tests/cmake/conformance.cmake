# Conformance kit (spec/conformance.md) and the batch samplers behind the Python package
# (spec/random.md RAND.BATCH). The pytest side is in tests/cmake/python.cmake.
dpref_add_test(conformance_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/conformance_test.cpp)
dpref_add_test(random_batch_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/batch_test.cpp)
if(TARGET dpref_cli AND NOT DPREF_TSAN)
  # the committed corpus data/conformance is exactly what `dpref vectors` writes
  add_test(NAME CONF_CORPUS
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/conformance/regenerate.sh $<TARGET_FILE:dpref_cli>
                   ${PROJECT_SOURCE_DIR}/data/conformance ${CMAKE_CURRENT_BINARY_DIR}/conformance_corpus)
  # dpref passes its own corpus (in-process answers)
  add_test(NAME CONF_SELFCHECK_cli
           COMMAND $<TARGET_FILE:dpref_cli> check-vectors ${PROJECT_SOURCE_DIR}/data/conformance)
  set_tests_properties(CONF_CORPUS CONF_SELFCHECK_cli PROPERTIES LABELS unit)
  # CONF.MACHINE: the trajectory and sampler families regenerated under other machines'
  # conditions (x87 transcendentals +-1 ulp, Eigen cache sizes, threads, batch dispatch) are
  # byte-identical to the committed ones (about a minute). The Eigen cache sizes are set by a
  # test-only generator (corpus_cache_sizes: the library generators of `dpref vectors`), not by
  # an option of the shipped CLI.
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND TARGET dpref_python AND NOT DPREF_SANITIZE)
    add_library(dpref_x87_perturb MODULE ${CMAKE_CURRENT_SOURCE_DIR}/conformance/x87_perturb.cpp)
    target_link_libraries(dpref_x87_perturb PRIVATE ${CMAKE_DL_LIBS})
    add_executable(corpus_cache_sizes ${CMAKE_CURRENT_SOURCE_DIR}/conformance/corpus_cache_sizes.cpp)
    target_link_libraries(corpus_cache_sizes PRIVATE dpref_papers)
    dpref_set_warnings(corpus_cache_sizes)
    add_test(NAME CONF_MACHINE
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/conformance/cross_conditions.py
                     $<TARGET_FILE:dpref_cli> $<TARGET_FILE:corpus_cache_sizes>
                     $<TARGET_FILE:dpref_x87_perturb>
                     ${PROJECT_SOURCE_DIR}/data/conformance ${CMAKE_CURRENT_BINARY_DIR}/conformance_machine)
    set_tests_properties(CONF_MACHINE PROPERTIES LABELS unit ENVIRONMENT
                         "PYTHONPATH=${CMAKE_BINARY_DIR}/python;PYTHONDONTWRITEBYTECODE=1")
  endif()
endif()

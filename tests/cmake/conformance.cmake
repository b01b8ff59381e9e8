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
endif()

# one executable (one unity translation unit, CI.UNITY) for the samplers' unit and property
# tests; the lattice samplers add theirs (secure.cmake)
dpref_add_test(random_tests LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/random_stream_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/unit/samplers_gof_test.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/unit/small_scale_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/unit/precision_agreement_test.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/property/random_prop.cpp)
dpref_add_test(ziggurat_test LABELS unit TSAN_FILTER RAND_ZIGGURAT_BATCH.* SOURCES
               ${CMAKE_CURRENT_SOURCE_DIR}/unit/ziggurat_test.cpp)

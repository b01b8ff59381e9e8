dpref_add_test(random_stream_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/random_stream_test.cpp)
dpref_add_test(samplers_gof_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/samplers_gof_test.cpp
                                                        ${CMAKE_CURRENT_SOURCE_DIR}/unit/small_scale_test.cpp)
dpref_add_test(precision_agreement_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/precision_agreement_test.cpp)
dpref_add_test(random_prop LABELS property SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/property/random_prop.cpp)
dpref_add_test(ziggurat_test LABELS unit TSAN_FILTER RAND_ZIGGURAT_BATCH.* SOURCES
               ${CMAKE_CURRENT_SOURCE_DIR}/unit/ziggurat_test.cpp)

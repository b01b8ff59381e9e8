dpref_add_bench(samplers_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/samplers_bench.cpp)

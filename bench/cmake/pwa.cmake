dpref_add_bench(pwa_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pwa_bench.cpp)

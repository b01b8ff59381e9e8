dpref_add_bench(secure_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/secure_bench.cpp)

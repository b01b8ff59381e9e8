dpref_add_bench(ev_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ev_bench.cpp)

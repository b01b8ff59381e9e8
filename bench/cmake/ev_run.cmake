dpref_add_bench(ev_run_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ev_run_bench.cpp)

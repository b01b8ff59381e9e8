# dda (issue 8): DP-DDA iterations/s, dense d = 784 and sparse d = 1,838, scaling in n.
dpref_add_bench(dda_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/dda_bench.cpp)

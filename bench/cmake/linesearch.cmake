# DP backtracking line search (issue 7): clipped per-example gradients (examples/s, d = 100),
# NOISYBTLS queries, one DP-BLSGD run at eps = 0.2 on ~250k rows; double vs mp50.
dpref_add_bench(linesearch_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/linesearch_bench.cpp)

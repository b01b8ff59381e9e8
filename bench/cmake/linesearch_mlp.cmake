# linesearch §5.7 MLP (issue 7): per-example gradient + clipping throughput (examples/s) at
# 784-256-10 (double) and at 64-16-10 (double and mp50, for the ratio); NOISYBTLS queries.
dpref_add_bench(linesearch_mlp_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/linesearch_mlp_bench.cpp)

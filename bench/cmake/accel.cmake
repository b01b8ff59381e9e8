# Accelerated private optimisation (issue 6): iterations/s per algorithm, logistic gradient vs
# a plain Eigen matrix-vector product, mp50/double cost ratio.
dpref_add_bench(accel_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accel_bench.cpp)

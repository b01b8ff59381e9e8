# Secure (lattice) releases vs idealised floating-point ones (issue 20): coordinates/s, d = 1, 20, 100.
dpref_add_bench(secure_release_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/secure_release_bench.cpp)

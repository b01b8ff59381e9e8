# Statistical DP auditor throughput (issue 3).
dpref_add_bench(audit_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit_bench.cpp)

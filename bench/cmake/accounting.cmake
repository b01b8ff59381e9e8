# Privacy accounting benchmark (issue 9).
dpref_add_bench(accounting_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accounting_bench.cpp)

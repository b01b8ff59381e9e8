# PLD accountant and fractional-order RDP (spec/accounting_pld.md): one DP-SGD query, 100
# heterogeneous subsampled Gaussians, cost over 10^3 … 10^6 steps, fractional vs integer RDP.
dpref_add_bench(pld_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pld_bench.cpp)

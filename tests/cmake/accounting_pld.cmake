# PLD accountant and fractional-order RDP (spec/accounting_pld.md). One executable for the unit,
# property and regression tests; the heavy sweeps (eight DP-SGD configurations with the fractional
# order grid, steps up to 10^6) are label `slow`.
find_package(nlohmann_json 3 REQUIRED)
dpref_add_test(accounting_pld_tests LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accounting_pld/pld_unit_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/accounting_pld/pld_prop.cpp
                       ${CMAKE_CURRENT_SOURCE_DIR}/accounting_pld/pld_regression.cpp)
dpref_add_test(accounting_pld_slow LABELS slow
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accounting_pld/pld_slow.cpp)
foreach(t accounting_pld_tests accounting_pld_slow)
  target_link_libraries(${t} PRIVATE nlohmann_json::nlohmann_json)
  target_compile_definitions(${t} PRIVATE
    DPREF_PLD_GOLDEN="${CMAKE_CURRENT_SOURCE_DIR}/regression/accounting_pld_golden.json"
    DPREF_PLD_DPSGD="${CMAKE_CURRENT_SOURCE_DIR}/regression/accounting_pld_dpsgd.json"
    DPREF_DP_ACCOUNTING="${PROJECT_SOURCE_DIR}/bench/data/dp_accounting_pld.json")
endforeach()

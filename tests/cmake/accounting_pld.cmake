# PLD accountant and fractional-order RDP (spec/accounting_pld.md). Unit, property and
# regression executables; the heavy sweeps (eight DP-SGD configurations with the fractional
# order grid, steps up to 10^6) are label `slow`.
find_package(nlohmann_json 3 REQUIRED)
dpref_add_test(accounting_pld_test LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accounting_pld/pld_unit_test.cpp)
dpref_add_test(accounting_pld_prop LABELS property
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accounting_pld/pld_prop.cpp)
dpref_add_test(accounting_pld_regression LABELS regression
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accounting_pld/pld_regression.cpp)
dpref_add_test(accounting_pld_slow LABELS slow
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/accounting_pld/pld_slow.cpp)
foreach(t accounting_pld_regression accounting_pld_slow)
  target_link_libraries(${t} PRIVATE nlohmann_json::nlohmann_json)
  target_compile_definitions(${t} PRIVATE
    DPREF_PLD_GOLDEN="${CMAKE_CURRENT_SOURCE_DIR}/regression/accounting_pld_golden.json"
    DPREF_PLD_DPSGD="${CMAKE_CURRENT_SOURCE_DIR}/regression/accounting_pld_dpsgd.json"
    DPREF_DP_ACCOUNTING="${PROJECT_SOURCE_DIR}/bench/data/dp_accounting_pld.json")
endforeach()

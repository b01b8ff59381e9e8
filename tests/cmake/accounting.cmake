# Privacy accounting (issue 9, spec/accounting.md).
dpref_add_test(accounting_tests LABELS unit
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/accounting_test.cpp ${CMAKE_CURRENT_SOURCE_DIR}/property/accounting_prop.cpp)
# Golden values (regression) are checked by accounting_tests; they are read from the source tree.
find_package(nlohmann_json 3 REQUIRED)
target_link_libraries(accounting_tests PRIVATE nlohmann_json::nlohmann_json)
target_compile_definitions(accounting_tests PRIVATE
  DPREF_ACC_GOLDEN="${CMAKE_CURRENT_SOURCE_DIR}/regression/accounting_golden.json")

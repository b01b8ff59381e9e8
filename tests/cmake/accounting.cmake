# Privacy accounting (issue 9, spec/accounting.md).
dpref_add_test(accounting_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/accounting_test.cpp)
dpref_add_test(accounting_prop LABELS property SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/property/accounting_prop.cpp)
# Golden values (regression) are checked by accounting_test; they are read from the source tree.
find_package(nlohmann_json 3 REQUIRED)
target_link_libraries(accounting_test PRIVATE nlohmann_json::nlohmann_json)
target_compile_definitions(accounting_test PRIVATE
  DPREF_ACC_GOLDEN="${CMAKE_CURRENT_SOURCE_DIR}/regression/accounting_golden.json")

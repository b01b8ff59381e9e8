# Accelerated private optimisation (issue 6, spec/accel.md).
dpref_add_test(accel_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/accel_test.cpp)
dpref_add_test(accel_prop LABELS property SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/property/accel_prop.cpp)

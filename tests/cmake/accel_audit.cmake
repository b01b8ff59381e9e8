dpref_add_test(accel_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/accel_audit.cpp)

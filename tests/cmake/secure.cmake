dpref_add_test(secure_samplers_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_samplers_test.cpp)

dpref_add_test(ev_projection_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/ev_projection_test.cpp)

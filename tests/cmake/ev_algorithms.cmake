dpref_add_test(ev_algorithms_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/ev_algorithms_test.cpp)

dpref_add_test(ev_audit LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/ev_audit.cpp)
dpref_add_test(ev_prop LABELS property SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/property/ev_prop.cpp)

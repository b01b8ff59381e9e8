# Statistical DP auditor (issue 3). `unit`: the statistics (quick, also under sanitizers);
# `audit`: every mechanism and negative control (Release CI); `slow`: higher-power runs
# (ctest --test-dir build/release -L slow -R audit).
dpref_add_test(audit_tests LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/auditor_test.cpp
                                              ${CMAKE_CURRENT_SOURCE_DIR}/audit/mechanisms_test.cpp)
dpref_add_test(audit_mechanisms LABELS audit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/mechanisms_audit.cpp)
dpref_add_test(audit_slow LABELS slow SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/slow_audit.cpp)

# Secure (lattice) releases of real vectors (issue 20, spec/secure_release.md): primitives,
# exact samplers, ledger events (`unit`); audits with low-order-bit events (`audit`); higher-power
# audits (`slow`).
dpref_test_sources(audit_tests ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_release_test.cpp
                               ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_events_test.cpp
                               ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_sum_test.cpp
                               ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_selection_test.cpp)
dpref_test_sources(audit_mechanisms ${CMAKE_CURRENT_SOURCE_DIR}/audit/secure_release_audit.cpp)
dpref_add_test(secure_release_slow_audit LABELS slow
               SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/audit/secure_release_slow_audit.cpp)

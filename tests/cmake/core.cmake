# The shared shape of the paper modules (spec/architecture.md) and the ledger/accountant
# (spec/accounting.md ACC.EVENT, ACC.ACCOUNT, ACC.LEDGER.JSON, ACC.CERT.THREADS).
dpref_add_test(core_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/core_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/unit/ledger_test.cpp)

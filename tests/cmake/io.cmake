# Dataset readers (real data of the studies).
dpref_test_sources(core_test ${CMAKE_CURRENT_SOURCE_DIR}/unit/io_test.cpp)
# Shared margin losses (accel, linesearch, dda).
dpref_test_sources(core_test ${CMAKE_CURRENT_SOURCE_DIR}/unit/margin_loss_test.cpp)

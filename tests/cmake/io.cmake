# Dataset readers (real data of the studies).
dpref_add_test(io_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/io_test.cpp)
# Shared margin losses (accel, linesearch, dda).
dpref_add_test(margin_loss_test LABELS unit SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/margin_loss_test.cpp)

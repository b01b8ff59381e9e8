dpref_test_sources(random_tests ${CMAKE_CURRENT_SOURCE_DIR}/unit/secure_samplers_test.cpp)

dpref_add_bench(secure_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/secure_bench.cpp)
# Wall time of secure vs idealised runs at the papers' reference settings (SEC.*.COST).
dpref_add_bench(secure_cost_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/secure_cost_bench.cpp)

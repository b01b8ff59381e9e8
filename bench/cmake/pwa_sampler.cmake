# Exact samplers of the pwa exponential mechanism M_E (issue 5, spec/pwa_sampler.md):
# samples/s and acceptance rate vs eps*c for d in {1, 2, 10}.
dpref_add_bench(pwa_sampler_bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pwa_sampler_bench.cpp)

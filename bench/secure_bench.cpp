// Throughput of the exact integer samplers (spec/random_secure.md RAND.SECURE.*).
#include <benchmark/benchmark.h>

#include <cstdint>

#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/bernoulli_exp.hpp"
#include "dpref/random/secure/discrete_gaussian.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"

namespace {

void bm_discrete_laplace(benchmark::State& state) {
  dpref::philox_stream s(42);
  const std::int64_t t = state.range(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpref::secure::discrete_laplace<std::int64_t>(s, t, 1));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_discrete_laplace)->Arg(1)->Arg(100);

void bm_discrete_gaussian(benchmark::State& state) {
  dpref::philox_stream s(43);
  const std::int64_t sigma = state.range(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpref::secure::discrete_gaussian<std::int64_t>(s, sigma * sigma, 1));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_discrete_gaussian)->Arg(1)->Arg(100);

void bm_bernoulli_exp_one_third(benchmark::State& state) {
  dpref::philox_stream s(44);
  for (auto _ : state) {
    benchmark::DoNotOptimize(dpref::secure::bernoulli_exp<std::int64_t>(s, 1, 3));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_bernoulli_exp_one_third);

}  // namespace

// Samples per second of every sampler at double, long double and mp50, and of the fast double
// variants. One draw per iteration; items/s = samples/s.
#include <benchmark/benchmark.h>

#include "dpref/random.hpp"
#include "dpref/random/fast.hpp"

namespace dpref {
namespace {

template <class Real>
void BM_uniform01(benchmark::State& state) {
  philox_stream s(1);
  for (auto _ : state) benchmark::DoNotOptimize(uniform01<Real>(s));
  state.SetItemsProcessed(state.iterations());
}

template <class Real>
void BM_laplace(benchmark::State& state) {
  philox_stream s(1);
  const Real b(1);
  for (auto _ : state) benchmark::DoNotOptimize(laplace<Real>(s, b));
  state.SetItemsProcessed(state.iterations());
}

template <class Real>
void BM_exponential(benchmark::State& state) {
  philox_stream s(1);
  const Real rate(1);
  for (auto _ : state) benchmark::DoNotOptimize(exponential<Real>(s, rate));
  state.SetItemsProcessed(state.iterations());
}

template <class Real>
void BM_gaussian(benchmark::State& state) {
  philox_stream s(1);
  const Real sigma(1);
  for (auto _ : state) benchmark::DoNotOptimize(gaussian<Real>(s, sigma));
  state.SetItemsProcessed(state.iterations());
}

template <class Real>
void BM_gamma_shape_2_5(benchmark::State& state) {
  philox_stream s(1);
  const Real shape = Real(5) / 2, theta(1);
  for (auto _ : state) benchmark::DoNotOptimize(gamma<Real>(s, shape, theta));
  state.SetItemsProcessed(state.iterations());
}

template <class Real>
void BM_vector_laplace_d10(benchmark::State& state) {
  philox_stream s(1);
  const Real b(1);
  for (auto _ : state) benchmark::DoNotOptimize(vector_laplace<Real>(s, 10, b));
  state.SetItemsProcessed(state.iterations());
}

template <class Real>
void BM_bernoulli_third(benchmark::State& state) {
  philox_stream s(1);
  const Real p = Real(1) / 3;
  for (auto _ : state) benchmark::DoNotOptimize(bernoulli<Real>(s, p));
  state.SetItemsProcessed(state.iterations());
}

void BM_philox_word(benchmark::State& state) {
  philox_stream s(1);
  for (auto _ : state) benchmark::DoNotOptimize(s());
  state.SetItemsProcessed(state.iterations());
}

void BM_fast_laplace(benchmark::State& state) {
  philox_stream s(1);
  for (auto _ : state) benchmark::DoNotOptimize(fast::laplace(s, 1.0));
  state.SetItemsProcessed(state.iterations());
}

void BM_fast_exponential(benchmark::State& state) {
  philox_stream s(1);
  for (auto _ : state) benchmark::DoNotOptimize(fast::exponential(s, 1.0));
  state.SetItemsProcessed(state.iterations());
}

void BM_fast_gaussian(benchmark::State& state) {
  philox_stream s(1);
  for (auto _ : state) benchmark::DoNotOptimize(fast::gaussian(s, 1.0));
  state.SetItemsProcessed(state.iterations());
}

#define DPREF_BENCH_ALL(F)            \
  BENCHMARK_TEMPLATE(F, double);      \
  BENCHMARK_TEMPLATE(F, long double); \
  BENCHMARK_TEMPLATE(F, mp50);

DPREF_BENCH_ALL(BM_uniform01)
DPREF_BENCH_ALL(BM_laplace)
DPREF_BENCH_ALL(BM_exponential)
DPREF_BENCH_ALL(BM_gaussian)
DPREF_BENCH_ALL(BM_gamma_shape_2_5)
DPREF_BENCH_ALL(BM_vector_laplace_d10)
DPREF_BENCH_ALL(BM_bernoulli_third)
BENCHMARK(BM_philox_word);
BENCHMARK(BM_fast_laplace);
BENCHMARK(BM_fast_exponential);
BENCHMARK(BM_fast_gaussian);

}  // namespace
}  // namespace dpref

// Samples per second of every sampler at double, long double and mp50, and of the fast double
// variants (one draw per iteration; items/s = samples/s); and of the batch ziggurat samplers
// (random/ziggurat_batch.hpp) against the reference batch kernels (random/batch.hpp), 10^6
// doubles per iteration, per kernel (the same measurement as dpref.sample(..., n = 10^6)).
#include <benchmark/benchmark.h>

#include <stdexcept>
#include <vector>

#include "dpref/random.hpp"
#include "dpref/random/batch.hpp"
#include "dpref/random/fast.hpp"
#include "dpref/random/ziggurat_batch.hpp"

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

// Batch of 10^6 doubles: range(0) = distribution (0 gaussian, 1 exponential, 2 laplace,
// 3 uniform), range(1) = ziggurat kernel (0 portable, 1 avx2, 2 avx512; skipped when absent).
void BM_ziggurat_batch(benchmark::State& state) {
  const auto dist = state.range(0);
  const auto k = static_cast<ziggurat::kernel>(state.range(1) + 1);
  try {
    (void)ziggurat::kernel_name(k);
  } catch (const std::runtime_error&) {
    state.SkipWithError("kernel not available on this CPU");
    return;
  }
  std::vector<double> out(1000000);
  philox_stream s(1);
  ziggurat::batch_options o;
  o.k = k;
  for (auto _ : state) {
    if (dist == 0) ziggurat::gaussian(s, 1.0, out, o);
    if (dist == 1) ziggurat::exponential(s, 1.0, out, o);
    if (dist == 2) ziggurat::laplace(s, 1.0, out, o);
    if (dist == 3) ziggurat::uniform01(s, out, o);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(out.size()));
}
BENCHMARK(BM_ziggurat_batch)
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1, 2}})
    ->ArgNames({"dist", "kernel"})
    ->Unit(benchmark::kMillisecond);

// The reference batch kernels (bit for bit the reference samplers) on 10^6 doubles:
// 0 laplace, 1 exponential, 2 uniform.
void BM_reference_batch(benchmark::State& state) {
  std::vector<double> out(1000000);
  philox_stream s(1);
  for (auto _ : state) {
    if (state.range(0) == 0) batch::laplace(s, 1.0, out);
    if (state.range(0) == 1) batch::exponential(s, 1.0, out);
    if (state.range(0) == 2) batch::uniform01(s, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(out.size()));
}
BENCHMARK(BM_reference_batch)->DenseRange(0, 2)->ArgName("dist")->Unit(benchmark::kMillisecond);

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

// pwa component (spec/pwa.md PWA.BENCH): exact LP solves per second of the epigraph LP for
// (m, d) ∈ {(10,2), (100,10), (1000,20)} (double; mp50 for the small sizes), and runs per
// second of the private subgradient method (Algorithms 1–2, k = 100).
#include <benchmark/benchmark.h>

#include "dpref/pwa/private_subgradient.hpp"
#include "dpref/pwa/solve.hpp"
#include "dpref/pwa/study.hpp"

namespace dpref {
namespace {

template <class Real>
void BM_pwa_lp_solve(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
  constexpr int instances = 8;
  std::vector<pwa::piecewise_affine<Real>> probs;
  for (int k = 0; k < instances; ++k)
    probs.push_back(pwa::gaussian_instance<Real>(static_cast<std::uint64_t>(k + 1), m, d, Real(1)));
  long long it = 0, pivots = 0;
  for (auto _ : state) {
    const auto sol = pwa::solve(probs[static_cast<std::size_t>(it % instances)]);
    pivots += sol.iterations;
    benchmark::DoNotOptimize(sol.value);
    ++it;
  }
  state.SetItemsProcessed(it);
  state.counters["pivots_per_solve"] = static_cast<double>(pivots) / static_cast<double>(it);
}

template <class Real>
void BM_pwa_private_subgradient(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
  const auto prob = pwa::gaussian_instance<Real>(1, m, d, Real(1));
  pwa::subgradient_params<Real> p;
  p.epsilon = Real(1) / 10;
  p.iterations = 100;
  p.step = Real(1) / 100;
  p.rule = pwa::step_rule::constant;
  p.trace = false;
  std::uint64_t r = 0;
  for (auto _ : state) {
    philox_stream s(7, r++);
    const auto res = pwa::private_subgradient(s, prob, p);
    benchmark::DoNotOptimize(res.objective);
  }
  state.SetItemsProcessed(static_cast<long long>(r));
}

BENCHMARK(BM_pwa_lp_solve<double>)
    ->Args({10, 2})
    ->Args({100, 10})
    ->Args({1000, 20})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_pwa_lp_solve<mp50>)->Args({10, 2})->Args({100, 10})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_pwa_private_subgradient<double>)
    ->Args({20, 2})
    ->Args({100, 10})
    ->Args({1000, 20})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_pwa_private_subgradient<mp50>)->Args({20, 2})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace dpref

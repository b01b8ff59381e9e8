// pwa M_E samplers (issue 5, spec/pwa_sampler.md PWA.ME.ACCEPTANCE): samples/s and acceptance
// rate of the exact rejection (f_lo from the LP certificate), envelope and inverse-CDF (d = 1)
// samplers, and of the approximate Metropolis chain (5000 steps), on the pwa §5.1 instance
// (m = 20 i.i.d. N(0, 1) pieces, c = 1, bmax = 1) for ε·c ∈ {0.1, 1, 10, 100}, d ∈ {1, 2, 10}.
// A configuration whose acceptance is below 1/max_attempts (2·10^6) is reported as skipped.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <tuple>

#include "dpref/pwa/exponential_mechanism.hpp"
#include "dpref/pwa/exponential_mechanism_lp.hpp"
#include "dpref/pwa/study.hpp"

namespace {

using namespace dpref;
using pwa::me_method;

const pwa::exponential_mechanism<double>& mechanism(int d, double eps) {
  static std::map<std::pair<int, double>, std::unique_ptr<pwa::exponential_mechanism<double>>>
      cache;
  auto& slot = cache[{d, eps}];
  if (!slot) {
    const auto F = pwa::gaussian_instance<double>(1, 20, d, 1.0, 1.0);
    pwa::me_config<double> cfg;
    cfg.max_attempts = 2'000'000;
    slot = std::make_unique<pwa::exponential_mechanism<double>>(
        pwa::make_exponential_mechanism_lp(F, eps, cfg));
  }
  return *slot;
}

template <me_method Method>
void BM_pwa_me(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const double eps = static_cast<double>(state.range(1)) / 10;  // c = 1: eps*c = range(1)/10
  const auto& M = mechanism(d, eps);
  philox_stream s(7);
  pwa::me_counts counts;
  long long samples = 0;
  try {
    for (auto _ : state) {
      const auto x = M.draw(s, Method, &counts);
      benchmark::DoNotOptimize(x.data());
      ++samples;
    }
  } catch (const pwa::sampling_limit_exceeded&) {
    state.SkipWithError("acceptance below 1/max_attempts = 5e-7");
    return;
  }
  state.SetItemsProcessed(samples);  // items/s = samples/s
  state.counters["eps_c"] = eps;
  state.counters["acceptance"] = counts.acceptance_rate();
}

void grid(benchmark::internal::Benchmark* b) {
  for (int d : {1, 2, 10})
    for (int ec : {1, 10, 100, 1000}) b->Args({d, ec});
}

BENCHMARK(BM_pwa_me<me_method::rejection>)
    ->Name("pwa_me/rejection")
    ->Apply(grid)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.2);
BENCHMARK(BM_pwa_me<me_method::envelope>)
    ->Name("pwa_me/envelope")
    ->Apply(grid)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.2);
BENCHMARK(BM_pwa_me<me_method::inverse_cdf>)
    ->Name("pwa_me/inverse_cdf")
    ->Args({1, 1})
    ->Args({1, 10})
    ->Args({1, 100})
    ->Args({1, 1000})
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.2);
BENCHMARK(BM_pwa_me<me_method::metropolis>)
    ->Name("pwa_me/metropolis_5000")
    ->Args({1, 10})
    ->Args({2, 10})
    ->Args({10, 10})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.2);

}  // namespace

// One full private run of ev Algorithm 2 (K = 20, T = 52, per-user mode, ε = 0.1, c = 10 in
// household units (spec/ev.md EV.UNITS), tight Δ) for n = 10^4 … 10^6 users on 1 thread, and
// n = 10^5 on 2 threads (EV.THREADS); wall time. The kernel alone: bench/ev_bench.cpp. Issue 4
// target: the n = 100,000 run under 2 s on one core.
#include <benchmark/benchmark.h>

#include "dpref/ev/data.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/random.hpp"

namespace dpref {
namespace {

ev::problem<double> paper_problem(Eigen::Index n) {
  vector<double> d(52);
  for (Eigen::Index t = 0; t < 52; ++t) d[t] = 1.4 + 0.1 * std::sin(0.12 * static_cast<double>(t));
  return ev::problem<double>(d, 500000.0, ev::draw_specs<double>(1, 52, n),
                             ev::household_units(500000.0));
}

void BM_ev_private_run(benchmark::State& state) {
  const auto prob = paper_problem(static_cast<Eigen::Index>(state.range(0)));
  ev::params<double> p;  // Algorithm 2, tight Δ at (δr, δE) = (13.2, 12)
  p.threads = static_cast<int>(state.range(1));
  p.iterations = 20;
  p.epsilon = 0.1;
  p.step = 10;
  p.optimum = false;
  std::uint64_t seed = 1;
  for (auto _ : state) {
    philox_stream s(seed++);
    benchmark::DoNotOptimize(ev::run(prob, p, s).averaged_objective);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * p.iterations);  // projections
  state.counters["threads"] = static_cast<double>(p.threads);
}
BENCHMARK(BM_ev_private_run)
    ->Args({10000, 1})
    ->Args({100000, 1})
    ->Args({100000, 2})
    ->Args({1000000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace dpref

// One full private run of ev Algorithm 2 (K = 20, T = 52, per-user mode, ε = 0.1, c = 10, tight
// Δ) for n = 10^4 … 10^6 users, and the projection kernel alone at T = 52. Issue 4 target: the
// n = 100,000 run under 2 s on one core.
#include <benchmark/benchmark.h>

#include "dpref/algorithms/ev/data.hpp"
#include "dpref/algorithms/ev/private_projected_gradient.hpp"
#include "dpref/random.hpp"

namespace dpref {
namespace {

ev::charging_problem<double> paper_problem(Eigen::Index n) {
  vector<double> d(52);
  for (Eigen::Index t = 0; t < 52; ++t) d[t] = 1.4 + 0.1 * std::sin(0.12 * static_cast<double>(t));
  return ev::charging_problem<double>(d, 500000.0, ev::draw_specs<double>(1, 52, n));
}

void BM_ev_private_run(benchmark::State& state) {
  const auto prob = paper_problem(static_cast<Eigen::Index>(state.range(0)));
  ev::private_gradient_params<double> p;
  p.iterations = 20;
  p.epsilon = 0.1;
  p.step = 10;
  p.sensitivity = ev::projection_sensitivity(13.2, 12.0, 52, ev::sensitivity_bound::tight);
  std::uint64_t seed = 1;
  for (auto _ : state) {
    philox_stream s(seed++);
    benchmark::DoNotOptimize(ev::run(prob, p, s).averaged_objective);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * p.iterations);  // projections
}
BENCHMARK(BM_ev_private_run)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

// The allocation-free kernel at T = 52 on the paper's specs, cold start (hint 0) and warm
// start (hint = the multiplier of a nearby point, as in the algorithms' inner loop).
void BM_ev_projection_kernel(benchmark::State& state) {
  const bool warm = state.range(0) != 0;
  const auto specs = ev::draw_specs<double>(2, 52, 64);
  philox_stream s(3);
  std::vector<vector<double>> x0(64);
  std::vector<double> hint(64, 0.0);
  ev::projection_workspace ws;
  vector<double> out(52);
  for (int k = 0; k < 64; ++k) {
    x0[static_cast<std::size_t>(k)] = vector<double>(52);
    for (Eigen::Index i = 0; i < 52; ++i) x0[static_cast<std::size_t>(k)][i] = gaussian(s, 2.0);
    if (warm)
      hint[static_cast<std::size_t>(k)] = ev::project_into<double>(
          x0[static_cast<std::size_t>(k)].data(), specs.max_rate.col(k).data(), specs.energy[k],
          out.data(), 52, 0.0, ws);
  }
  int k = 0;
  for (auto _ : state) {
    const auto u = static_cast<std::size_t>(k);
    benchmark::DoNotOptimize(ev::project_into<double>(
        x0[u].data(), specs.max_rate.col(k).data(), specs.energy[k], out.data(), 52, hint[u], ws));
    k = (k + 1) % 64;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ev_projection_kernel)->Arg(0)->Arg(1);

}  // namespace
}  // namespace dpref

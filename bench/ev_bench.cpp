// Projections per second onto C(a, b) at the paper's horizon T = 52, double and mp50: the
// O(T log T) sweep (geometry::project_capped_simplex) against the allocation-free Newton kernel
// of the algorithms (ev::project_into, O(T) per pass), cold (hint 0) and warm (the hint the
// algorithms use: −α·mean p̂ for x0 = r − α p̂ with r feasible). spec/ev.md EV.PROJ.KERNEL.
#include <benchmark/benchmark.h>

#include "dpref/ev/data.hpp"
#include "dpref/ev/projection_kernel.hpp"
#include "dpref/geometry/capped_simplex.hpp"
#include "dpref/random.hpp"

namespace dpref {
namespace {

template <class Real>
void BM_project_capped_simplex(benchmark::State& state) {
  const auto t = static_cast<Eigen::Index>(state.range(0));
  philox_stream s(1);
  constexpr int instances = 64;
  std::vector<vector<Real>> x0(instances), a(instances);
  std::vector<Real> b(instances);
  for (int k = 0; k < instances; ++k) {
    x0[k].resize(t);
    a[k].resize(t);
    for (Eigen::Index i = 0; i < t; ++i) {
      x0[k][i] = gaussian<Real>(s, Real(2));
      a[k][i] = uniform01<Real>(s) < Real(1) / 2 ? Real(0) : Real(33) / 10;  // 3.3 kW or 0
    }
    b[k] = a[k].sum() * uniform01<Real>(s);
  }
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(geometry::project_capped_simplex(x0[k], a[k], b[k]));
    k = (k + 1) % instances;
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_TEMPLATE(BM_project_capped_simplex, double)->Arg(52)->Arg(1000);
BENCHMARK_TEMPLATE(BM_project_capped_simplex, mp50)->Arg(52);

// The kernel on the paper's specs (T = 52): x0 = r − α p̂ with r ∈ C feasible (a previous
// projection), α p̂ of the size of a household-units step (p̂ ~ 1.4 + N(0, 0.1²) kW, α = 1).
// Arg 0: cold start (hint 0); arg 1: the algorithms' warm start −α·mean p̂.
template <class Real>
void BM_ev_projection_kernel(benchmark::State& state) {
  const bool warm = state.range(0) != 0;
  constexpr int instances = 64;
  const auto specs = ev::draw_specs<Real>(2, 52, instances);
  philox_stream s(3);
  std::vector<vector<Real>> x0(instances);
  std::vector<Real> hint(instances, Real(0));
  ev::projection_workspace ws;
  vector<Real> r(52), zero = vector<Real>::Zero(52);
  for (int k = 0; k < instances; ++k) {
    const auto u = static_cast<std::size_t>(k);
    ev::project_into<Real>(zero.data(), specs.max_rate.col(k).data(), specs.energy[k], r.data(), 52,
                           Real(0), ws);
    vector<Real> p(52);
    for (Eigen::Index i = 0; i < 52; ++i) p[i] = Real(14) / 10 + gaussian<Real>(s, Real(1) / 10);
    x0[u] = r - p;
    if (warm) hint[u] = -p.sum() / Real(52);
  }
  vector<Real> out(52);
  int k = 0;
  for (auto _ : state) {
    const auto u = static_cast<std::size_t>(k);
    benchmark::DoNotOptimize(ev::project_into<Real>(x0[u].data(), specs.max_rate.col(k).data(),
                                                    specs.energy[k], out.data(), 52, hint[u], ws));
    k = (k + 1) % instances;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_TEMPLATE(BM_ev_projection_kernel, double)->Arg(0)->Arg(1);
BENCHMARK_TEMPLATE(BM_ev_projection_kernel, mp50)->Arg(0)->Arg(1);

}  // namespace
}  // namespace dpref

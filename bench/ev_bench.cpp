// Projections per second onto C(a, b) at the paper's horizon T = 52, double and mp50.
#include <benchmark/benchmark.h>

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

}  // namespace
}  // namespace dpref

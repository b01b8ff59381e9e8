// PLD accountant benchmark (spec/accounting_pld.md, issue #15). Run side by side in one
// process; every benchmark reports medians over repetitions and the ε it computed as a counter.
//   BM_PldDpSgdQuery/certified|optimistic: (q, σ, steps) = (0.01, 1.1, 10^4), δ = 1e-5,
//     interval 1e-3 (ε within 0.1% of the PLD value); discretise + self-compose + ε(δ).
//   BM_PldHeterogeneous100: 100 distinct Poisson-subsampled Gaussians, discretised and composed.
//   BM_PldSteps/k: the same query for k = 10^3 … 10^6 steps at interval 1e-3 (growth in k).
//   BM_RdpIntegerGrid / BM_RdpFractionalGrid / BM_RdpFractionalOrder: certified subsampled-
//     Gaussian RDP on orders 2…256, on the default (Opacus-superset) grid, and one order 2.5.
//   BM_AccountPldDefault/i: the accountant (method pld, default options: adaptive interval, FFT
//     power, closed forms) on DP-SGD configuration i of spec/accounting_pld.md; compare with
//     dp_accounting's recorded time (bench/data/dp_accounting_pld.json, counter dp_s).
//   BM_SelfCompose/power|squaring: the two pessimistic self-compositions, (0.001, 0.8, 10^5) at
//     interval 1.8e-4.
#include <benchmark/benchmark.h>

#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/pld.hpp"
#include "dpref/accounting/rdp_fractional.hpp"

namespace {

namespace P = dpref::accounting::pld;
namespace A = dpref::accounting;

volatile double g_sink = 0;

P::options opts(double h, P::estimate k) {
  P::options o;
  o.interval = h;
  o.kind = k;
  return o;
}

// Times f (one call per iteration) and reports its last value as the counter `name`.
template <class F>
double measure(benchmark::State& state, F f, const char* name = "eps") {
  double v = 0;
  for (auto _ : state) {
    v = f();
    g_sink = v;
  }
  state.counters[name] = v;
  return v;
}

// Medians in milliseconds over Reps repetitions: BENCHMARK(...)->Apply(medians<Reps>)
template <int Reps>
void medians(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->Repetitions(Reps)->ReportAggregatesOnly(true);
}

void BM_PldDpSgdQuery(benchmark::State& state) {
  const auto kind = state.range(0) ? P::estimate::optimistic : P::estimate::pessimistic;
  const auto o = opts(1e-3, kind);
  measure(state, [&] {
    const auto m = P::subsample(P::gaussian(1.0, 1.1), P::sampling::poisson(0.01));
    return P::self_compose(P::discretise(m, o), 10000, o).epsilon_for_delta(1e-5);
  });
  state.SetLabel(state.range(0) ? "optimistic" : "certified");
}
BENCHMARK(BM_PldDpSgdQuery)->Arg(0)->Arg(1)->Apply(medians<7>);

struct dpsgd {
  double q, sigma;
  long long steps;
  double dp_eps, dp_seconds;  // bench/data/dp_accounting_pld.json
};
constexpr dpsgd kDpsgd[] = {{0.01, 1.1, 10000, 5.192620123006306, 3.4575},
                            {0.001, 0.8, 100000, 2.575560057394673, 4.4797},
                            {0.1, 2.0, 1000, 8.279293379790778, 2.4056},
                            {0.05, 1.0, 5000, 29.4373363471852, 5.9078},
                            {0.004, 1.0, 25000, 3.6070123534516982, 2.2535},
                            {0.02, 0.6, 3000, 25.030699203170332, 6.5817},
                            {1.0, 5.0, 100, 9.997256150242434, 2.0905},
                            {0.25, 3.0, 400, 8.403773704594897, 1.6766}};

void BM_AccountPldDefault(benchmark::State& state) {
  const dpsgd& c = kDpsgd[state.range(0)];
  A::event<double> e = A::make_event<double>(A::gaussian_mechanism<double>{1.0, c.sigma}, c.steps);
  if (c.q < 1) {
    A::subsampling<double> s;
    s.rate = c.q;
    e.sampling = s;
  }
  A::accounting_options<double> o;
  o.method = A::accounting_method::pld;
  o.delta = 1e-5;
  const double eps = measure(state, [&] { return A::account<double>({e}, o).epsilon; });
  state.counters["rel_diff"] = eps / c.dp_eps - 1;
  state.counters["dp_s"] = c.dp_seconds;
}
BENCHMARK(BM_AccountPldDefault)->DenseRange(0, 7)->Apply(medians<5>);

void BM_SelfCompose(benchmark::State& state) {
  auto o = opts(1.8e-4, P::estimate::pessimistic);
  o.squaring = state.range(0) != 0;
  const auto d = P::discretise(P::subsample(P::gaussian(1.0, 0.8), P::sampling::poisson(0.001)), o);
  measure(state, [&] { return P::self_compose(d, 100000, o).epsilon_for_delta(1e-5); });
  state.SetLabel(o.squaring ? "squaring" : "power");
}
BENCHMARK(BM_SelfCompose)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Repetitions(3);

void BM_PldHeterogeneous100(benchmark::State& state) {
  const auto o = opts(1e-3, P::estimate::pessimistic);
  measure(state, [&] {
    std::vector<P::privacy_loss_distribution> list;
    list.reserve(100);
    for (int i = 0; i < 100; ++i) {
      const double q = 0.005 + 0.0005 * i, sigma = 0.8 + 0.012 * i;
      list.push_back(
          P::discretise(P::subsample(P::gaussian(1, sigma), P::sampling::poisson(q)), o));
    }
    return P::compose_all(std::move(list), o).epsilon_for_delta(1e-5);
  });
}
BENCHMARK(BM_PldHeterogeneous100)->Apply(medians<5>);

void BM_PldSteps(benchmark::State& state) {
  const auto o = opts(1e-3, P::estimate::pessimistic);
  const auto k = static_cast<std::uint64_t>(state.range(0));
  std::size_t n = 0;
  measure(state, [&] {
    const auto m = P::subsample(P::gaussian(1.0, 1.1), P::sampling::poisson(0.01));
    const auto d = P::self_compose(P::discretise(m, o), k, o);
    n = d.remove.masses.size();
    return d.epsilon_for_delta(1e-5);
  });
  state.counters["grid"] = static_cast<double>(n);
}
BENCHMARK(BM_PldSteps)->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Apply(medians<3>);

void BM_RdpIntegerGrid(benchmark::State& state) {
  const auto orders = A::integer_orders<double>(2, 256);
  measure(state, [&] {
    const auto c = A::poisson_subsampled_gaussian_rdp<double>(0.01, 1.1, orders);
    return A::rdp_to_dp(A::compose_rdp_steps(c, 10000), 1e-5).guarantee.eps;
  });
}
BENCHMARK(BM_RdpIntegerGrid)->Apply(medians<5>);

void BM_RdpFractionalGrid(benchmark::State& state) {
  const auto orders = A::default_rdp_orders<double>();
  measure(state, [&] {
    const auto c = A::poisson_subsampled_gaussian_rdp_frac<double>(0.01, 1.1, orders);
    return A::rdp_to_dp(A::compose_rdp_steps(c, 10000), 1e-5).guarantee.eps;
  });
}
BENCHMARK(BM_RdpFractionalGrid)->Iterations(1)->Apply(medians<3>);

void BM_RdpFractionalOrder(benchmark::State& state) {
  measure(
      state,
      [] { return A::poisson_subsampled_gaussian_rdp_frac<double>(0.01, 1.1, {2.5}).eps[0]; },
      "rdp");
}
BENCHMARK(BM_RdpFractionalOrder)->Apply(medians<5>);

}  // namespace

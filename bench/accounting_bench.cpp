// Accounting benchmark (issue 9): Poisson-subsampled Gaussian RDP at q = 0.01, σ = 1.1 for
// integer orders 2…256, composed over 10^4 steps and converted to (ε, 10^-5), in the double
// fast path and in the certified (MPFR, rounded-up) mode. The ε obtained is reported as a
// counter. Targets: < 100 µs (double), < 20 ms (certified).
#include <benchmark/benchmark.h>

#include <vector>

#include "dpref/accounting/accounting.hpp"

namespace {

using namespace dpref::accounting;

// Results are written to a volatile sink: benchmark 1.7's DoNotOptimize("+m,r") can corrupt a
// double held in an SSE register under GCC -O3.
volatile double g_sink = 0;

void BM_SubsampledGaussianPipelineDouble(benchmark::State& state) {
  const std::vector<double> orders = integer_orders<double>(2, 256);
  double eps = 0;
  for (auto _ : state) {
    const auto c = fast::poisson_subsampled_gaussian_rdp(0.01, 1.1, orders);
    rdp_curve<double> total{c.orders, {}};
    total.eps.reserve(c.eps.size());
    for (double e : c.eps) total.eps.push_back(e * 10000.0 * (1 + 0x1p-50));  // 10^4 steps, widened
    const auto r = fast::rdp_to_dp(total, 1e-5);
    eps = r.guarantee.eps;
    g_sink = eps;
  }
  state.counters["eps"] = eps;
}
BENCHMARK(BM_SubsampledGaussianPipelineDouble)->Unit(benchmark::kMicrosecond);

template <class Real>
void BM_SubsampledGaussianPipelineCertified(benchmark::State& state) {
  const std::vector<Real> orders = integer_orders<Real>(2, 256);
  double eps = 0;
  for (auto _ : state) {
    const auto c = poisson_subsampled_gaussian_rdp<Real>(Real(0.01), Real(1.1), orders);
    const auto r = rdp_to_dp(compose_rdp_steps(c, 10000), Real(1e-5));
    eps = static_cast<double>(r.guarantee.eps);
    g_sink = eps;
  }
  state.counters["eps"] = eps;
}
BENCHMARK_TEMPLATE(BM_SubsampledGaussianPipelineCertified, double)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_SubsampledGaussianPipelineCertified, dpref::mp50)
    ->Unit(benchmark::kMillisecond);

void BM_AnalyticGaussianSigma(benchmark::State& state) {
  for (auto _ : state) g_sink = analytic_gaussian_sigma(1.0, 1.0, 1e-5);
}
BENCHMARK(BM_AnalyticGaussianSigma)->Unit(benchmark::kMillisecond);

}  // namespace

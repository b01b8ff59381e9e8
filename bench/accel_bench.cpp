// accel benchmarks (issue 6): iterations/s of each algorithm at n = 1e5, d = 20, full batch and
// m = 1000 (double, and mp50 for the cost ratio); the full-batch logistic gradient against a
// plain Eigen matrix-vector product of the same size (target: within 2×), and the same gradient
// sum through the runtime-d kernel (what every d outside logistic_kernel::fixed_dims runs).
#include <benchmark/benchmark.h>

#include <vector>

#include "dpref/accel/accel.hpp"
#include "dpref/problems/logistic_kernel.hpp"

namespace {

using namespace dpref;

const problems::logistic_data& data() {
  static const problems::logistic_data d =
      problems::synthetic_logistic_data(100000, 20, 20.0, philox_stream(1));
  return d;
}

template <class Real>
const problems::logistic_regression<Real>& problem() {
  static const problems::logistic_regression<Real> p = [] {
    auto q = problems::make_logistic<Real>(data(), Real(1) / 100);
    (void)q.smoothness();  // certify L once, outside the timed loop
    return q;
  }();
  return p;
}

template <class Real, int Alg>
void BM_accel_run(benchmark::State& state) {
  const auto& P = problem<Real>();
  accel::params<Real> prm;
  if (state.range(0) > 0) prm.m = state.range(0);  // 0: the full batch
  prm.iterations = state.range(1);
  for (auto _ : state) {
    accel::result<Real> r;
    const philox_stream s(7);
    if constexpr (Alg == 0) r = accel::dp_gd::run(P, prm, s);
    if constexpr (Alg == 1) r = accel::dp_shb::run(P, prm, s);
    if constexpr (Alg == 2) r = accel::dp_nag::run(P, prm, s);
    if constexpr (Alg == 3) r = accel::dp_nag_opt::run(P, prm, s);
    if constexpr (Alg == 4) r = accel::dp_masg::run(P, prm, s);
    if constexpr (Alg == 5) r = accel::dp_masg_opt::run(P, prm, s);
    benchmark::DoNotOptimize(r.x.data());
  }
  state.SetItemsProcessed(state.iterations() * prm.iterations);  // items/s = iterations/s
}

#define ACCEL_BENCH(ALG, NAME)         \
  BENCHMARK(BM_accel_run<double, ALG>) \
      ->Name("accel_" NAME "/double")  \
      ->Args({100000, 20})             \
      ->Args({1000, 500})              \
      ->Unit(benchmark::kMillisecond); \
  BENCHMARK(BM_accel_run<mp50, ALG>)   \
      ->Name("accel_" NAME "/mp50")    \
      ->Args({1000, 5})                \
      ->Unit(benchmark::kMillisecond)  \
      ->Iterations(2);
ACCEL_BENCH(0, "gd")
ACCEL_BENCH(1, "shb")
ACCEL_BENCH(2, "nag")
ACCEL_BENCH(3, "nag_opt")
ACCEL_BENCH(4, "masg")
ACCEL_BENCH(5, "masg_opt")

void BM_logistic_gradient(benchmark::State& state) {
  const auto& P = problem<double>();
  vector<double> x = vector<double>::Constant(20, 0.1), g(20);
  for (auto _ : state) {
    P.gradient_into(x, g);
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_logistic_gradient)->Unit(benchmark::kMicrosecond);

void BM_logistic_gradient_runtime_d(benchmark::State& state) {
  // Σ w_i u_i of the same data by gradient_sum<0> (d known only at run time).
  const auto& P = problem<double>();
  const vector<double> x = vector<double>::Constant(20, 0.1);
  vector<double> g(20);
  const double* z = P.labels().data();
  for (auto _ : state) {
    problems::logistic_kernel::gradient_sum<0>(
        P.features().data(), 100000, 20, x.data(), g.data(),
        [z](std::size_t i, const double* r, double* w, std::size_t b) {
          problems::fastmath::logistic_weights(z + i, r, w, b);
        });
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_logistic_gradient_runtime_d)->Unit(benchmark::kMicrosecond);

void BM_eigen_matvec(benchmark::State& state) {
  // Plain n×d (column-major) matrix times vector, the same data size as the gradient.
  const matrix<double> X = data().features.transpose();
  vector<double> x = vector<double>::Constant(20, 0.1), y(100000);
  for (auto _ : state) {
    y.noalias() = X * x;
    benchmark::DoNotOptimize(y.data());
  }
}
BENCHMARK(BM_eigen_matvec)->Unit(benchmark::kMicrosecond);

void BM_logistic_gradient_mp50(benchmark::State& state) {
  const auto& P = problem<mp50>();
  vector<mp50> x = vector<mp50>::Constant(20, mp50(1) / 10), g(20);
  for (auto _ : state) {
    P.gradient_into(x, g);
    benchmark::DoNotOptimize(g.data());
  }
}
// The n = 1e5 weight evaluations alone: glibc's scalar exp vs the vector exp of fast_exp.hpp.
std::vector<double> margins() {
  const auto& P = problem<double>();
  const vector<double> x = vector<double>::Constant(20, 0.1);
  const vector<double> r = P.features().transpose() * x;
  return {r.data(), r.data() + r.size()};
}

void BM_weights_std_exp(benchmark::State& state) {
  const auto r = margins();
  const auto& z = problem<double>().labels();
  std::vector<double> w(r.size());
  for (auto _ : state) {
    for (std::size_t k = 0; k < r.size(); ++k)
      w[k] =
          problems::logistic_regression<double>::loss_weight(z[static_cast<Eigen::Index>(k)], r[k]);
    benchmark::DoNotOptimize(w.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(r.size()));
}
BENCHMARK(BM_weights_std_exp)->Unit(benchmark::kMicrosecond);

void BM_weights_fast_exp(benchmark::State& state) {
  const auto r = margins();
  const auto& z = problem<double>().labels();
  std::vector<double> w(r.size());
  for (auto _ : state) {
    problems::fastmath::logistic_weights(z.data(), r.data(), w.data(), r.size());
    benchmark::DoNotOptimize(w.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(r.size()));
}
BENCHMARK(BM_weights_fast_exp)->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_logistic_gradient_mp50)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

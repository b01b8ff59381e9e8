// linesearch benchmarks (issue 7): per-example gradient + clipping throughput (logistic,
// d = 100; examples/s), the NOISYBTLS query evaluation along a line, and one DP-BLSGD run at
// ε = 0.2 on ~250k rows (data/real/fertility.csv if present, else synthetic 254,654 × 12);
// double and mp50 (cost ratio) where affordable.
#include <benchmark/benchmark.h>

#include <fstream>
#include <numeric>
#include <vector>

#include "dpref/io/dataset.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "dpref/random/uniform.hpp"

namespace {

using namespace dpref;

template <class Real>
problems::linear_erm<Real> synthetic(Eigen::Index n, Eigen::Index d) {
  philox_stream s(1, 77);
  matrix<Real> X(d, n);
  vector<Real> y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) X(j, i) = uniform01<Real>(s);
    y[i] = uniform01<Real>(s) < Real(1) / 2 ? Real(1) : Real(-1);
  }
  return problems::linear_erm<Real>(X, y, problems::margin_loss<Real>::logistic());
}

template <class Real>
const problems::linear_erm<Real>& problem100() {
  static const auto P = synthetic<Real>(std::is_same_v<Real, double> ? 20000 : 2000, 100);
  return P;
}

template <class Real>
void BM_clipped_gradient(benchmark::State& state) {
  const auto& P = problem100<Real>();
  std::vector<Eigen::Index> all(static_cast<std::size_t>(P.size()));
  std::iota(all.begin(), all.end(), Eigen::Index(0));
  vector<Real> w = vector<Real>::Constant(100, Real(1) / 10), g;
  for (auto _ : state) {
    P.clipped_gradient_sum(w, all, Real(3), g);
    benchmark::DoNotOptimize(g.data());
  }
  state.SetItemsProcessed(state.iterations() * P.size());  // examples/s
}
BENCHMARK(BM_clipped_gradient<double>)->Name("linesearch_clipped_gradient_d100/double");
BENCHMARK(BM_clipped_gradient<mp50>)->Name("linesearch_clipped_gradient_d100/mp50");

template <class Real>
void BM_line_queries(benchmark::State& state) {
  const auto& P = problem100<Real>();
  std::vector<Eigen::Index> all(static_cast<std::size_t>(P.size()));
  std::iota(all.begin(), all.end(), Eigen::Index(0));
  const vector<Real> w = vector<Real>::Constant(100, Real(1) / 10);
  const vector<Real> g = vector<Real>::Constant(100, Real(1) / 100);
  for (auto _ : state) {
    const problems::line_evaluator<Real> line(P, all, w, g);
    Real s(0);
    for (int k = 0; k < 8; ++k) s += line.clipped_sum(Real(1) / Real(k + 1), Real(1));
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * P.size());  // examples/s (setup + 8 queries)
}
BENCHMARK(BM_line_queries<double>)->Name("linesearch_btls_8_queries_d100/double");
BENCHMARK(BM_line_queries<mp50>)->Name("linesearch_btls_8_queries_d100/mp50");

const problems::linear_erm<double>& fertility() {
  static const problems::linear_erm<double> P = [] {
    const std::string path = "data/real/fertility.csv";
    if (std::ifstream(path).good()) {
      auto d = io::read_csv_binary<double>(path);
      return problems::linear_erm<double>(d.X, d.y, problems::margin_loss<double>::logistic());
    }
    return synthetic<double>(254654, 12);
  }();
  return P;
}

void BM_dp_blsgd_250k(benchmark::State& state) {
  const auto& P = fertility();
  linesearch::params<double> p;
  p.epsilon = 0.2;
  long long iters = 0;
  for (auto _ : state) {
    const auto r = linesearch::run(P, p, philox_stream(7));
    iters = r.calls.iterations;
    benchmark::DoNotOptimize(r.w.data());
  }
  state.counters["n"] = static_cast<double>(P.size());
  state.counters["iterations"] = static_cast<double>(iters);
}
BENCHMARK(BM_dp_blsgd_250k)
    ->Name("linesearch_dp_blsgd_eps0.2_250k/double")
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

}  // namespace

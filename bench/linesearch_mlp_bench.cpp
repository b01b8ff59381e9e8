// linesearch §5.7 MLP benchmarks (issue 7): clipped per-example gradient sum of the
// one-hidden-layer MLP (norm identity + two GEMMs; examples/s) on a batch of 300 (≈ q·n with
// q = 1/200, n = 60,000) at 784-256-10 in double, and at 64-16-10 in double and mp50 (cost
// ratio); the NOISYBTLS line evaluator (setup + 8 queries) at 784-256-10.
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

#include "dpref/problems/mlp.hpp"
#include "dpref/random/uniform.hpp"

namespace {

using namespace dpref;

constexpr Eigen::Index kBatch = 300;

template <class Real>
problems::mlp_classifier<Real> synthetic(Eigen::Index d, Eigen::Index h) {
  philox_stream s(1, 77);
  matrix<Real> X(d, kBatch);
  std::vector<int> y(kBatch);
  for (Eigen::Index i = 0; i < kBatch; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) X(j, i) = Real(2) * uniform01<Real>(s) - Real(1);
    y[static_cast<std::size_t>(i)] = static_cast<int>(i % 10);
  }
  return problems::mlp_classifier<Real>(X, y, h, 10);
}

template <class Real>
void BM_mlp_clipped_gradient(benchmark::State& state) {
  const auto P = synthetic<Real>(state.range(0), state.range(1));
  std::vector<Eigen::Index> all(static_cast<std::size_t>(P.size()));
  std::iota(all.begin(), all.end(), Eigen::Index(0));
  philox_stream s(2, 1);
  const vector<Real> w = P.initial_point(s);
  vector<Real> g;
  for (auto _ : state) {
    P.clipped_gradient_sum(w, all, Real(3), g);
    benchmark::DoNotOptimize(g.data());
  }
  state.SetItemsProcessed(state.iterations() * P.size());  // examples/s
  state.counters["parameters"] = static_cast<double>(P.dimension());
}
BENCHMARK(BM_mlp_clipped_gradient<double>)
    ->Name("linesearch_mlp_clipped_gradient_784_256_10/double")
    ->Args({784, 256});
BENCHMARK(BM_mlp_clipped_gradient<double>)
    ->Name("linesearch_mlp_clipped_gradient_64_16_10/double")
    ->Args({64, 16});
BENCHMARK(BM_mlp_clipped_gradient<mp50>)
    ->Name("linesearch_mlp_clipped_gradient_64_16_10/mp50")
    ->Args({64, 16});

void BM_mlp_line_queries(benchmark::State& state) {
  const auto P = synthetic<double>(784, 256);
  std::vector<Eigen::Index> all(static_cast<std::size_t>(P.size()));
  std::iota(all.begin(), all.end(), Eigen::Index(0));
  philox_stream s(3, 1);
  const vector<double> w = P.initial_point(s), g = P.initial_point(s);
  for (auto _ : state) {
    const auto line = problems::make_line(P, all, w, g);
    double v = 0;
    for (int k = 0; k < 8; ++k) v += line.clipped_sum(1.0 / (k + 1), 3.0);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations() * P.size());  // examples/s (setup + 8 queries)
}
BENCHMARK(BM_mlp_line_queries)->Name("linesearch_mlp_btls_8_queries_784_256_10/double");

}  // namespace

// dda Algorithm 1 (DP-DDA) throughput (spec/dda.md DDA.BENCH): iterations/s at n = 20 nodes,
// 1 edge per step (ι = 0.1, dda §5), σ > 0 (fast Gaussian noise), on a dense d = 784 problem
// (Fashion-MNIST shape: 12,000 records) and a sparse d = 1,838 problem (grants_other shape:
// ~8,000 records, ~26 non-zeros each); scaling in the number of nodes (20 … 1,000, node mode,
// ι = 0.1, d = 784, q = 10) on 1 and 2 threads (results bit-identical: DDA.THREADS).
#include <benchmark/benchmark.h>

#include <vector>

#include "dpref/dda/dp_dda.hpp"
#include "dpref/dda/problem.hpp"
#include "dpref/network/gossip.hpp"
#include "dpref/random/fast.hpp"
#include "dpref/random/secure/uniform_int.hpp"

namespace dpref {
namespace {

namespace pr = problems;

matrix<double> dense_records(long long N, int d, std::uint64_t seed) {
  philox_stream s(seed, 3);
  matrix<double> X(d, N);
  for (long long j = 0; j < N; ++j)
    for (int k = 0; k < d; ++k) X(k, j) = fast::gaussian(s, 1.0);
  dda::clip_columns_to_unit_norm<double>(X);
  return X;
}

vector<double> labels(long long N) {
  vector<double> y(N);
  for (long long j = 0; j < N; ++j) y[j] = j % 2 == 0 ? 1.0 : -1.0;
  return y;
}

dda::algorithm_params<double> params(long long T, unsigned threads) {
  dda::algorithm_params<double> p;
  p.iterations = T;
  p.a = dda::weight_schedule::linear;
  p.g = dda::gamma_schedule::constant;
  p.gamma = 20;
  p.sigma = 2;
  p.fast_noise = true;
  p.threads = threads;
  return p;
}

void BM_dda_dense_784(benchmark::State& state) {
  const dda::problem<double> prob(dense_records(12000, 784, 1), labels(12000), 20,
                                  pr::regularizer<double>::l2(5e-4));
  const network::gossip_sampler<double> smp(network::complete_graph(20), network::activation::edges,
                                            1);
  const auto p = params(2000, 1);
  std::uint64_t seed = 1;
  for (auto _ : state)
    benchmark::DoNotOptimize(dda::run_dp_dda(prob, smp, p, philox_stream(seed++)).x_bar);
  state.SetItemsProcessed(state.iterations() * p.iterations);  // DP-DDA iterations
}
BENCHMARK(BM_dda_dense_784)->Unit(benchmark::kMillisecond);

void BM_dda_sparse_1838(benchmark::State& state) {
  const long long N = 8000;
  const int d = 1838, nnz = 26;
  philox_stream s(2, 3);
  std::vector<Eigen::Triplet<double>> t;
  for (long long j = 0; j < N; ++j)
    for (int k = 0; k < nnz; ++k)
      t.emplace_back(static_cast<int>(secure::uniform_int<std::int64_t>(s, d)),
                     static_cast<Eigen::Index>(j), 1.0 / std::sqrt(double(nnz)));
  Eigen::SparseMatrix<double> X(d, N);
  X.setFromTriplets(t.begin(), t.end());  // duplicates summed
  dda::clip_columns_to_unit_norm<double>(X);
  const dda::problem<double, Eigen::SparseMatrix<double>> prob(X, labels(N), 20,
                                                               pr::regularizer<double>::l1(5e-4));
  const network::gossip_sampler<double> smp(network::complete_graph(20), network::activation::edges,
                                            1);
  auto p = params(2000, 1);
  p.a = dda::weight_schedule::constant;
  p.g = dda::gamma_schedule::sqrt_t;
  p.gamma = 0.01;
  std::uint64_t seed = 1;
  for (auto _ : state)
    benchmark::DoNotOptimize(dda::run_dp_dda(prob, smp, p, philox_stream(seed++)).x_bar);
  state.SetItemsProcessed(state.iterations() * p.iterations);
}
BENCHMARK(BM_dda_sparse_1838)->Unit(benchmark::kMillisecond);

void BM_dda_nodes(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  const long long N = 10LL * n;
  const dda::problem<double> prob(dense_records(N, 784, 3), labels(N), n,
                                  pr::regularizer<double>::l2(5e-4));
  const network::gossip_sampler<double> smp(network::complete_graph(n), network::activation::nodes,
                                            n / 10);
  const auto p = params(200, threads);
  std::uint64_t seed = 1;
  for (auto _ : state)
    benchmark::DoNotOptimize(dda::run_dp_dda(prob, smp, p, philox_stream(seed++)).x_bar);
  state.SetItemsProcessed(state.iterations() * p.iterations);
  state.counters["nodes"] = n;
  state.counters["threads"] = threads;
}
BENCHMARK(BM_dda_nodes)
    ->Args({20, 1})
    ->Args({100, 1})
    ->Args({500, 1})
    ->Args({1000, 1})
    ->Args({1000, 2})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dpref

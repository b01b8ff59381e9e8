// Wall time of secure mode against idealised mode at each paper's reference setting (spec/accel.md
// SEC.ACCEL.COST, spec/dda.md SEC.DDA.COST, spec/linesearch.md SEC.LINESEARCH.COST): the same run
// with release = idealised (Arg 0, the baseline) and secure (Arg 1), same stream; the time ratio
// is secure / idealised of the medians (--benchmark_repetitions=5
// --benchmark_report_aggregates_only=true). The utility ratios are the claims SEC.*.COST of
// `dpref reproduce`.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "dpref/accel/accel.hpp"
#include "dpref/dda/run.hpp"
#include "dpref/linesearch/run.hpp"

namespace {

using dpref::noise_mode;
using dpref::philox_stream;

noise_mode mode_of(const benchmark::State& state) {
  return state.range(0) ? noise_mode::secure : noise_mode::idealised;
}

/// `dpref accel run` defaults: n = 10000, d = 20, B = 20, λ = 0.01, DP-NAG-opt, ε = 1, T = 100.
void bm_accel_run(benchmark::State& state) {
  const auto P = dpref::accel::make_problem(dpref::accel::problem_spec<double>{});
  dpref::accel::params<double> p;
  p.release = mode_of(state);
  for (auto _ : state) benchmark::DoNotOptimize(dpref::accel::run(P, p, philox_stream(20261121)).x);
}
BENCHMARK(bm_accel_run)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

/// examples/dda.json: synthetic N = 400, d = 5, 10 nodes, complete graph, one edge per round,
/// T = 300, (ε, δ) = (0.8, 1e-5).
void bm_dda_example(benchmark::State& state) {
  auto data = dpref::dda::synthetic_data(400, 5, 20261121);
  const dpref::dda::problem<double> prob(data.X, data.y, 10,
                                         dpref::problems::regularizer<double>::l2(1e-3));
  dpref::dda::network net;
  net.nodes = 10;
  dpref::dda::params<double> p;
  p.iterations = 300;
  p.optimum = false;
  p.release = mode_of(state);
  for (auto _ : state)
    benchmark::DoNotOptimize(dpref::dda::run(prob, net, p, philox_stream(20261121, 1)).x_bar);
}
BENCHMARK(bm_dda_example)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

/// Synthetic n = 20000, d = 10, logistic, (ε, δ) = (1, 1e-8): output perturbation (μ = 0.01) and
/// DP-SGD (μ = 1e-3, q = 0.1, T = 50, η = 1). Args: mode, algorithm (0 outpert, 1 dpsgd).
void bm_linesearch(benchmark::State& state) {
  namespace ls = dpref::linesearch;
  const bool sgd = state.range(1) != 0;
  ls::problem_spec<double> s;
  s.synthetic_n = 20000;
  s.mu = sgd ? 1e-3 : 0.01;
  const auto P = ls::make_problem(s);
  ls::params<double> p;
  p.algorithm = sgd ? ls::algorithm::dpsgd : ls::algorithm::outpert;
  p.epsilon = 1;
  p.max_order = 64;
  p.release = mode_of(state);
  for (auto _ : state) benchmark::DoNotOptimize(ls::run(P, p, philox_stream(20261121)).w);
}
BENCHMARK(bm_linesearch)
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace

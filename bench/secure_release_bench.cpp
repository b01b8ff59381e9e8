// Cost of the secure (lattice) releases against the idealised floating-point ones (issue 20,
// spec/secure_release.md "Cost"): coordinates per second for d = 1, 20, 100 at double, sensitivity
// 1, ε = 1, clamp 100, grid precision s = 20 (the Gaussian grid by its rule, σ = 4).
// items/s = coordinates released per second.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>

#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/random/fast.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/laplace.hpp"

namespace {

using vec = dpref::vector<double>;
namespace mech = dpref::mechanisms;

vec input(long long d) { return vec::LinSpaced(static_cast<Eigen::Index>(d), -0.7, 0.9); }

template <class F>
void run(benchmark::State& state, F&& release) {
  const long long d = state.range(0);
  const vec x = input(d);
  dpref::philox_stream s(2020, static_cast<std::uint64_t>(d));
  for (auto _ : state) benchmark::DoNotOptimize(release(s, x));
  state.SetItemsProcessed(state.iterations() * d);
}

// ---- coordinate-wise Laplace -----------------------------------------------------------------
void bm_ideal_laplace(benchmark::State& state) {
  run(state, [](dpref::philox_stream& s, const vec& x) {
    vec y(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) y[i] = x[i] + dpref::laplace<double>(s, 1.0);
    return y;
  });
}
void bm_ideal_laplace_fast(benchmark::State& state) {
  run(state, [](dpref::philox_stream& s, const vec& x) {
    vec y(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) y[i] = x[i] + dpref::fast::laplace(s, 1.0);
    return y;
  });
}
void bm_secure_laplace(benchmark::State& state) {
  const auto p = mech::snapped_laplace_for(1.0, 1.0, state.range(0), 100.0);
  run(state,
      [&p](dpref::philox_stream& s, const vec& x) { return mech::snapped_laplace(s, x, p); });
}

// ---- coordinate-wise Gaussian ----------------------------------------------------------------
void bm_ideal_gaussian(benchmark::State& state) {
  run(state, [](dpref::philox_stream& s, const vec& x) {
    vec y(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) y[i] = x[i] + dpref::gaussian<double>(s, 4.0);
    return y;
  });
}
void bm_secure_gaussian(benchmark::State& state) {
  const long long d = state.range(0);
  const int k = mech::snapped_gaussian_grid_exponent(1.0, 4.0, d, 100.0);
  const mech::snapped_gaussian_params p{1.0, 4.0, d, 100.0, k};
  run(state,
      [&p](dpref::philox_stream& s, const vec& x) { return mech::snapped_gaussian(s, x, p); });
}

// ---- l2-Laplace ------------------------------------------------------------------------------
void bm_ideal_l2_laplace(benchmark::State& state) {
  run(state, [](dpref::philox_stream& s, const vec& x) {
    return mech::vector_laplace_mechanism<double>(s, x, 1.0);
  });
}
void bm_secure_l2_laplace(benchmark::State& state) {
  const auto p = mech::snapped_vector_laplace_for(1.0, 1.0, state.range(0), 100.0);
  run(state, [&p](dpref::philox_stream& s, const vec& x) {
    return mech::snapped_vector_laplace(s, x, p);
  });
}
void bm_secure_l2_fallback_l1(benchmark::State& state) {
  const long long d = state.range(0);
  const auto p = mech::snapped_laplace_for(std::sqrt(static_cast<double>(d)), 1.0, d, 100.0);
  run(state,
      [&p](dpref::philox_stream& s, const vec& x) { return mech::snapped_laplace(s, x, p); });
}

BENCHMARK(bm_ideal_laplace)->Arg(1)->Arg(20)->Arg(100);
BENCHMARK(bm_ideal_laplace_fast)->Arg(1)->Arg(20)->Arg(100);
BENCHMARK(bm_secure_laplace)->Arg(1)->Arg(20)->Arg(100);
BENCHMARK(bm_ideal_gaussian)->Arg(1)->Arg(20)->Arg(100);
BENCHMARK(bm_secure_gaussian)->Arg(1)->Arg(20)->Arg(100);
BENCHMARK(bm_ideal_l2_laplace)->Arg(1)->Arg(20)->Arg(100);
BENCHMARK(bm_secure_l2_laplace)->Arg(1)->Arg(20)->Arg(100);
BENCHMARK(bm_secure_l2_fallback_l1)->Arg(1)->Arg(20)->Arg(100);

}  // namespace

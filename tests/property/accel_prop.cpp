// Property tests of the accel component (spec/accel.md): S1 bound for random neighbours,
// Theorem 3.5's ρ vs the λ-grid spectral radius (errata property 17), MASG stage contraction
// (property 18), Prop 3.1 exact spend (property 14) and the Prop 4.2 closed form.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

#include "dpref/accel/accel.hpp"
#include "support/generators.hpp"

namespace {

using namespace dpref;
using dpref::test::positive_log_uniform;
using dpref::test::real_in;

RC_GTEST_PROP(ACCEL_S1, BoundHoldsForRandomNeighbours, ()) {
  const int d = *rc::gen::inRange(1, 8);
  const double B = *positive_log_uniform<double>(0.1, 50.0);
  const double lambda = *positive_log_uniform<double>(1e-4, 10.0);
  matrix<double> U(d, 2);
  for (int i = 0; i < 2; ++i) {
    double s = 0;
    for (int j = 0; j < d; ++j) {
      U(j, i) = *real_in<double>(-1, 1);
      s += std::abs(U(j, i));
    }
    const double scale = *real_in<double>(0, 1) * B / std::max(s, 1e-300) * (1 - 1e-12);
    U.col(i) *= scale;
  }
  vector<double> z(2);
  z << (*rc::gen::arbitrary<bool>() ? 1.0 : -1.0), (*rc::gen::arbitrary<bool>() ? 1.0 : -1.0);
  const problems::logistic_regression<double> P(U, z, lambda, B);
  vector<double> x(d);
  for (int j = 0; j < d; ++j) x[j] = *real_in<double>(-50, 50);
  const vector<double> diff = P.example_gradient(x, 0) - P.example_gradient(x, 1);
  RC_ASSERT(diff.lpNorm<1>() <= P.l1_sensitivity() * (1 + 1e-12));
}

RC_GTEST_PROP(ACCEL_THM35, RateEqualsMaxSpectralRadiusOverLambdaGrid, ()) {
  const double mu = *positive_log_uniform<double>(1e-3, 1.0);
  const double L = mu * *positive_log_uniform<double>(1.0, 1e3);
  const double alpha = *real_in<double>(0.01, 1.0) / L;
  const double beta = *real_in<double>(0.0, 0.99);
  const double rho = accel::bounds::hb_rate(alpha, beta, mu, L);
  double grid = 0;
  for (int k = 0; k < 10000; ++k) {
    const double l = mu + (L - mu) * k / 9999.0;
    grid = std::max(grid, accel::bounds::hb_mode_radius(alpha, beta, l));
  }
  RC_ASSERT(std::abs(rho - grid) <= 1e-12);
}

RC_GTEST_PROP(ACCEL_MASG, StageContractionOffsetsRestart, ()) {
  // (1 − √(μα_k))^{n_k} ≤ 2^{−(p+2)} for k ≥ 2 (errata property 18).
  const double kappa = *positive_log_uniform<double>(1.0, 1e4);
  const long long p = *rc::gen::inRange(1, 4);
  const double mu = 1, L = kappa;
  const long long base = accel::make_masg_schedule<double>(1, mu, L, p, 1, 1.0).base;
  const auto s = accel::make_masg_schedule<double>(256 * base, mu, L, p, 1, 1.0);  // k <= 7
  RC_ASSERT(s.stage_length.size() >= 7u);
  for (std::size_t k = 1; k < s.stage_length.size(); ++k) {
    if (k + 1 == s.stage_length.size()) break;  // last stage truncated
    const double lhs =
        std::pow(1 - std::sqrt(mu * s.stage_step[k]), static_cast<double>(s.stage_length[k]));
    RC_ASSERT(lhs <= std::pow(2.0, -static_cast<double>(p + 2)) * (1 + 1e-12));
  }
  for (int k = 8; k <= 11; ++k) {  // beyond the built schedule: the formulas of (4.7)
    const double step = 1.0 / (std::pow(4.0, k) * L);
    const double len = std::pow(2.0, k) * static_cast<double>(base);
    RC_ASSERT(std::pow(1 - std::sqrt(mu * step), len) <=
              std::pow(2.0, -static_cast<double>(p + 2)) * (1 + 1e-12));
  }
}

RC_GTEST_PROP(ACCEL_GD, UniformSplitSpendsExactlyEps, ()) {
  // Property 14: T·ε(S, b, n, m) = ε for b = S/(mε₀), to 1e-12.
  const double S = *positive_log_uniform<double>(0.1, 100.0);
  const double eps = *positive_log_uniform<double>(0.01, 10.0);
  const long long n = *rc::gen::inRange<long long>(1, 1000000);
  const long long m = *rc::gen::inRange<long long>(1, n + 1);
  const long long T = *rc::gen::inRange<long long>(1, 5000);
  const auto c = accel::prop31(S, eps, T, n, m);
  const double e = accel::iteration_epsilon(S, c.b, n, m);
  RC_ASSERT(std::abs(static_cast<double>(T) * e - eps) <= 1e-12 * eps);
  if (m == n)
    RC_ASSERT(std::abs(c.b - S * static_cast<double>(T) / (static_cast<double>(n) * eps)) <=
              1e-13 * c.b);
}

RC_GTEST_PROP(ACCEL_NAGOPT, ClosedFormBeatsPerturbationsAndSpendsEps, ()) {
  // Prop 4.2 at m = n: the closed form satisfies Σ S₁/(n b_t) = ε and no feasible random
  // perturbation (rescaled to spend exactly ε) lowers Σ a_t b_t².
  const long long T = *rc::gen::inRange<long long>(2, 40);
  const double mu = *positive_log_uniform<double>(1e-3, 0.5), L = 1;
  const double alpha = *real_in<double>(0.05, 1.0);
  const auto w = accel::nag_weights(T, mu, alpha, L);
  const double S1 = 2, eps = 1;
  const long long n = 1000;
  const auto opt = accel::prop42(w, S1, n, eps);
  double spent = 0, obj = 0;
  for (long long t = 0; t < T; ++t) {
    spent += S1 / (static_cast<double>(n) * opt.b[t]);
    obj += w[t] * opt.b[t] * opt.b[t];
  }
  RC_ASSERT(std::abs(spent - eps) <= 1e-12);
  std::vector<double> b = opt.b;
  double sp = 0;
  for (auto& x : b) {
    x *= 1 + 0.2 * *real_in<double>(-1, 1);
    sp += S1 / (static_cast<double>(n) * x);
  }
  double o2 = 0;
  for (long long t = 0; t < T; ++t) {
    b[t] *= sp / eps;  // rescale to spend exactly ε
    o2 += w[t] * b[t] * b[t];
  }
  RC_ASSERT(o2 >= obj * (1 - 1e-12));
  for (long long t = 1; t < T; ++t) RC_ASSERT(w[t] >= w[t - 1]);  // errata ACC-E5
}

}  // namespace

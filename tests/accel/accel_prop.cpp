// Property tests of the accel component (spec/accel.md): S1 bound for random neighbours,
// Theorem 3.5's ρ vs the λ-grid spectral radius (errata property 17), MASG stage contraction
// (property 18), Prop 3.1 exact spend (property 14) and the Prop 4.2 closed form.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <variant>
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

// ------------------------------------------------------ PRIV.ACCEL.L1_BOUND / CLAMP ---------

/// A random small instance for the PRIV.ACCEL properties: n records of dimension d with
/// ‖u_i‖₁ <= B (scaled below it), labels ±1.
struct priv_instance {
  long long n, m, k;  ///< records, batch size, the record that differs
  double B, lambda;
  matrix<double> U;
  vector<double> z, x;
  std::vector<long long> batch;  ///< m distinct indices containing k
};

/// A record of l1 norm `norm` in a random direction (±v/‖v‖₁ scaled).
vector<double> record_of_norm(int d, double norm) {
  vector<double> u(d);
  double s = 0;
  for (int j = 0; j < d; ++j) {
    u[j] = *real_in<double>(-1, 1);
    s += std::abs(u[j]);
  }
  if (s == 0) u[0] = s = 1;
  return u * (norm / s);
}

priv_instance gen_priv_instance() {
  priv_instance I;
  const int d = *rc::gen::inRange(1, 6);
  I.n = *rc::gen::inRange<long long>(2, 13);
  I.m = *rc::gen::inRange<long long>(1, I.n + 1);
  I.k = *rc::gen::inRange<long long>(0, I.n);
  I.B = *positive_log_uniform<double>(0.1, 50.0);
  I.lambda = *positive_log_uniform<double>(1e-4, 10.0);
  I.U.resize(d, I.n);
  I.z.resize(I.n);
  for (long long i = 0; i < I.n; ++i) {
    I.U.col(i) = record_of_norm(d, *real_in<double>(0, 1) * I.B * (1 - 1e-12));
    I.z[i] = *rc::gen::arbitrary<bool>() ? 1.0 : -1.0;
  }
  I.x.resize(d);
  for (int j = 0; j < d; ++j) I.x[j] = *real_in<double>(-50, 50);
  std::vector<long long> others;
  for (long long i = 0; i < I.n; ++i)
    if (i != I.k) others.push_back(i);
  for (std::size_t j = others.size(); j > 1; --j)  // random order of the others
    std::swap(others[j - 1], others[static_cast<std::size_t>(
                                 *rc::gen::inRange<long long>(0, static_cast<long long>(j)))]);
  I.batch = {I.k};
  I.batch.insert(I.batch.end(), others.begin(), others.begin() + (I.m - 1));
  return I;
}

/// The statistic the engine releases before the noise: the full gradient (m = n, the fused
/// double kernel) or the minibatch gradient (2.7) of the batch.
vector<double> released_gradient(const problems::logistic_regression<double>& P,
                                 const priv_instance& I, const vector<double>& x) {
  vector<double> g;
  if (I.m == I.n)
    P.gradient_into(x, g);
  else
    P.minibatch_gradient_into(x, I.batch, g);
  return g;
}

/// The one-step ledger of accel::run on P at batch m (what the certificate charges).
accounting::event<double> one_step_event(const problems::logistic_regression<double>& P,
                                         long long m, dpref::noise_mode release, double clamp = 0) {
  accel::params<double> p;
  p.algorithm = accel::algorithm_kind::gd;
  p.iterations = 1;
  if (m < P.size()) p.m = m;
  p.release = release;
  if (clamp > 0) p.clamp = clamp;
  const auto r = accel::run(P, p, philox_stream(1));
  RC_ASSERT(r.privacy.ledger.events().size() == 1u);
  return r.privacy.ledger.events().front();
}

/// Rounding allowance of ‖g − g′‖₁ in double: the shared records' partial sums and the common
/// 2λx term round differently (at most a few ulps of B + 2λ‖x‖∞ per coordinate).
double rounding_allowance(const priv_instance& I) {
  return 4.0 * static_cast<double>(I.U.rows() * (I.m + 4)) * 0x1p-52 *
         (I.B + 2 * I.lambda * I.x.lpNorm<Eigen::Infinity>());
}

// Random neighbours (record k replaced by one of l1 norm f·B, f log-uniform in [0.01, 1000], so
// about half violate B): a violating record is refused by the problem (naming l1_bound and the
// record); for an admitted one the released gradient moves by at most the ledger's Δ1 = S₁/m in
// l1. Negative control in every violating case with f >= 8: the same record admitted with its
// own bound (enforcement off) moves the gradient at x = 0 by more than Δ1.
RC_GTEST_PROP(PRIV_ACCEL_L1_BOUND, ReleasedGradientMovesAtMostTheLedgersSensitivity, ()) {
  const priv_instance I = gen_priv_instance();
  const int d = static_cast<int>(I.U.rows());
  const problems::logistic_regression<double> P(I.U, I.z, I.lambda, I.B);
  const auto ev = one_step_event(P, I.m, dpref::noise_mode::idealised);
  const double sens = std::get<accounting::laplace_mechanism<double>>(ev.what).sensitivity;
  RC_ASSERT(sens >= P.l1_sensitivity() / static_cast<double>(I.m));
  double f = *positive_log_uniform<double>(0.01, 1000.0);
  if (std::abs(f - 1) < 1e-6) f = 0.5;
  matrix<double> U2 = I.U;
  U2.col(I.k) = record_of_norm(d, f * I.B);
  vector<double> z2 = I.z;
  z2[I.k] = *rc::gen::arbitrary<bool>() ? 1.0 : -1.0;
  if (f > 1) {
    try {
      (void)problems::logistic_regression<double>(U2, z2, I.lambda, I.B);
      RC_FAIL("a record above the l1 bound was admitted");
    } catch (const invalid_parameter& e) {
      RC_ASSERT(e.field() == "l1_bound");
      RC_ASSERT(std::string(e.what()).find("of record i = " + std::to_string(I.k)) !=
                std::string::npos);
    }
    if (f >= 8) {  // negative control: the record admitted (its own bound)
      const problems::logistic_regression<double> off(U2, z2, I.lambda, f * I.B * (1 + 1e-9));
      const vector<double> zero = vector<double>::Zero(d);
      RC_ASSERT((released_gradient(P, I, zero) - released_gradient(off, I, zero)).lpNorm<1>() >
                sens);
    }
    return;
  }
  const problems::logistic_regression<double> P2(U2, z2, I.lambda, I.B);
  const double moved = (released_gradient(P, I, I.x) - released_gradient(P2, I, I.x)).lpNorm<1>();
  RC_ASSERT(moved <= sens + rounding_allowance(I));
}

// Secure mode: the shipped secure step (accel::detail::secure_gradient, SEC.LAPLACE.SUM) of
// admitted neighbours, drawn with the same stream, moves by at most Δ1/2^k + d grid steps in l1 —
// the shift the snapped_laplace event of the ledger charges (ε = (Δ1 + d 2^k)/(2^k t)) — with NO
// allowance for floating-point error (the examples' shares are bounded on the lattice), for a
// random clamp C of the sum, small ones included (clamping active); clamping never increases the
// l1 distance. Negative control: TieShiftNeedsTheInflation, and SEC_ACCEL_AUDIT's coordinate form.
RC_GTEST_PROP(PRIV_ACCEL_CLAMP, LatticeQueryMovesAtMostTheChargedShift, ()) {
  const priv_instance I = gen_priv_instance();
  const int d = static_cast<int>(I.U.rows());
  const problems::logistic_regression<double> P(I.U, I.z, I.lambda, I.B);
  matrix<double> U2 = I.U;
  U2.col(I.k) = record_of_norm(d, *real_in<double>(0, 1) * I.B * (1 - 1e-12));
  vector<double> z2 = I.z;
  z2[I.k] = -z2[I.k];
  const problems::logistic_regression<double> P2(U2, z2, I.lambda, I.B);
  const double C = *positive_log_uniform<double>(1e-3, 1e4) * I.B;
  const auto ev = one_step_event(P, I.m, dpref::noise_mode::secure, C);
  const auto& sl = std::get<accounting::snapped_laplace_mechanism<double>>(ev.what);
  RC_ASSERT(sl.dimension == d);
  mechanisms::snapped_laplace_params sp;  // the run's lattice release, from its ledger event
  sp.sensitivity = sl.sensitivity;
  sp.scale = std::ldexp(static_cast<double>(sl.grid_scale), sl.grid_exponent);
  sp.dimension = d;
  sp.clamp = C;
  sp.grid_exponent = sl.grid_exponent;
  sp.shape = mechanisms::clamp_set::sum_of_l1_balls;
  sp.record_radius = sl.sensitivity / 2;
  const std::span<const long long> batch =
      I.m == I.n ? std::span<const long long>() : std::span<const long long>(I.batch);
  const auto release = [&](const problems::logistic_regression<double>& Q) {
    philox_stream s(3, 4);
    vector<double> offset(d);
    return accel::detail::secure_gradient(Q, I.x, batch, s, sp, offset);
  };
  const vector<double> y = release(P), y2 = release(P2);
  const double steps = std::ldexp((y - y2).lpNorm<1>(), -sl.grid_exponent);  // exact lattice
  RC_ASSERT(steps <= std::ldexp(sl.sensitivity, -sl.grid_exponent) + d);
  const vector<double> g = released_gradient(P, I, I.x), g2 = released_gradient(P2, I, I.x);
  double clamped = 0;
  for (int j = 0; j < d; ++j)
    clamped += std::abs(std::clamp(g[j], -C, C) - std::clamp(g2[j], -C, C));
  RC_ASSERT(clamped <= (g - g2).lpNorm<1>());
}

TEST(PRIV_ACCEL_CLAMP, TieShiftNeedsTheInflation) {
  // The charged shift Δ1/2^k + d is attained: at a tie (g at half a grid step, g′ an odd number
  // of steps further) every coordinate moves by one step more than (g′ − g)/2^k, so a ledger
  // charging Δ1/2^k alone would be exceeded (what the property above would catch).
  const int k = -10, d = 3;
  const double step = std::ldexp(1.0, k), C = 1;
  double steps = 0, moved = 0;
  for (int j = 0; j < d; ++j) {
    const double a = step / 2, b = a + 5 * step;
    moved += b - a;
    steps += static_cast<double>(secure::lattice_round(b, k, C) - secure::lattice_round(a, k, C));
  }
  EXPECT_GT(steps, std::ldexp(moved, -k));
  EXPECT_EQ(steps, std::ldexp(moved, -k) + d);
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

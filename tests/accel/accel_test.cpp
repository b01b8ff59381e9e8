// Unit tests of the accel component (spec/accel.md): problems, algorithms, privacy plans,
// bounds. Every test is deterministic (fixed seeds); statistical checks state their sample size
// and false-alarm probability and have a negative control.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <numeric>
#include <set>
#include <vector>

#include "dpref/accel/accel.hpp"
#include "dpref/accel/study.hpp"
#include "dpref/problems/fast_exp.hpp"
#include "dpref/problems/logistic_kernel.hpp"
#include "dpref/problems/quadratic.hpp"
#include "dpref/problems/real_logistic.hpp"
#include "support/accel_problems.hpp"
#include "support/messages.hpp"

// Allocation counter for ACCEL_ENGINE.NoAllocationPerIteration (replaces the global
// operator new/delete of this test program only; GCC cannot see that the replaced pair is
// malloc/free based and warns at inlined call sites).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
std::atomic<long long> g_allocations{0};
void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace dpref;
using dpref::accel::noise_mode;
using dpref::accel::params;

problems::logistic_data small_data(long long n = 200, long long d = 5, double B = 5) {
  return problems::synthetic_logistic_data(n, d, B, philox_stream(7, 1));
}

/// The logistic problem of small_data() with λ = 0.01.
auto small_logistic() { return problems::make_logistic<double>(small_data(), 0.01); }

/// T non-private iterations from x0 = (1, 1) with the objective trace (the rates on
/// diag_quadratic).
params<double> quadratic_rate_params(long long T) {
  params<double> p;
  p.iterations = T;
  p.noise = noise_mode::none;
  p.trace = true;
  p.x0 = vector<double>::Ones(2);
  return p;
}

problems::quadratic<double> diag_quadratic(double mu, double L) {
  matrix<double> Q = matrix<double>::Zero(2, 2);
  Q(0, 0) = mu;
  Q(1, 1) = L;
  return problems::quadratic<double>(Q, vector<double>::Zero(2));
}

/// Least-squares slope of log y_t over t in [t0, t1].
double fitted_log_rate(const std::vector<double>& y, std::size_t t0, std::size_t t1) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0;
  for (std::size_t t = t0; t <= t1; ++t) {
    const double X = static_cast<double>(t), Y = std::log(y[t]);
    sx += X, sy += Y, sxx += X * X, sxy += X * Y, k += 1;
  }
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

// ------------------------------------------------------------------------ problems -------

TEST(ACCEL_LOGISTIC, GradientMatchesFiniteDifferencesAndExamples) {
  const auto data = small_data();
  const auto P = problems::make_logistic<double>(data, 0.01);
  vector<double> x(5);
  x << 0.3, -0.2, 0.5, 1.0, -1.5;
  const vector<double> g = P.gradient(x);
  for (int j = 0; j < 5; ++j) {
    vector<double> e = vector<double>::Zero(5);
    e[j] = 1e-6;
    const double fd = (P.value(x + e) - P.value(x - e)) / 2e-6;
    EXPECT_NEAR(g[j], fd, 1e-7) << j;
  }
  vector<double> s = vector<double>::Zero(5);
  for (long long i = 0; i < P.size(); ++i) s += P.example_gradient(x, i);
  EXPECT_LT((s / 200.0 - g).norm(), 1e-13);
  std::vector<long long> all(200);
  std::iota(all.begin(), all.end(), 0LL);
  vector<double> gb;
  P.minibatch_gradient_into(x, all, gb);
  EXPECT_LT((gb - g).norm(), 1e-13);
  EXPECT_EQ(P.l1_sensitivity(), 10.0);
  EXPECT_EQ(P.strong_convexity(), 0.02);
}

TEST(ACCEL_LOGISTIC, RejectsInvalidData) {
  matrix<double> U(2, 2);
  U << 1, 0, 0, 3;
  vector<double> z(2);
  z << 1, -1;
  EXPECT_THROW(problems::logistic_regression<double>(U, z, 0.01, 2.0), std::domain_error);
  z << 1, 0;
  EXPECT_THROW(problems::logistic_regression<double>(U, z, 0.01, 5.0), std::invalid_argument);
  z << 1, -1;
  EXPECT_THROW(problems::logistic_regression<double>(U, z, 0.0, 5.0), std::domain_error);
}

// PRIV.ACCEL.L1_BOUND: the record check decides Σ|u_j| <= B exactly. 1024 terms 2^-10 sum to
// B = 1 exactly (admitted); one more term 2^-e below the scalar's precision leaves the rounded sum
// at 1 but the exact one above B (refused), at double, long double and mp50.
template <class Real>
void expect_exact_l1_comparison(int e) {
  vector<Real> v = vector<Real>::Constant(1025, Real(0));
  for (Eigen::Index j = 0; j < 1024; ++j) v[j] = (j % 2 ? Real(1) : Real(-1)) / Real(1024);
  Real norm(0);
  EXPECT_TRUE(problems::l1_norm_within(v, Real(1), norm));
  EXPECT_EQ(norm, Real(1));
  using std::ldexp;
  v[1024] = ldexp(Real(1), -e);
  EXPECT_FALSE(problems::l1_norm_within(v, Real(1), norm)) << scalar_name<Real>();
  EXPECT_EQ(norm, Real(1));  // the rounded sum alone would have admitted it
  EXPECT_TRUE(problems::l1_norm_within(v, Real(1) + machine_epsilon<Real>(), norm));
  // far from the bound the rounded sum decides
  EXPECT_TRUE(problems::l1_norm_within(v, Real(2), norm));
  EXPECT_FALSE(problems::l1_norm_within(v, Real(1) / 2, norm));
}

TEST(ACCEL_S1, RecordCheckIsExact) {
  expect_exact_l1_comparison<double>(60);
  expect_exact_l1_comparison<long double>(70);
  expect_exact_l1_comparison<mp50>(200);
  // the constructor: a record on the bound is admitted, one above refused naming it
  matrix<double> U(2, 3);
  U << 0.25, 1, 0.25, 0.75, 0, std::nextafter(0.75, 1.0);
  vector<double> z = vector<double>::Ones(3);
  const std::string msg =
      test::message_of([&] { (void)problems::logistic_regression<double>(U, z, 0.01, 1.0); });
  EXPECT_NE(msg.find("logistic_regression.l1_bound must be >= ||u_i||_1 = 1 of record i = 2"),
            std::string::npos)
      << msg;
  U(1, 2) = 0.75;
  EXPECT_NO_THROW((void)problems::logistic_regression<double>(U, z, 0.01, 1.0));
}

TEST(ACCEL_S1, RegulariserGradientCancelsBetweenNeighbours) {
  // ∇f(x;y) − ∇f(x;y′) does not depend on λ (the 2λx terms cancel).
  const auto data = small_data();
  const auto P1 = problems::make_logistic<double>(data, 0.01);
  const auto P2 = problems::make_logistic<double>(data, 3.0);
  vector<double> x = vector<double>::Constant(5, 0.7);
  const vector<double> d1 = P1.example_gradient(x, 3) - P1.example_gradient(x, 17);
  const vector<double> d2 = P2.example_gradient(x, 3) - P2.example_gradient(x, 17);
  EXPECT_LT((d1 - d2).norm(), 1e-14);
  EXPECT_LE(d1.lpNorm<1>(), P1.l1_sensitivity());
}

TEST(ACCEL_LPUBLIC, PublicSmoothnessBoundsEveryDatasetAndIgnoresTheData) {
  // B²/4 + 2λ is an upper bound of the certified data L for every dataset with ‖u‖₁ <= B, and
  // the same number for every such dataset (it carries no information about the data).
  double first = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const auto data = problems::synthetic_logistic_data(150, 4, 5.0, philox_stream(seed, 3));
    const auto P = problems::make_logistic<double>(data, 0.01);
    EXPECT_GE(P.public_smoothness(), P.smoothness());
    if (seed == 1) first = P.public_smoothness();
    EXPECT_EQ(P.public_smoothness(), first);
  }
  EXPECT_GE(first, 25.0 / 4 + 0.02);
  EXPECT_LE(first, (25.0 / 4 + 0.02) * (1 + 1e-15));
}

TEST(ACCEL_LCERT, CertifiedSmoothnessIsATightUpperBound) {
  const auto data = small_data(500, 6, 6);
  const auto P = problems::make_logistic<double>(data, 0.01);
  const auto P50 = problems::make_logistic<mp50>(data, mp50(1) / 100);
  const double L = P.smoothness();
  // Reference λ_max at 50 digits.
  const matrix<mp50> G = P50.features() * P50.features().transpose() / mp50(4 * 500);
  matrix<mp50> V;
  vector<mp50> th;
  problems::jacobi_eigen(G, V, th);
  const mp50 ref = th[5] + mp50(2) * P50.lambda();
  EXPECT_GE(mp50(L), ref);
  EXPECT_LT((mp50(L) - ref) / ref, mp50(1e-10));
  const matrix<double> Gd = P.features() * P.features().transpose() / 2000.0;
  EXPECT_LE(L, problems::gershgorin_upper(Gd) * (1 + 1e-12) + 0.02);
  const mp50 L50 = P50.smoothness();
  EXPECT_GE(L50, ref);
  EXPECT_LT((L50 - ref) / ref, mp50(1e-40));
}

TEST(ACCEL_DATA, GeneratorIsBoundedAndPerExample) {
  const auto a = problems::synthetic_logistic_data(50, 20, 20.0, philox_stream(3));
  const auto b = problems::synthetic_logistic_data(80, 20, 20.0, philox_stream(3));
  for (Eigen::Index i = 0; i < 50; ++i) {
    EXPECT_LE(a.features.col(i).lpNorm<1>(), 20.0);
    EXPECT_EQ(a.features.col(i), b.features.col(i));  // example i reads substream i only
    EXPECT_EQ(a.labels[i], b.labels[i]);
  }
  EXPECT_THROW(problems::synthetic_logistic_data(0, 2, 1.0, philox_stream(3)), std::domain_error);
}

TEST(ACCEL_QUAD, MinimiserAndConstants) {
  matrix<double> Q(2, 2);
  Q << 2, 1, 1, 3;
  vector<double> a(2);
  a << 1, -1;
  problems::quadratic<double> F(Q, a, 2.0);
  EXPECT_LT(F.gradient(F.minimiser()).norm(), 1e-14);
  EXPECT_NEAR(F.strong_convexity(), (5 - std::sqrt(5.0)) / 2, 1e-14);
  EXPECT_NEAR(F.smoothness(), (5 + std::sqrt(5.0)) / 2, 1e-14);
  matrix<double> bad(2, 2);
  bad << 1, 0, 0, -1;
  EXPECT_THROW(problems::quadratic<double>(bad, a), std::domain_error);
}

// ---------------------------------------------------------------------- algorithms -------

TEST(ACCEL_GD, LedgerSumsToEpsAndUniformSplitAtFullBatch) {
  const auto data = small_data();
  const auto P = problems::make_logistic<double>(data, 0.01);
  params<double> p;
  p.iterations = 50;
  p.epsilon = 0.7;
  p.trace = true;
  p.diagnostics = true;  // the objective trace of a private run is a non-private diagnostic
  const auto r = accel::dp_gd::run(P, p, philox_stream(11));
  EXPECT_EQ(r.status, dpref::status::completed);
  EXPECT_NEAR(r.eps_spent, 0.7, 1e-14);
  EXPECT_GE(r.eps_spent, 0.7 * (1 - 1e-15));
  ASSERT_EQ(r.noise_scales.size(), 50u);
  const double expect_b = P.l1_sensitivity() * 50 / (200 * 0.7);  // S1·T/(nε)
  EXPECT_NEAR(r.noise_scales[0], expect_b, 1e-14 * expect_b);
  EXPECT_EQ(r.trace.size(), 51u);
  // Subsampled: ledger still sums to ε.
  p.m = 20;
  const auto s = accel::dp_gd::run(P, p, philox_stream(11));
  EXPECT_NEAR(s.eps_spent, 0.7, 1e-14);
  EXPECT_GT(s.noise_scales[0], 0.0);
}

TEST(ACCEL_GD, SameSeedSameRunDifferentSeedDifferentRun) {
  const auto P = small_logistic();
  params<double> p;
  p.iterations = 10;
  p.m = 30;
  const auto a = accel::dp_gd::run(P, p, philox_stream(5));
  const auto b = accel::dp_gd::run(P, p, philox_stream(5));
  const auto c = accel::dp_gd::run(P, p, philox_stream(6));
  EXPECT_EQ(a.x, b.x);
  EXPECT_NE(a.x, c.x);
}

TEST(ACCEL_SHB, SmoothingFormIsExactlyTheHeavyBallUpdate) {
  // (3.6)–(3.7) driven by the same noisy gradients reproduces (3.1) (up to rounding).
  const auto P = small_logistic();
  params<double> p;
  p.iterations = 40;
  p.beta = 0.6;
  p.c = 0.5;
  const auto r = accel::dp_shb::run(P, p, philox_stream(9));
  const double alpha = r.alpha, beta = 0.6, b = r.noise_scales[0];
  vector<double> x = vector<double>::Constant(5, 10.0), u(5), g(5);
  for (long long t = 0; t < p.iterations; ++t) {
    philox_stream s = philox_stream(9).substream(static_cast<std::uint64_t>(t));
    P.gradient_into(x, g);
    for (int i = 0; i < 5; ++i) g[i] += laplace<double>(s, b);
    u = t == 0 ? vector<double>((1 - beta) * g) : vector<double>(beta * u + (1 - beta) * g);
    x = x - alpha / (1 - beta) * u;
  }
  EXPECT_LT((x - r.x).norm(), 1e-10 * (1 + x.norm()));
}

TEST(ACCEL_SHB, NonPrivateRateMatchesTheorem35) {
  // F − F* of HB on diag(μ, L) decays like ρ^{2t}, ρ from (3.18). Fit over t ∈ [50, 400];
  // tolerance 3% of 2 ln ρ (oscillation of the complex modes; the fit window spans > 10
  // periods).
  const double mu = 0.5, L = 1;
  const auto F = diag_quadratic(mu, L);
  for (const auto& [alpha, beta] :
       std::vector<std::pair<double, double>>{{0.5, 0.3}, {1.0, 0.5}, {0.2, 0.05}, {0.9, 0.0289}}) {
    auto p = quadratic_rate_params(400);
    p.alpha = alpha;
    p.beta = beta;
    const auto r = accel::dp_shb::run(F, p, philox_stream(1));
    EXPECT_TRUE(r.privacy.ledger.events().empty());
    EXPECT_FALSE(r.privacy.is_private);
    const double rho = accel::bounds::hb_rate(alpha, beta, mu, L);
    std::size_t t1 = 400;
    while (t1 > 60 && r.trace[t1] < 1e-280) --t1;
    const double slope = fitted_log_rate(r.trace, 50, t1);
    EXPECT_NEAR(slope, 2 * std::log(rho), 0.03 * std::abs(2 * std::log(rho)))
        << alpha << " " << beta;
  }
}

TEST(ACCEL_NAG, NonPrivateRateMatchesSpectralRadiusAndTheorem41) {
  const double mu = 0.05, L = 1;
  const auto F = diag_quadratic(mu, L);
  for (const double c : {1.0, 0.5, 0.1}) {
    auto p = quadratic_rate_params(600);
    p.c = c;
    const auto r = accel::dp_nag::run(F, p, philox_stream(1));
    const double alpha = c / L, beta = r.beta;
    EXPECT_NEAR(beta, (1 - std::sqrt(mu * alpha)) / (1 + std::sqrt(mu * alpha)), 1e-15);
    double rho = 0;
    for (const double l : {mu, L})
      rho = std::max(rho, accel::bounds::nag_mode_radius(alpha, beta, l));
    std::size_t t1 = 600;
    while (t1 > 100 && r.trace[t1] < 1e-280) --t1;
    const double slope = fitted_log_rate(r.trace, 60, t1);
    EXPECT_NEAR(slope, 2 * std::log(rho), 0.05 * std::abs(2 * std::log(rho))) << c;
    // Theorem 4.1 with b = 0: E_t ≤ (1 − √(μα))^t E_0 (E_0 for x_{−1} = x_0 is F(x0) − F*)
    // holds at every t, up to the potential's factor: E_t ≤ 2(1 − √(μα))^t E_0 + rounding.
    for (std::size_t t = 0; t <= 600; t += 50)
      EXPECT_LE(r.trace[t],
                2 * std::pow(1 - std::sqrt(mu * alpha), double(t)) * r.trace[0] + 1e-300)
          << c << " " << t;
  }
}

TEST(ACCEL_NAGOPT, ScalesFollowProp42AndDecrease) {
  const auto P = small_logistic();
  params<double> p;
  p.iterations = 60;
  p.epsilon = 1;
  const auto r = accel::dp_nag_opt::run(P, p, philox_stream(2));
  ASSERT_EQ(r.noise_scales.size(), 60u);
  for (std::size_t t = 1; t < 60; ++t) EXPECT_LE(r.noise_scales[t], r.noise_scales[t - 1]);
  EXPECT_NEAR(r.eps_spent, 1.0, 1e-13);
  EXPECT_LE(r.eps_spent, 1.0 + 1e-13);
  // (4.5) directly.
  const auto w = accel::nag_weights(60, P.strong_convexity(), r.alpha, P.public_smoothness());
  double s = 0;
  for (double a : w) s += std::cbrt(a);
  for (std::size_t t = 0; t < 60; ++t) {
    const double b = s * P.l1_sensitivity() / (std::cbrt(w[t]) * 200 * 1.0);
    EXPECT_NEAR(r.noise_scales[t], b, 1e-12 * b);
  }
  // Remark 4.1: with E0 the run length is the minimiser of (4.6).
  p.E0 = 10.0;
  p.iterations = 500;
  const auto q = accel::dp_nag_opt::run(P, p, philox_stream(2));
  const auto choice =
      accel::remark41_choose_T(10.0, P.strong_convexity(), q.alpha, P.public_smoothness(), 5,
                               P.l1_sensitivity(), 200, 1.0, 500);
  EXPECT_EQ(q.iterations, choice.T);
  EXPECT_LT(q.iterations, 500);
  EXPECT_NEAR(q.eps_spent, 1.0, 1e-13);
  // Subsampled (Remark 4.2): the ε_t split is kept, the ledger still sums to ε.
  p.E0.reset();
  p.iterations = 60;
  p.m = 50;
  const auto sub = accel::dp_nag_opt::run(P, p, philox_stream(2));
  EXPECT_NEAR(sub.eps_spent, 1.0, 1e-13);
  for (std::size_t t = 1; t < 60; ++t) EXPECT_LE(sub.noise_scales[t], sub.noise_scales[t - 1]);
}

TEST(ACCEL_MASG, StagesFollow47) {
  const double mu = 1, L = 20;
  const auto s = accel::make_masg_schedule<double>(2000, mu, L, 1, 7, 1.0);
  const long long base = static_cast<long long>(std::ceil(std::sqrt(20.0) * 3 * std::log(2.0)));
  EXPECT_EQ(s.base, base);
  EXPECT_EQ(s.stage_length[0], 7);
  EXPECT_DOUBLE_EQ(s.stage_step[0], 1.0 / 20);
  long long total = 0;
  for (std::size_t k = 0; k < s.stage_length.size(); ++k) {
    total += s.stage_length[k];
    if (k >= 1) {
      const auto kk = static_cast<long long>(k + 1);
      EXPECT_DOUBLE_EQ(s.stage_step[k], 1.0 / (std::pow(4.0, double(kk)) * L));
      if (k + 1 < s.stage_length.size()) {
        EXPECT_EQ(s.stage_length[k], (1LL << kk) * base);
      }
    }
  }
  EXPECT_EQ(total, 2000);
  EXPECT_EQ(static_cast<long long>(s.stage_of.size()), 2000);
  EXPECT_THROW(accel::make_masg_schedule<double>(10, 2.0, 1.0, 1, 0, 1.0), std::domain_error);
  EXPECT_THROW(accel::make_masg_schedule<double>(10, 1.0, 2.0, 0, 0, 1.0), std::domain_error);
}

TEST(ACCEL_THM43, NonPrivateMasgRespectsBound48) {
  const double mu = 0.1, L = 1;
  const auto F = diag_quadratic(mu, L);
  auto p = quadratic_rate_params(500);
  p.masg_n1 = 200;
  const auto r = accel::dp_masg::run(F, p, philox_stream(1));
  const auto s = accel::make_masg_schedule<double>(500, mu, L, 1, 200, 1.0);
  // (4.8) with b = 0 at the end of every stage (potential factor 2 as for NAG).
  long long t = 0;
  for (std::size_t k = 0; k < s.stage_length.size(); ++k) {
    t += s.stage_length[k];
    const auto w = accel::bounds::masg_weights(s, t, mu, L);
    EXPECT_LE(r.trace[static_cast<std::size_t>(t)], 2 * w.a0 * r.trace[0] + 1e-300) << t;
  }
  // Stage 1 is NAG at α = 1/L: linear decay at the NAG spectral rate.
  const double beta = (1 - std::sqrt(mu)) / (1 + std::sqrt(mu));
  const double rho = std::max(accel::bounds::nag_mode_radius(1.0, beta, mu),
                              accel::bounds::nag_mode_radius(1.0, beta, L));
  EXPECT_NEAR(fitted_log_rate(r.trace, 10, 200), 2 * std::log(rho),
              0.05 * std::abs(2 * std::log(rho)));
}

TEST(ACCEL_MASGOPT, WeightsAndLedger) {
  const auto P = small_logistic();
  params<double> p;
  p.iterations = 120;
  p.epsilon = 1;
  const auto r = accel::dp_masg_opt::run(P, p, philox_stream(4));
  EXPECT_NEAR(r.eps_spent, 1.0, 1e-13);
  EXPECT_EQ(r.noise_scales.size(), 120u);
  // Direct evaluation of the weights of (4.8).
  const double mu = P.strong_convexity(), L = P.public_smoothness();  // params.L unset
  const auto s = accel::make_masg_schedule<double>(120, mu, L, 1, 0, 1.0);
  const auto w = accel::bounds::masg_weights(s, 120, mu, L);
  for (long long t = 1; t <= 120; t += 17) {
    const long long st = s.stage_of[t - 1], sT = s.stage_of[119];
    double prod = 1;
    for (long long i = t + 1; i <= 120; ++i)
      prod *= 1 - std::sqrt(mu * s.stage_step[s.stage_of[i - 1] - 1]);
    const double al = s.stage_step[st - 1];
    const double a = std::pow(2.0, double(sT - st)) * prod * al * (1 + al * L);
    EXPECT_NEAR(w.a[t - 1], a, 1e-12 * a) << t;
  }
  // With E0 the chosen T′ is the brute-force minimiser of the optimal-split bound.
  p.E0 = 10.0;
  p.iterations = 150;
  const auto q = accel::dp_masg_opt::run(P, p, philox_stream(4));
  const auto s2 = accel::make_masg_schedule<double>(150, mu, L, 1, 0, 1.0);
  long long best = 0;
  double best_v = 0;
  for (long long T = 1; T <= 150; ++T) {
    const auto wt = accel::bounds::masg_weights(s2, T, mu, L);
    const double v =
        accel::bounds::optimal_split_bound(wt.a0, wt.a, 10.0, 5, P.l1_sensitivity(), 200, 1.0);
    if (best == 0 || v < best_v) best = T, best_v = v;
  }
  EXPECT_EQ(q.iterations, best);
  EXPECT_NEAR(q.eps_spent, 1.0, 1e-13);
}

TEST(ACCEL_ENGINE, MinibatchesAreDistinctAndUniform) {
  // A problem that records its minibatches. n = 10, m = 4, T = 5000: each index appears
  // 2000 times in expectation. Chi-square (9 df) > 33.7 has probability 1e-4 under H0;
  // negative control: the same statistic on an off-by-one sampler that never picks n − 1.
  struct recorder : dpref::test::accel_stub<10> {
    mutable std::vector<long long> counts = std::vector<long long>(10, 0);
    mutable bool distinct = true;
    void gradient_into(const vector<double>&, vector<double>& g) const { g.setZero(1); }
    void minibatch_gradient_into(const vector<double>&, std::span<const long long> b,
                                 vector<double>& g) const {
      std::set<long long> seen(b.begin(), b.end());
      distinct = distinct && seen.size() == b.size();
      for (long long i : b) ++counts[static_cast<std::size_t>(i)];
      g.setZero(1);
    }
  } rec;
  params<double> p;
  p.iterations = 5000;
  p.m = 4;
  p.alpha = 0.1;
  p.noise = noise_mode::none;
  accel::dp_gd::run(rec, p, philox_stream(13));
  EXPECT_TRUE(rec.distinct);
  const auto chi2 = [](const std::vector<long long>& c, double e) {
    double s = 0;
    for (long long k : c) s += (double(k) - e) * (double(k) - e) / e;
    return s;
  };
  EXPECT_LT(chi2(rec.counts, 2000.0), 33.7);
  std::vector<long long> bad(10, 0);
  philox_stream s(13);
  for (int t = 0; t < 5000; ++t) {
    std::vector<long long> perm(10);
    std::iota(perm.begin(), perm.end(), 0LL);
    for (int j = 0; j < 4; ++j) {
      const long long k = j + secure::uniform_int<std::int64_t>(s, 9 - j);  // off by one
      std::swap(perm[j], perm[k]);
      ++bad[perm[j]];
    }
  }
  EXPECT_GT(chi2(bad, 2000.0), 33.7);
}

TEST(ACCEL_ENGINE, NoAllocationPerIteration) {
  // The double path allocates only at setup: runs of T = 10 and T = 200 (trace off) perform
  // the same number of allocations, for full batches and minibatches, for every algorithm.
  const auto P = small_logistic();
  (void)P.smoothness();
  const auto count = [&](auto&& f, long long T, long long m) {
    params<double> p;
    p.iterations = T;
    if (m > 0) p.m = m;
    p.noise = noise_mode::fixed;  // same ledger shape for every T
    p.noise_scale = 0.1;
    p.allow_over_budget = true;  // b = 0.1 implies ε > 1: only the allocations matter here
    const long long before = g_allocations.load();
    f(p);
    return g_allocations.load() - before;
  };
  const auto gd = [&](const params<double>& p) { accel::dp_gd::run(P, p, philox_stream(1)); };
  const auto shb = [&](const params<double>& p) { accel::dp_shb::run(P, p, philox_stream(1)); };
  const auto nag = [&](const params<double>& p) { accel::dp_nag::run(P, p, philox_stream(1)); };
  EXPECT_GT(count(gd, 10, 0), 0);  // control: the counter sees the setup allocations
  for (const long long m : {0LL, 20LL}) {
    EXPECT_EQ(count(gd, 10, m), count(gd, 200, m)) << m;
    EXPECT_EQ(count(shb, 10, m), count(shb, 200, m)) << m;
    EXPECT_EQ(count(nag, 10, m), count(nag, 200, m)) << m;
  }
}

// ------------------------------------------------------------- fast exp (double path) -------

/// |a − exact|/ulp(exact) with exact = e^x at 50 digits (mp50 ≈ 166 bits); ulp of the double
/// nearest to exact (subnormal spacing below 2^-1022).
double ulp_error(double a, double x) {
  const mp50 exact = exp(mp50(x));
  const double ref = static_cast<double>(exact);
  const double ulp = std::max(std::nextafter(ref, 2 * ref + 1) - ref, 4.9406564584124654e-324);
  return static_cast<double>(abs(mp50(a) - exact)) / ulp;
}

TEST(ACCEL_FASTEXP, WithinTwoUlpOfMp50AndStdExpOnDenseSweeps) {
  // 2^13 + 1 equally spaced points over the whole normal and subnormal range, and 2^12 points in
  // the reduction interval [−ln2/2, ln2/2] where the polynomial alone matters (a 2^21-point
  // sweep measured max 1.02 ulp; kept small for the ASan CI build).
  double worst = 0, worst_at = 0;
  const int N = 1 << 13;
  for (int i = 0; i <= N; ++i) {
    const double x = -745.0 + (709.78 + 745.0) * i / N;
    const double e = ulp_error(problems::fastmath::exp(x), x);
    if (e > worst) worst = e, worst_at = x;
  }
  for (int i = 0; i <= (1 << 12); ++i) {
    const double x = -0.35 + 0.7 * i / (1 << 12);
    const double e = ulp_error(problems::fastmath::exp(x), x);
    if (e > worst) worst = e, worst_at = x;
  }
  EXPECT_LE(worst, 2.0) << "at x = " << worst_at;
  // Against glibc's exp on 2^20 points of [−50, 50] (integer ulp distance, same-sign values).
  std::vector<double> xs(1 << 20), ys(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i)
    xs[i] = -50.0 + 100.0 * static_cast<double>(i) / static_cast<double>(xs.size());
  problems::fastmath::exp_array(xs.data(), ys.data(), xs.size());
  std::int64_t max_dist = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    std::int64_t a = 0, b = 0;
    const double s = std::exp(xs[i]);
    std::memcpy(&a, &ys[i], 8);
    std::memcpy(&b, &s, 8);
    max_dist = std::max(max_dist, a > b ? a - b : b - a);
    ASSERT_EQ(ys[i], problems::fastmath::exp(xs[i]));  // array = scalar, bit for bit
  }
  EXPECT_LE(max_dist, 2);
  // Negative control: the checker flags a 3-ulp perturbation.
  EXPECT_GT(
      ulp_error(std::nextafter(std::nextafter(std::nextafter(std::exp(1.5), 10.0), 10.0), 10.0),
                1.5),
      2.0);
}

TEST(ACCEL_FASTEXP, TableExpOnItsRangeWithinTwoUlpOfMp50) {
  // exp_neg_normal (the SSE2 weights' exp) on its range [−708, 0]: 2^13 + 1 equally spaced
  // points, 2^12 points of [−0.01, 0] (reduction interval of k = 0), the ends and every table
  // index at the reduction boundaries x = −(j ± ½)·ln2/128 (a 2^21-point MPFR sweep of [−708, 0]
  // measured max 1.0 ulp, with and without FMA contraction). Each lane of a vector is checked.
  std::vector<double> xs{0.0, -0.0, -708.0, -1e-300, -0x1p-60};
  for (int i = 0; i <= (1 << 13); ++i) xs.push_back(-708.0 * i / (1 << 13));
  for (int i = 0; i <= (1 << 12); ++i) xs.push_back(-0.01 * i / (1 << 12));
  for (int j = 0; j < 300; ++j)
    for (const double h : {-0.5, 0.5})
      xs.push_back(std::max(-708.0, std::min(0.0, -(j + h) * 0.6931471805599453 / 128)));
  double worst = 0, worst_at = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    problems::fastmath::vdouble v{};
    for (std::size_t l = 0; l < problems::fastmath::lanes; ++l) v[l] = xs[(i + l) % xs.size()];
    const problems::fastmath::vdouble e = problems::fastmath::exp_neg_normal(v);
    for (std::size_t l = 0; l < problems::fastmath::lanes; ++l) {
      const double x = xs[(i + l) % xs.size()], err = ulp_error(e[l], x);
      if (err > worst) worst = err, worst_at = x;
    }
  }
  EXPECT_LE(worst, 2.0) << "at x = " << worst_at;
  EXPECT_TRUE(std::isnan(problems::fastmath::exp_neg_normal(
      problems::fastmath::splat(std::numeric_limits<double>::quiet_NaN()))[0]));
}

TEST(ACCEL_FASTEXP, SpecialValuesSubnormalsAndOverflow) {
  using problems::fastmath::exp;
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(exp(0.0), 1.0);
  EXPECT_EQ(exp(inf), inf);
  EXPECT_EQ(exp(-inf), 0.0);
  EXPECT_TRUE(std::isnan(exp(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(exp(1e300), inf);
  EXPECT_EQ(exp(-1e300), 0.0);
  EXPECT_EQ(exp(709.78), std::exp(709.78));  // largest finite results agree with glibc
  EXPECT_EQ(exp(709.8), inf);
  EXPECT_EQ(exp(-745.2), 0.0);
  for (const double x : {-708.4, -710.0, -720.5, -740.0, -744.4, -745.1})
    EXPECT_LE(ulp_error(exp(x), x), 1.0) << x;  // subnormal results: one rounding
}

TEST(ACCEL_FASTEXP, Log1pOnTheUnitIntervalAndLossSumMatchMp50) {
  // ln(1 + y), y ∈ [0, 1]: 2^12 + 1 equally spaced points and y = 2^-j (j ≤ 1074, subnormals
  // included), ≤ 2 ulp against 50 digits (a 2^21-point MPFR sweep measured max 0.73 ulp).
  const auto check = [](double y) {
    problems::fastmath::vdouble v{};
    v[0] = y;
    const double a = problems::fastmath::log1p_unit(v)[0];
    const mp50 exact = log1p(mp50(y));
    const double ref = static_cast<double>(exact);
    if (ref == 0) return a == 0 ? 0.0 : 1e300;
    const double ulp = std::max(std::nextafter(ref, 2.0) - ref, 4.9406564584124654e-324);
    return static_cast<double>(abs(mp50(a) - exact)) / ulp;
  };
  double worst = 0;
  for (int i = 0; i <= (1 << 12); ++i) worst = std::max(worst, check(i / 4096.0));
  for (int j = 1; j <= 1074; ++j) worst = std::max(worst, check(std::ldexp(1.0, -j)));
  EXPECT_LE(worst, 2.0);
  // Σ ln(1 + e^{−z r}) over margins in [−60, 60] (odd length: the tail path) against 50 digits:
  // recursive lane sums of n = 1001 terms, |error| <= (n + 2·4)·u·Σ terms.
  std::vector<double> r, z;
  mp50 exact = 0, terms = 0;
  for (int i = 0; i < 1001; ++i) {
    r.push_back(-60.0 + 120.0 * i / 1000.0);
    z.push_back(i % 2 == 0 ? 1.0 : -1.0);
    const mp50 t = log1p(exp(-mp50(z.back()) * mp50(r.back())));
    exact += t;
    terms += abs(t);
  }
  const double got = problems::fastmath::logistic_loss_sum(z.data(), r.data(), r.size());
  EXPECT_LE(static_cast<double>(abs(mp50(got) - exact)),
            1009 * std::ldexp(1.0, -53) * static_cast<double>(terms));
}

TEST(ACCEL_FASTEXP, LogisticWeightsMatchMp50) {
  // w = −z/(1 + e^{z r}) for margins over [−800, 800] (overflowing e^{z r} included), both
  // labels, odd length (tail path): relative error ≤ 4 ulp (2^-50) against 50 digits.
  std::vector<double> r, z;
  for (int i = 0; i <= 4001; ++i) {
    r.push_back(-800.0 + 1600.0 * i / 4001.0);
    z.push_back(i % 3 == 0 ? 1.0 : -1.0);
  }
  std::vector<double> w(r.size());
  problems::fastmath::logistic_weights(z.data(), r.data(), w.data(), r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    const mp50 exact = -mp50(z[i]) / (exp(mp50(z[i]) * mp50(r[i])) + 1);
    if (abs(exact) < mp50(std::numeric_limits<double>::min())) {
      // Below the normal range only an absolute error of a few subnormal spacings is possible.
      ASSERT_LE(static_cast<double>(abs(mp50(w[i]) - exact)), std::ldexp(1.0, -1072)) << r[i];
      continue;
    }
    const double rel = static_cast<double>(abs((mp50(w[i]) - exact) / exact));
    ASSERT_LE(rel, std::ldexp(1.0, -50)) << "r = " << r[i] << " z = " << z[i];
  }
}

TEST(ACCEL_LOGISTIC, DoubleGradientAndValueMatchMp50) {
  // The double path (fused kernel of logistic_kernel.hpp, d = 3 compiled, blocks of 32) against
  // the 50-digit path (Eigen products, blocks of `block`) on the same data: n = block + 404 (two
  // generic blocks, the second partial; 44 full kernel blocks and a partial one), at two points.
  const long long n = problems::logistic_regression<double>::block + 404;
  const auto data = small_data(n, 3, 3);
  const auto Pd = problems::make_logistic<double>(data, 0.01);
  const auto Pm = problems::make_logistic<mp50>(data, mp50(1) / 100);
  for (const double scale : {1.0, 30.0}) {
    vector<double> x(3);
    for (int j = 0; j < 3; ++j) x[j] = scale * (j % 2 == 0 ? 1.0 : -0.5) * (1 + j) / 3.0;
    const vector<mp50> xm = x.cast<mp50>();
    const vector<double> gd = Pd.gradient(x);
    const vector<mp50> gm = Pm.gradient(xm);
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(gd[j], static_cast<double>(gm[j]), 1e-14 * (1 + std::abs(gd[j]))) << scale;
    // F is a recursive sum of n terms: |error| <= γ_n Σ|terms|/n + O(u) <= (n + 1)·u·(1 + F)
    // (Higham, Thm 4.4), u = 2^-53.
    const double vd = Pd.value(x), vm = static_cast<double>(Pm.value(xm));
    EXPECT_NEAR(vd, vm, static_cast<double>(n + 1) * std::ldexp(1.0, -53) * (1 + std::abs(vm)))
        << scale;
  }
}

/// First-order rounding-error bounds of the double gradient and value against 50 digits:
/// margin t_i = z_i u_iᵀx with |Δt_i| <= γ_d Σ_j |u_ij x_j| (any summation order); weight
/// w_i = −z_i σ(−t_i) with relative error <= 4u (fastmath::logistic_weights) plus |Δt_i|
/// (|d ln σ(−t)/dt| <= 1); the products w_i u_ij and their recursive sum (γ_{n+1}, Higham
/// Thm 4.4), then /n and + 2λx_j (3 roundings, λ = 0.01 itself rounded). Likewise F with
/// ℓ_i = softplus(−t_i) (relative error <= 6u: exp and log1p <= 2 ulp each plus the additions;
/// |dℓ/dt| <= 1) and λ‖x‖² (γ_{d+2}). γ_k = k·u/(1 − k·u); the total doubled for the
/// second-order terms.
struct logistic_error_bound {
  vector<double> grad;
  double value;
};
logistic_error_bound logistic_bounds(const problems::logistic_regression<mp50>& P,
                                     const vector<mp50>& x) {
  const auto& U = P.features();
  const auto n = U.cols(), d = U.rows();
  const double u = std::ldexp(1.0, -53);
  const auto gamma = [u](double k) { return k * u / (1 - k * u); };
  vector<double> gb = vector<double>::Zero(d);
  double fb = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const mp50 t = P.labels()[i] * U.col(i).dot(x);
    double dt = 0;
    for (Eigen::Index j = 0; j < d; ++j) dt += static_cast<double>(abs(U(j, i) * x[j]));
    dt *= gamma(static_cast<double>(d));
    const double w = static_cast<double>(abs(P.loss_weight(P.labels()[i], U.col(i).dot(x))));
    const double l = static_cast<double>(P.softplus(-t));
    for (Eigen::Index j = 0; j < d; ++j)
      gb[j] +=
          static_cast<double>(abs(U(j, i))) * w * (4 * u + dt + gamma(static_cast<double>(n + 1)));
    fb += l * (6 * u + gamma(static_cast<double>(n))) + dt;
  }
  const double nn = static_cast<double>(n);
  const vector<double> g = P.gradient(x).cast<double>();
  for (Eigen::Index j = 0; j < d; ++j)
    gb[j] =
        2 * (gb[j] / nn + 3 * u * (std::abs(g[j]) + 0.02 * std::abs(static_cast<double>(x[j]))));
  const double F = static_cast<double>(P.value(x));
  return {gb,
          2 * (fb / nn + 3 * u * std::abs(F) +
               0.01 * gamma(static_cast<double>(d + 2)) * static_cast<double>(x.squaredNorm()))};
}

TEST(ACCEL_LOGISTIC, FusedKernelAtPaperDimensionAndRuntimeDimensionMatchMp50) {
  // d = 20 (the paper's dimension, a compiled kernel) and d = 7 (not in fixed_dims: the
  // runtime-d kernel), n = 32·31 + 13 (a partial block), at a point of moderate margins
  // (|t| <= 1.7) and at one with |t| up to 1616 (d = 20) / 867 (d = 7), 210 / 21 examples beyond
  // 708 (the weights' full-range exp fallback): gradient and value within the derived
  // rounding-error bounds of the 50-digit path (λ = 0.01; measured errors are 10²–10⁴× below).
  for (const long long d : {20LL, 7LL}) {
    const long long n = 32 * 31 + 13;
    const auto data = problems::synthetic_logistic_data(
        n, d, static_cast<double>(d), philox_stream(11, static_cast<std::uint64_t>(d)));
    const auto Pd = problems::make_logistic<double>(data, 0.01);
    const auto Pm = problems::make_logistic<mp50>(data, mp50(1) / 100);
    for (const double scale : {0.3, 300.0}) {
      vector<double> x(d);
      for (Eigen::Index j = 0; j < d; ++j)
        x[j] = scale * (static_cast<double>((j * 7) % 5) - 2.0) / 2;
      const vector<mp50> xm = x.cast<mp50>();
      const vector<double> gd = Pd.gradient(x);
      const vector<mp50> gm = Pm.gradient(xm);
      const auto bound = logistic_bounds(Pm, xm);
      for (Eigen::Index j = 0; j < d; ++j)
        EXPECT_LE(static_cast<double>(abs(mp50(gd[j]) - gm[j])), bound.grad[j])
            << "d = " << d << " scale = " << scale << " j = " << j;
      EXPECT_LE(static_cast<double>(abs(mp50(Pd.value(x)) - Pm.value(xm))), bound.value)
          << "d = " << d << " scale = " << scale;
      // Same build, same input: the same bits.
      EXPECT_EQ(Pd.gradient(x), gd);
      // Negative control: the gradient at x + 1e-9 (a real change) is flagged by the bound.
      vector<double> xp = x;
      xp.array() += 1e-9;
      const vector<double> gp = Pd.gradient(xp);
      bool flagged = false;
      for (Eigen::Index j = 0; j < d; ++j)
        flagged |= static_cast<double>(abs(mp50(gp[j]) - gm[j])) > bound.grad[j];
      EXPECT_TRUE(flagged) << "d = " << d << " scale = " << scale;
    }
  }
}

TEST(ACCEL_LOGISTIC, CompiledAndRuntimeDimensionKernelsAgree) {
  // logistic_kernel::gradient_sum<20> and <0> on the same d = 20 data evaluate the same
  // operations in the same order: equal bit for bit unless the compiler contracts a·b + c into
  // FMAs (then within the recursive-sum bound n·u·Σ|w u|); n = 1000 (a partial block).
  const long long n = 1000, d = 20;
  const auto data = problems::synthetic_logistic_data(n, d, 20.0, philox_stream(12));
  const vector<double> x = vector<double>::LinSpaced(d, -0.5, 0.5);
  const double* z = data.labels.data();
  const auto weights = [z](std::size_t i, const double* r, double* w, std::size_t b) {
    problems::fastmath::logistic_weights(z + i, r, w, b);
  };
  vector<double> g20(d), g0(d), wsum = vector<double>::Zero(d);
  const auto nn = static_cast<std::size_t>(n), dd = static_cast<std::size_t>(d);
  problems::logistic_kernel::gradient_sum<20>(data.features.data(), nn, dd, x.data(), g20.data(),
                                              weights);
  problems::logistic_kernel::gradient_sum<0>(data.features.data(), nn, dd, x.data(), g0.data(),
                                             weights);
  for (Eigen::Index i = 0; i < n; ++i) wsum += data.features.col(i).cwiseAbs();
#if defined(__FMA__)
  for (Eigen::Index j = 0; j < d; ++j)
    EXPECT_LE(std::abs(g20[j] - g0[j]), 2.0 * n * std::ldexp(1.0, -53) * wsum[j]) << j;
#else
  EXPECT_EQ(g20, g0);
#endif
  // And both equal Σ w_i u_i evaluated directly (double weights, long double sums) to the bound.
  std::vector<double> r(static_cast<std::size_t>(n)), w(r.size());
  for (Eigen::Index i = 0; i < n; ++i) r[static_cast<std::size_t>(i)] = data.features.col(i).dot(x);
  problems::fastmath::logistic_weights(z, r.data(), w.data(), r.size());
  for (Eigen::Index j = 0; j < d; ++j) {
    long double s = 0;
    for (Eigen::Index i = 0; i < n; ++i)
      s += static_cast<long double>(w[static_cast<std::size_t>(i)]) * data.features(j, i);
    EXPECT_LE(std::abs(static_cast<double>(s) - g20[j]),
              2.0 * (n + d + 8) * std::ldexp(1.0, -53) * wsum[j])
        << j;
  }
}

// ----------------------------------------------------------------------- real data -------

TEST(ACCEL_REALDATA, SchemaBoundFromColumnNamesOnly) {
  // The header of data/real/fertility.csv (scripts/real_data.sh): 5 one-hot groups + age, work.
  const std::vector<std::string> fertility{
      "gender1_female", "gender1_male", "gender2_female", "gender2_male", "age",       "afam_no",
      "afam_yes",       "hispanic_no",  "hispanic_yes",   "other_no",     "other_yes", "work"};
  EXPECT_EQ(problems::schema_l1_bound(fertility), 7.0);
  EXPECT_EQ(problems::schema_l1_bound({"a", "b", "c"}), 3.0);  // numeric only
  EXPECT_EQ(problems::schema_l1_bound({"v_x", "w_y"}), 2.0);   // singleton prefixes: numeric
  EXPECT_EQ(problems::schema_l1_bound({"g_a", "g_b", "g_c"}), 1.0);
  EXPECT_THROW(problems::schema_l1_bound({}), std::invalid_argument);
}

TEST(ACCEL_REALDATA, LoadsCsvWithInterceptAndRejectsViolationsAndMissingFiles) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string path = (dir / "dpref_accel_realdata_test.csv").string();
  {
    std::ofstream f(path);
    f << "# test\nlabel,g_a,g_b,age\n1,1,0,0.5\n0,0,1,1\n1,0,1,0\n";
  }
  const auto ds = problems::load_real_logistic_data(path, 0, true);
  EXPECT_EQ(ds.schema_bound, 3.0);  // group g + age + intercept
  EXPECT_EQ(ds.data.l1_bound, 3.0);
  ASSERT_EQ(ds.data.features.rows(), 4);
  ASSERT_EQ(ds.data.features.cols(), 3);
  EXPECT_EQ(ds.data.features(3, 1), 1.0);  // intercept row
  EXPECT_EQ(ds.data.features(2, 0), 0.5);
  EXPECT_EQ(ds.data.labels[1], -1.0);
  EXPECT_EQ(ds.feature_names.back(), "intercept");
  const auto P = problems::make_logistic<double>(ds.data, 0.01);
  EXPECT_EQ(P.l1_sensitivity(), 6.0);  // S1 = 2B (5.2)
  // A declared bound below a row's norm is rejected by the problem (never used silently).
  // PRIV.BOUNDS: the message names the constant, the record and its norm (row 1: 0 + 1 + 1 = 2).
  const auto tight = problems::load_real_logistic_data(path, 1.5, false);
  EXPECT_THROW(problems::make_logistic<double>(tight.data, 0.01), std::domain_error);
  const std::string msg =
      test::message_of([&] { (void)problems::make_logistic<double>(tight.data, 0.01); });
  EXPECT_NE(msg.find("logistic_regression.l1_bound must be >= ||u_i||_1 = 2 of record i = 1"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("got 1.5"), std::string::npos) << msg;
  try {
    (void)problems::load_real_logistic_data((dir / "dpref_no_such_file.csv").string());
    ADD_FAILURE() << "no exception for a missing file";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("scripts/real_data.sh"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

// ------------------------------------------------------------------ reference F* -------

TEST(ACCEL_FSTAR, CertifiedMinimumBoundsTheTrueGap) {
  // Quadratic with a known minimiser: the reported gap bound covers the exact excess.
  const auto Q = diag_quadratic(0.05, 1);
  const auto ref = accel::certified_minimum(Q, 1e-14);
  EXPECT_TRUE(ref.certified);
  EXPECT_LE(Q.excess(ref.x), ref.gap_bound * (1 + 1e-12) + 1e-300);
  EXPECT_LE(ref.gap_bound, 1e-14);
  // Logistic regression: certified at 1e-12, and no other point found by a long NAG run is
  // lower than F(x̂) − gap.
  const auto P = problems::make_logistic<double>(small_data(500, 5, 5), 0.01);
  const auto r = accel::certified_minimum(P, 1e-12);
  EXPECT_TRUE(r.certified);
  params<double> q;
  q.iterations = 3000;
  q.L = P.smoothness();
  q.noise = noise_mode::none;
  const double other = P.value(accel::dp_nag::run(P, q, philox_stream(0)).x);
  EXPECT_GE(other, r.value - r.gap_bound - 1e-15);
  // Negative control: a cap of 1 iteration is not certified.
  EXPECT_FALSE(accel::certified_minimum(P, 1e-12, 1).certified);
}

TEST(ACCEL_PROP33, MinibatchCovarianceMatchesTheExactFormulaAndBound313) {
  // Prop 3.3's subsampling part: for m of n without replacement the minibatch mean of the
  // per-example gradients g_i has covariance (n − m)/(m(n − 1))·C, C the population covariance;
  // every projection of g_i lies in an interval of length ≤ S₁ (‖g_i − g_j‖₂ ≤ ‖·‖₁ ≤ S₁), so
  // ‖C‖ ≤ S₁²/4 (Popoviciu) and ‖Cov‖ ≤ σ_s² of (3.13). (The Laplace part 2b²I ⪯ 2db²I is the
  // sampler's variance, tested in the random component.)
  const long long n = 12, m = 6;
  const auto P = problems::make_logistic<double>(small_data(n, 2, 2), 0.01);
  vector<double> x0(2);
  x0 << 0.3, -0.7;
  matrix<double> G(2, n);
  for (long long i = 0; i < n; ++i) G.col(static_cast<Eigen::Index>(i)) = P.example_gradient(x0, i);
  const vector<double> mean = G.rowwise().mean();
  const matrix<double> D = G.colwise() - mean;
  const matrix<double> C = D * D.transpose() / static_cast<double>(n);
  const Eigen::SelfAdjointEigenSolver<matrix<double>> es(C);
  const double lam = es.eigenvalues()(1);
  const vector<double> v = es.eigenvectors().col(1);
  const double f = static_cast<double>(n - m) / static_cast<double>(m * (n - 1));
  EXPECT_LE(f * lam, accel::bounds::subsampling_variance(P.l1_sensitivity(), m, n));  // (3.13)
  // Monte Carlo of the engine's minibatch gradient, g = (x0 − x1)/α from one non-private GD step
  // per stream r (N = 10000). The estimator's standard error uses the sample fourth moment;
  // |var − f·λ| ≤ 5 SE has false-alarm probability ≈ 6e-7 (normal approximation).
  params<double> p;
  p.iterations = 1;
  p.m = m;
  p.alpha = 0.5;
  p.noise = noise_mode::none;
  p.x0 = x0;
  const int N = 10000;
  std::vector<double> proj;
  for (int r = 0; r < N; ++r) {
    const auto res = accel::dp_gd::run(P, p, philox_stream(77, static_cast<std::uint64_t>(r)));
    proj.push_back(v.dot((x0 - res.x) / 0.5));
  }
  double mu = 0;
  for (const double q : proj) mu += q / N;
  double m2 = 0, m4 = 0;
  for (const double q : proj) {
    m2 += (q - mu) * (q - mu) / N;
    m4 += std::pow(q - mu, 4) / N;
  }
  const double se = std::sqrt((m4 - m2 * m2) / N);
  EXPECT_NEAR(m2, f * lam, 5 * se) << "lambda " << lam << " se " << se;
  ASSERT_GT(f * lam, 20 * se);  // the comparison is informative (relative SE < 5%)
  // Negative control: the with-replacement value λ/m is rejected.
  EXPECT_GT(std::abs(m2 - lam / static_cast<double>(m)), 5 * se);
}

TEST(ACCEL_PRECISION, DoubleAndMp50AgreeForTheSameSeed) {
  const auto data = small_data(100, 4, 4);
  const auto Pd = problems::make_logistic<double>(data, 0.01);
  const auto Pm = problems::make_logistic<mp50>(data, mp50(1) / 100);
  const auto nag15 = [](auto p) {  // T = 15, m = 30, ε = 1 at either precision
    p.iterations = 15;
    p.m = 30;
    p.epsilon = 1;
    return p;
  };
  const auto pd = nag15(params<double>{});
  const auto pm = nag15(params<mp50>{});
  const auto rd = accel::dp_nag::run(Pd, pd, philox_stream(21));
  const auto rm = accel::dp_nag::run(Pm, pm, philox_stream(21));
  double max_rel = 0;
  bool any_differs = false;
  for (int i = 0; i < 4; ++i) {
    const double xm = static_cast<double>(rm.x[i]);
    max_rel = std::max(max_rel, std::abs(rd.x[i] - xm) / std::max(1.0, std::abs(xm)));
    any_differs = any_differs || mp50(rd.x[i]) != rm.x[i];
  }
  EXPECT_LT(max_rel, 1e-11);
  EXPECT_TRUE(any_differs);  // precision leak check: the mp50 run did not compute in double
  EXPECT_NEAR(static_cast<double>(rm.eps_spent), rd.eps_spent, 1e-15);
}

TEST(ACCEL_VALIDATION, InvalidParametersThrowNamingTheParameter) {
  const auto P = small_logistic();
  const auto expect_msg = [&](auto&& f, const std::string& what) {
    try {
      f();
      ADD_FAILURE() << "no exception for " << what;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  params<double> p;
  p.iterations = 0;
  expect_msg([&] { accel::dp_gd::run(P, p, philox_stream(1)); }, "params.iterations");
  p = {};
  p.m = 201;
  expect_msg([&] { accel::dp_nag::run(P, p, philox_stream(1)); }, "accel::params.m");
  p = {};
  p.epsilon = -1;
  expect_msg([&] { accel::dp_shb::run(P, p, philox_stream(1)); }, "params.epsilon");
  p = {};
  p.beta = 1.0;
  expect_msg([&] { accel::dp_shb::run(P, p, philox_stream(1)); }, "accel::params.beta");
  p = {};
  p.c = 2;
  expect_msg([&] { accel::dp_nag_opt::run(P, p, philox_stream(1)); }, "accel::params.c");
  p = {};
  p.c = 2;
  expect_msg([&] { accel::dp_masg::run(P, p, philox_stream(1)); }, "accel::params.c");
  p = {};
  p.alpha = 2 / P.public_smoothness();
  expect_msg([&] { accel::dp_nag_opt::run(P, p, philox_stream(1)); }, "accel::params.alpha");
  p = {};
  p.x0 = vector<double>::Zero(3);
  expect_msg([&] { accel::dp_masg_opt::run(P, p, philox_stream(1)); }, "accel::params.x0");
  p = {};
  p.noise = noise_mode::fixed;
  expect_msg([&] { accel::dp_gd::run(P, p, philox_stream(1)); }, "accel::params.noise_scale");
  // c = 1 is always accepted (α = c/L with c/L·L possibly rounding above 1).
  for (const double lam : {0.01, 0.013, 0.017, 0.03, 0.07, 0.11, 0.3}) {
    const auto Q = problems::make_logistic<double>(small_data(), lam);
    params<double> one;
    one.iterations = 3;
    EXPECT_NO_THROW(accel::dp_nag_opt::run(Q, one, philox_stream(1))) << lam;
    EXPECT_NO_THROW(accel::dp_masg::run(Q, one, philox_stream(1))) << lam;
    EXPECT_NO_THROW(accel::dp_masg_opt::run(Q, one, philox_stream(1))) << lam;
  }
}

// -------------------------------------------------------------------------- bounds -------

TEST(ACCEL_THM41, RecursionUnrollsToWeightedBoundAndOptimum) {
  const double mu = 0.02, L = 2, alpha = 0.4, S1 = 10, eps = 1;
  const long long T = 80, d = 5, n = 1000, m = 1000;
  const auto w = accel::nag_weights(T, mu, alpha, L);
  const auto opt = accel::prop42(w, S1, n, eps);
  const double E0 = 10, s2 = accel::bounds::subsampling_variance(S1, m, n);
  double E = E0;
  for (long long t = 0; t < T; ++t)
    E = accel::bounds::nag_recursion_step(E, mu, alpha, L, opt.b[t], d, s2);
  const double a0 = accel::bounds::nag_initial_weight(T, mu, alpha);
  const double via43 = accel::bounds::weighted_bound(a0, w, E0, opt.b, d, s2);
  EXPECT_NEAR(E, via43, 1e-12 * via43);
  const double via46 = accel::bounds::optimal_split_bound(a0, w, E0, d, S1, n, eps);
  EXPECT_NEAR(via43, via46, 1e-12 * via46);
  // The uniform split is worse.
  const double bu = S1 * T / (n * eps);
  EXPECT_GT(accel::bounds::weighted_bound(a0, w, E0, std::vector<double>(T, bu), d, s2), via46);
  EXPECT_NEAR(accel::bounds::subsampling_variance(4.0, 10, 101), 16.0 / 4 / 10 * 91 / 100, 1e-15);
}

TEST(ACCEL_THM35, StationaryExcessIsHalfSumLambdaGammaNotLm) {
  // DP-SHB with fixed Laplace scale b (σ² = 2b²) on Q = diag(0.5, 1), α = 0.5, β = 0.3.
  // Time average of F − F* over 2e5 steps after 1000 burn-in, standard error by 200 batch
  // means of 1000 steps (batch length ≫ correlation time ~ 1/(1 − ρ) ≈ 5). The check
  // |mean − ½Σλγ| ≤ 5 SE has false-alarm probability < 1e-6 (normal approximation).
  // Negative control: the paper's L·m(α, β) is rejected by the same criterion (errata ACC-E4).
  const double mu = 0.5, L = 1, alpha = 0.5, beta = 0.3, b = 0.1;
  const auto F = diag_quadratic(mu, L);
  params<double> p;
  p.iterations = 201000;
  p.alpha = alpha;
  p.beta = beta;
  p.noise = noise_mode::fixed;
  p.noise_scale = b;
  p.allow_over_budget = true;  // a noise-level experiment: the implied ε is far above 1
  p.trace = true;
  p.diagnostics = true;
  p.x0 = vector<double>::Zero(2);
  const auto r = accel::dp_shb::run(F, p, philox_stream(17));
  std::vector<double> means;
  for (int k = 0; k < 200; ++k) {
    double s = 0;
    for (int t = 0; t < 1000; ++t) s += r.trace[1001 + 1000 * k + t];
    means.push_back(s / 1000);
  }
  const double mean = std::accumulate(means.begin(), means.end(), 0.0) / 200;
  double v = 0;
  for (double x : means) v += (x - mean) * (x - mean);
  const double se = std::sqrt(v / 199 / 200);
  const std::vector<double> lam{mu, L};
  const double exact = accel::bounds::hb_stationary_excess(alpha, beta, lam, 2 * b * b);
  const double paper = L * accel::bounds::hb_m(alpha, beta, lam, 2 * b * b);
  EXPECT_LT(std::abs(mean - exact), 5 * se) << mean << " " << exact << " " << se;
  EXPECT_GT(std::abs(mean - paper), 5 * se) << paper;
  EXPECT_LE(exact, L / 2 * accel::bounds::hb_m(alpha, beta, lam, 2 * b * b));
}

TEST(ACCEL_THM35, LyapunovVarianceMatchesClosedForm) {
  // Property 16: per-mode stationary variance from iterating the Lyapunov recursion
  // E ← T E Tᵀ + diag(α²σ², 0) to convergence equals γ(λ) to 1e-10.
  for (const auto& [alpha, beta, lambda] : std::vector<std::array<double, 3>>{
           {0.5, 0.3, 0.5}, {0.5, 0.3, 1.0}, {1.2, 0.6, 0.7}, {0.1, 0.9, 2.0}}) {
    Eigen::Matrix2d Tm, E = Eigen::Matrix2d::Zero(), N = Eigen::Matrix2d::Zero();
    Tm << 1 + beta - alpha * lambda, -beta, 1, 0;
    N(0, 0) = alpha * alpha * 1.0;
    for (int i = 0; i < 20000; ++i) E = Tm * E * Tm.transpose() + N;
    const double g = accel::bounds::hb_mode_variance(alpha, beta, lambda, 1.0);
    EXPECT_NEAR(E(0, 0), g, 1e-10 * g);
  }
}

TEST(ACCEL_PROP34, GridSearchCertifiesKnownRates) {
  const double mu = 0.5, L = 1;
  accel::bounds::prop34_grid g;
  g.rho_points = 100;
  g.p_points = 5;
  g.c0_points = 5;
  // β = 0, α = 1/L: P = 0 already certifies ρ² = 1 − μ/L (the classical GD function-value
  // rate), so the search must do at least as well (up to one grid step); no certificate can
  // beat the quadratic rate |1 − αμ| of (3.18) (the tight worst case, (1 − μ/L)², is attained
  // by quadratics).
  const auto gd = accel::bounds::prop34_grid_search(mu, L, 1.0, 0.0, g);
  ASSERT_TRUE(gd.found);
  EXPECT_TRUE(gd.certified);
  EXPECT_LE(gd.rho, std::sqrt(1 - mu / L) + 0.01 + 1e-12);
  EXPECT_GE(gd.rho, accel::bounds::hb_rate(1.0, 0.0, mu, L) - 1e-12);
  // Heavy ball with a small momentum: certified ρ is a valid rate, so ≥ the quadratic rate.
  const double alpha = 0.5, beta = 0.1;
  const auto hb = accel::bounds::prop34_grid_search(mu, L, alpha, beta, g);
  ASSERT_TRUE(hb.found);
  EXPECT_TRUE(hb.certified);
  EXPECT_GE(hb.rho, accel::bounds::hb_rate(alpha, beta, mu, L) - 1e-12);
  EXPECT_LT(hb.rho, 1.0);
  EXPECT_TRUE(accel::bounds::prop34_certify(mu, L, alpha, beta, hb));
  auto broken = hb;
  broken.rho = 0.01;  // negative control: a too-fast rate is not certified
  EXPECT_FALSE(accel::bounds::prop34_certify(mu, L, alpha, beta, broken));
  EXPECT_GT(accel::bounds::prop34_bound(hb, 10, 1.0, 0.5, L, 2, alpha, 0.01), 0.0);
  EXPECT_THROW(accel::bounds::prop34_grid_search(mu, L, alpha, 1.0, g), std::domain_error);
}

// ACCEL.STUDY (issue 30 item 3): the study configuration is a field list; the CLI passes values
// as a document and the library reads, validates (naming the field) and runs it.
TEST(ACCEL_STUDY, ConfigIsAFieldListReadFromADocumentAndRefusedByField) {
  const auto doc = [](const char* text) { return io::document::parse(text, "study"); };
  const io::json f2 = accel::study_json(doc(R"({"figures": [2], "T_fig2": 20})"));
  ASSERT_TRUE(f2.contains("figure2"));
  EXPECT_FALSE(f2.contains("figure1"));
  EXPECT_EQ(f2["figure2"]["T"], 20);
  EXPECT_EQ(f2["figure2"]["b"].size(), 20u);
  accel::study_config c;
  EXPECT_EQ(c.resolved_figures(), (std::vector<int>{1, 2, 3}));
  c.data = "data/real/fertility.csv";
  EXPECT_EQ(c.resolved_figures(), (std::vector<int>{3}));
  const auto refused = [&](const char* text) {
    return test::message_of([&] { (void)accel::study_json(doc(text)); });
  };
  EXPECT_NE(refused(R"({"runs": 0})").find("accel::study_config.runs must be >= 1"),
            std::string::npos);
  EXPECT_NE(refused(R"({"m_list": [-5]})").find("accel::study_config.m_list must be entries >= 0"),
            std::string::npos);
  EXPECT_NE(refused(R"({"m_list": ["n"]})").find("m_list"), std::string::npos);
  EXPECT_NE(refused(R"({"figures": [1, 1]})").find("figures must be without repetitions"),
            std::string::npos);
  EXPECT_NE(refused(R"({"no_such_field": 1})").find("no_such_field"), std::string::npos);
}

}  // namespace

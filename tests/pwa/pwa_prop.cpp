// Property tests of the pwa component (spec/pwa.md): Lemma 18, Lemma 22, the LP certificate on
// random problems, bound (13) with the errata's sign (and its failure with the printed sign),
// Theorem 24 against the empirical mean of runs, Theorem 21's integral in 1-D.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpref/pwa/bounds.hpp"
#include "dpref/pwa/private_subgradient.hpp"
#include "dpref/pwa/solve.hpp"
#include "dpref/random/gaussian.hpp"
#include "support/generators.hpp"

namespace {

using namespace dpref;
using dpref::pwa::piecewise_affine;
using dpref::pwa::polytope;
using dpref::test::real_in;

struct instance {
  matrix<double> A;
  vector<double> b;
  double c = 1, bmax = 1;
};

instance gen_instance(int max_m, int max_d) {
  instance s;
  const int m = *rc::gen::inRange(1, max_m + 1);
  const int d = *rc::gen::inRange(1, max_d + 1);
  s.A = matrix<double>(m, d);
  s.b = vector<double>(m);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < d; ++j) s.A(i, j) = *real_in<double>(-3, 3);
    s.b[i] = *real_in<double>(-3, 3);
  }
  s.c = *real_in<double>(0.1, 5);
  s.bmax = *real_in<double>(0.01, 4);
  return s;
}

template <class Real>
piecewise_affine<Real> make(const instance& s, const vector<double>& b) {
  return piecewise_affine<Real>(
      s.A.cast<Real>(), b.cast<Real>(),
      pwa::polytope<Real>::box_only(static_cast<int>(s.A.cols()), Real(s.c)), Real(s.bmax));
}

vector<double> gen_point(int d, double c) {
  vector<double> x(d);
  for (int j = 0; j < d; ++j) x[j] = *real_in<double>(-c, c);
  return x;
}

/// Lemma 18 at one scalar: |f(x; b) − f(x; b')| ≤ bmax for adjacent b, b' (up to the rounding
/// of the two maxima), and equality for b' = b + bmax·1.
template <class Real>
void check_lemma18(const instance& s, const vector<double>& b2, const vector<double>& x) {
  using std::abs;
  const auto p = make<Real>(s, s.b);
  const auto q = make<Real>(s, b2);
  const vector<Real> xr = x.template cast<Real>();
  const Real f1 = p.value(xr), f2 = q.value(xr);
  const Real slack = Real(16) * machine_epsilon<Real>() * (abs(f1) + abs(f2) + Real(s.bmax));
  RC_ASSERT(abs(Real(f1 - f2)) <= Real(s.bmax) + slack);
  const vector<Real> bs = (s.b.cast<Real>().array() + Real(s.bmax)).matrix();  // shift in Real
  const piecewise_affine<Real> shifted(s.A.cast<Real>(), bs, p.polytope(), Real(s.bmax));
  RC_ASSERT(abs(Real(shifted.value(xr) - f1 - Real(s.bmax))) <= slack);
}

RC_GTEST_PROP(PWA_LEMMA18, SensitivityIsBmaxAndAttained, ()) {
  const instance s = gen_instance(30, 5);
  vector<double> b2 = s.b;
  for (Eigen::Index i = 0; i < b2.size(); ++i) b2[i] += *real_in<double>(-s.bmax, s.bmax);
  const vector<double> x = gen_point(static_cast<int>(s.A.cols()), 2 * s.c);  // any x
  check_lemma18<double>(s, b2, x);
  check_lemma18<mp50>(s, b2, x);
}

template <class Real>
void check_lemma22(const instance& s, const vector<double>& x, const vector<double>& x0) {
  using std::abs;
  const auto p = make<Real>(s, s.b);
  const vector<Real> xr = x.template cast<Real>(), x0r = x0.template cast<Real>();
  const vector<Real> u0 = p.utilities(x0r);
  const Real fx = p.value(xr), fx0 = u0.maxCoeff();
  for (Eigen::Index j = 0; j < u0.size(); ++j) {
    const Real gamma = fx0 - u0[j];  // γ(j; x0)
    const Real rhs = fx0 + p.A().row(j).dot(xr - x0r) - gamma;
    const Real slack = Real(64) * machine_epsilon<Real>() *
                       (abs(fx) + abs(fx0) + Real(p.A().row(j).cwiseAbs().sum() * Real(4 * s.c)));
    RC_ASSERT(fx >= rhs - slack);
  }
}

RC_GTEST_PROP(PWA_LEMMA22, InexactSubgradientInequalityForEveryIndex, ()) {
  const instance s = gen_instance(30, 5);
  const int d = static_cast<int>(s.A.cols());
  const vector<double> x = gen_point(d, 2 * s.c), x0 = gen_point(d, 2 * s.c);
  check_lemma22<double>(s, x, x0);
  check_lemma22<mp50>(s, x, x0);
}

RC_GTEST_PROP(PWA_PROP_CERTIFICATE, RandomProblemsWithRowsAreCertified, ()) {
  const instance s = gen_instance(40, 6);
  const int d = static_cast<int>(s.A.cols());
  const int k = *rc::gen::inRange(0, 4);
  pwa::polytope<double> P = pwa::polytope<double>::box_only(d, s.c);
  P.G = matrix<double>(k, d);
  P.h = vector<double>(k);
  for (int r = 0; r < k; ++r) {
    for (int j = 0; j < d; ++j) P.G(r, j) = *real_in<double>(-2, 2);
    P.h[r] = *real_in<double>(0, 2);  // h ≥ 0: x = 0 is feasible, P is not empty
  }
  const piecewise_affine<double> prob(s.A, s.b, P, s.bmax);
  const auto sol = pwa::solve(prob);
  const auto chk = pwa::verify_certificate(prob, sol.x, sol.certificate);
  RC_ASSERT(chk.ok(1e-9 * (1 + std::abs(sol.value))));
  // f_opt ≤ f at random feasible points (optimality seen from the primal side)
  for (int t = 0; t < 5; ++t) {
    const vector<double> x = gen_point(d, s.c);
    if (P.contains(x)) RC_ASSERT(prob.value(x) >= sol.value - 1e-9 * (1 + std::abs(sol.value)));
  }
}

// (13): E_{i*}[γ(i*; x)] ≤ 2bmax(1 + log m)/ε, computed exactly from the selection law. With the
// errata's + sign it holds for all score vectors; with the paper's printed − sign it fails
// (negative control on the errata's case (m, ε, bmax) = (200, 5, 0.5), E[γ] ≈ 8.16 > 1.26).
template <class Real>
Real expected_gap(const vector<Real>& u, const Real& scale, bool minus_sign) {
  const vector<Real> p =
      pwa::selection_probabilities<Real>(minus_sign ? vector<Real>(-u) : u, scale);
  const Real umax = u.maxCoeff();
  Real e(0);
  for (Eigen::Index i = 0; i < u.size(); ++i) e += p[i] * (umax - u[i]);
  return e;
}

RC_GTEST_PROP(PWA_THM13, SelectionGapBoundHoldsWithPlusSign, ()) {
  const int m = *rc::gen::inRange(1, 500);
  const double eps = *test::positive_log_uniform<double>(1e-3, 10);
  const double bmax = *test::positive_log_uniform<double>(1e-2, 10);
  const double spread = *test::positive_log_uniform<double>(1e-3, 1e4);
  vector<double> u(m);
  for (int i = 0; i < m; ++i) u[i] = *real_in<double>(-spread, spread);
  const double bound = pwa::bounds::thm13(bmax, eps, m);
  RC_ASSERT(expected_gap(u, 2 * bmax / eps, false) <= bound * (1 + 1e-12));
}

TEST(PWA_THM13, PrintedMinusSignViolatesTheBound) {
  // errata pwa "Algorithm 1, sign": m = 200, ε = 5, bmax = 0.5, u_i ~ N(0, 1)
  philox_stream s(13, 0);
  const int m = 200;
  vector<double> u(m);
  for (int i = 0; i < m; ++i) u[i] = gaussian<double>(s, 1.0);
  const double eps = 5, bmax = 0.5;
  const double bound = pwa::bounds::thm13(bmax, eps, m);  // 1.26
  EXPECT_NEAR(bound, 2 * 0.5 * (1 + std::log(200.0)) / 5, 1e-15);
  EXPECT_LE(expected_gap(u, 2 * bmax / eps, false), bound);
  EXPECT_GT(expected_gap(u, 2 * bmax / eps, true), bound);
}

// Theorem 24 for the empirical mean over runs. Statistical plan: R = 400 runs (seed 24), the
// per-run value Y = min_{i≤k} f(x^(i)) − f_opt lies in [0, G(R_P + Σα_i G)] (x^(i) stays within
// Σα G of P); Hoeffding: P[mean ≥ E + t] ≤ exp(−2Rt²/range²) = 1e-6 for the t used, so the
// false-alarm probability is ≤ 1e-6 per instance. Negative control: PWA_THM13 above (the
// printed sign breaks (13), the step of the proof that Theorem 24 depends on).
TEST(PWA_THM24, BoundHoldsForEmpiricalMeanOverRuns) {
  const int runs = 400;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    philox_stream g(seed, 99);
    const int m = 20, d = 2;
    matrix<double> A(m, d);
    vector<double> b(m);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < d; ++j) A(i, j) = gaussian<double>(g, 1.0);
      b[i] = gaussian<double>(g, 1.0);
    }
    const piecewise_affine<double> prob(A, b, pwa::polytope<double>::box_only(d, 1.0), 1.0);
    const double fopt = pwa::solve(prob).value;
    pwa::subgradient_params<double> p;
    p.epsilon = 1;
    p.iterations = 100;
    p.step = 0.1;
    double sum = 0, step_sum = 0, step_sq = 0;
    for (int r = 0; r < runs; ++r) {
      philox_stream s(24, seed * 1000 + static_cast<std::uint64_t>(r));
      const auto res = pwa::private_subgradient(s, prob, p);
      sum += res.best_objective - fopt;
      step_sum = res.step_sum;
      step_sq = res.step_sq_sum;
    }
    const double G = pwa::bounds::lipschitz(prob), R = pwa::diameter_bound(prob.polytope());
    const double bound =
        pwa::bounds::thm24(R, G, step_sum, step_sq, 1.0, m, p.epsilon, p.iterations);
    const double range = G * (R + step_sum * G);
    const double t = range * std::sqrt(std::log(1e6) / (2.0 * runs));
    const double mean = sum / runs;
    std::printf("[pwa] Thm 24 seed %llu: mean %.4f, bound %.4f (+ Hoeffding %.4f)\n",
                static_cast<unsigned long long>(seed), mean, bound, t);
    EXPECT_LE(mean, bound + t);
    EXPECT_GE(mean, 0.0);
  }
}

// Theorem 21's integral in 1-D: closed form per segment vs an independent midpoint sum on a fine
// grid (relative error of the midpoint rule ≤ (h²/24)·max|g''|/min g, far below 1e-6 here).
TEST(PWA_THM21, OneDimensionalIntegralMatchesFineGrid) {
  matrix<double> A(3, 1);
  A << 1, -1, 0.25;
  vector<double> b(3);
  b << 0.0, 0.5, 0.1;
  const piecewise_affine<double> prob(A, b, pwa::polytope<double>::box_only(1, 2.0), 0.5);
  const double kappa = 0.7, fref = 0.2;
  const double exact = pwa::bounds::exp_integral(prob, kappa, fref);
  const int n = 200000;
  double grid = 0;
  for (int i = 0; i < n; ++i) {
    vector<double> x(1);
    x[0] = -2.0 + 4.0 * (i + 0.5) / n;
    grid += std::exp(-kappa * (prob.value(x) - fref)) * 4.0 / n;
  }
  EXPECT_NEAR(exact, grid, 1e-9 * grid);
  // C(0, ε) ≥ 1 (the integrand is ≤ 1 on P) and Theorem 21's bound is positive
  EXPECT_GE(pwa::bounds::c0(prob, 0.3), 1.0);
}

TEST(PWA_THM21, TwoDimensionalIntegralMatchesFineGrid) {
  philox_stream g(21, 0);
  const int m = 6;
  matrix<double> A(m, 2);
  vector<double> b(m);
  for (int i = 0; i < m; ++i) {
    A(i, 0) = gaussian<double>(g, 1.0);
    A(i, 1) = gaussian<double>(g, 1.0);
    b[i] = gaussian<double>(g, 1.0);
  }
  const piecewise_affine<double> prob(A, b, pwa::polytope<double>::box_only(2, 1.0), 1.0);
  const double kappa = 1.3, fref = 0;
  const double exact = pwa::bounds::exp_integral(prob, kappa, fref);
  EXPECT_NEAR(pwa::bounds::exp_integral(prob, 0.0, fref), 4.0, 1e-12);  // area of [−1, 1]²
  const int n = 1500;
  double grid = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double x1 = -1.0 + 2.0 * (i + 0.5) / n, x2 = -1.0 + 2.0 * (j + 0.5) / n;
      double f = -INFINITY;  // f(x) without allocation (the grid has 2.25·10^6 points)
      for (int k = 0; k < m; ++k) f = std::max(f, A(k, 0) * x1 + A(k, 1) * x2 + b[k]);
      grid += std::exp(-kappa * (f - fref));
    }
  grid *= 4.0 / (double(n) * n);
  // midpoint rule on kinks: error O(h) along the ridges; h = 1.3e-3 gives ≤ 1e-5 relative here
  EXPECT_NEAR(exact, grid, 1e-5 * grid);
  // mp50 agrees with double
  const piecewise_affine<mp50> pm(A.cast<mp50>(), b.cast<mp50>(),
                                  pwa::polytope<mp50>::box_only(2, mp50(1)), mp50(1));
  EXPECT_NEAR(static_cast<double>(pwa::bounds::exp_integral(pm, mp50(13) / 10, mp50(0))), exact,
              1e-12 * exact);
}

}  // namespace

// ev Algorithms 1–3, the EV problem and data, the certified optimum, Theorem 6's ε_k schedule,
// Lemma 13 (coupled runs), the noise law (errata EV-E3), Proposition 14's rate and the
// double/mp50 agreement of Algorithm 2. Every statistical check has a fixed seed, a stated
// sample size and false-alarm probability, and a negative control.
#include <gtest/gtest.h>

#include <boost/math/distributions/gamma.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/ev/data.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/random.hpp"
#include "support/ev_problems.hpp"
#include "support/gof.hpp"
#include "support/scalars.hpp"

namespace dpref {
namespace {

using ev::charging_specs;
template <class Real>
using charging_problem = ev::problem<Real>;

/// Small instance: T slots, n users, m = n households, caps 3.3 kW w.p. 1/2, E ~ U[2, 5],
/// a gently varying base load.
template <class Real>
charging_problem<Real> small_problem(std::uint64_t seed, Eigen::Index t, Eigen::Index n) {
  return test::ev_small_problem<Real>(seed, t, n, Real(n));
}

template <class Real>
ev::params<Real> small_private_params(long long k);

/// Algorithm 1 as in issue 4's tests: constant step (the old default), no diagnostics.
template <class Real>
ev::params<Real> gradient_params(long long k, const Real& step) {
  ev::params<Real> p;
  p.algorithm = ev::algorithm_kind::projected_gradient;
  p.iterations = k;
  p.step = step;
  p.constant_step = true;
  p.optimum = false;
  return p;
}

template <class Real>
void expect_in_set(const charging_problem<Real>& prob, const matrix<Real>& r, double tol) {
  for (Eigen::Index j = 0; j < r.cols(); ++j) {
    for (Eigen::Index i = 0; i < r.rows(); ++i) {
      EXPECT_GE(static_cast<double>(r(i, j)), -tol);
      EXPECT_LE(static_cast<double>(r(i, j) - prob.specs().max_rate(i, j)), tol);
    }
    EXPECT_NEAR(static_cast<double>(r.col(j).sum()), static_cast<double>(prob.specs().energy[j]),
                tol);
  }
}

// ---------------------------------------------------------------------------------- kernel ----

template <class Real>
class EV_PROJ_KERNEL : public ::testing::Test {};
using kernel_scalars = ::testing::Types<double, mp50>;
TYPED_TEST_SUITE(EV_PROJ_KERNEL, kernel_scalars, test::scalar_names);

// The allocation-free Newton kernel equals the O(T log T) sweep for any warm start.
TYPED_TEST(EV_PROJ_KERNEL, AgreesWithSweep) {
  using Real = TypeParam;
  philox_stream s(41);
  ev::projection_workspace ws;
  const int trials = std::is_same_v<Real, double> ? 4000 : 300;
  const Real tol = Real(1000) * machine_epsilon<Real>();
  for (int trial = 0; trial < trials; ++trial) {
    const Eigen::Index t = 1 + static_cast<Eigen::Index>(trial % 60);
    vector<Real> x0(t), a(t), out(t);
    for (Eigen::Index i = 0; i < t; ++i) {
      x0[i] = gaussian<Real>(s, Real(10));
      a[i] = uniform01<Real>(s) < Real(1) / 5 ? Real(0) : Real(10) * uniform01<Real>(s);
      if (trial % 5 == 0 && i > 0) {
        x0[i] = x0[0];
        a[i] = a[0];
      }
    }
    Real b = a.sum() * uniform01<Real>(s);
    if (trial % 11 == 0) b = a.sum();
    if (trial % 13 == 0) b = Real(0);
    const Real hint = gaussian<Real>(s, Real(20));
    ev::project_into<Real>(x0.data(), a.data(), b, out.data(), t, hint, ws);
    const auto ref = geometry::project_capped_simplex(x0, a, b);
    const Real scale = Real(1) + x0.cwiseAbs().maxCoeff() + a.maxCoeff();
    EXPECT_LE(static_cast<double>((out - ref.x).cwiseAbs().maxCoeff() / scale),
              static_cast<double>(tol))
        << "trial " << trial;
  }
}

// ------------------------------------------------------------------------- problem / data ----

TEST(EV_PROBLEM, ValueGradientAndValidation) {
  const auto prob = small_problem<double>(1, 6, 4);
  EXPECT_DOUBLE_EQ(prob.lipschitz(), 1.0 / 16);
  vector<double> x = vector<double>::Constant(6, 2.0), p(6);
  prob.gradient(x, p);
  const vector<double> v = prob.base_load() + x / 4.0;
  EXPECT_NEAR(prob.value(x), 0.5 * v.squaredNorm(), 1e-14);
  EXPECT_NEAR((p - v / 4.0).norm(), 0.0, 1e-15);
  // ∇U is L-Lipschitz in x with L = 1/m²
  vector<double> p2(6);
  const vector<double> x2 = x + vector<double>::Constant(6, 3.0);
  prob.gradient(x2, p2);
  EXPECT_NEAR((p2 - p).norm(), prob.lipschitz() * (x2 - x).norm(), 1e-15);

  charging_specs<double> bad = prob.specs();
  bad.energy[0] = bad.max_rate.col(0).sum() + 1;
  EXPECT_THROW(
      {
        try {
          charging_problem<double>(prob.base_load(), 4.0, bad);
        } catch (const std::domain_error& e) {
          // names the user's column and the value (spec/privacy_bounds.md, ev section)
          EXPECT_NE(std::string(e.what()).find("specs.energy[0] must be <= 1'max_rate_0 = "),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      std::domain_error);
  bad = prob.specs();
  bad.max_rate(0, 0) = -1;
  EXPECT_THROW(charging_problem<double>(prob.base_load(), 4.0, bad), std::domain_error);
  EXPECT_THROW(charging_problem<double>(prob.base_load(), 0.0, prob.specs()), std::domain_error);
  EXPECT_THROW(charging_problem<double>(vector<double>::Zero(5), 4.0, prob.specs()),
               std::invalid_argument);
}

// The grouped mode (ev §VII) is a representation: N specs with multiplicities give the same
// Algorithm 2 run as the per-user database that repeats each spec (same seed).
TEST(EV_PROBLEM, GroupedEqualsRepeatedUsers) {
  const auto grouped = ev::draw_grouped_specs<double>(31, 6, 10, 4, test::ev_spec_distribution());
  charging_specs<double> flat{matrix<double>(6, 10), vector<double>(10), {}};
  Eigen::Index col = 0;
  for (Eigen::Index j = 0; j < 4; ++j)
    for (long long u = 0; u < grouped.multiplicity[static_cast<std::size_t>(j)]; ++u, ++col) {
      flat.max_rate.col(col) = grouped.max_rate.col(j);
      flat.energy[col] = grouped.energy[j];
    }
  ASSERT_EQ(col, 10);
  const vector<double> d = vector<double>::LinSpaced(6, 1.0, 2.0);
  const charging_problem<double> pg(d, 10.0, grouped), pf(d, 10.0, flat);
  EXPECT_EQ(pg.users(), 10);
  EXPECT_EQ(pg.groups(), 4);
  auto p = small_private_params<double>(6);
  philox_stream s1(8), s2(8);
  const auto a = ev::run(pg, p, s1);
  const auto b = ev::run(pf, p, s2);
  EXPECT_LE((a.averaged_load - b.averaged_load).norm(), 1e-12 * b.averaged_load.norm());
  EXPECT_NEAR(a.averaged_objective, b.averaged_objective, 1e-12 * b.averaged_objective);
}

// Spec j comes from substream j: the first 10 specs do not depend on how many are drawn; the
// paper's distribution (§VII) yields feasible specs with E ∈ [28, 40] and r̄ ∈ {0, 3.3}.
TEST(EV_DATA, PerUserSubstreamsAndGrouping) {
  const auto a = ev::draw_specs<double>(7, 52, 10);
  const auto b = ev::draw_specs<double>(7, 52, 200);
  EXPECT_EQ(a.max_rate, b.max_rate.leftCols(10));
  EXPECT_EQ(a.energy, b.energy.head(10));
  long long on = 0;
  for (Eigen::Index j = 0; j < b.max_rate.cols(); ++j) {
    EXPECT_GE(b.energy[j], 28.0);
    EXPECT_LE(b.energy[j], 40.0);
    EXPECT_LE(b.energy[j], b.max_rate.col(j).sum());
    for (Eigen::Index t = 0; t < 52; ++t) {
      EXPECT_TRUE(b.max_rate(t, j) == 0.0 || b.max_rate(t, j) == 3.3);
      on += b.max_rate(t, j) > 0 ? 1 : 0;
    }
  }
  // Binomial(10400, 1/2): |on − 5200| <= 5.3 sd = 270 (false-alarm probability ~1e-7)
  EXPECT_NEAR(static_cast<double>(on), 5200.0, 270.0);
  const auto g = ev::draw_grouped_specs<double>(7, 52, 1003, 10);
  long long total = 0;
  for (const auto m : g.multiplicity) total += m;
  EXPECT_EQ(total, 1003);
  EXPECT_EQ(g.multiplicity[0], 101);
  EXPECT_EQ(g.multiplicity[9], 100);
  EXPECT_EQ(g.max_rate, a.max_rate);
  EXPECT_THROW(ev::draw_specs<double>(7, 52, 0), std::domain_error);
}

// ---------------------------------------------------------------------------- Algorithm 1 ----

TEST(EV_ALG1, MonotoneDescentToTheOptimum) {
  const auto prob = small_problem<double>(3, 8, 12);
  const auto opt = ev::solve_optimum(prob);
  ASSERT_EQ(opt.status, status::converged);
  // α = 1/L_r: U(Σ r^(k)) non-increasing
  auto p = gradient_params<double>(3000, 1 / prob.schedule_lipschitz());
  p.trace = true;  // non-private: no diagnostics request needed
  philox_stream s(1);
  const auto res = ev::run(prob, p, s);
  EXPECT_EQ(res.status, status::completed);
  EXPECT_FALSE(res.privacy.is_private);  // Algorithm 1 is not private: no guarantee claimed
  ASSERT_TRUE(res.trace);
  const auto& tr = res.trace->objective;
  ASSERT_EQ(tr.size(), 3001u);
  // from r^(2) on (r^(1) = 0 is outside the feasible set, below U*)
  for (std::size_t k = 2; k < tr.size(); ++k) EXPECT_LE(tr[k], tr[k - 1] * (1 + 1e-14)) << k;
  EXPECT_LE((res.final_objective - opt.optimum->value) / opt.optimum->value, 1e-6);
  EXPECT_GE(res.final_objective, opt.optimum->lower * (1 - 1e-14));
  expect_in_set(prob, res.final_schedules, 1e-12);
  p.iterations = 0;
  EXPECT_THROW(ev::run(prob, p, s), std::domain_error);
}

// ------------------------------------------------------------------------------- optimum ----

template <class Real>
class EV_OPT : public ::testing::Test {};
TYPED_TEST_SUITE(EV_OPT, kernel_scalars, test::scalar_names);

// The certificate: gap <= 1e-10 · U, lower <= U* <= value; an independent Frank–Wolfe-free
// check: Algorithm 1 never goes below the certified lower bound.
TYPED_TEST(EV_OPT, CertifiedGap) {
  using Real = TypeParam;
  const auto prob = small_problem<Real>(5, 6, 5);
  const auto opt = ev::solve_optimum(prob);
  ASSERT_EQ(opt.status, status::converged);
  ASSERT_TRUE(opt.optimum && opt.optimum->certified);
  EXPECT_FALSE(opt.privacy.is_private);
  EXPECT_LE(static_cast<double>(opt.optimum->gap / opt.optimum->value), 1e-10);
  EXPECT_GE(static_cast<double>(opt.optimum->gap), -1e-12);
  expect_in_set(prob, opt.final_schedules, 1e-12);
  const auto p = gradient_params<Real>(200, Real(1) / prob.schedule_lipschitz());
  philox_stream s(1);
  const auto res = ev::run(prob, p, s);
  EXPECT_GE(static_cast<double>(res.final_objective - opt.optimum->lower), -1e-12);
  EXPECT_THROW(ev::solve_optimum(prob, 100000, Real(0)), std::domain_error);
}

// ---------------------------------------------------------------------------- Algorithm 2 ----

/// Algorithm 2 with ε = 1, c = 2 and the tight Δ at δr = 3.3, δE = 3 (no diagnostics).
template <class Real>
ev::params<Real> small_private_params(long long k) {
  ev::params<Real> p;
  p.iterations = k;
  p.epsilon = Real(1);
  p.step = Real(2);
  p.delta_r = Real(33) / 10;
  p.delta_e = Real(3);
  p.sensitivity_bound = ev::sensitivity_bound::tight;
  p.optimum = false;
  return p;
}

// Theorem 6 proof: ε_1 = 0, ε_k = 2(k−1)ε/(K(K−1)), Σε_k = ε; the ledger composes to ε. The
// ledger holds typed events: k = 1 a pure ε = 0 event (p^(1) data-independent), k >= 2 one
// vector-Laplace event with Δ^(k) = (k−1)LΔ (Lemma 13) and the run's scale s; each event alone
// accounts to ε_k, and the reported guarantee IS the ledger's total, <= ε (ARCH.BUDGET).
TEST(EV_THM6_SCHEDULE, LedgerSumsToEpsilon) {
  const auto prob = small_problem<double>(9, 6, 8);
  const double delta = ev::projection_sensitivity(3.3, 3.0, 6, ev::sensitivity_bound::tight);
  for (const long long K : {2LL, 3LL, 6LL, 20LL, 101LL}) {
    for (const double eps : {0.01, 0.1, 1.0, 10.0}) {
      auto p = small_private_params<double>(K);
      p.epsilon = eps;
      p.trace = false;
      philox_stream s(static_cast<std::uint64_t>(K));
      const auto res = ev::run(prob, p, s);
      const auto& led = res.privacy.ledger;
      const auto& evs = led.events();
      ASSERT_EQ(evs.size(), static_cast<std::size_t>(K));
      EXPECT_EQ(evs[0].kind(), "pure");
      double sum = 0;
      for (long long k = 1; k <= K; ++k) {
        const auto& e = evs[static_cast<std::size_t>(k - 1)];
        const double ek = accounting::account<double>({e}, led.options()).epsilon;
        EXPECT_NEAR(ek, 2.0 * static_cast<double>(k - 1) * eps / static_cast<double>(K * (K - 1)),
                    1e-15 * eps);
        if (k >= 2) {
          const auto& m = std::get<accounting::vector_laplace_mechanism<double>>(e.what);
          EXPECT_EQ(m.scale, res.noise_scale);
          EXPECT_NEAR(m.sensitivity, static_cast<double>(k - 1) * prob.lipschitz() * delta,
                      1e-15 * m.sensitivity);
        }
        sum += ek;
      }
      EXPECT_EQ(accounting::account<double>({evs[0]}, led.options()).epsilon, 0.0);
      EXPECT_NEAR(sum, eps, 1e-12 * eps);
      EXPECT_NEAR(res.privacy.guarantee.epsilon, eps, 1e-12 * eps);
      EXPECT_LE(res.privacy.guarantee.epsilon, eps);  // a requested budget is a bound
      EXPECT_EQ(res.privacy.guarantee.epsilon, led.total().epsilon);
      EXPECT_EQ(res.privacy.guarantee.delta, 0.0);
      EXPECT_TRUE(res.privacy.budget_met);
    }
  }
}

TEST(EV_ALG2, OutputFeasibleDeterministicAndValidated) {
  const auto prob = small_problem<double>(11, 6, 8);
  auto p = small_private_params<double>(8);
  p.diagnostics = true;  // the objective trace is a non-private diagnostic (PRIV.RELEASE)
  p.trace = true;
  philox_stream s1(5), s2(5);
  const auto a = ev::run(prob, p, s1);
  const auto b = ev::run(prob, p, s2);
  EXPECT_EQ(a.status, status::completed);
  EXPECT_EQ(a.iterations, 8);
  EXPECT_TRUE(a.privacy.is_private);
  EXPECT_EQ(a.released, b.released);
  EXPECT_EQ(a.averaged_schedules, b.averaged_schedules);
  EXPECT_EQ(a.released.col(0), a.gradients.col(0));  // w_1 = 0
  EXPECT_GT((a.released.col(1) - a.gradients.col(1)).norm(), 0.0);
  expect_in_set(prob, a.final_schedules, 1e-12);
  expect_in_set(prob, a.averaged_schedules, 1e-12);  // r̂ is a convex combination
  ASSERT_TRUE(a.trace);
  ASSERT_EQ(a.trace->averaged.size(), 9u);
  EXPECT_DOUBLE_EQ(a.trace->averaged.back(), a.averaged_objective);

  auto expect_param_error = [&](auto mutate, const char* name) {
    auto q = p;
    mutate(q);
    philox_stream s(1);
    try {
      ev::run(prob, q, s);
      ADD_FAILURE() << "no exception for " << name;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  using P = ev::params<double>;
  expect_param_error([](P& q) { q.iterations = 1; }, "params.iterations");
  expect_param_error([](P& q) { q.epsilon = 0; }, "params.epsilon");
  expect_param_error([](P& q) { q.step = -1; }, "params.step");
  expect_param_error([](P& q) { q.eta = 0.5; }, "params.eta");
  expect_param_error(
      [](P& q) {
        q.delta_r = 0;
        q.delta_e = 0;
      },
      "params.delta_e");  // Δ = 0
  expect_param_error([](P& q) { q.start = ev::start_kind::public_vector; },
                     "params.start_vector");  // empty public start
  expect_param_error(
      [](P& q) {
        q.start = ev::start_kind::public_vector;
        q.start_vector = {1.0, 2.0};
      },
      "params.start_vector");  // of the wrong size (T = 6)
  // PRIV.RELEASE: the non-private diagnostics of a private run only on request
  expect_param_error(
      [](P& q) {
        q.diagnostics = false;
        q.trace = true;
      },
      "ev::params.trace must be false for private_projected_gradient unless diagnostics = true");
  expect_param_error(
      [](P& q) {
        q.diagnostics = false;
        q.trace = false;
        q.optimum = true;
      },
      "ev::params.optimum must be false for private_projected_gradient unless diagnostics = "
      "true");
}

// errata EV-E2: a data-dependent r^(1) is refused by Algorithm 2; a public vector is accepted.
// Negative control: with the data-dependent start (allowed in the non-private Algorithm 1),
// p^(1) differs between adjacent databases, so an un-noised p̂^(1) would leak.
TEST(EV_START_PUBLIC, DataDependentStartRefused) {
  const auto prob = small_problem<double>(13, 6, 8);
  auto p = small_private_params<double>(4);
  p.start = ev::start_kind::projected_zero;
  philox_stream s(3);
  EXPECT_THROW(ev::run(prob, p, s), invalid_parameter);
  p.start = ev::start_kind::public_vector;
  p.start_vector.assign(6, 0.5);
  EXPECT_NO_THROW(ev::run(prob, p, s));

  charging_specs<double> other = prob.specs();
  other.energy[0] = other.energy[0] / 2;
  const charging_problem<double> adj(prob.base_load(), prob.households(), other);
  auto q = gradient_params<double>(1, 1.0);
  q.start = ev::start_kind::projected_zero;
  const auto r1 = ev::run(prob, q, s), r2 = ev::run(adj, q, s);
  EXPECT_GT((r1.gradients.col(0) - r2.gradients.col(0)).norm(), 0.0);
  q.start = ev::start_kind::zero;
  const auto z1 = ev::run(prob, q, s), z2 = ev::run(adj, q, s);
  EXPECT_EQ(z1.gradients.col(0), z2.gradients.col(0));
}

// Lemma 13 with the coupling of its proof: D and an adjacent D′ replay the SAME released
// history p̂^(1..K) (from a run on D); then p^(1)(D) = p^(1)(D′) exactly and
// ‖p^(k)(D) − p^(k)(D′)‖ <= (k−1)LΔ with Δ the tight sensitivity. D′ changes user 0 to a
// worst-case pair found by the sensitivity search, and to random adjacent pairs.
TEST(EV_LEMMA13, CoupledRunsWithinSensitivity) {
  const Eigen::Index t = 4, n = 6;
  const double dr = 3.3, de = 3;
  philox_stream search_stream(77);
  const auto w = ev::search_sensitivity(static_cast<std::size_t>(t), dr, de, 6, 300, search_stream);
  const double delta =
      ev::projection_sensitivity(dr, de, static_cast<std::size_t>(t), ev::sensitivity_bound::tight);
  ASSERT_LE(w.distance, delta * (1 + 1e-9));
  double worst = 0;
  philox_stream pairs(78);
  for (int trial = 0; trial < 20; ++trial) {
    charging_specs<double> base = ev::draw_specs<double>(100 + static_cast<std::uint64_t>(trial), t,
                                                         n, test::ev_spec_distribution());
    charging_specs<double> s1 = base, s2 = base;
    if (trial < 4) {  // the searched worst case (scaled down into this instance's range)
      const double f = trial == 0 ? 1.0 : 0.1 * trial;
      s1.max_rate.col(0) = f * w.a;
      s1.energy[0] = f * w.b;
      s2.max_rate.col(0) = f * w.a_prime;
      s2.energy[0] = f * w.b_prime;
    } else {  // random adjacent pair: ‖r̄ − r̄′‖₁ <= δr, |E − E′| <= δE
      vector<double> dir(t);
      for (Eigen::Index i = 0; i < t; ++i) dir[i] = gaussian<double>(pairs, 1.0);
      s2.max_rate.col(0) = (s1.max_rate.col(0) + dir * (dr / dir.lpNorm<1>())).cwiseMax(0.0);
      const double e = s1.energy[0] + de * (2 * uniform01<double>(pairs) - 1);
      s2.energy[0] = std::clamp(e, 0.0, s2.max_rate.col(0).sum());
    }
    const vector<double> d = vector<double>::LinSpaced(t, 1.0, 2.0);
    const charging_problem<double> pd(d, double(n), s1), pd2(d, double(n), s2);
    auto p = small_private_params<double>(12);  // Δ: the tight value at (δr, δE) = (3.3, 3)
    p.delta_r = dr;
    p.delta_e = de;
    p.step = 5 + trial;
    philox_stream s(static_cast<std::uint64_t>(trial));
    const auto run = ev::run(pd, p, s);
    const auto g1 = ev::replay_gradients(pd, p, run.released);
    const auto g2 = ev::replay_gradients(pd2, p, run.released);
    EXPECT_EQ(g1, run.gradients);  // replay reproduces the run
    EXPECT_EQ(g1.col(0), g2.col(0));
    for (long long k = 2; k <= p.iterations; ++k) {
      const double ratio = (g1.col(k - 1) - g2.col(k - 1)).norm() /
                           (static_cast<double>(k - 1) * pd.lipschitz() * delta);
      EXPECT_LE(ratio, 1 + 1e-12) << "trial " << trial << " k " << k;
      worst = std::max(worst, ratio);
    }
  }
  RecordProperty("worst_ratio", std::to_string(worst));
  std::printf("EV_LEMMA13 worst ||p(D) - p(D')|| / ((k-1) L Delta) = %.6f\n", worst);
}

// errata EV-E3: ‖w_k‖ ~ Gamma(T, s), s = K(K−1)LΔ/(2ε); E‖w‖² = T(T+1)s². N = 10,000 draws
// at T = 52, KS test (DKW) at false-alarm probability 1e-3 (critical 0.0195); E‖w‖² within 2%
// (the Monte Carlo sd of the mean is 0.28% at N = 1e4: 7 sd). Negative control: the same
// sample against Gamma(T, 1.05 s) is rejected (KS distance ≈ 0.14).
TEST(EV_NOISE_GAMMA, NormIsGammaTS) {
  const long long K = 20;
  const double L = 1.0 / (5e5 * 5e5), delta = 28.4478, eps = 0.1;
  const double s = ev::noise_scale(K, L, delta, eps);
  EXPECT_NEAR(s, 20.0 * 19 * L * delta / (2 * eps), 1e-15 * s);
  const int N = 10000;
  std::vector<double> norms;
  double sq = 0;
  for (int j = 0; j < N; ++j) {
    const philox_stream base(2026, static_cast<std::uint64_t>(j));
    const auto w = ev::gradient_noise<double>(base, 2 + j % 19, 52, s);
    norms.push_back(w.norm() / s);
    sq += w.squaredNorm() / (s * s);
  }
  EXPECT_EQ(ev::gradient_noise<double>(philox_stream(1), 1, 52, s).norm(), 0.0);  // w_1 = 0
  const boost::math::gamma_distribution<double> g(52.0, 1.0), wrong(52.0, 1.05);
  const auto ok = test::ks_test(
      norms, [&](double x) { return boost::math::cdf(g, x); }, 1e-3);
  EXPECT_FALSE(ok.reject) << ok.statistic << " > " << ok.critical;
  const auto bad = test::ks_test(
      norms, [&](double x) { return boost::math::cdf(wrong, x); }, 1e-3);
  EXPECT_TRUE(bad.reject) << bad.statistic;
  EXPECT_NEAR(sq / N, 52.0 * 53.0, 0.02 * 52 * 53);
}

// Same seed, double vs mp50: the samplers make the double noise the rounding of the 50-digit
// noise, so the whole run agrees to 1e-9 relative (and mp50 did not run in double).
TEST(EV_ALG2_PRECISION, DoubleAndMp50Agree) {
  const auto pd = small_problem<double>(21, 6, 5);
  charging_specs<mp50> sm;
  sm.max_rate = pd.specs().max_rate.cast<mp50>();
  sm.energy = pd.specs().energy.cast<mp50>();
  sm.multiplicity = pd.specs().multiplicity;
  const charging_problem<mp50> pm(pd.base_load().cast<mp50>(), mp50(pd.households()), sm);
  auto p = small_private_params<double>(8);
  auto q = small_private_params<mp50>(8);
  q.delta_r = mp50(p.delta_r);  // the same double inputs (not the mp50 value nearest 3.3)
  philox_stream s1(99), s2(99);
  const auto a = ev::run(pd, p, s1);
  const auto b = ev::run(pm, q, s2);
  double worst = 0;
  for (Eigen::Index j = 0; j < a.averaged_schedules.cols(); ++j)
    for (Eigen::Index i = 0; i < a.averaged_schedules.rows(); ++i)
      worst = std::max(worst, std::abs(a.averaged_schedules(i, j) -
                                       static_cast<double>(b.averaged_schedules(i, j))) /
                                  (1 + std::abs(a.averaged_schedules(i, j))));
  const double rel_obj =
      std::abs(a.averaged_objective - static_cast<double>(b.averaged_objective)) /
      a.averaged_objective;
  std::printf("EV_ALG2_PRECISION max rel diff schedules %.3g, objective %.3g\n", worst, rel_obj);
  EXPECT_LE(worst, 1e-9);
  EXPECT_LE(rel_obj, 1e-9);
  EXPECT_NE(b.averaged_objective, mp50(a.averaged_objective));  // mp50 really ran at 50 digits
}

// --------------------------------------------------------------------------- Algorithm 3 ----

/// f(x) = ½‖x − c‖² on the box [0, 1]^d (c outside the box in two coordinates), gradient
/// noise N(0, σ² I): strongly convex with a constrained optimum.
struct noisy_quadratic {
  vector<double> center;
  double sigma;
  Eigen::Index dimension() const { return center.size(); }
  double value(const vector<double>& x) const { return 0.5 * (x - center).squaredNorm(); }
  void stochastic_gradient(const vector<double>& x, philox_stream& s, vector<double>& g) const {
    for (Eigen::Index i = 0; i < x.size(); ++i)
      g[i] = x[i] - center[i] + (sigma > 0 ? gaussian<double>(s, sigma) : 0.0);
  }
  void project(const vector<double>& y, vector<double>& x) const {
    x = y.cwiseMax(0.0).cwiseMin(1.0);
  }
  double optimum() const { return value(center.cwiseMax(0.0).cwiseMin(1.0)); }
};

/// Algorithm 3 (generic form) with K iterations, c = 1, η = 1, x^(1) = 0.
ev::params<double> sgd_params(long long k) {
  ev::params<double> p;
  p.algorithm = ev::algorithm_kind::projected_sgd;
  p.iterations = k;
  p.step = 1;
  p.trace = false;
  p.optimum = false;
  return p;
}

TEST(EV_ALG3, ValidatesAndAverages) {
  const noisy_quadratic q{vector<double>::Constant(3, 0.5), 0.0};
  auto p = sgd_params(50);
  p.trace = true;
  philox_stream s(1);
  const auto r = ev::run<double>(q, p, s);
  ASSERT_TRUE(r.trace);
  EXPECT_EQ(r.trace->size(), 51u);
  EXPECT_LE((r.averaged_point - q.center).norm(), 1e-2);
  EXPECT_FALSE(r.privacy.is_private);  // Algorithm 3 adds no calibrated noise: no guarantee
  EXPECT_TRUE(r.privacy.ledger.empty());
  p.eta = 0.5;
  EXPECT_THROW(ev::run<double>(q, p, s), std::domain_error);
  p.eta = 1;
  p.start = ev::start_kind::public_vector;
  p.start_vector.assign(2, 0.0);  // dimension 3
  EXPECT_THROW(ev::run<double>(q, p, s), invalid_parameter);
  p.start_vector.assign(3, 0.0);
  EXPECT_NO_THROW(ev::run<double>(q, p, s));
  p.algorithm = ev::algorithm_kind::projected_gradient;  // not Algorithm 3
  EXPECT_THROW(ev::run<double>(q, p, s), invalid_parameter);
}

// Proposition 14: E f(x̂^(K+1)) − f* = O(1/√K). Mean suboptimality over R = 200 runs at
// K = 2^6 … 2^11; the least-squares slope of log(mean) on log K must be <= −0.5 + 0.15. The
// tolerance 0.15 covers the Monte Carlo error of the means (relative sd of each mean ≈ 0.1,
// giving a slope sd ≈ 0.03: 0.15 is 5 sd) and pre-asymptotic curvature; on this strongly convex
// instance the observed rate is faster than the bound (slope near −1). Negative control: the
// LAST iterate with a constant step (no decay, no averaging) stalls at the noise floor (slope
// > −0.2).
TEST(EV_PROP14, RateAtLeastInverseSqrtK) {
  const noisy_quadratic q{(vector<double>(4) << 0.3, 1.5, -0.5, 0.7).finished(), 1.0};
  const double fstar = q.optimum();
  std::vector<double> lk, lf, lf_const;
  const int R = 200;
  for (int e = 6; e <= 11; ++e) {
    const long long K = 1LL << e;
    double mean = 0, mean_const = 0;
    for (int rep = 0; rep < R; ++rep) {
      auto p = sgd_params(K);
      p.step = 1;
      philox_stream s(1000 + static_cast<std::uint64_t>(rep), static_cast<std::uint64_t>(e));
      mean += q.value(ev::run<double>(q, p, s).averaged_point) - fstar;
      // control: constant step 0.1, last iterate
      vector<double> x = vector<double>::Zero(4), g(4), y(4);
      philox_stream sc(5000 + static_cast<std::uint64_t>(rep), static_cast<std::uint64_t>(e));
      for (long long k = 1; k <= K; ++k) {
        q.stochastic_gradient(x, sc, g);
        y = x - 0.1 * g;
        q.project(y, x);
      }
      mean_const += q.value(x) - fstar;
    }
    lk.push_back(std::log(static_cast<double>(K)));
    lf.push_back(std::log(mean / R));
    lf_const.push_back(std::log(mean_const / R));
  }
  auto slope = [&](const std::vector<double>& y) {
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < y.size(); ++i) mx += lk[i], my += y[i];
    mx /= static_cast<double>(y.size());
    my /= static_cast<double>(y.size());
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
      sxy += (lk[i] - mx) * (y[i] - my), sxx += (lk[i] - mx) * (lk[i] - mx);
    return sxy / sxx;
  };
  const double s_avg = slope(lf), s_const = slope(lf_const);
  std::printf("EV_PROP14 fitted slope %.3f (bound -0.5), control %.3f\n", s_avg, s_const);
  RecordProperty("slope", std::to_string(s_avg));
  EXPECT_LE(s_avg, -0.5 + 0.15);
  EXPECT_GT(s_const, -0.2);
}

}  // namespace
}  // namespace dpref

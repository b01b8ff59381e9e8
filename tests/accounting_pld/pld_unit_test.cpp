// Unit tests of the PLD accountant (spec/accounting_pld.md). Suite names are the spec IDs.
// Exact references: MPFR closed forms (pld_support.hpp) and the mpmath goldens (regression).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "accounting_pld/pld_support.hpp"
#include "dpref/accounting/account_report.hpp"
#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/pld.hpp"

namespace {

namespace P = dpref::accounting::pld;
using dpref::accounting::certifier;
using dpref::accounting::work_real;
using dpref::test::pldref::gauss_delta;
using dpref::test::pldref::gauss_eps_bracket;
using dpref::test::pldref::opts;
using dpref::test::pldref::subsampled_delta;
using P::estimate;

constexpr double kLo = 1 - 0x1p-50;  // exact references are doubles rounded to nearest
constexpr double kHi = 1 + 0x1p-50;

/// pess(ε) >= exact(ε) >= opt(ε) on a list of ε (including negative ε: the whole curve).
template <class Exact>
void expect_sandwich(const P::privacy_loss_distribution& pess,
                     const P::privacy_loss_distribution& opt, Exact&& exact,
                     const std::vector<double>& eps_list, const char* what) {
  for (const double e : eps_list) {
    const double x = exact(e);
    EXPECT_GE(pess.delta_for_epsilon(e), x * kLo) << what << " eps=" << e;
    EXPECT_LE(opt.delta_for_epsilon(e), x * kHi) << what << " eps=" << e;
  }
}

const std::vector<double> kEps = {-2.0, -0.5, -0.05, 0.0, 0.01, 0.1, 0.3, 0.7, 1.0, 2.0, 4.0};

// ------------------------------------------------------------------------------ ACC.PLD.TYPES
TEST(ACC_PLD_TYPES, ValidationNamesFunctionParameterAndValue) {
  try {
    (void)P::gaussian(1.0, 0.0);
    FAIL() << "sigma = 0 accepted";
  } catch (const std::domain_error& e) {
    EXPECT_NE(std::string(e.what()).find("pld::gaussian: sigma must be finite and > 0"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)P::laplace(-1.0, 1.0), std::domain_error);
  EXPECT_THROW((void)P::discrete_laplace(0, 1.0), std::domain_error);
  EXPECT_THROW((void)P::discrete_gaussian(1, -1.0), std::domain_error);
  EXPECT_THROW((void)P::randomized_response(1.0, 1), std::domain_error);
  EXPECT_THROW((void)P::exponential_mechanism_worst_case(NAN), std::domain_error);
  EXPECT_THROW((void)P::subsample(P::gaussian(1, 1), P::sampling::poisson(1.5)), std::domain_error);
  EXPECT_THROW((void)P::subsample(P::gaussian(1, 1), P::sampling::without_replacement(5, 4)),
               std::domain_error);
  EXPECT_THROW((void)P::subsample(P::randomized_response(1, 2), P::sampling::poisson(0.1)),
               std::invalid_argument);
  EXPECT_THROW(
      (void)P::subsample(P::laplace(1, 1), P::sampling::poisson(0.1, P::neighbouring::replace_one)),
      std::invalid_argument);
  P::options bad;
  bad.interval = 0;
  EXPECT_THROW((void)P::discretise(P::gaussian(1, 1), bad), std::domain_error);
  bad = {};
  bad.tail_mass = 0.5;
  EXPECT_THROW((void)P::discretise(P::gaussian(1, 1), bad), std::domain_error);
  const auto g = P::discretise(P::gaussian(1, 1), opts(0.01, estimate::pessimistic));
  EXPECT_THROW((void)g.epsilon_for_delta(0.0), std::domain_error);
  EXPECT_THROW((void)g.epsilon_for_delta(1.0), std::domain_error);
  EXPECT_THROW((void)g.delta_for_epsilon(NAN), std::domain_error);
  auto o = P::discretise(P::gaussian(1, 1), opts(0.01, estimate::optimistic));
  EXPECT_THROW((void)P::compose(g, o), std::invalid_argument);  // kinds differ
  const auto g2 = P::discretise(P::gaussian(1, 1), opts(0.02, estimate::pessimistic));
  EXPECT_THROW((void)P::compose(g, g2), std::invalid_argument);  // grids differ
  EXPECT_THROW((void)P::self_compose(g, 0), std::domain_error);
}

TEST(ACC_PLD_TYPES, ValueTypeGridMassesAndDirections) {
  const auto g = P::discretise(P::gaussian(1, 2), opts(0.01, estimate::pessimistic));
  EXPECT_TRUE(g.symmetric());
  EXPECT_EQ(g.kind(), estimate::pessimistic);
  EXPECT_EQ(g.remove.loss(0), static_cast<double>(g.remove.offset) * 0.01);
  // pessimistic masses are upper bounds: total >= 1; optimistic <= 1
  EXPECT_GE(g.remove.total_mass(), 1.0);
  EXPECT_LE(g.remove.total_mass(), 1.0 + 1e-12);
  const auto o = P::discretise(P::gaussian(1, 2), opts(0.01, estimate::optimistic));
  EXPECT_LE(o.remove.total_mass(), 1.0);
  EXPECT_GE(o.remove.total_mass(), 1.0 - 1e-12);
  for (const double m : g.remove.masses) EXPECT_GE(m, 0.0);
  const auto s = P::discretise(P::subsample(P::gaussian(1, 1), P::sampling::poisson(0.1)),
                               opts(0.01, estimate::pessimistic));
  ASSERT_FALSE(s.symmetric());
  EXPECT_GE(static_cast<double>(s.remove.offset) * 0.01,
            std::log1p(-0.1) - 0.011);  // remove loss >= log(1 − q)
  EXPECT_LE(
      static_cast<double>(s.add->offset + static_cast<std::int64_t>(s.add->masses.size()) - 1) *
          0.01,
      -std::log1p(-0.1) + 0.011);  // add loss <= −log(1 − q)
}

// ------------------------------------------------------------------------------ ACC.PLD.CERT
/// |long double value − exact| <= factor · stated error bound, compared exactly in MPFR.
bool within(const P::detail::val& v, const work_real& exact, double factor = 1.0) {
  using std::abs;
  return abs(work_real(v.v) - exact) <= work_real(v.e) * factor;
}

// The long-double tails respect their stated error bounds (checked against MPFR closed forms).
TEST(ACC_PLD_CERT, TailErrorBoundsHoldAgainstMpfr) {
  using dpref::test::pldref::phic;
  const auto m = P::subsample(P::gaussian(1, 1.1), P::sampling::poisson(0.01));
  const auto& rem = m.remove_law().parts[0];
  const auto& add = m.add_law().parts[0];
  const auto g = P::gaussian(1, 0.7).remove_law().parts[0];
  int checked = 0;
  for (double l = -6; l <= 6; l += 0.173) {
    certifier<double> c;
    using std::expm1;
    using std::log;
    {  // Gaussian, μ = 1/0.7: T_P(l) = Φc(x − μ), T_Q = Φc(x), G = 1 − T, x = l/μ + μ/2
      const work_real mu = c.in(1.0) / c.in(0.7);
      const work_real x = c.in(l) / mu + mu / 2;
      const auto t = g->tails(l, 0);
      EXPECT_TRUE(within(t.tp, phic(x - mu))) << l;
      EXPECT_TRUE(within(t.tq, phic(x))) << l;
      EXPECT_TRUE(within(t.gp, phic(mu - x))) << l;
      EXPECT_TRUE(within(t.gq, phic(-x))) << l;
    }
    const work_real q = c.in(0.01), s = c.in(1.1);
    if (l > std::log1p(-0.01) + 1e-9 && l < 3) {  // remove: x(l) = σ² log((e^l − 1 + q)/q) + 1/2
      const work_real x = s * s * log((expm1(c.in(l)) + q) / q) + work_real(1) / 2;
      const auto t = rem->tails(l, 0);
      EXPECT_TRUE(within(t.tp, (1 - q) * phic(x / s) + q * phic((x - 1) / s))) << l;
      EXPECT_TRUE(within(t.tq, phic(x / s))) << l;
      ++checked;
    }
    if (l < -std::log1p(-0.01) - 1e-9 && l > -3) {  // add: L'' > l  <=>  x < x(−l)
      const work_real x = s * s * log((expm1(-c.in(l)) + q) / q) + work_real(1) / 2;
      const auto t = add->tails(l, 0);
      EXPECT_TRUE(within(t.tp, phic(-x / s))) << l;
      EXPECT_TRUE(within(t.tq, (1 - q) * phic(-x / s) + q * phic((1 - x) / s))) << l;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

// Negative control: the a-priori bound is not vacuous — a bound 2^20 times smaller than the
// stated one is violated somewhere on the same grid (the check above can fail).
TEST(ACC_PLD_CERT, NegativeControlTooSmallBoundIsViolated) {
  const auto g = P::gaussian(1, 0.7).remove_law().parts[0];
  int violated = 0;
  for (double l = -6; l <= 6; l += 0.0173) {
    certifier<double> c;
    const work_real mu = c.in(1.0) / c.in(0.7);
    const work_real x = c.in(l) / mu + mu / 2;
    if (!within(g->tails(l, 0).tp, dpref::test::pldref::phic(x - mu), 0x1p-20)) ++violated;
  }
  EXPECT_GT(violated, 0);
}

// ------------------------------------------------------------------------------ ACC.PLD.DISCRETISE
TEST(ACC_PLD_DISCRETISE, PessimisticDominatesAndOptimisticIsDominatedOnTheWholeCurve) {
  const double mu = 1 / 0.8;
  for (const double h : {0.05, 0.01, 0.002}) {
    const auto m = P::gaussian(1, 0.8);
    const auto pe = P::discretise(m, opts(h, estimate::pessimistic));
    const auto op = P::discretise(m, opts(h, estimate::optimistic));
    expect_sandwich(
        pe, op, [&](double e) { return gauss_delta(mu, e); }, kEps, "gaussian");
  }
}

TEST(ACC_PLD_DISCRETISE, ErrorIsSecondOrderInTheInterval) {
  // sup over ε of pess − opt shrinks about 4x when h halves (connect-the-dots accuracy)
  auto gap = [](double h) {
    const auto m = P::gaussian(1, 1);
    const auto pe = P::discretise(m, opts(h, estimate::pessimistic));
    const auto op = P::discretise(m, opts(h, estimate::optimistic));
    double g = 0;
    for (double e = -1; e <= 3; e += 0.0137)
      g = std::max(g, pe.delta_for_epsilon(e) - op.delta_for_epsilon(e));
    return g;
  };
  const double g1 = gap(0.02), g2 = gap(0.01);
  EXPECT_GT(g1 / g2, 3.0) << g1 << " " << g2;
  EXPECT_LT(g1, 2e-4);
}

// ------------------------------------------------------------------------------ ACC.PLD.GAUSS
TEST(ACC_PLD_GAUSS, ComposedGaussiansSandwichTheClosedFormWithin02Percent) {
  struct C {
    double sigma;
    int k;
    double delta, h;
  };
  for (const C c : {C{5.0, 100, 1e-5, 5e-3}, C{1.0, 1, 1e-5, 1e-3}, C{2.0, 30, 1e-6, 5e-3},
                    C{10.0, 1000, 1e-8, 5e-3}, C{0.5, 4, 1e-3, 1e-3}}) {
    const double mu = std::sqrt(static_cast<double>(c.k)) / c.sigma;
    const auto [lo, hi] = gauss_eps_bracket(mu, c.delta);
    const auto m = P::gaussian(1, c.sigma);
    const auto pe =
        P::self_compose(P::discretise(m, opts(c.h, estimate::pessimistic)),
                        static_cast<std::uint64_t>(c.k), opts(c.h, estimate::pessimistic));
    const auto op =
        P::self_compose(P::discretise(m, opts(c.h, estimate::optimistic)),
                        static_cast<std::uint64_t>(c.k), opts(c.h, estimate::optimistic));
    const double ep = pe.epsilon_for_delta(c.delta), eo = op.epsilon_for_delta(c.delta);
    EXPECT_GE(ep, lo) << "sigma " << c.sigma << " k " << c.k;
    EXPECT_LE(ep, hi * 1.002) << "sigma " << c.sigma << " k " << c.k;
    EXPECT_LE(eo, hi) << "sigma " << c.sigma << " k " << c.k;
    EXPECT_GE(eo, lo * 0.998) << "sigma " << c.sigma << " k " << c.k;
  }
}

TEST(ACC_PLD_GAUSS, TheOneHundredStepFullBatchConfigurationIsExact) {
  // (q, σ, steps) = (1, 5, 100): one Gaussian with μ = 10/5 = 2; ε(1e-5) = 9.997256146...
  const auto m = P::subsample(P::gaussian(1, 5), P::sampling::poisson(1.0));
  const auto pe = P::self_compose(P::discretise(m, opts(1e-3, estimate::pessimistic)), 100,
                                  opts(1e-3, estimate::pessimistic));
  const double e = pe.epsilon_for_delta(1e-5);
  EXPECT_GE(e, 9.997256146);
  EXPECT_LE(e, 9.997256146 * 1.0001);
}

// Negative control of the upper-bound test: the optimistic estimate fails it.
TEST(ACC_PLD_GAUSS, NegativeControlOptimisticFailsTheUpperBoundTest) {
  const double mu = std::sqrt(100.0) / 5.0;
  const auto [lo, hi] = gauss_eps_bracket(mu, 1e-5);
  (void)hi;
  const auto op =
      P::self_compose(P::discretise(P::gaussian(1, 5), opts(0.02, estimate::optimistic)), 100,
                      opts(0.02, estimate::optimistic));
  EXPECT_LT(op.epsilon_for_delta(1e-5), lo);  // "ε >= exact" would reject it
}

// ------------------------------------------------------------------------------ ACC.PLD.LAPLACE
TEST(ACC_PLD_LAPLACE, SandwichOfTheClosedForm) {
  // Laplace(Δ = 1, b = 2): e = 0.5; δ(ε) = 1 − e^{(ε − e)/2} on [0, e] (and 1 − e^ε ... below)
  const double e0 = 0.5;
  auto exact = [&](double eps) {
    // full curve: P(L > l) etc. — via the pair's hockey stick, any real ε
    if (eps >= e0) return 0.0;
    if (eps <= -e0) return -std::expm1(eps);
    // δ(ε) = T_P(ε) − e^ε T_Q(ε) with the closed-form tails of the spec
    const double tp = 0.5 * -std::expm1(-(e0 - eps) / 2) + 0.5;
    const double tq = 0.5 * std::exp(-e0) * std::expm1((e0 - eps) / 2) + 0.5 * std::exp(-e0);
    return tp - std::exp(eps) * tq;
  };
  const auto m = P::laplace(1, 2);
  const auto pe = P::discretise(m, opts(1e-3, estimate::pessimistic));
  const auto op = P::discretise(m, opts(1e-3, estimate::optimistic));
  for (const double eps : {-1.0, -0.3, 0.0, 0.1, 0.25, 0.45, 0.6})
    EXPECT_NEAR(pe.delta_for_epsilon(eps), exact(eps), 1e-3) << eps;
  expect_sandwich(pe, op, exact, {-1.0, -0.3, 0.0, 0.1, 0.25, 0.45, 0.6}, "laplace");
  // pure DP: δ(ε0) = 0 up to the discretisation
  EXPECT_LT(pe.delta_for_epsilon(0.5 + 2e-3), 1e-15);
}

// ------------------------------------------------------------------------------ ACC.PLD.RR
TEST(ACC_PLD_RR, ComposedRandomizedResponseSandwichesExactEnumeration) {
  // binary RR, ε0 = 1, 25 rounds: exact δ(ε) by the binomial distribution of the loss
  const double e0 = 1.0;
  const int k = 25;
  const double ph = std::exp(e0) / (std::exp(e0) + 1);
  auto exact = [&](double eps) {
    long double s = 0;
    for (int a = 0; a <= k; ++a) {
      const long double pr =
          std::exp(std::lgamma(k + 1.0L) - std::lgamma(a + 1.0L) - std::lgamma(k - a + 1.0L)) *
          std::pow(static_cast<long double>(ph), a) * std::pow(1.0L - ph, k - a);
      const long double l = e0 * (2 * a - k);
      if (l > eps) s += pr * -std::expm1(static_cast<long double>(eps) - l);
    }
    return static_cast<double>(s);
  };
  const auto m = P::randomized_response(e0, 2);
  const auto pe = P::self_compose(P::discretise(m, opts(1e-3, estimate::pessimistic)), k,
                                  opts(1e-3, estimate::pessimistic));
  const auto op = P::self_compose(P::discretise(m, opts(1e-3, estimate::optimistic)), k,
                                  opts(1e-3, estimate::optimistic));
  for (const double eps : {0.0, 1.0, 3.0, 5.5, 9.0}) {
    EXPECT_GE(pe.delta_for_epsilon(eps), exact(eps) * (1 - 1e-12)) << eps;
    EXPECT_LE(op.delta_for_epsilon(eps), exact(eps) * (1 + 1e-12)) << eps;
  }
}

// ------------------------------------------------------------------------------ ACC.PLD.EXPMECH
TEST(ACC_PLD_EXPMECH, EnvelopeDominatesEveryBinaryBoundedRangePair) {
  // δ_env(ε') = (e^{ε/2} − e^{ε'/2})² / (e^ε − 1) >= δ of every pair with losses {t, t − ε}
  const double e = 1.3;
  const auto pe =
      P::discretise(P::exponential_mechanism_worst_case(e), opts(1e-4, estimate::pessimistic));
  for (double eps = 0; eps <= e; eps += 0.1) {
    const double env = std::pow(std::exp(e / 2) - std::exp(eps / 2), 2) / std::expm1(e);
    EXPECT_NEAR(pe.delta_for_epsilon(eps), env, 1e-6) << eps;
    EXPECT_GE(pe.delta_for_epsilon(eps), env * (1 - 1e-12)) << eps;
    for (double t = 0; t <= e; t += e / 37) {
      const double p1 = (std::exp(e) - std::exp(t)) / std::expm1(e);
      const double d = p1 * std::max(0.0, -std::expm1(eps - t)) +
                       (1 - p1) * std::max(0.0, -std::expm1(eps - t + e));
      EXPECT_LE(d, env * (1 + 1e-12)) << eps << " " << t;
    }
  }
}

TEST(ACC_PLD_EXPMECH, WholeCurveIncludingNegativeEpsilonIsSandwiched) {
  // symmetric pair: δ(ε') = 1 − e^{ε'} + e^{ε'} δ(−ε') for ε' < 0
  const double e = 0.8;
  auto env = [&](double x) {
    if (x >= e) return 0.0;
    if (x >= 0) return std::pow(std::exp(e / 2) - std::exp(x / 2), 2) / std::expm1(e);
    if (x <= -e) return -std::expm1(x);
    return -std::expm1(x) +
           std::exp(x) * std::pow(std::exp(e / 2) - std::exp(-x / 2), 2) / std::expm1(e);
  };
  const auto m = P::exponential_mechanism_worst_case(e);
  expect_sandwich(P::discretise(m, opts(1e-3, estimate::pessimistic)),
                  P::discretise(m, opts(1e-3, estimate::optimistic)), env,
                  {-1.0, -0.6, -0.3, -0.01, 0.0, 0.2, 0.5, 0.79}, "expmech");
}

TEST(ACC_PLD_EXPMECH, DominatesAConcreteExponentialMechanism) {
  // exponential mechanism on 3 outputs, utilities u(D) = (0, 1, 0.3), u(D') = (1, 0, 0.8),
  // Δu = 1, sampling ∝ exp(ε u / (2Δu)): ε-BR with ε = 1.5
  const double e = 1.5;
  const std::vector<double> u = {0, 1, 0.3}, v = {1, 0, 0.8};
  std::vector<double> p(3), q(3);
  double zp = 0, zq = 0;
  for (int i = 0; i < 3; ++i) {
    p[i] = std::exp(e * u[i] / 2);
    q[i] = std::exp(e * v[i] / 2);
    zp += p[i];
    zq += q[i];
  }
  const auto pe =
      P::discretise(P::exponential_mechanism_worst_case(e), opts(1e-3, estimate::pessimistic));
  for (double eps = 0; eps <= 1.6; eps += 0.05) {
    double d1 = 0, d2 = 0;
    for (int i = 0; i < 3; ++i) {
      d1 += std::max(0.0, p[i] / zp - std::exp(eps) * q[i] / zq);
      d2 += std::max(0.0, q[i] / zq - std::exp(eps) * p[i] / zp);
    }
    EXPECT_GE(pe.delta_for_epsilon(eps), std::max(d1, d2)) << eps;
  }
}

// ------------------------------------------------------------------------------ ACC.PLD.DLAPLACE
TEST(ACC_PLD_DLAPLACE, PureDpAndExactSum) {
  // discrete Laplace, Δ = 3, t = 5: ε = 0.6-DP; δ(ε) by direct summation
  const int d = 3;
  const double t = 5;
  auto exact = [&](double eps) {
    long double s = 0, z = 0;
    for (int x = -2000; x <= 2000; ++x) z += std::exp(-std::fabs(x) / t);
    for (int x = -2000; x <= 2000; ++x)
      s +=
          std::max(0.0L, std::exp(-std::fabs(x - d) / t) -
                             std::exp(static_cast<long double>(eps)) * std::exp(-std::fabs(x) / t));
    return static_cast<double>(s / z);
  };
  const auto m = P::discrete_laplace(d, t);
  const auto pe = P::discretise(m, opts(1e-3, estimate::pessimistic));
  const auto op = P::discretise(m, opts(1e-3, estimate::optimistic));
  for (const double eps : {0.0, 0.1, 0.2, 0.5})
    EXPECT_NEAR(pe.delta_for_epsilon(eps), exact(eps), 2e-3) << eps;
  expect_sandwich(pe, op, exact, {0.0, 0.1, 0.2, 0.5, 0.61}, "dlaplace");
  EXPECT_LT(pe.delta_for_epsilon(0.6 + 2e-3), 1e-15);
}

// ------------------------------------------------------------------------------ ACC.PLD.DGAUSS
TEST(ACC_PLD_DGAUSS, MatchesTheExistingCertifiedSummation) {
  // dpref::accounting::discrete_gaussian_delta (ACC.DISCRETE.GAUSS) is an independent upper bound
  const auto m = P::discrete_gaussian(1, 2.0);
  const auto pe = P::discretise(m, opts(1e-3, estimate::pessimistic));
  const auto op = P::discretise(m, opts(1e-3, estimate::optimistic));
  for (const double eps : {0.0, 0.25, 0.5, 1.0}) {
    const double ref = dpref::accounting::discrete_gaussian_delta<double>(4, 1, 1, eps);
    EXPECT_LE(op.delta_for_epsilon(eps), ref) << eps;
    EXPECT_NEAR(pe.delta_for_epsilon(eps), ref, 1e-12 + 1e-9 * ref) << eps;
  }
}

// ------------------------------------------------------------------------------
// ACC.PLD.SUBSAMPLE.POISSON
TEST(ACC_PLD_SUBSAMPLE_POISSON, SandwichOfTheOneStepClosedFormBothDirections) {
  const double q = 0.05, s = 0.9;
  const auto m = P::subsample(P::gaussian(1, s), P::sampling::poisson(q));
  const auto pe = P::discretise(m, opts(1e-3, estimate::pessimistic));
  const auto op = P::discretise(m, opts(1e-3, estimate::optimistic));
  for (const double eps : {-0.3, -0.05, 0.0, 0.02, 0.1, 0.5, 1.5}) {
    const double xr = subsampled_delta(q, s, eps, true), xa = subsampled_delta(q, s, eps, false);
    EXPECT_GE(pe.remove.delta_for_epsilon(eps), xr * kLo) << eps;
    EXPECT_LE(op.remove.delta_for_epsilon(eps), xr * kHi) << eps;
    EXPECT_GE(pe.add->delta_for_epsilon(eps), xa * kLo) << eps;
    EXPECT_LE(op.add->delta_for_epsilon(eps), xa * kHi) << eps;
  }
}

TEST(ACC_PLD_SUBSAMPLE_POISSON, FullRateIsTheMechanismAndAmplificationNeverHurts) {
  const auto full = P::subsample(P::gaussian(1, 1), P::sampling::poisson(1.0));
  EXPECT_TRUE(full.symmetric());
  const auto o = opts(2e-3, estimate::pessimistic);
  const double e_full = P::discretise(full, o).epsilon_for_delta(1e-5);
  const double e_base = P::discretise(P::gaussian(1, 1), o).epsilon_for_delta(1e-5);
  EXPECT_EQ(e_full, e_base);
  double prev = 0;
  for (const double q : {0.01, 0.1, 0.5, 0.9}) {
    const double e = P::discretise(P::subsample(P::gaussian(1, 1), P::sampling::poisson(q)), o)
                         .epsilon_for_delta(1e-5);
    EXPECT_GT(e, prev);
    EXPECT_LE(e, e_base);
    prev = e;
  }
  // replace-one is never better than add/remove (it contains it as a special case)
  const double er =
      P::discretise(
          P::subsample(P::gaussian(1, 1), P::sampling::poisson(0.1, P::neighbouring::replace_one)),
          o)
          .epsilon_for_delta(1e-5);
  const double ea = P::discretise(P::subsample(P::gaussian(1, 1), P::sampling::poisson(0.1)), o)
                        .epsilon_for_delta(1e-5);
  EXPECT_GE(er, ea);
}

TEST(ACC_PLD_SUBSAMPLE_POISSON, CertifiedPldIsBelowCertifiedRdpAndOptimisticBelowBoth) {
  const double q = 0.02, s = 1.0;
  const int k = 200;
  const auto m = P::subsample(P::gaussian(1, s), P::sampling::poisson(q));
  const double ep = P::self_compose(P::discretise(m, opts(1e-3, estimate::pessimistic)), k,
                                    opts(1e-3, estimate::pessimistic))
                        .epsilon_for_delta(1e-5);
  const double eo = P::self_compose(P::discretise(m, opts(1e-3, estimate::optimistic)), k,
                                    opts(1e-3, estimate::optimistic))
                        .epsilon_for_delta(1e-5);
  namespace A = dpref::accounting;
  const auto c =
      A::poisson_subsampled_gaussian_rdp<double>(q, s, A::integer_orders<double>(2, 256));
  const double er = A::rdp_to_dp(A::compose_rdp_steps(c, k), 1e-5).guarantee.eps;
  EXPECT_LE(eo, ep);
  EXPECT_LE(ep, er);
  EXPECT_LT(ep - eo, 2e-3 * ep);
}

// ------------------------------------------------------------------------------
// ACC.PLD.SUBSAMPLE.WOR
TEST(ACC_PLD_SUBSAMPLE_WOR, ReplaceOneIsSymmetricAndMatchesTheShiftTwoRemovePairAboveZero) {
  // ε >= 0: δ equals that of ((1−γ)μ + γμ_{2Δ}, μ), γ = m/n
  const auto w = P::subsample(P::gaussian(1, 2), P::sampling::without_replacement(20, 100));
  const auto pe = P::discretise(w, opts(1e-3, estimate::pessimistic));
  const auto op = P::discretise(w, opts(1e-3, estimate::optimistic));
  EXPECT_TRUE(pe.symmetric());
  for (const double eps : {0.0, 0.05, 0.2, 0.6, 1.2}) {
    // sensitivity 2 with σ = 2 is sensitivity 1 with σ = 1
    const double x = subsampled_delta(0.2, 1.0, eps, true);
    EXPECT_GE(pe.delta_for_epsilon(eps), x * kLo) << eps;
    EXPECT_LE(op.delta_for_epsilon(eps), x * kHi) << eps;
  }
  // the symmetrised curve below zero: δ(ε) = 1 − e^ε + e^ε δ(−ε) (a valid pair)
  for (const double eps : {-0.6, -0.2, -0.05}) {
    const double x = -std::expm1(eps) + std::exp(eps) * subsampled_delta(0.2, 1.0, -eps, true);
    EXPECT_GE(pe.delta_for_epsilon(eps), x * kLo) << eps;
    EXPECT_LE(op.delta_for_epsilon(eps), x * kHi) << eps;
  }
}

TEST(ACC_PLD_SUBSAMPLE_WOR, AttainsTheEpsilonDeltaAmplificationBound) {
  // Balle et al. 2018: (ε, δ) → (log(1 + γ(e^ε − 1)), γ δ) for the replace pair (shift 2Δ);
  // the dominating pair attains it with equality, so the PLD sandwiches γ δ_base(ε).
  const double gamma = 0.1, mu = 2.0;
  const auto w = P::subsample(P::gaussian(1, 1), P::sampling::without_replacement(10, 100));
  const auto pe = P::discretise(w, opts(1e-3, estimate::pessimistic));
  const auto op = P::discretise(w, opts(1e-3, estimate::optimistic));
  for (const double eps : {0.5, 1.0, 2.0, 4.0}) {
    const double eps2 = std::log1p(gamma * std::expm1(eps));
    const double x = gamma * gauss_delta(mu, eps);
    EXPECT_GE(pe.delta_for_epsilon(eps2), x * kLo) << eps;
    EXPECT_LE(op.delta_for_epsilon(eps2), x * kHi) << eps;
    EXPECT_NEAR(pe.delta_for_epsilon(eps2), x, 1e-3 * x) << eps;
  }
}

TEST(ACC_PLD_SUBSAMPLE_WOR, DiscreteNoisesAndAddRemove) {
  const auto o = opts(1e-3, estimate::pessimistic);
  for (const auto& m :
       {P::subsample(P::discrete_laplace(1, 2.0), P::sampling::without_replacement(10, 100)),
        P::subsample(P::discrete_gaussian(1, 2.0),
                     P::sampling::without_replacement(10, 100, P::neighbouring::add_remove)),
        P::subsample(P::laplace(1, 1),
                     P::sampling::without_replacement(10, 100, P::neighbouring::add_remove))}) {
    const auto pe = P::discretise(m, o);
    const auto op = P::discretise(m, opts(1e-3, estimate::optimistic));
    for (const double eps : {0.0, 0.05, 0.2})
      EXPECT_LE(op.delta_for_epsilon(eps), pe.delta_for_epsilon(eps)) << m.description();
    EXPECT_GT(pe.epsilon_for_delta(1e-6), 0.0);
  }
}

// ------------------------------------------------------------------------------ ACC.PLD.FFT

/// Σ_k |(a ∗ b)_k − c_k| with the direct convolution in long double (the FFT's true round-off).
long double direct_convolution_error(const std::vector<double>& a, const std::vector<double>& b,
                                     const std::vector<double>& c) {
  long double err = 0;
  for (std::size_t k = 0; k < c.size(); ++k) {
    long double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (k >= i && k - i < b.size()) s += static_cast<long double>(a[i]) * b[k - i];
    err += std::fabs(s - c[k]);
  }
  return err;
}

TEST(ACC_PLD_FFT, ConvolutionErrorBoundHoldsAgainstLongDoubleDirectSums) {
  std::mt19937_64 rng(20261121);
  std::uniform_real_distribution<double> u(0, 1);
  P::detail::fft_plan plan;
  for (const std::size_t na : {60u, 300u, 2000u}) {
    std::vector<double> a(na), b(na / 2 + 7);
    double sa = 0, sb = 0;
    for (double& x : a) sa += (x = std::pow(u(rng), 8));
    for (double& x : b) sb += (x = std::pow(u(rng), 3));
    for (double& x : a) x /= sa;
    for (double& x : b) x /= sb;
    double bound = 0;
    const auto c = P::detail::convolve(a, b, plan, bound);
    const long double err = direct_convolution_error(a, b, c);
    EXPECT_LE(static_cast<double>(err), bound) << na;
    EXPECT_GT(err, 0.0L) << na;     // the check is not vacuous: round-off does occur
    EXPECT_LT(bound, 1e-11) << na;  // and the bound is useful
  }
}

// Negative control: a perturbation of one output by 1e-9 (far below what the δ tests could see)
// is caught by the bound check.
TEST(ACC_PLD_FFT, NegativeControlPerturbedConvolutionExceedsTheBound) {
  std::vector<double> a(500, 1.0 / 500), b(300, 1.0 / 300);
  P::detail::fft_plan plan;
  double bound = 0;
  auto c = P::detail::convolve(a, b, plan, bound);
  c[400] += 1e-9;
  const long double err = direct_convolution_error(a, b, c);
  EXPECT_GT(static_cast<double>(err), bound);
}

// ------------------------------------------------------------------------------ ACC.PLD.COMPOSE
TEST(ACC_PLD_COMPOSE, HeterogeneousGaussiansComposeToOneGaussian) {
  // σ = 1, 2, 3: 1/σ² adds up → μ² = 1 + 1/4 + 1/9
  const double mu = std::sqrt(1 + 0.25 + 1.0 / 9);
  const auto o = opts(2e-3, estimate::pessimistic), oo = opts(2e-3, estimate::optimistic);
  std::vector<P::privacy_loss_distribution> ps, os;
  for (const double s : {1.0, 2.0, 3.0}) {
    ps.push_back(P::discretise(P::gaussian(1, s), o));
    os.push_back(P::discretise(P::gaussian(1, s), oo));
  }
  const auto pe = P::compose(P::compose(ps[0], ps[1], o), ps[2], o);
  const auto op = P::compose_all(os, oo);
  const auto [lo, hi] = gauss_eps_bracket(mu, 1e-6);
  EXPECT_GE(pe.epsilon_for_delta(1e-6), lo);
  EXPECT_LE(pe.epsilon_for_delta(1e-6), hi * 1.002);
  EXPECT_LE(op.epsilon_for_delta(1e-6), hi);
  expect_sandwich(
      pe, op, [&](double e) { return gauss_delta(mu, e); }, kEps, "composed");
  // the order does not matter beyond the certified error
  const auto pe2 = P::compose(ps[2], P::compose(ps[1], ps[0], o), o);
  EXPECT_NEAR(pe.delta_for_epsilon(1.0), pe2.delta_for_epsilon(1.0), 1e-9);
}

TEST(ACC_PLD_COMPOSE, MixedSymmetricAndAsymmetricKeepBothDirections) {
  const auto o = opts(2e-3, estimate::pessimistic);
  const auto g = P::discretise(P::gaussian(1, 2), o);
  const auto s = P::discretise(P::subsample(P::gaussian(1, 1), P::sampling::poisson(0.2)), o);
  const auto c = P::compose(g, s, o);
  ASSERT_FALSE(c.symmetric());
  EXPECT_GE(c.delta_for_epsilon(0.5), c.remove.delta_for_epsilon(0.5));
  EXPECT_GE(c.delta_for_epsilon(0.5), c.add->delta_for_epsilon(0.5));
}

// ------------------------------------------------------------------------------
// ACC.PLD.SELFCOMPOSE
TEST(ACC_PLD_SELFCOMPOSE, RepeatedSquaringAgreesWithSequentialComposition) {
  const auto o = opts(2e-3, estimate::pessimistic);
  const auto a = P::discretise(P::subsample(P::gaussian(1, 1), P::sampling::poisson(0.1)), o);
  auto seq = a;
  for (int i = 1; i < 13; ++i) seq = P::compose(seq, a, o);
  const auto sq = P::self_compose(a, 13, o);
  for (const double eps : {0.0, 0.3, 1.0, 2.0})
    EXPECT_NEAR(seq.delta_for_epsilon(eps), sq.delta_for_epsilon(eps), 1e-9) << eps;
  EXPECT_LT(sq.remove.error, 1e-9);
  EXPECT_EQ(P::self_compose(a, 1, o).remove.masses, a.remove.masses);
}

TEST(ACC_PLD_SELFCOMPOSE, TailMassIsChargedToInfinity) {
  // Negative control: dropping the infinity mass (truncated tails) breaks the upper bound.
  const auto o = opts(5e-3, estimate::pessimistic, 1e-4);
  auto pe = P::self_compose(P::discretise(P::gaussian(1, 1), o), 4, o);
  const double mu = 2.0;
  const double eps = 6.0;
  EXPECT_GE(pe.delta_for_epsilon(eps), gauss_delta(mu, eps) * kLo);
  EXPECT_GT(pe.remove.infinity_mass, 0.0);
  pe.remove.infinity_mass = 0;
  pe.remove.error = 0;
  EXPECT_LT(pe.delta_for_epsilon(eps), gauss_delta(mu, eps));
}

// ------------------------------------------------------------------------------ ACC.PLD.QUERY
TEST(ACC_PLD_QUERY, EpsilonAndDeltaQueriesAreConsistentAndMonotone) {
  const auto o = opts(2e-3, estimate::pessimistic), oo = opts(2e-3, estimate::optimistic);
  const auto m = P::subsample(P::gaussian(1, 0.9), P::sampling::poisson(0.1));
  const auto pe = P::self_compose(P::discretise(m, o), 50, o);
  const auto op = P::self_compose(P::discretise(m, oo), 50, oo);
  double prev = 1;
  for (const double d : {1e-2, 1e-4, 1e-6, 1e-8}) {
    const double e = pe.epsilon_for_delta(d);
    EXPECT_LE(pe.delta_for_epsilon(e), d);                        // certified
    EXPECT_GT(pe.delta_for_epsilon(std::max(0.0, e - 1e-9)), d);  // and (nearly) the smallest
    const double eo = op.epsilon_for_delta(d);
    EXPECT_GE(op.delta_for_epsilon(eo), d);
    EXPECT_LE(eo, e);
    EXPECT_LT(d, prev);
    prev = d;
  }
  // δ below the infinity mass: no finite ε
  auto copy = pe;
  copy.remove.infinity_mass = 1e-3;
  EXPECT_EQ(copy.epsilon_for_delta(1e-4), std::numeric_limits<double>::infinity());
  // δ(+∞) = infinity mass + error
  EXPECT_LE(pe.delta_for_epsilon(std::numeric_limits<double>::infinity()), 1e-8);
}

TEST(ACC_PLD_QUERY, ProfileMatchesPointQueries) {
  const auto o = opts(5e-3, estimate::pessimistic);
  const auto pe = P::self_compose(P::discretise(P::gaussian(1, 2), o), 10, o);
  const auto prof = pe.profile();
  ASSERT_GT(prof.size(), 100u);
  for (std::size_t i = 0; i < prof.size(); i += 37) {
    const double d = pe.delta_for_epsilon(prof[i].epsilon);
    EXPECT_GE(prof[i].delta, d * (1 - 1e-9) - 1e-15) << prof[i].epsilon;
    EXPECT_LE(prof[i].delta, d * (1 + 1e-6) + 1e-14) << prof[i].epsilon;
    if (i > 0) {
      EXPECT_LE(prof[i].delta, prof[i - 1].delta);
    }
  }
  const auto pts = pe.profile(std::vector<double>{0.0, 1.0, 2.0});
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[1].delta, pe.delta_for_epsilon(1.0));
}

}  // namespace

// ------------------------------------------------------------------------------ ACC.PLD.POWER
namespace power {

/// The same self-composition by repeated squaring (the optimistic path's algorithm).
P::privacy_loss_distribution by_squaring(const P::privacy_loss_distribution& a, std::uint64_t k,
                                         P::options o) {
  o.squaring = true;
  return P::self_compose(a, k, o);
}

TEST(ACC_PLD_POWER, CertifiedAboveTheClosedFormAndAgreesWithSquaring) {
  struct C {
    double sigma;
    std::uint64_t k;
    double delta, h;
  };
  for (const C c : {C{5.0, 100, 1e-5, 5e-3}, C{2.0, 30, 1e-6, 5e-3}, C{10.0, 1000, 1e-8, 5e-3},
                    C{0.5, 4, 1e-3, 1e-3}, C{20.0, 100000, 1e-5, 2e-3}}) {
    const double mu = std::sqrt(static_cast<double>(c.k)) / c.sigma;
    const auto [lo, hi] = gauss_eps_bracket(mu, c.delta);
    const auto o = opts(c.h, estimate::pessimistic);
    const auto d = P::discretise(P::gaussian(1, c.sigma), o);
    const auto pw = P::self_compose(d, c.k, o);
    const auto sq = by_squaring(d, c.k, o);
    const double ep = pw.epsilon_for_delta(c.delta), es = sq.epsilon_for_delta(c.delta);
    EXPECT_GE(ep, lo) << "sigma " << c.sigma << " k " << c.k;
    EXPECT_LE(ep, hi * 1.002) << "sigma " << c.sigma << " k " << c.k;
    // the power is about as tight as squaring (whose truncations charge more mass)
    EXPECT_LE(ep, es * (1 + 1e-5)) << "sigma " << c.sigma << " k " << c.k;
    EXPECT_GE(ep, es * (1 - 2e-3)) << "sigma " << c.sigma << " k " << c.k;
    EXPECT_LT(pw.remove.error, 1e-8);
    for (const double e : kEps) EXPECT_GE(pw.delta_for_epsilon(e), gauss_delta(mu, e) * kLo) << e;
  }
}

TEST(ACC_PLD_POWER, SubsampledGaussianBothDirectionsAgreeWithSquaring) {
  const auto o = opts(2e-3, estimate::pessimistic);
  const auto d = P::discretise(P::subsample(P::gaussian(1, 1), P::sampling::poisson(0.05)), o);
  const auto pw = P::self_compose(d, 1000, o);
  const auto sq = by_squaring(d, 1000, o);
  ASSERT_TRUE(pw.add.has_value());
  for (const double eps : {-0.5, 0.0, 0.5, 1.0, 2.0, 3.0}) {
    EXPECT_NEAR(pw.remove.delta_for_epsilon(eps), sq.remove.delta_for_epsilon(eps), 1e-8) << eps;
    EXPECT_NEAR(pw.add->delta_for_epsilon(eps), sq.add->delta_for_epsilon(eps), 1e-8) << eps;
  }
}

TEST(ACC_PLD_POWER, ChernoffWindowHoldsTheMass) {
  // the k-fold mass outside the Chernoff edges (computed exactly by squaring with a tiny
  // truncation) is below the tail bound used
  const auto o = opts(5e-3, estimate::pessimistic, 1e-30);
  const auto d = P::discretise(P::subsample(P::gaussian(1, 0.8), P::sampling::poisson(0.02)), o);
  const std::uint64_t k = 64;
  const long double tau = 1e-12L;
  const double lo = P::detail::chernoff_edge(d.remove.masses, 64.0, tau, false);
  const double hi = P::detail::chernoff_edge(d.remove.masses, 64.0, tau, true);
  const auto sq = by_squaring(d, k, o).remove;
  long double below = 0, above = 0;
  for (std::size_t j = 0; j < sq.masses.size(); ++j) {
    const double rel =
        static_cast<double>(sq.offset - 64 * d.remove.offset) + static_cast<double>(j);
    if (rel < lo) below += sq.masses[j];
    if (rel > hi) above += sq.masses[j];
  }
  EXPECT_LE(below, tau);
  EXPECT_LE(above, tau);
  // the window is a real cut of the k-fold support
  EXPECT_LT(hi - lo, 64.0 * static_cast<double>(d.remove.masses.size() - 1));
}

TEST(ACC_PLD_POWER, NegativeControlUnchargedWindowTailsBreakTheUpperBound) {
  // a window cut at tail mass 1e-4: certified while the cut mass is charged; dropping the
  // charge (infinity mass and error) puts δ below the exact value
  auto o = opts(5e-3, estimate::pessimistic, 4e-4);
  const auto d = P::discretise(P::gaussian(1, 1), o);
  auto pw = P::self_compose(d, 4, o);
  const double mu = 2.0, eps = 6.0;
  EXPECT_GE(pw.delta_for_epsilon(eps), gauss_delta(mu, eps) * kLo);
  pw.remove.infinity_mass = 0;
  pw.remove.error = 0;
  EXPECT_LT(pw.delta_for_epsilon(eps), gauss_delta(mu, eps));
}

TEST(ACC_PLD_POWER, WorkBoundRefusesHugeCountsQuickly) {
  const auto o = opts(1e-3, estimate::pessimistic);
  const auto d = P::discretise(P::subsample(P::gaussian(1, 1), P::sampling::poisson(0.01)), o);
  try {
    (void)P::self_compose(d, 1000000000000ULL, o);
    ADD_FAILURE() << "no refusal";
  } catch (const std::domain_error& e) {
    EXPECT_NE(std::string(e.what()).find("raise pld_max_points"), std::string::npos) << e.what();
  }
  auto big = o;
  big.max_points = 64;
  EXPECT_THROW((void)P::discretise(P::gaussian(1, 1), big), std::domain_error);
}

}  // namespace power

// ------------------------------------------------------------------ accountant-level PLD claims
namespace acct_claims {

namespace A = dpref::accounting;

A::event<double> gaussian_event(double sigma, long long count, double q = 1) {
  A::event<double> e = A::make_event<double>(A::gaussian_mechanism<double>{1.0, sigma}, count);
  if (q < 1) {
    A::subsampling<double> s;
    s.rate = q;
    e.sampling = s;
  }
  return e;
}

A::accounting_options<double> pld_options(double delta = 1e-5) {
  A::accounting_options<double> o;
  o.method = A::accounting_method::pld;
  o.delta = delta;
  return o;
}

TEST(ACC_PLD_GAUSS_CLOSED, GaussianLedgersAreTheExactCompositionWhateverTheCount) {
  // count 10^12 finishes at once: the composition is one Gaussian with mu = 10^6 / sigma
  const auto t0 = std::chrono::steady_clock::now();
  const auto g = A::account<double>({gaussian_event(1e6, 1000000000000LL)}, pld_options());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  const auto [lo, hi] = gauss_eps_bracket(1.0, 1e-5);
  EXPECT_GE(g.epsilon, lo);
  EXPECT_LE(g.epsilon, hi * (1 + 1e-12));
  // heterogeneous: sigma 1 (x3) and 2 (x4) is mu^2 = 3 + 1 = 4; Poisson rate 1 is no sampling
  const auto h =
      A::account<double>({gaussian_event(1, 3), gaussian_event(2, 4, 1.0)}, pld_options());
  const auto [lo2, hi2] = gauss_eps_bracket(2.0, 1e-5);
  EXPECT_GE(h.epsilon, lo2);
  EXPECT_LE(h.epsilon, hi2 * (1 + 1e-12));
  // with a subsampled event as well: the pooled Gaussian is discretised once; the result lies
  // between the two parts alone and their sequential sum
  const auto m = A::account<double>(
      {gaussian_event(1, 3), gaussian_event(2, 4), gaussian_event(1, 100, 0.01)}, pld_options());
  const auto sub = A::account<double>({gaussian_event(1, 100, 0.01)}, pld_options());
  EXPECT_GT(m.epsilon, h.epsilon);
  EXPECT_GT(m.epsilon, sub.epsilon);
  EXPECT_LT(m.epsilon, h.epsilon + sub.epsilon);
}

TEST(ACC_WORK_BOUND, EveryMethodRefusesWorkBeyondItsBoundNamingTheOption) {
  // PLD: a subsampled Gaussian repeated 10^12 times (the k-fold grid would have ~10^9 points)
  const auto t0 = std::chrono::steady_clock::now();
  try {
    (void)A::account<double>({gaussian_event(1, 1000000000000LL, 0.01)}, pld_options());
    ADD_FAILURE() << "no refusal";
  } catch (const std::domain_error& e) {
    EXPECT_NE(std::string(e.what()).find("pld_max_points"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
  // RDP: 2000 distinct events x 255 orders > a bound of 10^5 evaluations
  std::vector<A::event<double>> many;
  for (int i = 0; i < 2000; ++i) many.push_back(gaussian_event(1 + i * 1e-3, 1, 0.01));
  auto o = pld_options();
  o.method = A::accounting_method::rdp;
  o.rdp_max_evaluations = 100000;
  try {
    (void)A::account<double>(many, o);
    ADD_FAILURE() << "no refusal";
  } catch (const dpref::invalid_parameter& e) {
    EXPECT_NE(std::string(e.what()).find("rdp_max_evaluations"), std::string::npos) << e.what();
  }
  o.method = A::accounting_method::best;  // best runs RDP first: refused too
  EXPECT_THROW((void)A::account<double>(many, o), dpref::invalid_parameter);
  // raising the bound accepts the ledger (10 events keep the test short)
  many.resize(10);
  o.method = A::accounting_method::rdp;
  o.rdp_max_evaluations = 2550;
  EXPECT_NO_THROW((void)A::account<double>(many, o));
  o.rdp_max_evaluations = 2549;
  EXPECT_THROW((void)A::account<double>(many, o), dpref::invalid_parameter);
  // the options validate their ranges
  o.pld_max_points = 10;
  EXPECT_THROW(o.validate(), dpref::invalid_parameter);
}

TEST(ACC_PLD_ADAPTIVE, RefinedIntervalIsTighterAndStillCertified) {
  // (0.004, 1, 2.5e4): the fixed interval 1e-3 is 0.3% above the truth, the adaptive one within
  // 0.05%; both above the optimistic lower bound 3.6063 (spec/accounting_pld.md table)
  auto o = pld_options();
  const auto e = gaussian_event(1, 25000, 0.004);
  const double adaptive = A::account<double>({e}, o).epsilon;
  o.pld_adaptive = false;
  const double fixed = A::account<double>({e}, o).epsilon;
  EXPECT_LT(adaptive, fixed);
  EXPECT_GE(adaptive, 3.6063);
  EXPECT_LE(adaptive, 3.6063 * 1.001);
  EXPECT_GT(fixed, 3.6063 * 1.002);
}

}  // namespace acct_claims

// ------------------------------------------------------------------------- ACC.LEDGER.ALONE
TEST(ACC_LEDGER_ALONE, OneEventIsItsTotalAndRepeatedEventsAreAccountedOnce) {
  namespace A = dpref::accounting;
  namespace io = dpref::io;
  const std::string one = R"({"accounting": {"method": "pld", "delta": "1e-5"},
    "events": [{"mechanism": "gaussian", "sensitivity": "1", "sigma": "1.1", "count": 1000,
                "sampling": {"scheme": "poisson", "rate": "0.01", "sample_size": 0,
                             "population": 0, "neighbouring": "add_remove"}}]})";
  const auto d1 = io::document::parse(one, "one.json");
  const auto r1 = A::account_document<double>(io::node(d1));
  ASSERT_EQ(r1.alone.size(), 1u);
  EXPECT_EQ(r1.alone[0].epsilon, r1.total.epsilon);
  EXPECT_EQ(r1.json["events"][0]["alone"], r1.json["guarantee"]);
  // three events, two of them identical: the alone figures are those of each event accounted
  // by itself
  const std::string three = R"({"accounting": {"method": "pld", "delta": "1e-5"},
    "events": [{"mechanism": "gaussian", "sensitivity": "1", "sigma": "2", "count": 10},
               {"mechanism": "laplace", "sensitivity": "1", "scale": "4", "count": 1},
               {"mechanism": "gaussian", "sensitivity": "1", "sigma": "2", "count": 10}]})";
  const auto d3 = io::document::parse(three, "three.json");
  const auto r3 = A::account_document<double>(io::node(d3));
  ASSERT_EQ(r3.alone.size(), 3u);
  const auto& ev = r3.l.events();
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(r3.alone[i].epsilon, A::account<double>({ev[i]}, r3.l.options()).epsilon) << i;
  EXPECT_EQ(r3.alone[0].epsilon, r3.alone[2].epsilon);
  EXPECT_LT(r3.alone[0].epsilon, r3.total.epsilon);
}

// ---------------------------------------------------------------------- ACC.PLD.LAPLACE.CLOSED
TEST(ACC_PLD_LAPLACE_CLOSED, OneLaplaceEventIsAnsweredExactly) {
  namespace A = dpref::accounting;
  A::accounting_options<double> o;
  o.method = A::accounting_method::pld;
  for (const double delta : {1e-6, 1e-3, 0.2}) {
    o.delta = delta;
    const auto g =
        A::account<double>({A::make_event<double>(A::laplace_mechanism<double>{1.0, 0.5}, 1)}, o);
    // exact: e0 + 2 log(1 - delta), e0 = 2
    certifier<double> c;
    const work_real exact = c.in(2.0) + 2 * log1p(-c.in(delta));
    EXPECT_GE(g.epsilon, static_cast<double>(exact));
    EXPECT_LE(g.epsilon, static_cast<double>(exact) * (1 + 1e-15));
    // the discretised PLD (certified) is above it
    const auto pe = P::discretise(P::laplace(1, 0.5), opts(1e-3, estimate::pessimistic));
    EXPECT_LE(g.epsilon, pe.epsilon_for_delta(delta));
    EXPECT_GE(g.epsilon, pe.epsilon_for_delta(delta) - 2e-3);
  }
  // delta >= 1 - e^{-e0/2}: epsilon 0
  o.delta = 0.7;
  EXPECT_EQ(
      A::account<double>({A::make_event<double>(A::laplace_mechanism<double>{1.0, 0.5}, 1)}, o)
          .epsilon,
      0.0);
}

// Property tests of the linesearch component (spec/linesearch.md). RapidCheck with the fixed
// RC_PARAMS seed of the test registration (deterministic); no statistical assertions.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/linesearch/accountant.hpp"
#include "dpref/linesearch/calibration.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "dpref/random/uniform.hpp"
#include "support/generators.hpp"
#include "synthetic_erm.hpp"

namespace {

using namespace dpref;
namespace ls = dpref::linesearch;
namespace acc = dpref::accounting;
using dpref::test::positive_log_uniform;
using dpref::test::real_in;
using problems::linear_erm;
using problems::margin_loss;

template <real_scalar Real>
linear_erm<Real> prop_synthetic(Eigen::Index n, Eigen::Index d, std::uint64_t seed,
                                margin_loss<Real> loss = margin_loss<Real>::logistic()) {
  return dpref::test::synthetic_erm<Real>(n, d, seed, loss);
}

// Every per-example gradient, clipped with the factor the batch sum uses, has norm <= C
// (to the rounding of the expanded norm, 64 ulps).
RC_GTEST_PROP(LS_PROP_CLIP, EveryPerExampleGradientBounded, ()) {
  const int d = *rc::gen::inRange(1, 12);
  const int n = *rc::gen::inRange(1, 30);
  const double C = *positive_log_uniform<double>(1e-3, 10.0);
  const double mu = *positive_log_uniform<double>(1e-6, 1.0);
  matrix<double> X(d, n);
  vector<double> y(n), w(d);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) X(j, i) = *real_in<double>(-5, 5);
    y[i] = *rc::gen::arbitrary<bool>() ? 1.0 : -1.0;
  }
  for (int j = 0; j < d; ++j) w[j] = *real_in<double>(-20, 20);
  const int k = *rc::gen::inRange(0, 3);
  const margin_loss<double> loss = k == 0   ? margin_loss<double>::logistic()
                                   : k == 1 ? margin_loss<double>::hinge()
                                            : margin_loss<double>::huberized_hinge();
  const linear_erm<double> P(X, y, loss, mu);
  for (int i = 0; i < n; ++i) {
    const double z = P.margin(w, i);
    const double s = P.clip_scale(loss.derivative(z), z, i, w.squaredNorm(), C);
    const vector<double> g = s * P.example_gradient(w, i);
    RC_ASSERT(g.norm() <= C * (1 + 64 * 1.1e-16));
    RC_ASSERT(s <= 1.0);
  }
}

// Theorem 3: σ1² = 3/(2ρ), σ2² = 3/ρ in (5) gives (α, αρ) exactly (50-digit evaluation, relative
// 1e-40), and the proven bound exceeds it by ln(k)/(α−1) + αρ/3.
RC_GTEST_PROP(LS_THM3, SigmaChoiceGivesAlphaRho, ()) {
  using R = mp50;
  const double rho_d = *positive_log_uniform<double>(1e-6, 10.0);
  const int a_i = *rc::gen::inRange(2, 500);
  const R rho(rho_d), a(a_i);
  using std::sqrt;
  const R s1 = sqrt(R(3) / (R(2) * rho)), s2 = sqrt(R(3) / rho);
  const R paper = acc::svt_gaussian_rdp(a, R(1), s1, s2, 20, acc::svt_bound::paper_eq4_5);
  RC_ASSERT(abs(paper - a * rho) <= R(1e-40) * a * rho);
  const R proven = acc::svt_gaussian_rdp(a, R(1), s1, s2, 20, acc::svt_bound::proven);
  const R expect = log(R(20)) / (a - 1) + R(4) * a * rho / 3;
  RC_ASSERT(abs(proven - expect) <= R(1e-40) * expect);
}

// Lemma 4 (Zhu–Wang bound) >= exact Poisson-subsampled Gaussian RDP (Mironov–Talwar–Zhang) for
// integer α <= 20, equal at α = 2 (LS-E3).
RC_GTEST_PROP(LS_LEMMA4, BoundDominatesExactSubsampledGaussian, ()) {
  const double q = *positive_log_uniform<double>(1e-3, 0.5);
  const double s = *real_in<double>(0.7, 5.0);
  const auto orders = acc::integer_orders<double>(2, 20);
  acc::rdp_curve<double> base{orders, {}};
  for (const double a : orders) base.eps.push_back(acc::gaussian_rdp(1.0, s, a));
  const auto zw = acc::poisson_subsampled_rdp_zw(base, q);
  const auto exact = acc::poisson_subsampled_gaussian_rdp(q, s, orders);
  for (std::size_t i = 0; i < orders.size(); ++i) RC_ASSERT(zw.eps[i] >= exact.eps[i]);
  RC_ASSERT(std::abs(zw.eps[0] - exact.eps[0]) <= 1e-12 * exact.eps[0] + 1e-300);
}

// NOISYBTLS spends exactly its stated RDP per call whatever the number of ⊥ before ⊤: in a run,
// every NOISYBTLS event of the ledger (a sparse-vector part of a sample's event) carries the
// scales (2C_obj/ε_BT, 4C_obj/ε_BT) of a budget ε_BT and the accountant's curve of that part
// equals ε(α, ε_BT/2, ε_BT/4) (proven bound) recomputed independently from its budget, although
// the calls evaluated different numbers of queries; the parts number the calls.
RC_GTEST_PROP(LS_PROP_SVT, ConstantCostPerCall, ()) {
  const auto P = prop_synthetic<double>(*rc::gen::inRange(100, 300), 3, *rc::gen::inRange(1, 1000));
  ls::params<double> p;
  p.epsilon = *real_in<double>(0.4, 2.0);
  p.max_order = 48;
  p.max_it = *rc::gen::inRange(2, 12);
  p.max_iterations = 30;
  const auto r = ls::run(P, p, philox_stream(*rc::gen::inRange(1, 100000)));
  const auto orders = acc::integer_orders<double>(2, 48);
  long long calls = 0;
  RC_ASSERT(r.calls.line_searches > 0);
  std::set<double> checked;  // each distinct budget once
  for (const auto& e : r.privacy.ledger.events())
    for (const auto& part : e.joint) {
      if (part.kind() != "sparse_vector") continue;
      calls += e.count * part.count;
      const auto& m = std::get<acc::sparse_vector_mechanism<double>>(part.what);
      if (!checked.insert(m.threshold_scale).second) continue;
      RC_ASSERT(m.sensitivity == p.C_obj);
      RC_ASSERT(m.max_queries == p.max_it);
      RC_ASSERT(m.bound == acc::svt_bound::proven);
      const double b = 2 * p.C_obj / m.threshold_scale;  // ε_BT of this call
      RC_ASSERT(std::abs(m.query_scale - 4 * p.C_obj / b) <= 1e-12 * m.query_scale);
      const auto got = acc::detail::rdp_of(part, orders);
      for (std::size_t i = 0; i < orders.size(); ++i) {
        const double want = acc::svt_laplace_rdp(orders[i], b / 2, b / 4);
        RC_ASSERT(std::abs(got.eps[i] - want) <= 1e-12 * want);
      }
    }
  RC_ASSERT(calls == r.calls.line_searches);
  RC_ASSERT(r.calls.objective_queries >= r.calls.line_searches);
}

// Budget tracking never lets the run exceed ε_tot: adversarial sequences of calls (gradient,
// NOISYBTLS and CHEB-style budget increases by random factors, through the same
// can_afford → charge protocol as dp_blsgd) always leave some order within ε_tot(α), and the
// certified conversion of the spent curve is <= the target ε.
RC_GTEST_PROP(LS_PROP_BUDGET, AdversarialCallSequencesStayWithinBudget, ()) {
  const double eps = *positive_log_uniform<double>(0.4, 2.0);  // attainable with orders <= 48
  const double q = *real_in<double>(0.01, 1.0);
  const auto orders = acc::integer_orders<double>(2, 48);
  const auto total = linesearch::rdp_budget_for_dp(eps, 1e-8, orders);
  linesearch::accountant<double> a(q, total);
  double rho = *positive_log_uniform<double>(1e-5, 1e-1),
         ebt = *positive_log_uniform<double>(1e-3, 1.0);
  acc::rdp_curve<double> gcost = a.gradient_cost(rho), lcost = a.line_search_cost(ebt);
  const int steps = *rc::gen::inRange(1, 300);
  for (int k = 0; k < steps; ++k) {
    const int op = *rc::gen::inRange(0, 4);
    if (op == 2) {  // CHEB: ρ_grad ← (1+ξ)ρ_grad
      rho *= *real_in<double>(1.0, 3.0);
      gcost = a.gradient_cost(rho);
    }
    if (op == 3) {  // CHEB: ε_BT ← (1+ξ)ε_BT
      ebt *= *real_in<double>(1.0, 3.0);
      lcost = a.line_search_cost(ebt);
    }
    const acc::rdp_curve<double>& cost = op % 2 == 0 ? gcost : lcost;
    if (!a.can_afford(cost)) {
      RC_ASSERT_THROWS_AS(a.charge(cost, "x"), acc::budget_exceeded);
      break;
    }
    a.charge(cost, "x");
    bool some = false;
    for (std::size_t i = 0; i < orders.size(); ++i)
      some = some || !(a.spent().eps[i] > total.eps[i]);
    RC_ASSERT(some);
    RC_ASSERT(a.to_dp(1e-8).guarantee.eps <= eps);
  }
}

// The run's own filter (run_ledger) under adversarial call sequences: fresh samples, growing
// samples (joint parts), CHEB-style budget increases by random factors; the merged ledger's
// certified total after the last admitted call (hence after every one) is <= ε.
RC_GTEST_PROP(LS_PROP_BUDGET, RunLedgerFilterKeepsTheLedgerWithinTheRequest, ()) {
  const double eps = *positive_log_uniform<double>(0.4, 2.0);
  const double q = *real_in<double>(0.01, 1.0);
  acc::accounting_options<double> opt;
  opt.delta = 1e-8;
  opt.max_order = 48;
  ls::run_ledger<double> L(opt, {eps, 1e-8}, true);
  double rho = *positive_log_uniform<double>(1e-5, 1e-1),
         ebt = *positive_log_uniform<double>(1e-3, 1.0);
  const auto sampling = ls::detail::poisson_sampling(q);
  acc::event<double> sample;
  bool open = false;
  const int steps = *rc::gen::inRange(1, 200);
  for (int k = 0; k < steps; ++k) {
    const int op = *rc::gen::inRange(0, 4);
    if (op == 2) rho *= *real_in<double>(1.0, 3.0);
    if (op == 3) ebt *= *real_in<double>(1.0, 3.0);
    bool ok = false;
    if (!open || op % 2 == 0) {  // a fresh sample's gradient
      acc::event<double> e = acc::make_event<double>(ls::gradient_event(3.0, rho));
      e.sampling = sampling;
      ok = L.can_add(e);
      if (ok) {
        L.add(e);
        sample = e;
        open = true;
      }
    } else {  // one more NOISYBTLS call on the open sample
      acc::event<double> grown = sample;
      grown.joint.push_back(
          acc::make_event<double>(ls::btls_event(ls::btls_noise::laplace, ebt, 1.0, 20)));
      ok = L.can_grow(sample, grown);
      if (ok) {
        L.grow(sample, grown);
        sample = grown;
      }
    }
    if (!ok) break;
  }
  // the ledger total grows with every call, so the final total bounds every intermediate one
  RC_ASSERT(L.build().total().epsilon <= eps);
}

// The same for whole runs with adversarial settings (strategy "must", large ξ, AC, GradAvg,
// random budgets, Laplace or Gaussian NOISYBTLS, the ledger filter or §4.3's per-call filter).
RC_GTEST_PROP(LS_PROP_BUDGET, RandomRunsEndWithinTarget, ()) {
  const auto P = prop_synthetic<double>(*rc::gen::inRange(50, 300), 2, *rc::gen::inRange(1, 1000));
  ls::params<double> p;
  p.epsilon = *positive_log_uniform<double>(0.4, 3.0);  // attainable with orders <= 48
  p.max_order = 48;
  p.q = *real_in<double>(0.05, 1.0);
  p.xi = *real_in<double>(0.01, 3.0);
  p.strategy = static_cast<ls::budget_strategy>(*rc::gen::inRange(0, 3));
  p.algorithm = static_cast<ls::algorithm>(*rc::gen::inRange(0, 3));  // blsgd, blsgd_ac, blgd
  p.noise = static_cast<ls::btls_noise>(*rc::gen::inRange(0, 2));
  p.max_it = *rc::gen::inRange(1, 10);
  p.eps_iter_divisor = *positive_log_uniform<double>(2.0, 200.0);
  p.batch_accounting = static_cast<ls::batch_accounting>(*rc::gen::inRange(0, 2));
  p.allow_over_budget = p.batch_accounting == ls::batch_accounting::per_call;
  const auto r = ls::run(P, p, philox_stream(*rc::gen::inRange(1, 100000)));
  RC_ASSERT(r.status == status::budget_exhausted);
  RC_ASSERT(r.privacy.ledger.total().epsilon == r.privacy.guarantee.epsilon);
  if (p.allow_over_budget) {
    RC_ASSERT(r.claim->guarantee.eps <= p.epsilon);  // the paper's filter held
  } else {
    RC_ASSERT(r.privacy.guarantee.epsilon <= p.epsilon);
    RC_ASSERT(r.privacy.budget_met);
  }
}

}  // namespace

// double vs mp50: the same seed gives the same path: the same counts and step sizes, and
// iterates agreeing to 1e-9 relative (the noise of the double run is the rounding of the
// 50-digit noise; Bernoulli(q) decisions of q = 1/10 in both precisions coincide unless a
// uniform draw falls within 2^-53 of q).
TEST(LS_PRECISION, DoubleAndMp50FollowTheSamePath) {
  const auto Pd = prop_synthetic<double>(150, 3, 21);
  const auto Pm = prop_synthetic<mp50>(150, 3, 21);
  ls::params<double> pd;
  pd.epsilon = 1.0;
  pd.max_order = 16;
  ls::params<mp50> pm;
  pm.epsilon = 1;
  pm.max_order = 16;
  const auto rd = ls::run(Pd, pd, philox_stream(31));
  const auto rm = ls::run(Pm, pm, philox_stream(31));
  ASSERT_EQ(rd.calls.iterations, rm.calls.iterations);
  ASSERT_EQ(rd.calls.updates, rm.calls.updates);
  ASSERT_EQ(rd.calls.objective_queries, rm.calls.objective_queries);
  ASSERT_EQ(rd.steps.size(), rm.steps.size());
  for (std::size_t k = 0; k < rd.steps.size(); ++k)
    EXPECT_NEAR(rd.steps[k], static_cast<double>(rm.steps[k]), 1e-12 * rd.steps[k]);
  double diff = 0;
  bool widened_equal = true;
  for (Eigen::Index j = 0; j < 3; ++j) {
    diff = std::max(diff, std::abs(rd.w[j] - static_cast<double>(rm.w[j])));
    widened_equal = widened_equal && mp50(rd.w[j]) == rm.w[j];
  }
  EXPECT_LT(diff, 1e-9 * (1 + rd.w.norm()));
  EXPECT_FALSE(widened_equal);  // the 50-digit run really ran at 50 digits
  EXPECT_LE(static_cast<double>(rm.privacy.guarantee.epsilon), 1.0);
}

// Audit of one DP-GD step (accel (2.4), full batch m = n) and its negative control (ctest label
// `audit`; spec/accel.md ACCEL.AUDIT, issue 6 "Tests: Audit").
//
// Instance: logistic regression (5.1) with n = 20 examples in d = 2, public ‖u‖₁ bound B = 1
// (S₁ = 2B = 2), λ = 0.01, a public start x0 = (20, −20) and a public step size α = 0.5 (fixed,
// not c/L: the certified L is computed from the data and would differ between D and D′).
// Neighbours: the 19 shared examples are synthetic (synthetic_logistic_data, data seed 7);
// example 0 is (u, z) = ((B, 0), −1) in D and ((0, B), +1) in D′. At x0 both have margin
// z uᵀx0 = −20, so their loss weights are 1/(1 + e^{−20}) and the per-example gradients are
// ≈ (B, 0) and ≈ (0, −B): ‖∇f − ∇f′‖₁ = 2B/(1 + e^{−20}) ≈ S₁, the worst case of (5.2)
// (checked below to 1e-6 relative). The λ‖x‖² gradient is common and cancels.
// Privacy plan: T = 4 steps at total ε = 1, uniform split (Prop 3.1, accountant accel::prop31):
// the step's b_1 and the claimed per-step ε_1 = ε(S₁, b_1, n, n) (3.3) = ε/T are read from the
// run's noise_scales and privacy ledger, not hard-coded.
// Mechanism: accel::dp_gd::run with T = 1, full batch, noise_mode::fixed at b_1 (b_1/2 for the
// negative control); output x1 ∈ R². Each sample runs on its own philox stream keyed by two
// words drawn from the auditor's chunk stream (so the audit is reproducible and thread-count
// independent).
// Events: thresholds on the projection of x1 onto μ(D′) − μ(D) and on the Laplace
// likelihood-ratio statistic Σ_i (|y_i − μ′_i| − |y_i − μ_i|)/(α b_1), μ = x0 − α∇F(x0) the
// noiseless step (its maximum ‖μ − μ′‖₁/(α b_1) = ε_1 is attained with positive probability).
// Statistical plan: seeds 701 (correct) and 702 (negative control); search and test samples of
// kSamples = 2^19 outputs per side, one neighbour pair; false-alarm probability alpha = 1e-6
// per audit (each Clopper–Pearson bound at 2.5e-7). Correct step: verdict "no violation" and
// power ε_lb >= 0.5 ε_1 (the pair is tight); b_1 halved: verdict "violation".
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "audit/audit_support.hpp"
#include "dpref/accel/dp_gd.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/problems/logistic.hpp"
#include "dpref/problems/synthetic_logistic.hpp"

namespace {

using namespace dpref::audit;
using dpref::philox_stream;
namespace acc = dpref::accounting;
namespace accel = dpref::accel;
using vec = dpref::vector<double>;
using problem = dpref::problems::logistic_regression<double>;

constexpr std::uint64_t kSamples = 1u << 19;  // per side, per phase (one pair)
constexpr long long kN = 20, kD = 2, kT = 4;
constexpr double kBound = 1, kLambda = 0.01, kEps = 1, kStep = 0.5;

vec start() {
  vec x(2);
  x << 20.0, -20.0;
  return x;
}

/// D (first) or D′ (second): example 0 replaced by the worst-case example, the rest shared.
problem make_dataset(bool prime) {
  const auto data = dpref::problems::synthetic_logistic_data(kN, kD, kBound, philox_stream(7));
  dpref::matrix<double> u = data.features;
  dpref::vector<double> z = data.labels;
  u.col(0).setZero();
  u(prime ? 1 : 0, 0) = kBound;
  z[0] = prime ? 1.0 : -1.0;
  return problem(u, z, kLambda, kBound);
}

accel::params<double> step_params() {
  accel::params<double> p;
  // m absent: the full batch
  p.alpha = kStep;
  p.x0 = start();
  return p;
}

/// The T-step calibrated plan of the run: b_1 and the per-step ε_1 from its ledger.
struct step_plan {
  double b = 0, eps_step = 0;
};

step_plan plan_of(const problem& P) {
  auto p = step_params();
  p.iterations = kT;
  p.epsilon = kEps;
  p.noise = accel::noise_mode::calibrated;
  const auto r = accel::dp_gd::run(P, p, philox_stream(1));
  EXPECT_EQ(r.noise_scales.size(), static_cast<std::size_t>(kT));
  EXPECT_EQ(r.privacy.ledger.events().size(), 1u);
  const auto& ev = r.privacy.ledger.events().front();
  EXPECT_EQ(ev.count, kT);
  step_plan s;
  s.b = r.noise_scales.front();
  acc::ledger<double> one_step;  // the accountant's ε of one step of the run's ledger
  auto single = ev;
  single.count = 1;
  one_step.record(single);
  s.eps_step = one_step.total().epsilon;
  EXPECT_NEAR(s.eps_step, kEps / static_cast<double>(kT), 1e-12);  // uniform split: ε/T
  EXPECT_LE(r.eps_spent, kEps * (1 + 1e-12));
  return s;
}

/// One full-batch DP-GD step with Laplace scale b; returns x1.
vec one_step(const problem& shared, double b, philox_stream& s) {
  const problem P = shared;  // logistic_regression's workspace is not thread-safe: copy
  auto p = step_params();
  p.iterations = 1;
  p.noise = accel::noise_mode::fixed;
  p.noise_scale = b;
  const philox_stream run_stream(s(), s());
  return accel::dp_gd::run(P, p, run_stream).x;
}

/// Projection and Laplace likelihood-ratio families of the pair (claimed scale b).
std::vector<event_family<vec>> step_families(const neighbour_pair<problem>& pr, double b) {
  const vec x0 = start();
  const vec mu = x0 - kStep * pr.first.gradient(x0);
  const vec mu2 = x0 - kStep * pr.second.gradient(x0);
  const double scale = kStep * b;  // Laplace scale of each coordinate of x1
  const double llr_max = (mu - mu2).lpNorm<1>() / scale;
  const vec dir = (mu2 - mu).normalized();
  const double centre = dir.dot(mu + mu2) / 2;
  return {projection_family<vec>("projection on mu(D')-mu(D)", dir, centre - 20 * scale,
                                 centre + 20 * scale, 160),
          threshold_family<vec>(
              "Laplace likelihood-ratio statistic",
              [mu, mu2, scale](const vec& y) {
                return ((y - mu2).lpNorm<1>() - (y - mu).lpNorm<1>()) / scale;
              },
              -1.001 * llr_max, 1.001 * llr_max, 200)};
}

struct audit_setup {
  std::vector<neighbour_pair<problem>> pairs;
  step_plan plan;
};

audit_setup setup() {
  audit_setup s;
  s.pairs.push_back(
      {"example 0: ((B,0),-1) vs ((0,B),+1)", make_dataset(false), make_dataset(true)});
  const auto& pr = s.pairs.front();
  // The pair is worst case for S1: the per-example gradients at x0 differ by S1 in l1.
  const double S1 = pr.first.l1_sensitivity();
  const double diff =
      (pr.first.example_gradient(start(), 0) - pr.second.example_gradient(start(), 0)).lpNorm<1>();
  EXPECT_DOUBLE_EQ(S1, 2 * kBound);
  EXPECT_LE(diff, S1);
  EXPECT_GE(diff, (1 - 1e-6) * S1);
  for (long long i = 1; i < kN; ++i)
    EXPECT_EQ(pr.first.example_gradient(start(), i), pr.second.example_gradient(start(), i));
  s.plan = plan_of(pr.first);
  EXPECT_EQ(plan_of(pr.second).b, s.plan.b);  // the plan is data-independent
  return s;
}

/// The audit of one step with Laplace scale `noise`, claiming the plan's per-step ε (events of
/// the plan's b_1).
audit_report audit_step(const audit_setup& s, double noise, std::uint64_t seed) {
  const double b = s.plan.b;
  const auto m = [noise](const problem& P, philox_stream& st) { return one_step(P, noise, st); };
  const auto fams = [b](const neighbour_pair<problem>& pr) { return step_families(pr, b); };
  return run_audit_per_pair<problem, vec>(
      m, s.pairs, fams, test_support::make_config(seed, kSamples, s.plan.eps_step));
}

TEST(ACCEL_AUDIT, OneFullBatchStepPassesAtEpsOverT) {
  const auto s = setup();
  const double b = s.plan.b, claimed = s.plan.eps_step;
  {  // the one-step run's own ledger records the same per-step loss
    philox_stream st(0);
    auto p = step_params();
    p.iterations = 1;
    p.noise = accel::noise_mode::fixed;
    p.noise_scale = b;
    const auto r = accel::dp_gd::run(s.pairs.front().first, p, st);
    EXPECT_EQ(r.eps_spent, claimed);
  }
  // power: the pair is tight
  EXPECT_TRUE(test_support::audit_passes(
      "DP-GD one full-batch step, b_1 of the T=4, eps=1 plan (claimed eps/T)",
      audit_step(s, b, 701), 0.5 * claimed));
}

TEST(ACCEL_AUDIT, HalvedNoiseScaleIsFlagged) {
  const auto s = setup();
  // broken: half the calibrated b_t, still claiming ε/T
  EXPECT_TRUE(
      test_support::audit_flagged("NEG DP-GD one full-batch step with b_1/2 (claimed eps/T)",
                                  audit_step(s, s.plan.b / 2, 702)));
}

}  // namespace

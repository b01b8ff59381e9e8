// PRIV.DDA.AUDIT (spec/privacy_bounds.md): one round of dda Algorithm 1 on a neighbouring pair in
// which the replaced record violates the declared Lipschitz bound L = 1 by a factor 100, audited
// at the REQUESTED (ε, δ) = (1, 1e-5).
//
// The release is the shipped one: dda::plan_run (what dda::run releases with: σ calibrated from
// the public L, ι = 1, q = 1, T = 1, the clip at L, the secure lattice) and the Algorithm 1 engine
// (dda::detail::run_engine, which calls sampled_subgradient and the noise) on one node with W = [1]
// and x^(1) = 0, so that the released message is z^(2) = ζ = clip(ĝ) + noise with ĝ = −y c.
//   idealised (d = 1, threshold events on ζ: the real-number mechanism the idealised ledger
//     certifies): D: c = 1, y = 1 (ĝ = −1); D': c = 100, y = −1 (ĝ = +100, clipped to +1).
//     Shipped: passes. Negative control: the same engine parameters with the clip removed
//     (ĝ' = +100 enters the noise): flagged.
//   secure (d = 16, threshold events on Σ ζ_i plus low-order bits): D: c = 1/4 · 1 (‖c‖ = 1),
//     y = 1; D': c = 25 · 1 (‖c‖ = 100), y = −1. Shipped: clip to ‖ĝ‖₂ <= 1 then the coordinate
//     clamp: passes. Negative control: the clip removed, so only the coordinate clamp [−1, 1]
//     bounds ĝ' (‖ĝ'‖₂ = 4 = √d L instead of L): flagged.
// Statistical plan: fixed seeds, 2^18 search + 2^18 test samples per side, Clopper–Pearson with
// total false-alarm probability α = 1e-6 per audit (the auditor's Bonferroni split).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "audit/audit_support.hpp"
#include "audit/secure_audit_support.hpp"
#include "dpref/dda/run.hpp"
#include "support/dda_one_node.hpp"

namespace dpref {
namespace {

using audit::neighbour_pair;
namespace ss = audit::secure_support;
using vec = Eigen::VectorXd;

constexpr std::uint64_t kN = 1u << 18;
constexpr double kEps = 1.0, kDelta = 1e-5;

/// One record c = value·1 (d coordinates) with label y.
struct record {
  double value;
  double y;
};

/// The plan of dda::run for two nodes that are both active every round (ι = 1), one record each
/// (q = 1), T = 1, at the request (ε, δ) and L = 1: only public quantities enter it.
dda::planned_run<double> shipped_plan(long long d, noise_mode mode) {
  const dda::problem<double> pub(matrix<double>::Zero(d, 2), vector<double>::Ones(2), 2,
                                 problems::regularizer<double>::l2(1e-3));
  dda::network net;
  net.nodes = 2;
  net.activation = dda::activation_mode::nodes;
  net.per_step = 2;
  dda::params<double> p;
  p.epsilon = kEps;
  p.delta = kDelta;
  p.lipschitz = 1;
  p.iterations = 1;
  p.release = mode;
  return dda::plan_run(pub, net, p);
}

/// ζ of one node after one round (W = [1], z^(1) = 0, a_1 = 1: z^(2) = ζ).
vec release(const dda::algorithm_params<double>& e, long long d, const record& r,
            philox_stream& s) {
  matrix<double> X = matrix<double>::Constant(d, 1, r.value);
  vector<double> y(1);
  y[0] = r.y;
  const dda::problem<double> prob(X, y, 1, problems::regularizer<double>::l2(1e-3));
  return test_support::dda_one_node_release(prob, e, s).col(0);
}

audit::audit_report audit_release(const dda::algorithm_params<double>& e, long long d,
                                  const neighbour_pair<record>& pair,
                                  std::vector<audit::event_family<vec>> families,
                                  std::uint64_t seed) {
  const auto m = [&e, d](const record& r, philox_stream& s) { return release(e, d, r, s); };
  return audit::run_audit<record, vec>(m, {pair}, std::move(families),
                                       ss::config(seed, kEps, kDelta, kN));
}

std::vector<audit::event_family<vec>> sum_thresholds(double lo, double hi) {
  return {audit::threshold_family<vec>(
      "threshold on sum(z)", [](const vec& z) { return z.sum(); }, lo, hi, 160)};
}

TEST(PRIV_DDA_AUDIT, IdealisedRoundWithAViolatingRecordPassesAtTheRequest) {
  const auto plan = shipped_plan(1, noise_mode::idealised);
  ASSERT_TRUE(plan.engine.clip.has_value());
  const neighbour_pair<record> pair{"c = 1, y = 1 vs c = 100 (100 L), y = -1", {1, 1}, {100, -1}};
  const auto r = audit_release(plan.engine, 1, pair, sum_thresholds(-40, 40), 1931);
  // power: the round is far from ε = 0
  EXPECT_TRUE(ss::audit_passes("dda one round, idealised, record at 100 L (shipped clip)", r, 0.2));
  // negative control: the same σ without the clip
  auto off = plan.engine;
  off.clip.reset();
  EXPECT_TRUE(ss::audit_flagged("NEG dda one round, idealised, clip removed",
                                audit_release(off, 1, pair, sum_thresholds(-40, 140), 1932), kEps));
}

TEST(PRIV_DDA_AUDIT, SecureRoundWithAViolatingRecordPassesAtTheRequest) {
  constexpr long long d = 16;
  const auto plan = shipped_plan(d, noise_mode::secure);
  ASSERT_TRUE(plan.engine.clip.has_value());
  ASSERT_TRUE(plan.engine.secure.has_value());
  const neighbour_pair<record> pair{
      "c = 1/4 (norm L), y = 1 vs c = 25 (norm 100 L), y = -1", {0.25, 1}, {25, -1}};
  auto fam = sum_thresholds(-200, 200);
  fam.push_back(
      audit::lowbits_family<vec>("low-order bits of z[0]", [](const vec& z) { return z[0]; }, {}));
  const auto r = audit_release(plan.engine, d, pair, fam, 1933);
  EXPECT_TRUE(ss::audit_passes("dda one round, secure, d = 16, record at 100 L (shipped)", r));
  // the floating-point clip removed: the lattice's own l2 ball (SEC.GAUSS.L2) still enforces L
  auto ball = plan.engine;
  ball.clip.reset();
  const auto b = audit_release(ball, d, pair, sum_thresholds(-200, 200), 1935);
  EXPECT_TRUE(ss::audit_passes("dda one round, secure, float clip removed, lattice ball on", b));
  EXPECT_LE(b.eps_lb, kEps);
  // negative control: both removed, only the coordinate clamp C = L bounds the violating record
  // (‖·‖₂ = √d L)
  auto off = ball;
  off.secure->shape = mechanisms::clamp_set::coordinates;
  EXPECT_TRUE(ss::audit_flagged("NEG dda one round, secure, clip and ball removed (clamp only)",
                                audit_release(off, d, pair, sum_thresholds(-200, 200), 1934),
                                kEps));
}

}  // namespace
}  // namespace dpref

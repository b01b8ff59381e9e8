// Low-order-bit audit of ev Algorithm 2's release p̂^(2) in idealised and secure mode (ctest label
// `audit`; spec/ev.md SEC.EV.AUDIT, spec/secure_release.md SEC.MODE).
//
// Setting: K = 2 (p̂^(1) = p^(1) is public, so the whole request ε = 1 goes to the one noisy
// release k = 2), T = 2 slots, household units with m = 4 (L = 1/4), δr = 3.3, δE = 3, tight Δ.
// The mechanism is the k = 2 step of the run with the library's calibration of that setting,
// through the shipped release functions (ARCH.RELEASE.SITES): idealised p + ev::gradient_noise
// (the draw of private_projected_gradient.hpp), secure ev::secure_gradient_release with
// plan.releases[0].
// Neighbouring databases: Lemma 13 bounds ‖p^(2)(D) − p^(2)(D')‖₂ by Δ^(2) = LΔ, and p^(2) =
// λ(d + x^(2)/m)/m reaches any point of R^T through the public base load d, so the adversary
// picks the queries: the axis pair (0, Δ^(2) e_1) (Mironov's pair: q(D) = 0 exactly) and, for the
// secure grid, the tie pair (every coordinate at half a grid step vs an odd number of steps
// further, ‖·‖₂ <= Δ^(2)), where the rounding inflation is attained.
// Statistics: fixed seeds, 2^18 (secure) / 2^20 (idealised) search + test samples per side and
// pair, false alarm 1e-6 (Clopper–Pearson, Bonferroni over pairs), the REQUESTED ε = 1 (the
// test checks independently that the secure parameters meet it: t 2^g ε >= Δ^(2) + √T 2^g).
// Idealised mode is the documented negative control: flagged by the low-order bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "audit/audit_support.hpp"
#include "audit/secure_audit_support.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/ev/calibration.hpp"
#include "dpref/ev/private_projected_gradient.hpp"
#include "dpref/ev/secure.hpp"

namespace {

using namespace dpref::audit;
using namespace dpref::audit::secure_support;
using dpref::philox_stream;

constexpr long long kT = 2;
constexpr double kSecureEps = 1, kM = 4, kSecureDeltaR = 3.3, kSecureDeltaE = 3,
                 kSecureClamp = 1000;

/// Δ^(2) = LΔ with L = 1/m (household units: λ = m) and Δ = √(δr² + (δr + δE)²), derived here.
long double delta2() {
  const long double r = kSecureDeltaR, e = kSecureDeltaE;
  return std::sqrt(r * r + (r + e) * (r + e)) / kM;
}

/// The shift of the audited pairs: ‖q − q'‖ <= Δ^(2) (a hair below), and the axis pair
/// q(D) = 0 vs q(D') = that shift times e_1.
double pair_shift() { return static_cast<double>(delta2()) * (1 - 1e-12); }
neighbour_pair<vec> axis_pair() {
  vec axis = vec::Zero(kT);
  axis[0] = pair_shift();
  return {"axis pair (0 vs Δ^(2) e_1)", vec::Zero(kT), axis};
}

/// The run's stream of one audit sample: ev reads step k's noise from substream k of the run's
/// stream (a function of its key, not of its position), so each sample gets its own stream,
/// keyed by two draws of the auditor's stream.
philox_stream per_sample_stream(philox_stream& s) {
  const std::uint64_t seed = s(), id = s();
  return philox_stream(seed, id);
}

TEST(SEC_EV_AUDIT, SecureReleaseOfStep2PassesAtTheRequestedEpsilon) {
  const auto plan = dpref::ev::calibrate_algorithm2_secure(2, kM, kM, kSecureDeltaR, kSecureDeltaE,
                                                           kT, dpref::ev::sensitivity_bound::tight,
                                                           kSecureEps, kSecureClamp);
  ASSERT_EQ(plan.releases.size(), 1u);
  const auto r = plan.releases[0];
  const int k = r.grid_exponent;
  const long double g = std::ldexp(1.0L, k);
  // independent check of the calibration against the request (SEC.ACC.VLAPLACE)
  ASSERT_GE(static_cast<long double>(r.grid_scale()) * g * kSecureEps,
            delta2() * (1 + 1e-15L) + std::sqrt(static_cast<long double>(kT)) * g);
  const double d2 = pair_shift();
  // tie pair: steps odd with steps g √T <= Δ^(2)
  auto steps = static_cast<long long>(std::floor(d2 / (static_cast<double>(g) * std::sqrt(2.0))));
  if (steps % 2 == 0) --steps;
  const neighbour_pair<vec> tie = tie_pair(kT, k, steps);
  ASSERT_LE((tie.second - tie.first).norm(), d2);
  const auto m = [r](const vec& x, philox_stream& s) {  // the shipped release of step k = 2
    return dpref::ev::secure_gradient_release(per_sample_stream(s), 2, x, r);
  };
  const auto rep = run_audit_per_pair<vec, vec>(
      m, {axis_pair(), tie},
      [k](const neighbour_pair<vec>& pr) { return lattice_l2_families(pr, k, kSecureClamp); },
      config(20701, kSecureEps, 0, kLatticeN));
  // power: the claim is tight on these pairs
  EXPECT_TRUE(audit_passes("EV secure Algorithm 2 k=2, T=2, grid 2^" + std::to_string(k), rep,
                           0.5 * kSecureEps));
}

TEST(SEC_EV_AUDIT, IdealisedReleaseOfStep2IsFlaggedByTheLowOrderBits) {
  // documented negative control (issue 20): the idealised double release certifies the
  // real-number mechanism only; its low-order bits reveal q(D) = 0 vs q(D') = Δ^(2) e_1
  const auto plan = dpref::ev::calibrate_algorithm2<double>(
      2, kM, kM, kSecureDeltaR, kSecureDeltaE, kT, dpref::ev::sensitivity_bound::tight, kSecureEps);
  const double s = plan.scale;
  const auto m = [s](const vec& x, philox_stream& st) {  // p̂ = p + w_k, the shipped draw
    vec y = x;
    y += dpref::ev::gradient_noise<double>(per_sample_stream(st), 2, kT, s);
    return y;
  };
  const auto rep = run_audit_per_pair<vec, vec>(
      m, {axis_pair()},
      [](const neighbour_pair<vec>& pr) { return l2_ratio_families(pr.first, pr.second); },
      config(20702, kSecureEps, 0, kFloatN));
  EXPECT_TRUE(
      audit_flagged("EV NEG idealised Algorithm 2 k=2, T=2 (double release)", rep, kSecureEps));
  EXPECT_NE(rep.worst_pair().event.description.find("low-order bits"), std::string::npos);
}

}  // namespace

// Label audit of accel's public l1 bound B (spec/privacy_bounds.md, accel section,
// PRIV.ACCEL.AUDIT; ctest label `audit`).
//
// The constant: the ledger charges every step the l1 sensitivity Δ1 = S₁/m with S₁ = 2B (accel
// (5.2)), true only if every record has ‖u_i‖₁ <= B. Enforcement: refuse (the problem's
// constructor refuses a record above B, naming it, before anything is computed).
//
// Instance: logistic regression (5.1), n = 20 examples in d = 2, declared B = 1 (S₁ = 2),
// λ = 0.01, public x0 = (20, −20) and α = 0.5, one full-batch DP-GD step (T = 1) at the requested
// ε = 1, calibrated (b = S₁/(nε) = 0.1). The 19 shared examples are synthetic (data seed 7).
// Example 0:
//   D:            ((B, 0), −1)       margin z uᵀx0 = −20, per-example gradient ≈ (B, 0);
//   D′ (tight):   ((0, B), +1)       margin −20, gradient ≈ (0, −B): ‖Δ∇‖₁ ≈ S₁, the worst case
//                                    the bound admits;
//   D″ (violating): ((0, 100B), +1)  ‖u‖₁ = 100B, gradient (0, −100B): ‖Δ∇‖₁ ≈ 101B = 50.5 S₁.
// Shipped path: D″ is refused (RefusesTheViolatingRecord). The released x1 of D and D′ is audited
// at the run's certified ε (ShippedReleasePasses*). Every sample runs the library's one-step plan
// (detail::uniform_noise, what dp_gd::run computes for the declared B) and engine
// (detail::execute) — the exact functions accel::run calls, checked bit for bit against accel::run
// on 64 streams per dataset and mode (EngineIsTheShippedRelease).
// Negative controls (enforcement switched off in the test only): D″ built with its own bound
// 100B (the constructor's parameter; no hook in shipped code) and run by the same engine with the
// plan of the declared B: the idealised release is flagged (ε_lb > claimed ε); the secure one
// passes, because the lattice bounds each example's share by itself (SEC.LAPLACE.SUM), and is
// flagged only when that ball is removed too (the coordinate-clamped vector form).
// Events: thresholds on the projection of x1 onto μ(D′) − μ(D) and on the l1 likelihood-ratio
// statistic Σ_i |y_i − μ′_i| − |y_i − μ_i| (μ = x0 − α∇F(x0) the noiseless step of the pair).
// Statistical plan: 2^17 search + 2^17 test samples per side, one pair per audit, false-alarm
// probability 1e-6 per audit (auditor's Clopper–Pearson bounds), seeds 2701–2705; one thread.
// Passing audits also show power: ε_lb >= 0.5 ε (the pair is tight).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "audit/audit_support.hpp"
#include "dpref/accel/accel.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/params.hpp"
#include "support/messages.hpp"

namespace dpref {
namespace {

using audit::neighbour_pair;
using namespace audit::test_support;
using problem = accel::problem<double>;
using vec = vector<double>;

constexpr std::uint64_t kSamples = 1u << 17;  // search = test samples per side
constexpr long long kN = 20, kD = 2;
constexpr double kB = 1, kLambda = 0.01, kStep = 0.5, kEps = 1, kFactor = 100;

vec start() {
  vec x(2);
  x << 20.0, -20.0;
  return x;
}

/// The shared data with example 0 = ((a, b), z); built with the l1 bound `bound`.
problem dataset(double a, double b, double z, double bound) {
  const auto data = problems::synthetic_logistic_data(kN, kD, kB, philox_stream(7));
  matrix<double> u = data.features;
  vec y = data.labels;
  u(0, 0) = a;
  u(1, 0) = b;
  y[0] = z;
  return problem(u, y, kLambda, bound);
}
problem d_first() { return dataset(kB, 0, -1, kB); }
problem d_tight() { return dataset(0, kB, 1, kB); }
/// The violating record admitted: enforcement off (its own bound), test only.
problem d_violating_unenforced() { return dataset(0, kFactor * kB, 1, kFactor * kB); }

accel::params<double> step_params(noise_mode release) {
  accel::params<double> p;
  p.algorithm = accel::algorithm_kind::gd;
  p.iterations = 1;
  p.epsilon = kEps;
  p.alpha = kStep;
  p.x0 = start();
  p.release = release;
  return p;  // m absent: full batch; noise calibrated
}

/// The one-step plan accel::run makes for the DECLARED bound B (dp_gd::run's planning).
struct one_step {
  accel::params<double> p;
  accel::detail::plan<double> pl;
  accel::result<double> r;
};

one_step plan_for_declared_bound(noise_mode release) {
  const problem P = d_first();  // S₁ = 2B, n, d: public
  one_step o{step_params(release), {}, {}};
  o.pl.kind = accel::detail::method::gd;
  o.pl.alpha = {kStep};
  o.pl.beta = {0.0};
  o.pl.restart = {0};
  accel::detail::uniform_noise(o.p, P.l1_sensitivity(), P.size(), P.size(), 1, o.pl, o.r,
                               P.dimension());
  return o;
}

/// x1 of one step on P by the engine accel::run calls, with the declared bound's plan.
vec release(const one_step& o, const problem& P, philox_stream& s) {
  const std::uint64_t seed = s(), id = s();
  return accel::detail::execute(P, o.p, kN, o.pl, o.r, philox_stream(seed, id)).x;
}

/// Projection and l1 likelihood-ratio families of the pair; `scale` = α b (the Laplace scale of
/// each coordinate of x1 for the declared bound).
std::vector<audit::event_family<vec>> families(const neighbour_pair<problem>& pr, double scale) {
  const vec x0 = start();
  const vec mu = x0 - kStep * pr.first.gradient(x0);
  const vec mu2 = x0 - kStep * pr.second.gradient(x0);
  const double r = (mu - mu2).lpNorm<1>();
  const vec dir = (mu2 - mu).normalized();
  const double centre = dir.dot(mu + mu2) / 2, half = r / 2 + 20 * scale;
  return {audit::projection_family<vec>("projection on mu(D')-mu(D)", dir, centre - half,
                                        centre + half, 160),
          audit::threshold_family<vec>(
              "l1 likelihood-ratio statistic",
              [mu, mu2](const vec& y) { return (y - mu2).lpNorm<1>() - (y - mu).lpNorm<1>(); },
              -1.001 * r, 1.001 * r, 200)};
}

/// Negative control of the lattice's own enforcement: x1 = x0 − α g̃ with g̃ the coordinate-clamped
/// snapped Laplace of the floating-point gradient (accel's secure step before SEC.LAPLACE.SUM),
/// with the declared bound's lattice parameters; a deliberately broken mechanism, test only.
vec release_without_lattice_ball(const one_step& o, const problem& P, philox_stream& s) {
  const std::uint64_t seed = s(), id = s();
  philox_stream step = philox_stream(seed, id).substream(0);
  mechanisms::snapped_laplace_params coords = o.pl.snapped.front();
  coords.shape = mechanisms::clamp_set::coordinates;
  coords.record_radius = 0;
  const vec x0 = start();
  return x0 - kStep * mechanisms::snapped_laplace(step, P.gradient(x0), coords);
}

audit::audit_report audit_pair(const one_step& o, neighbour_pair<problem> pair, double claimed,
                               std::uint64_t seed, bool lattice_ball = true) {
  const auto m = [&o, lattice_ball](const problem& P, philox_stream& s) {
    return lattice_ball ? release(o, P, s) : release_without_lattice_ball(o, P, s);
  };
  const double scale = kStep * o.pl.b.front();
  const auto fams = [scale](const neighbour_pair<problem>& pr) { return families(pr, scale); };
  return audit::run_audit_per_pair<problem, vec>(m, {std::move(pair)}, fams,
                                                 make_config(seed, kSamples, claimed, 0, 1));
}

/// The tight pair (D, D′) and the pair with the violating record admitted (D, D″).
neighbour_pair<problem> tight_pair() {
  return {"example 0: ((B,0),-1) vs ((0,B),+1)", d_first(), d_tight()};
}
neighbour_pair<problem> violating_pair() {
  return {"example 0: ((B,0),-1) vs ((0,100B),+1) admitted", d_first(), d_violating_unenforced()};
}

/// The run's certified ε for one step (what the certificate claims), checked <= the request.
double claimed_eps(const one_step& o) {
  EXPECT_TRUE(o.r.privacy.budget_met);
  EXPECT_LE(o.r.privacy.guarantee.epsilon, kEps);
  EXPECT_GT(o.r.privacy.guarantee.epsilon, 0.9 * kEps);
  return o.r.privacy.guarantee.epsilon;
}

TEST(PRIV_ACCEL_AUDIT, RefusesTheViolatingRecord) {
  // The shipped path cannot run D″ at the declared B: the constructor refuses record 0, naming
  // the constant, the record and its norm, before any gradient is computed.
  const std::string msg =
      test::message_of<invalid_parameter>([] { (void)dataset(0, kFactor * kB, 1, kB); });
  EXPECT_NE(msg.find("logistic_regression.l1_bound must be >= ||u_i||_1 = 100 of record i = 0"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("got 1"), std::string::npos) << msg;
  // a record exactly on the bound is admitted (exact comparison), one ulp above is not
  EXPECT_NO_THROW((void)dataset(0.25, 0.75, 1, kB));
  EXPECT_NE(test::message_of([] {
              (void)dataset(0.25, std::nextafter(0.75, 1.0), 1, kB);
            }).find("record i = 0"),
            std::string::npos);
}

TEST(PRIV_ACCEL_AUDIT, EngineIsTheShippedRelease) {
  // The audited samples are accel::run's bits: same plan (b_1, lattice parameters, ε) and the
  // same x1 on 64 streams, for D and D′, idealised and secure.
  for (const noise_mode mode : {noise_mode::idealised, noise_mode::secure}) {
    const one_step o = plan_for_declared_bound(mode);
    for (const problem& P : {d_first(), d_tight()}) {
      const auto r0 = accel::run(P, step_params(mode), philox_stream(1));
      EXPECT_EQ(r0.noise_scales, o.pl.b);
      EXPECT_EQ(r0.privacy.guarantee.epsilon, o.r.privacy.guarantee.epsilon);
      for (std::uint64_t k = 0; k < 64; ++k) {
        philox_stream s1(55, k), s2(55, k);
        const std::uint64_t seed = s1(), id = s1();
        EXPECT_EQ(accel::run(P, step_params(mode), philox_stream(seed, id)).x, release(o, P, s2));
      }
    }
  }
}

/// The release of plan o on the tight pair passes at the run's certified ε, with power (the pair
/// is tight).
void expect_tight_pair_passes(const one_step& o, std::uint64_t seed, const std::string& what) {
  const double eps = claimed_eps(o);
  EXPECT_TRUE(audit_passes(what, audit_pair(o, tight_pair(), eps, seed), 0.5 * eps));
}

TEST(PRIV_ACCEL_AUDIT, ShippedReleasePassesIdealised) {
  expect_tight_pair_passes(plan_for_declared_bound(noise_mode::idealised), 2701,
                           "accel DP-GD one step, idealised, tight pair at the declared B");
}

TEST(PRIV_ACCEL_AUDIT, UnenforcedViolatingRecordIsFlaggedIdealised) {
  const one_step o = plan_for_declared_bound(noise_mode::idealised);
  const double eps = claimed_eps(o);
  const auto r = audit_pair(o, violating_pair(), eps, 2702);
  EXPECT_TRUE(audit_flagged(
      "NEG accel DP-GD one step, idealised, l1 bound not enforced (record at 100B)", r, eps));
}

TEST(PRIV_ACCEL_AUDIT, ShippedReleasePassesSecure) {
  const one_step o = plan_for_declared_bound(noise_mode::secure);
  ASSERT_EQ(o.pl.snapped.size(), 1u);
  expect_tight_pair_passes(o, 2703, "accel DP-GD one step, secure, tight pair at the declared B");
}

TEST(PRIV_ACCEL_AUDIT, UnenforcedViolatingRecordIsContainedByTheLatticeSecure) {
  // Secure mode enforces B a second time, on the lattice (SEC.LAPLACE.SUM): each example's share
  // of the gradient is put in the l1 ball of radius Δ1/2 = B/n there, so even the record at 100B,
  // admitted with the constructor's check off, moves the release by at most the charged Δ1: the
  // audit passes at the claimed ε. Negative control: the coordinate-clamped vector form on the
  // floating-point gradient (the secure step before; the default clamp 2^10 S₁ = 2048 is far above
  // 100B/n, so coordinate clamping does not bound the change) is flagged.
  const one_step o = plan_for_declared_bound(noise_mode::secure);
  const double eps = claimed_eps(o);
  const auto r = audit_pair(o, violating_pair(), eps, 2704);
  EXPECT_TRUE(audit_passes(
      "accel DP-GD one step, secure, l1 bound not enforced (record at 100B), lattice ball", r));
  const auto neg = audit_pair(o, violating_pair(), eps, 2705, false);
  EXPECT_TRUE(audit_flagged(
      "NEG accel DP-GD one step, secure, neither the l1 bound nor the lattice ball", neg, eps));
}

}  // namespace
}  // namespace dpref

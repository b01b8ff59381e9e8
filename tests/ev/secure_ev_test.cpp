// Secure mode of ev Algorithm 2 (spec/ev.md SEC.EV; spec/secure_release.md SEC.MODE, issue 20
// part 2): the ledger of lattice ℓ2-Laplace events with the inflated sensitivities, checked
// against values derived here (Lemma 13's Δ^(k) = (k−1)LΔ, Theorem 6's shares ε_k, SEC.ACC.VLAPLACE
// ε = (Δ + √T 2^g)/(2^g t)); every released coordinate on its grid; the budget checked before any
// release; the refusals (precisions other than double, non-private algorithms); reproducibility.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/ev/json.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/ev/secure.hpp"
#include "dpref/random.hpp"
#include "support/ev_problems.hpp"
#include "support/messages.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;

/// T slots, n users, m = n households (household units: λ = m, L = 1/m), caps 3.3, E ~ U[2, 5].
template <class Real = double>
ev::problem<Real> secure_small_problem(std::uint64_t seed, Eigen::Index t, Eigen::Index n) {
  return test::ev_small_problem<Real>(seed, t, n, Real(n), Real(n));
}

template <class Real = double>
ev::params<Real> secure_params(long long K, double eps) {
  auto p = test::ev_alg2_params<Real>(K, Real(eps));
  p.release = noise_mode::secure;
  return p;
}

// ------------------------------------------------------------------------ ledger -----------

TEST(SEC_EV, LedgerHoldsLatticeEventsWithTheInflatedSensitivityWithinTheBudget) {
  const Eigen::Index T = 6, n = 40;
  const long long K = 6;
  const double eps = 0.5;
  const auto prob = secure_small_problem(3, T, n);
  const auto p = secure_params(K, eps);
  const auto res = ev::run(prob, p, philox_stream(20261121, 1));
  ASSERT_EQ(res.status, status::completed);
  EXPECT_EQ(res.privacy.noise, noise_mode::secure);
  EXPECT_TRUE(res.privacy.budget_met);
  // Independent constants: L = λ/m² = 1/n, Δ (errata EV-E1) = √(δr² + (δr + δE)²).
  const long double L = 1.0L / n, delta = std::sqrt(3.3L * 3.3L + 6.3L * 6.3L);
  const auto& ev_list = res.privacy.ledger.events();
  ASSERT_EQ(ev_list.size(), static_cast<std::size_t>(K));
  EXPECT_EQ(ev_list[0].kind(), "pure");  // k = 1: p^(1) is data-independent
  long double total = 0;
  for (long long k = 2; k <= K; ++k) {
    const auto& e = ev_list[static_cast<std::size_t>(k - 1)];
    ASSERT_EQ(e.kind(), "snapped_vector_laplace");
    const auto& m = std::get<accounting::snapped_vector_laplace_mechanism<double>>(e.what);
    const long double dk = (k - 1) * L * delta;  // Lemma 13
    EXPECT_GE(static_cast<long double>(m.sensitivity), dk * (1 - 1e-15L));
    EXPECT_LE(static_cast<long double>(m.sensitivity), dk * (1 + 1e-12L));
    EXPECT_EQ(m.dimension, T);
    // SEC.ACC.VLAPLACE: ε_k = (Δ^(k) + √T 2^g)/(2^g t) <= the Theorem 6 share 2(k−1)ε/(K(K−1))
    const long double g = std::ldexp(1.0L, m.grid_exponent);
    const long double share = 2.0L * (k - 1) * eps / (K * (K - 1.0L));
    const long double inflated = m.sensitivity + std::sqrt(static_cast<long double>(T)) * g;
    const long double ek = inflated / (g * static_cast<long double>(m.grid_scale));
    EXPECT_LE(ek, share * (1 + 1e-15L)) << "k = " << k;
    // minimal: one grid step less of noise would exceed the share
    EXPECT_GT(inflated / (g * static_cast<long double>(m.grid_scale - 1)), share) << "k = " << k;
    // the inflation √T 2^g is a small fraction of Δ^(k) (grid rule, s = 20)
    EXPECT_LT(std::sqrt(static_cast<long double>(T)) * g / dk, 1e-5L);
    total += ek;
  }
  EXPECT_LE(total, eps * (1 + 1e-15L));
  EXPECT_GT(total, eps * (1 - 1e-5L));  // the budget is used, not wasted
  EXPECT_LE(res.privacy.guarantee.epsilon, eps);
  EXPECT_EQ(res.privacy.guarantee.delta, 0.0);
  // the ledger's JSON re-read by the accountant gives the same guarantee bit for bit
  const std::string text = accounting::ledger_value(res.privacy.ledger).dump();
  const io::document doc = io::document::parse(text, "ledger");
  const accounting::ledger<double> again = accounting::read_ledger<double>(io::node(doc));
  EXPECT_EQ(again.total().epsilon, res.privacy.guarantee.epsilon);
  EXPECT_EQ(again.total().delta, res.privacy.guarantee.delta);
}

// ---------------------------------------------------------------------- lattice ------------

TEST(SEC_EV, EveryReleasedCoordinateLiesOnItsGrid) {
  const Eigen::Index T = 8;
  const long long K = 7;
  const auto prob = secure_small_problem(5, T, 30);
  const auto res = ev::run(prob, secure_params(K, 1.0), philox_stream(99, 4));
  ASSERT_EQ(res.released.cols(), K);
  // k = 1: p^(1) released exactly (public start, no noise)
  for (Eigen::Index t = 0; t < T; ++t) EXPECT_EQ(res.released(t, 0), res.gradients(t, 0));
  const auto& events = res.privacy.ledger.events();
  long long off_grid_in_idealised = 0;
  const auto ideal = ev::run(
      prob,
      [] {
        auto p = secure_params(K, 1.0);
        p.release = noise_mode::idealised;
        return p;
      }(),
      philox_stream(99, 4));
  for (long long k = 2; k <= K; ++k) {
    const auto& m = std::get<accounting::snapped_vector_laplace_mechanism<double>>(
        events[static_cast<std::size_t>(k - 1)].what);
    for (Eigen::Index t = 0; t < T; ++t) {
      const double y = res.released(t, k - 1);
      const double u = std::ldexp(y, -m.grid_exponent);
      EXPECT_EQ(u, std::nearbyint(u)) << "k = " << k << ", t = " << t << ", y = " << y;
      const double ui = std::ldexp(ideal.released(t, k - 1), -m.grid_exponent);
      if (ui != std::nearbyint(ui)) ++off_grid_in_idealised;
    }
    // the noise is of the calibrated size: ‖p̂ − p‖ within a generous band around E = T·b
    const double b = std::ldexp(static_cast<double>(m.grid_scale), m.grid_exponent);
    const double dist = (res.released.col(k - 1) - res.gradients.col(k - 1)).norm();
    EXPECT_GT(dist, 0.05 * T * b);
    EXPECT_LT(dist, 5.0 * T * b);
  }
  // negative control: the idealised release is (almost surely) off these grids
  EXPECT_GT(off_grid_in_idealised, (K - 1) * T / 2);
}

TEST(SEC_EV, SameSeedSameBytesAndThreadsDoNotMatter) {
  const auto prob = secure_small_problem(8, 6, 64);
  auto p = secure_params(5, 1.0);
  const auto a = ev::run(prob, p, philox_stream(1, 2));
  p.threads = 3;
  const auto b = ev::run(prob, p, philox_stream(1, 2));
  EXPECT_EQ(a.released, b.released);
  EXPECT_EQ(a.final_schedules, b.final_schedules);
  const auto c = ev::run(prob, p, philox_stream(2, 2));
  EXPECT_NE(a.released.col(1), c.released.col(1));
}

TEST(SEC_EV, IdealisedModeIsUnchangedByTheNewFields) {
  // release_clamp is read only in secure mode: the idealised bytes do not depend on it
  const auto prob = secure_small_problem(8, 6, 64);
  auto p = secure_params(5, 1.0);
  p.release = noise_mode::idealised;
  const auto a = ev::run(prob, p, philox_stream(1, 2));
  p.release_clamp = 3;
  const auto b = ev::run(prob, p, philox_stream(1, 2));
  EXPECT_EQ(a.released, b.released);
  EXPECT_EQ(a.privacy.noise, noise_mode::idealised);
  EXPECT_EQ(a.privacy.ledger.events()[1].kind(), "vector_laplace");
}

TEST(SEC_EV, ClampIsPublicAndBoundsTheQuery) {
  // a clamp below |p_t| biases the release towards [−C, C] (the clamp is public, not fitted)
  const auto prob = secure_small_problem(8, 6, 64);
  auto p = secure_params(4, 1e3);  // large ε: noise ≪ the clamp's effect
  p.release_clamp = 0.25;          // p_t ≈ d_t ≥ 1 here
  const auto res = ev::run(prob, p, philox_stream(1, 2));
  for (long long k = 2; k <= 4; ++k)
    for (Eigen::Index t = 0; t < 6; ++t) {
      ASSERT_GT(res.gradients(t, k - 1), 0.5);
      EXPECT_LT(res.released(t, k - 1), 0.5) << "k = " << k;
    }
}

// ---------------------------------------------------------------------- budget -------------

TEST(SEC_EV, AnOverBudgetPlanIsRefusedBeforeAnyRelease) {
  // the secure plan for ε accounted against a smaller request: budget_exceeded, "nothing was
  // released" (plan_privacy runs before the first draw in ev::run)
  const auto plan = ev::calibrate_algorithm2_secure(6, 40.0, 40.0, 3.3, 3.0, 6,
                                                    ev::sensitivity_bound::tight, 0.5, 1000.0);
  const std::string msg = message_of([&] {
    (void)plan_privacy(plan.ledger, privacy_budget_request<double>{0.49, 0.0, false}, "test");
  });
  EXPECT_NE(msg.find("exceeds the requested budget"), std::string::npos) << msg;
  EXPECT_NE(msg.find("nothing was released"), std::string::npos) << msg;
  // an unattainable secure setting (clamp forces a grid so coarse that t > 2^52 would be needed)
  // fails in the calibration, before the first draw: no result
  const auto prob = secure_small_problem(3, 6, 40);
  auto p = secure_params(3, 1e-16);
  p.release_clamp = 1e15;
  EXPECT_THROW((void)ev::run(prob, p, philox_stream(1, 1)), std::domain_error);
}

// --------------------------------------------------------------------- refusals ------------

TEST(SEC_EV, OtherPrecisionsAndNonPrivateAlgorithmsAreRefused) {
  const auto long_double = message_of([] { secure_params<long double>(5, 1).validate(); });
  EXPECT_EQ(long_double,
            "ev::params.release must be idealised at precision long double (the lattice release "
            "is defined on doubles: run secure mode at precision double), got secure");
  const auto mp = message_of([] { secure_params<mp50>(5, 1).validate(); });
  EXPECT_EQ(mp,
            "ev::params.release must be idealised at precision mp50 (the lattice release is "
            "defined on doubles: run secure mode at precision double), got secure");
  for (const auto a : {ev::algorithm_kind::projected_gradient, ev::algorithm_kind::projected_sgd,
                       ev::algorithm_kind::optimum}) {
    auto p = secure_params(5, 1);
    p.algorithm = a;
    const std::string name(enum_names(a)[static_cast<std::size_t>(a)].second);
    EXPECT_EQ(message_of([&] { p.validate(); }),
              "ev::params.release must be idealised for " + name +
                  " (non-private: no noise is accounted, there is no release to secure), got "
                  "secure");
  }
  auto p = secure_params(5, 1);
  p.release_clamp = 0;
  EXPECT_EQ(message_of([&] { p.validate(); }),
            "ev::params.release_clamp must be finite and in (0, 1e15], got 0");
  p.release_clamp = std::nan("");
  EXPECT_EQ(message_of([&] { p.validate(); }),
            "ev::params.release_clamp must be finite and in (0, 1e15], got nan");
}

}  // namespace
}  // namespace dpref

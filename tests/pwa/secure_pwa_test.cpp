// Secure mode of the pwa mechanisms (spec/pwa.md SEC.PWA; spec/secure_release.md SEC.MODE,
// issue 20 part 2): M_P and M_S release the lattice ℓ2-Laplace (ledger: one
// snapped_vector_laplace event, inflated sensitivity, ε <= requested, checked here from the
// paper's Δ = √m·bmax / diam P = 2√d c and SEC.ACC.VLAPLACE's ε = (Δ + √d 2^g)/(2^g t)); released
// coordinates on the grid; Algorithm 2 and M_E (rejection) run on clamped data with the
// rounding of their utilities in the ledger and are labelled secure; the refusals (precisions,
// non-private algorithms, M_E samplers other than rejection).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/pwa/json.hpp"
#include "dpref/pwa/secure.hpp"
#include "support/messages.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;

pwa::problem<double> secure_gaussian_problem(int m, int d, double c, double bmax = 1,
                                             std::uint64_t seed = 7) {
  return pwa::gaussian_instance<double>(seed, m, d, c, bmax);
}

template <class Real = double>
pwa::params<Real> secure_params(pwa::algorithm_kind a, double eps) {
  pwa::params<Real> p;
  p.algorithm = a;
  p.epsilon = Real(eps);
  p.iterations = 20;
  p.optimum = false;
  p.release = noise_mode::secure;
  return p;
}

/// The one lattice event of a secure M_P / M_S run, checked against Δ and the target ε.
const accounting::snapped_vector_laplace_mechanism<double>& check_event(
    const pwa::result<double>& r, long double delta, long long d, long double target) {
  const auto& events = r.privacy.ledger.events();
  EXPECT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind(), "snapped_vector_laplace");
  const auto& m = std::get<accounting::snapped_vector_laplace_mechanism<double>>(events[0].what);
  EXPECT_GE(static_cast<long double>(m.sensitivity), delta * (1 - 1e-15L));
  EXPECT_LE(static_cast<long double>(m.sensitivity), delta * (1 + 1e-12L));
  EXPECT_EQ(m.dimension, d);
  const long double g = std::ldexp(1.0L, m.grid_exponent);
  const long double inflated = m.sensitivity + std::sqrt(static_cast<long double>(d)) * g;
  const long double eps = inflated / (g * static_cast<long double>(m.grid_scale));
  EXPECT_LE(eps, target * (1 + 1e-15L));
  EXPECT_GT(inflated / (g * static_cast<long double>(m.grid_scale - 1)), target);  // minimal t
  EXPECT_LT(std::sqrt(static_cast<long double>(d)) * g / delta, 1e-5L);  // inflation ≤ 2^-s-ish
  EXPECT_LE(r.privacy.guarantee.epsilon, static_cast<double>(target) * (1 + 1e-15));
  EXPECT_TRUE(r.privacy.budget_met);
  EXPECT_EQ(r.privacy.noise, noise_mode::secure);
  // the ledger's JSON re-accounted (what `dpref account` does) gives the guarantee bit for bit
  const io::json j = accounting::ledger_value(r.privacy.ledger);
  const auto back =
      accounting::read_ledger<double>(io::node(io::document::from_value(j, "ledger")));
  EXPECT_EQ(back.total().epsilon, r.privacy.guarantee.epsilon);
  EXPECT_EQ(back.total().delta, r.privacy.guarantee.delta);
  return m;
}

TEST(SEC_PWA, PerturbDataLedgerAndLattice) {
  const int m = 20, d = 2;
  const auto prob = secure_gaussian_problem(m, d, 1.0, 1.0);
  const auto p = secure_params(pwa::algorithm_kind::perturb_data, 0.5);
  const auto r = pwa::run(prob, p, philox_stream(11, 0));
  const long double delta = std::sqrt(static_cast<long double>(m)) * 1.0L;  // √m·bmax
  const auto& ev = check_event(r, delta, m, 0.5L);
  EXPECT_EQ(r.x.size(), d);
  // the noisy b̃ is inside the mechanism; re-draw it from the same stream copy and check that
  // it lies on the grid and that the run's x is the LP solution for it (same seed, same bytes)
  philox_stream s(11, 0);
  const auto plan = pwa::calibrate_secure_vector_laplace(static_cast<double>(*r.sensitivity), 0.5,
                                                         m, p.release_clamp, "x");
  EXPECT_EQ(plan.release.grid_exponent, ev.grid_exponent);
  const vector<double> b = mechanisms::snapped_vector_laplace(s, prob.b(), plan.release);
  for (Eigen::Index i = 0; i < m; ++i) {
    const double u = std::ldexp(b[i], -ev.grid_exponent);
    EXPECT_EQ(u, std::nearbyint(u)) << i;
  }
  EXPECT_EQ(pwa::solve(prob.with_b(b)).x, r.x);
  const auto again = pwa::run(prob, p, philox_stream(11, 0));
  EXPECT_EQ(again.x, r.x);
}

TEST(SEC_PWA, PerturbSolutionLedgerAndLattice) {
  const int m = 30, d = 3;
  const double c = 2;
  const auto prob = secure_gaussian_problem(m, d, c);
  for (const auto rule : {pwa::noise_rule::theorem9, pwa::noise_rule::paper}) {
    auto p = secure_params(pwa::algorithm_kind::perturb_solution, 1.0);
    p.noise_rule = rule;
    const auto r = pwa::run(prob, p, philox_stream(5, 1));
    const long double delta = 2 * std::sqrt(static_cast<long double>(d)) * c;  // diam of the box
    const long double target =
        rule == pwa::noise_rule::paper ? 1.0L / std::sqrt(static_cast<long double>(d)) : 1.0L;
    const auto& ev = check_event(r, delta, d, target);
    for (Eigen::Index j = 0; j < d; ++j) {
      const double u = std::ldexp(r.x[j], -ev.grid_exponent);
      EXPECT_EQ(u, std::nearbyint(u)) << j;
    }
    // idealised control: the same seed's idealised release is off the grid
    p.release = noise_mode::idealised;
    const auto ri = pwa::run(prob, p, philox_stream(5, 1));
    int off = 0;
    for (Eigen::Index j = 0; j < d; ++j) {
      const double u = std::ldexp(ri.x[j], -ev.grid_exponent);
      off += u != std::nearbyint(u);
    }
    EXPECT_GE(off, 2);
    EXPECT_EQ(ri.privacy.noise, noise_mode::idealised);
  }
}

// Algorithm 2 and M_E (rejection) release no floating-point noise sum; in secure mode they run
// on clamp(b, −C, C) with the ledger's Δu = bmax + the rounding of the double utilities
// (PRIV.PWA.BMAX): here |b_i| < C, the rounding term is ~1e-12 relative, so the same seed
// releases the same x as in idealised mode, under a ledger whose Δu exceeds bmax by that term.
TEST(SEC_PWA, SelectionAndRejectionSamplerRunOnClampedDataAndAreLabelledSecure) {
  const auto prob = secure_gaussian_problem(10, 2, 1.0);
  ASSERT_LT(prob.b().cwiseAbs().maxCoeff(), 1000.0);
  for (const auto a :
       {pwa::algorithm_kind::private_subgradient, pwa::algorithm_kind::exponential}) {
    auto p = secure_params(a, 0.5);
    const auto s = pwa::run(prob, p, philox_stream(3, 0));
    p.release = noise_mode::idealised;
    const auto i = pwa::run(prob, p, philox_stream(3, 0));
    EXPECT_EQ(s.x, i.x);  // no floating-point noise sum to replace (SEC.PWA)
    EXPECT_EQ(s.selected, i.selected);
    const auto& es =
        std::get<accounting::exponential_mechanism<double>>(s.privacy.ledger.events()[0].what);
    const auto& ei =
        std::get<accounting::exponential_mechanism<double>>(i.privacy.ledger.events()[0].what);
    EXPECT_EQ(ei.utility_sensitivity, 1.0);
    EXPECT_GT(es.utility_sensitivity, 1.0);
    EXPECT_LT(es.utility_sensitivity, 1.0 + 1e-9);
    EXPECT_EQ(*s.sensitivity, es.utility_sensitivity);
    EXPECT_LE(s.privacy.guarantee.epsilon, 0.5);
    EXPECT_GE(s.privacy.guarantee.epsilon, 0.5 * (1 - 1e-12));
    EXPECT_EQ(s.privacy.noise, noise_mode::secure);
    EXPECT_EQ(i.privacy.noise, noise_mode::idealised);
  }
}

TEST(SEC_PWA, IdealisedBytesIndependentOfTheClamp) {
  const auto prob = secure_gaussian_problem(20, 2, 1.0);
  auto p = secure_params(pwa::algorithm_kind::perturb_data, 0.5);
  p.release = noise_mode::idealised;
  const auto a = pwa::run(prob, p, philox_stream(11, 0));
  p.release_clamp = 0.5;
  const auto b = pwa::run(prob, p, philox_stream(11, 0));
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.privacy.ledger.events()[0].kind(), "vector_laplace");
}

TEST(SEC_PWA, AnOverBudgetPlanIsRefusedBeforeAnyRelease) {
  const auto plan = pwa::calibrate_secure_vector_laplace(std::sqrt(20.0), 0.5, 20, 1000, "x");
  const std::string msg = message_of([&] {
    (void)plan_privacy(plan.ledger, privacy_budget_request<double>{0.499, 0.0, false}, "test");
  });
  EXPECT_NE(msg.find("exceeds the requested budget"), std::string::npos) << msg;
  EXPECT_NE(msg.find("nothing was released"), std::string::npos) << msg;
  // an unattainable setting (clamp forcing a grid so coarse that t > 2^52) fails before a draw
  const auto prob = secure_gaussian_problem(20, 2, 1.0);
  auto p = secure_params(pwa::algorithm_kind::perturb_data, 1e-16);
  p.release_clamp = 1e15;
  EXPECT_THROW((void)pwa::run(prob, p, philox_stream(1, 0)), std::domain_error);
}

TEST(SEC_PWA, Refusals) {
  EXPECT_EQ(message_of([] {
              secure_params<long double>(pwa::algorithm_kind::perturb_data, 1).validate();
            }),
            "pwa::params.release must be idealised at precision long double (the lattice "
            "release is defined on doubles: run secure mode at precision double), got secure");
  EXPECT_EQ(
      message_of([] { secure_params<mp50>(pwa::algorithm_kind::perturb_solution, 1).validate(); }),
      "pwa::params.release must be idealised at precision mp50 (the lattice release is defined "
      "on doubles: run secure mode at precision double), got secure");
  for (const auto a : {pwa::algorithm_kind::regular_subgradient, pwa::algorithm_kind::optimum}) {
    const std::string name(enum_names(a)[static_cast<std::size_t>(a)].second);
    EXPECT_EQ(message_of([&] { secure_params(a, 1).validate(); }),
              "pwa::params.release must be idealised for " + name +
                  " (non-private: no noise is accounted, there is no release to secure), got "
                  "secure");
  }
  auto p = secure_params(pwa::algorithm_kind::exponential, 1);
  p.sampler = pwa::sampler_kind::envelope;
  EXPECT_EQ(message_of([&] { p.validate(); }),
            "pwa::params.sampler must be rejection when release = secure (the envelope and "
            "inverse_cdf proposals are computed by floating-point inversion from the data: their "
            "low-order bits are not covered), got envelope");
  p = secure_params(pwa::algorithm_kind::perturb_data, 1);
  p.release_clamp = -1;
  EXPECT_EQ(message_of([&] { p.validate(); }),
            "pwa::params.release_clamp must be finite and in (0, 1e15], got -1");
}

}  // namespace
}  // namespace dpref

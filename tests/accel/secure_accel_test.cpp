// Secure mode of the accel algorithms (issue 20 part 2, spec/accel.md SEC.ACCEL): the ledger
// records snapped_laplace events with the inflated sensitivity, the certified ε stays within the
// request, `dpref account` re-derives it, the released noisy gradients lie on the 2^k lattice,
// an over-budget secure plan is refused before any release, and precisions other than double
// refuse release = secure. Expected values are computed here from the formulas of
// spec/secure_release.md (SEC.ACC.LAPLACE), not read back from the code.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/accel/accel.hpp"
#include "dpref/accel/json.hpp"
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "support/accel_problems.hpp"
#include "support/ledger_roundtrip.hpp"
#include "support/messages.hpp"
#include "support/secure_refusals.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;

accel::problem<double> secure_small_problem(long long n = 200, long long d = 4, double B = 20) {
  return test::small_accel_problem(n, d, B);
}

accel::params<double> secure_params(accel::algorithm_kind a, long long T = 8) {
  accel::params<double> p;
  p.algorithm = a;
  p.iterations = T;
  p.release = noise_mode::secure;
  return p;
}

const std::vector<accel::algorithm_kind> kAll = {
    accel::algorithm_kind::gd,      accel::algorithm_kind::shb,  accel::algorithm_kind::nag,
    accel::algorithm_kind::nag_opt, accel::algorithm_kind::masg, accel::algorithm_kind::masg_opt};

/// (3.3) at the snapped step: ln(1 + (m/n)(e^{ε_s} − 1)), ε_s = (Δ1 + d 2^k)/(2^k t), in long
/// double (independent of the accountant).
long double step_eps(long double sens, int k, long long t, long long d, long long n, long long m) {
  const long double g = std::ldexp(1.0L, k);
  const long double es =
      (sens + static_cast<long double>(d) * g) / (g * static_cast<long double>(t));
  return std::log1p(static_cast<long double>(m) / static_cast<long double>(n) * std::expm1(es));
}

// ------------------------------------------------------------------------------- SEC.MODE --

TEST(SEC_MODE, ReleaseFieldDefaultsToIdealised) {
  // the field `release` is in the field list (JSON key, CLI flag) with default idealised
  const accel::params<double> p;
  EXPECT_EQ(p.release, noise_mode::idealised);
  const io::json j = io::fields_value(p);
  EXPECT_EQ(j["release"], "idealised");
  EXPECT_FALSE(j.contains("clamp"));  // HARD.APPLIES: the clamp applies only to release secure
  accel::params<double> s;
  s.release = noise_mode::secure;
  const io::json js = io::fields_value(s);
  ASSERT_TRUE(js.contains("clamp"));
  EXPECT_TRUE(js["clamp"].is_null());  // absent: the default 2^10 S1
}

// ------------------------------------------------------------------------------ SEC.ACCEL --

TEST(SEC_ACCEL, EveryAlgorithmLedgerIsSnappedAndWithinBudget) {
  const auto P = secure_small_problem();
  for (const long long m : {200LL, 50LL}) {
    for (const auto a : kAll) {
      auto p = secure_params(a);
      if (m < 200) p.m = m;
      const auto r = accel::run(P, p, philox_stream(7, 1));
      SCOPED_TRACE(std::string(io::enum_to_string(a)) + " m = " + std::to_string(m));
      EXPECT_EQ(r.privacy.noise, noise_mode::secure);
      EXPECT_EQ(r.status, status::completed);
      ASSERT_FALSE(r.privacy.ledger.events().empty());
      long double total = 0;  // pure composition of the per-step (3.3) losses
      for (const auto& e : r.privacy.ledger.events()) {
        EXPECT_EQ(e.kind(), "snapped_laplace");
        const auto& sl = std::get<accounting::snapped_laplace_mechanism<double>>(e.what);
        // Δ1 = S1/m rounded up, S1 = 2B = 40
        EXPECT_GE(sl.sensitivity, 40.0 / static_cast<double>(m));
        EXPECT_LE(sl.sensitivity, std::nextafter(40.0 / static_cast<double>(m), 1e9));
        EXPECT_EQ(sl.dimension, 4);
        EXPECT_EQ(e.sampling.has_value(), m < 200);
        // the inflation d 2^k costs at most 2^-20 of Δ1 here (the clamp 2^10 S1 is fine)
        EXPECT_LE(4 * std::ldexp(1.0, sl.grid_exponent), sl.sensitivity * 0x1p-20);
        total += static_cast<long double>(e.count) *
                 step_eps(sl.sensitivity, sl.grid_exponent, sl.grid_scale, 4, 200, m);
      }
      EXPECT_LE(total, 1.0L + 1e-15L);
      EXPECT_LE(r.privacy.guarantee.epsilon, 1.0);
      EXPECT_GE(r.privacy.guarantee.epsilon, 0.999);  // calibrated: the budget is used
      EXPECT_TRUE(r.privacy.budget_met);
      EXPECT_EQ(r.eps_spent, r.privacy.guarantee.epsilon);
      dpref::test::expect_ledger_roundtrip(r);
      // the reported scales are t 2^k of the events
      for (const double b : r.noise_scales) EXPECT_GT(b, 0.0);
    }
  }
}

TEST(SEC_ACCEL, CalibratedGridScaleIsMinimal) {
  // uniform split (DP-GD, full batch): b = S1/(n ε/T); the secure t is the smallest integer with
  // (Δ1 + d 2^k)/(2^k t) <= Δ1/b, checked here in long double at t and t − 1.
  const auto P = secure_small_problem();
  auto p = secure_params(accel::algorithm_kind::gd, 10);
  const auto r = accel::run(P, p, philox_stream(3));
  const auto& e = r.privacy.ledger.events().at(0);
  EXPECT_EQ(e.count, 10);
  const auto& sl = std::get<accounting::snapped_laplace_mechanism<double>>(e.what);
  const long double sens = sl.sensitivity, g = std::ldexp(1.0L, sl.grid_exponent);
  const long double b_ideal = 40.0L / (200.0L * 0.1L);  // S1/(n ε0), ε0 = ε/T
  const long double target = sens / b_ideal;
  const auto eps_at = [&](long long t) {
    return (sens + 4 * g) / (g * static_cast<long double>(t));
  };
  EXPECT_LE(eps_at(sl.grid_scale), target * (1 + 1e-12L));
  EXPECT_GT(eps_at(sl.grid_scale - 1), target * (1 - 1e-12L));
  EXPECT_EQ(r.noise_scales.front(),
            std::ldexp(static_cast<double>(sl.grid_scale), sl.grid_exponent));
}

TEST(SEC_ACCEL, ReleasedNoisyGradientsLieOnTheLattice) {
  // DP-GD with x0 = 0 and α = 1: x_{t+1} = x_t − g̃_t exactly (sums of lattice points of
  // moderate size are exact), so every iterate is on 2^k Z; x_1 = −g̃_0 is the release itself.
  const auto P = secure_small_problem();
  for (const long long T : {1LL, 5LL}) {
    auto p = secure_params(accel::algorithm_kind::gd, T);
    p.x0 = vector<double>::Zero(4);
    p.alpha = 1.0;
    const auto r = accel::run(P, p, philox_stream(11));
    const int k = std::get<accounting::snapped_laplace_mechanism<double>>(
                      r.privacy.ledger.events().at(0).what)
                      .grid_exponent;
    for (Eigen::Index i = 0; i < r.x.size(); ++i) {
      const double u = std::ldexp(r.x[i], -k);
      EXPECT_EQ(u, std::nearbyint(u)) << "coordinate " << i << " = " << r.x[i];
    }
  }
  // the idealised release is not on the lattice (negative control of the check)
  auto p = secure_params(accel::algorithm_kind::gd, 1);
  p.release = noise_mode::idealised;
  p.x0 = vector<double>::Zero(4);
  p.alpha = 1.0;
  const auto r = accel::run(P, p, philox_stream(11));
  int off = 0;
  for (Eigen::Index i = 0; i < r.x.size(); ++i) {
    const double u = std::ldexp(r.x[i], 40);  // a 2^-40 grid is far coarser than the doubles here
    off += u != std::nearbyint(u);
  }
  EXPECT_GT(off, 0);
}

TEST(SEC_ACCEL, SameSeedSameBytesAndSubstreams) {
  const auto P = secure_small_problem();
  auto p = secure_params(accel::algorithm_kind::nag_opt, 6);
  p.m = 40;
  const auto a = accel::run(P, p, philox_stream(5, 2));
  const auto b = accel::run(P, p, philox_stream(5, 2));
  const auto c = accel::run(P, p, philox_stream(5, 3));
  ASSERT_EQ(a.x.size(), b.x.size());
  for (Eigen::Index i = 0; i < a.x.size(); ++i) EXPECT_EQ(a.x[i], b.x[i]);
  EXPECT_NE(a.x[0], c.x[0]);
}

TEST(SEC_ACCEL, OverBudgetSecurePlanIsRefusedBeforeRelease) {
  // A clamp of 2^60 forces the grid 2^8 (C/2^k <= 2^52): a fixed scale b = 1 then has t = 1
  // and ε = (Δ1 + d 2^8)/2^8 >= d = 4 per step > 1. The idealised run with the same b meets
  // ε = Δ1/b = 0.2 (one step, Δ1 = 40/200).
  const auto P = secure_small_problem();
  auto p = secure_params(accel::algorithm_kind::gd, 1);
  p.noise = accel::noise_mode::fixed;
  p.noise_scale = 1.0;
  p.clamp = 0x1p60;
  EXPECT_THROW(accel::run(P, p, philox_stream(1)), accounting::budget_exceeded);
  p.allow_over_budget = true;  // reported, not silently met
  const auto over = accel::run(P, p, philox_stream(1));
  EXPECT_FALSE(over.privacy.budget_met);
  EXPECT_GE(over.privacy.guarantee.epsilon, 4.0);
  p.allow_over_budget = false;
  p.release = noise_mode::idealised;
  p.clamp.reset();
  const auto ideal = accel::run(P, p, philox_stream(1));
  EXPECT_TRUE(ideal.privacy.budget_met);
  EXPECT_LE(ideal.privacy.guarantee.epsilon, 0.21);
  // calibrated on the same coarse grid: t grows until the inflated ε meets the request
  auto q = secure_params(accel::algorithm_kind::gd, 1);
  q.clamp = 0x1p60;
  const auto cal = accel::run(P, q, philox_stream(1));
  const auto& sl = std::get<accounting::snapped_laplace_mechanism<double>>(
      cal.privacy.ledger.events().at(0).what);
  EXPECT_EQ(sl.grid_exponent, 8);
  EXPECT_LE((0.2L + 4 * 256.0L) / (256.0L * static_cast<long double>(sl.grid_scale)), 1.0L);
  EXPECT_LE(cal.privacy.guarantee.epsilon, 1.0);
}

TEST(SEC_ACCEL, ReleaseSecureRefusedOffDoubleAndWithoutNoise) {
  test::expect_secure_refused_off_double<accel::params<long double>, accel::params<mp50>>("accel");
  accel::params<double> pn;
  pn.release = noise_mode::secure;
  pn.noise = accel::noise_mode::none;
  EXPECT_EQ(message_of([&] { pn.validate(); }),
            "accel::params.release must be idealised when noise = none (a non-private run "
            "releases no noise), got secure");
  accel::params<double> pc;
  pc.clamp = 3.0;
  EXPECT_EQ(message_of([&] { pc.validate(); }),
            "accel::params.clamp must be absent unless release = secure, got 3");
  pc.release = noise_mode::secure;
  pc.clamp = -1.0;
  EXPECT_EQ(message_of([&] { pc.validate(); }),
            "accel::params.clamp must be finite and > 0, got -1");
}

TEST(SEC_ACCEL, JsonSaysSecureAndIdealisedIsUnchanged) {
  const auto run = [](const std::string& params) {
    return accel::run_json<double>(io::document::parse(
        R"({"problem": {"n": 100, "d": 3}, "params": {"iterations": 4)" + params + "}}", "doc"));
  };
  const io::json s = run(R"(, "release": "secure")");
  EXPECT_EQ(s["privacy"]["noise"], "secure");
  const io::json i1 = run("");
  const io::json i2 = run(R"(, "release": "idealised")");
  EXPECT_EQ(i1["privacy"]["noise"], "idealised");
  EXPECT_EQ(i1["iterates"]["x"], i2["iterates"]["x"]);
  EXPECT_NE(i1["iterates"]["x"], s["iterates"]["x"]);
  EXPECT_NE(message_of([] {
              accel::run_json<long double>(
                  io::document::parse(R"({"params": {"release": "secure"}})", "doc"));
            }).find("release must be idealised at precision long double"),
            std::string::npos);
}

}  // namespace
}  // namespace dpref

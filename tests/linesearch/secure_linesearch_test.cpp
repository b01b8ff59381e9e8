// Secure mode of the linesearch algorithms (issue 20 part 2, spec/linesearch.md SEC.LINESEARCH):
// DP-SGD (lattice Gaussian of the clipped sum, Poisson sample accounted by Zhu–Wang), output
// perturbation (lattice ℓ2-Laplace of the minimiser), DP-BLSGD / -AC / DP-BLGD (lattice Gaussian
// gradients and the lattice AboveThreshold of NOISYBTLS, SEC.SVT) and DP-AGD (lattice gradients
// and report-noisy-min, SEC.NOISY_MIN); objpert refuses release = secure. Expected values are
// derived here (SEC.ACC.VLAPLACE formula in long double), not read back from the code.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/linesearch/json.hpp"
#include "dpref/linesearch/run.hpp"
#include "support/ledger_roundtrip.hpp"
#include "support/messages.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;

linesearch::problem<double> small_problem(long long n = 400, long long d = 3) {
  linesearch::problem_spec<double> s;
  s.synthetic_n = n;
  s.synthetic_d = d;
  s.mu = 0.01;
  return linesearch::make_problem(s);
}

linesearch::params<double> secure_params(linesearch::algorithm a) {
  linesearch::params<double> p;
  p.algorithm = a;
  p.epsilon = 1;
  p.delta = 1e-6;
  p.max_order = 64;
  p.iterations = 20;
  p.release = noise_mode::secure;
  return p;
}

// ----------------------------------------------------------------------- SEC.LINESEARCH --

TEST(SEC_LINESEARCH, DpSgdLedgerIsSnappedAndWithinBudget) {
  const auto P = small_problem();
  const auto p = secure_params(linesearch::algorithm::dpsgd);
  const auto r = linesearch::run(P, p, philox_stream(3));
  ASSERT_NO_FATAL_FAILURE(test::expect_secure_snapped_ledger(r, 1.0, 1e-6, 1));
  const auto& e = r.privacy.ledger.events()[0];
  EXPECT_EQ(e.count, 20);
  ASSERT_TRUE(e.sampling.has_value());
  EXPECT_EQ(e.sampling->scheme, accounting::sampling_scheme::poisson);
  EXPECT_EQ(e.sampling->rate, 0.1);
  const auto& sg = std::get<accounting::snapped_gaussian_mechanism<double>>(e.what);
  EXPECT_EQ(sg.sensitivity, 3.0);  // C_grad
  EXPECT_EQ(sg.dimension, 3);
  dpref::test::expect_ledger_roundtrip(r);
  // the idealised run (MTZ bound) needs less noise; the secure one pays Zhu–Wang + inflation
  auto pi = p;
  pi.release = noise_mode::idealised;
  const auto ri = linesearch::run(P, pi, philox_stream(3));
  EXPECT_EQ(ri.privacy.noise, noise_mode::idealised);
  EXPECT_GE(*r.noise_multiplier, *ri.noise_multiplier);
}

TEST(SEC_LINESEARCH, DpSgdReleaseLiesOnTheLattice) {
  // q = 1, n̄ = n = 400, η = 400: w_1 = 0 − 1·g̃ = −g̃, the lattice release itself.
  const auto P = small_problem();
  auto p = secure_params(linesearch::algorithm::dpsgd);
  p.q = 1;
  p.iterations = 1;
  p.sgd_eta = 400;
  const auto r = linesearch::run(P, p, philox_stream(8));
  const int k =
      std::get<accounting::snapped_gaussian_mechanism<double>>(r.privacy.ledger.events()[0].what)
          .grid_exponent;
  for (Eigen::Index j = 0; j < r.w.size(); ++j) {
    const double u = std::ldexp(r.w[j], -k);
    EXPECT_EQ(u, std::nearbyint(u)) << "w[" << j << "] = " << r.w[j];
  }
}

TEST(SEC_LINESEARCH, OutpertLedgerAndLattice) {
  const auto P = small_problem();
  const auto p = secure_params(linesearch::algorithm::outpert);
  const auto r = linesearch::run(P, p, philox_stream(5));
  EXPECT_EQ(r.privacy.noise, noise_mode::secure);
  ASSERT_EQ(r.privacy.ledger.events().size(), 1u);
  const auto& e = r.privacy.ledger.events()[0];
  EXPECT_EQ(e.kind(), "snapped_vector_laplace");
  const auto& sv = std::get<accounting::snapped_vector_laplace_mechanism<double>>(e.what);
  // Δ2 = 2R(1 + 2^-20)/(nμ), R = √3 (features in [0, 1]^3), n = 400, μ = 0.01: the exact
  // minimiser's 2R/(nμ) plus 2γ/μ for the certified one (PRIV.LINESEARCH.MINIMISER)
  const long double sens = 2 * std::sqrt(3.0L) * (1 + 0x1p-20L) / (400 * 0.01L);
  EXPECT_NEAR(sv.sensitivity, static_cast<double>(sens), 1e-15);
  EXPECT_GE(sv.sensitivity, static_cast<double>(sens) * (1 - 1e-15));
  const long double g = std::ldexp(1.0L, sv.grid_exponent), D = sv.sensitivity;
  EXPECT_LE((D + std::sqrt(3.0L) * g) / (g * static_cast<long double>(sv.grid_scale)), 1.0L);
  EXPECT_GT((D + std::sqrt(3.0L) * g) / (g * static_cast<long double>(sv.grid_scale - 1)), 1.0L);
  EXPECT_LE(r.privacy.guarantee.epsilon, 1.0);
  dpref::test::expect_ledger_roundtrip(r);
  for (Eigen::Index j = 0; j < r.w.size(); ++j) {
    const double u = std::ldexp(r.w[j], -sv.grid_exponent);
    EXPECT_EQ(u, std::nearbyint(u)) << "w[" << j << "] = " << r.w[j];
  }
}

TEST(SEC_LINESEARCH, OverBudgetSecurePlanIsRefusedBeforeRelease) {
  // The idealised minimal noise multiplier (exact MTZ bound) does not certify the secure plan
  // (generic Zhu–Wang bound + the inflated sensitivity): refused before any draw.
  const auto P = small_problem();
  auto pi = secure_params(linesearch::algorithm::dpsgd);
  pi.release = noise_mode::idealised;
  const auto ri = linesearch::run(P, pi, philox_stream(1));
  auto p = secure_params(linesearch::algorithm::dpsgd);
  p.noise_multiplier = *ri.noise_multiplier;
  EXPECT_THROW(linesearch::run(P, p, philox_stream(1)), accounting::budget_exceeded);
  p.allow_over_budget = true;
  const auto over = linesearch::run(P, p, philox_stream(1));
  EXPECT_FALSE(over.privacy.budget_met);
  EXPECT_GT(over.privacy.guarantee.epsilon, 1.0);
}

TEST(SEC_LINESEARCH, RefusedOffDoubleAndForOtherAlgorithms) {
  linesearch::params<long double> pl;
  pl.algorithm = linesearch::algorithm::dpsgd;
  pl.release = noise_mode::secure;
  EXPECT_EQ(message_of([&] { pl.validate(); }),
            "linesearch::params.release must be idealised at precision long double (the lattice "
            "release is defined on doubles: run secure mode at precision double), got secure");
  linesearch::params<mp50> pm;
  pm.algorithm = linesearch::algorithm::outpert;
  pm.release = noise_mode::secure;
  EXPECT_NE(message_of([&] { pm.validate(); }).find("release must be idealised at precision mp50"),
            std::string::npos);
  for (const auto a : {linesearch::algorithm::objpert, linesearch::algorithm::nonprivate,
                       linesearch::algorithm::majority}) {
    linesearch::params<double> p;
    p.algorithm = a;
    p.release = noise_mode::secure;
    EXPECT_EQ(message_of([&] { p.validate(); }),
              "linesearch::params.release must be idealised for objpert (its privacy proof needs "
              "a continuous noise density), nonprivate and majority (no noise), got secure");
  }
  // DP-BLSGD on the lattice: discrete Laplace SVT only, proven joint accounting only
  linesearch::params<double> pg = secure_params(linesearch::algorithm::blsgd);
  pg.noise = linesearch::btls_noise::gaussian;
  EXPECT_EQ(message_of([&] { pg.validate(); }),
            "linesearch::params.noise must be laplace when release = secure (NOISYBTLS on the "
            "lattice is a discrete Laplace sparse vector; the lattice Gaussian SVT is not "
            "implemented), got gaussian");
  linesearch::params<double> pp = secure_params(linesearch::algorithm::blsgd_ac);
  pp.allow_over_budget = true;
  pp.svt_bound = accounting::svt_bound::paper_eq4_5;
  EXPECT_EQ(message_of([&] { pp.validate(); }),
            "linesearch::params.release must be idealised with the paper's accounting modes "
            "(svt_bound unproven_eq4_5 or batch_accounting per_call): the secure ledger is the "
            "proven joint one, got secure");
  linesearch::params<double> pc;
  pc.clamp = 2.0;
  EXPECT_EQ(message_of([&] { pc.validate(); }),
            "linesearch::params.clamp must be absent unless release = secure, got 2");
}

TEST(SEC_LINESEARCH, BlsgdFamilyAndDpAgdRunOnTheLattice) {
  // DP-BLSGD, -AC, DP-BLGD and DP-AGD in secure mode: every gradient event is a snapped Gaussian,
  // every NOISYBTLS part a lattice sparse vector and every NoisyMin a pure event (sensitivity Δ_int
  // 2^k <= C_obj, scales on the grid), the guarantee is within the request, the run makes progress,
  // same seed same bytes.
  const auto P = small_problem(2000, 3);
  const double F0 = P.value(vector<double>::Zero(3));
  for (const auto a : {linesearch::algorithm::blsgd, linesearch::algorithm::blsgd_ac,
                       linesearch::algorithm::blgd, linesearch::algorithm::dpagd}) {
    auto p = secure_params(a);
    p.epsilon = 20;  // enough budget for several updates at n = 2000
    p.max_iterations = 40;
    const auto r = linesearch::run(P, p, philox_stream(5));
    const std::string name(io::enum_to_string(a));
    EXPECT_EQ(r.privacy.noise, noise_mode::secure) << name;
    EXPECT_TRUE(r.privacy.budget_met) << name;
    EXPECT_LE(r.privacy.guarantee.epsilon, 20.0) << name;
    EXPECT_LE(r.privacy.guarantee.delta, 1e-6) << name;
    long long searches = 0;
    for (const auto& e : r.privacy.ledger.events()) {
      if (a != linesearch::algorithm::dpagd) {
        EXPECT_EQ(e.kind(), "snapped_gaussian") << name;
      }
      if (a == linesearch::algorithm::dpagd) {  // unsampled gradients and pure NoisyMin events
        EXPECT_TRUE(e.kind() == "snapped_gaussian" || e.kind() == "pure") << e.kind();
        if (e.kind() == "pure") {
          EXPECT_LE(std::get<accounting::pure_mechanism<double>>(e.what).epsilon, 20.0);
          ++searches;
        }
        continue;
      }
      for (const auto& part : e.joint) {
        if (part.kind() == "snapped_gaussian") continue;  // DP-BLGD's GradAvg gradient
        ASSERT_EQ(part.kind(), "sparse_vector") << name;
        const auto& sv = std::get<accounting::sparse_vector_mechanism<double>>(part.what);
        EXPECT_LE(sv.sensitivity, p.C_obj) << name;
        EXPECT_GE(sv.sensitivity,
                  p.C_obj * (1 - 1e-5) * (a == linesearch::algorithm::blsgd_ac ? 0.0 : 1.0))
            << name;
        EXPECT_EQ(sv.noise, accounting::svt_noise::laplace);
        EXPECT_EQ(sv.bound, accounting::svt_bound::proven);
        ++searches;
      }
    }
    EXPECT_GT(searches, 0) << name;
    EXPECT_GT(r.calls.updates, 0) << name;
    EXPECT_LT(P.value(r.w), F0) << name;
    dpref::test::expect_ledger_roundtrip(r);
    const auto again = linesearch::run(P, p, philox_stream(5));
    for (Eigen::Index j = 0; j < r.w.size(); ++j) EXPECT_EQ(r.w[j], again.w[j]) << name;
    const auto other = linesearch::run(P, p, philox_stream(6));  // negative control
    EXPECT_NE((r.w - other.w).norm(), 0.0) << name;
  }
}

TEST(SEC_LINESEARCH, SameSeedSameBytesAndJson) {
  const auto P = small_problem();
  const auto p = secure_params(linesearch::algorithm::dpsgd);
  const auto a = linesearch::run(P, p, philox_stream(4));
  const auto b = linesearch::run(P, p, philox_stream(4));
  for (Eigen::Index j = 0; j < a.w.size(); ++j) EXPECT_EQ(a.w[j], b.w[j]);
  const io::json s = linesearch::run_json<double>(io::document::parse(
      R"({"problem": {"synthetic_n": 300, "synthetic_d": 2},
          "params": {"algorithm": "outpert", "epsilon": 1, "release": "secure"}})",
      "doc"));
  EXPECT_EQ(s["privacy"]["noise"], "secure");
}

}  // namespace
}  // namespace dpref

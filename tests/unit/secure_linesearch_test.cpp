// Secure mode of the linesearch algorithms (issue 20 part 2, spec/linesearch.md SEC.LINESEARCH):
// DP-SGD (lattice Gaussian of the clipped sum, Poisson sample accounted by Zhu–Wang) and output
// perturbation (lattice ℓ2-Laplace of the minimiser); the other algorithms refuse release =
// secure. Expected values are derived here (SEC.ACC.VLAPLACE formula in long double), not read
// back from the code.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/linesearch/json.hpp"
#include "dpref/linesearch/run.hpp"
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

template <class R>
void expect_ledger_roundtrip(const R& r) {
  const auto back = accounting::read_ledger<double>(
      io::node(io::document::from_value(accounting::ledger_value(r.privacy.ledger), "ledger")));
  EXPECT_EQ(back.total().epsilon, r.privacy.guarantee.epsilon);
  EXPECT_EQ(back.total().delta, r.privacy.guarantee.delta);
}

// ----------------------------------------------------------------------- SEC.LINESEARCH --

TEST(SEC_LINESEARCH, DpSgdLedgerIsSnappedAndWithinBudget) {
  const auto P = small_problem();
  const auto p = secure_params(linesearch::algorithm::dpsgd);
  const auto r = linesearch::run(P, p, philox_stream(3));
  EXPECT_EQ(r.privacy.noise, noise_mode::secure);
  EXPECT_TRUE(r.privacy.budget_met);
  EXPECT_LE(r.privacy.guarantee.epsilon, 1.0);
  EXPECT_LE(r.privacy.guarantee.delta, 1e-6);
  ASSERT_EQ(r.privacy.ledger.events().size(), 1u);
  const auto& e = r.privacy.ledger.events()[0];
  EXPECT_EQ(e.kind(), "snapped_gaussian");
  EXPECT_EQ(e.count, 20);
  ASSERT_TRUE(e.sampling.has_value());
  EXPECT_EQ(e.sampling->scheme, accounting::sampling_scheme::poisson);
  EXPECT_EQ(e.sampling->rate, 0.1);
  const auto& sg = std::get<accounting::snapped_gaussian_mechanism<double>>(e.what);
  EXPECT_EQ(sg.sensitivity, 3.0);  // C_grad
  EXPECT_EQ(sg.dimension, 3);
  expect_ledger_roundtrip(r);
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
  // Δ2 = 2R/(nμ), R = √3 (features in [0, 1]^3), n = 400, μ = 0.01
  const long double sens = 2 * std::sqrt(3.0L) / (400 * 0.01L);
  EXPECT_NEAR(sv.sensitivity, static_cast<double>(sens), 1e-15);
  EXPECT_GE(sv.sensitivity, static_cast<double>(sens) * (1 - 1e-15));
  const long double g = std::ldexp(1.0L, sv.grid_exponent), D = sv.sensitivity;
  EXPECT_LE((D + std::sqrt(3.0L) * g) / (g * static_cast<long double>(sv.grid_scale)), 1.0L);
  EXPECT_GT((D + std::sqrt(3.0L) * g) / (g * static_cast<long double>(sv.grid_scale - 1)), 1.0L);
  EXPECT_LE(r.privacy.guarantee.epsilon, 1.0);
  expect_ledger_roundtrip(r);
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
            "linesearch::params.release must be idealised unless the precision is double (the "
            "lattice release is defined on doubles, spec/secure_release.md), got secure");
  linesearch::params<mp50> pm;
  pm.algorithm = linesearch::algorithm::outpert;
  pm.release = noise_mode::secure;
  EXPECT_NE(message_of([&] { pm.validate(); }).find("release must be idealised unless the"),
            std::string::npos);
  for (const auto a : {linesearch::algorithm::blsgd, linesearch::algorithm::dpagd,
                       linesearch::algorithm::objpert, linesearch::algorithm::nonprivate}) {
    linesearch::params<double> p;
    p.algorithm = a;
    p.release = noise_mode::secure;
    EXPECT_EQ(message_of([&] { p.validate(); }),
              "linesearch::params.release must be idealised unless algorithm is dpsgd or outpert "
              "(secure mode of the other algorithms is not implemented; nonprivate and majority "
              "release no noise), got secure");
  }
  linesearch::params<double> pc;
  pc.clamp = 2.0;
  EXPECT_EQ(message_of([&] { pc.validate(); }),
            "linesearch::params.clamp must be absent unless release = secure, got 2");
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

// The accel module in the shape of spec/architecture.md: parameters and their one message shape
// (ACCEL.PARAMS), the ledger in the shared event vocabulary whose accountant ε is accel (3.3)
// (ACCEL.LEDGER), the one run entry point with its shared status and planned budget (ACCEL.RUN,
// ACCEL.RESULT) and the JSON entry point (ACCEL.JSON). Expected values are derived independently
// (the (3.3) formula at 50 digits, Proposition 3.1 by hand), not read back from the code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/accel/accel.hpp"
#include "dpref/accel/json.hpp"
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/problems/quadratic.hpp"
#include "support/accel_problems.hpp"
#include "support/ledger_roundtrip.hpp"
#include "support/messages.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;

accel::problem<double> small_problem(long long n = 200, long long d = 4, double B = 20) {
  return test::small_accel_problem(n, d, B);
}

// ---------------------------------------------------------------------------- ACCEL.PARAMS --

TEST(ACCEL_PARAMS, MessagesNameFieldAndValue) {
  const auto msg = [](auto edit) {
    accel::params<double> p;
    edit(p);
    return message_of([&] { p.validate(); });
  };
  EXPECT_EQ(msg([](auto&) {}), "(no exception)");
  EXPECT_EQ(msg([](auto& p) { p.epsilon = 0; }),
            "accel::params.epsilon must be finite and > 0, got 0");
  EXPECT_EQ(msg([](auto& p) { p.iterations = 0; }),
            "accel::params.iterations must be >= 1 and <= 100000000, got 0");
  EXPECT_EQ(msg([](auto& p) { p.m = 0; }), "accel::params.m must be >= 1, got 0");
  EXPECT_EQ(msg([](auto& p) { p.alpha = -1.0; }),
            "accel::params.alpha must be finite and > 0, got -1");
  EXPECT_EQ(msg([](auto& p) { p.L = 0.0; }), "accel::params.L must be finite and > 0, got 0");
  EXPECT_EQ(msg([](auto& p) { p.beta = 1.0; }), "accel::params.beta must be in [0, 1), got 1");
  EXPECT_EQ(msg([](auto& p) { p.noise = accel::noise_mode::fixed; }),
            "accel::params.noise_scale must be given when noise = fixed, got none");
  EXPECT_EQ(msg([](auto& p) { p.noise_scale = 0.5; }),
            "accel::params.noise_scale must be absent unless noise = fixed, got 0.5");
  EXPECT_EQ(msg([](auto& p) { p.E0 = -1.0; }), "accel::params.E0 must be finite and >= 0, got -1");
  EXPECT_EQ(msg([](auto& p) { p.masg_p = 61; }),
            "accel::params.masg_p must be >= 1 and <= 60, got 61");
  // PRIV.RELEASE: non-private outputs of a private run need the explicit request
  EXPECT_EQ(msg([](auto& p) { p.trace = true; }),
            "accel::params.trace must be false in a private run unless diagnostics = true (F(x_t) "
            "is not private), got true");
  EXPECT_EQ(msg([](auto& p) { p.fstar = true; }),
            "accel::params.fstar must be false in a private run unless diagnostics = true (F* is "
            "not private), got true");
  EXPECT_EQ(msg([](auto& p) { p.trace = p.fstar = p.diagnostics = true; }), "(no exception)");
  EXPECT_EQ(msg([](auto& p) {
              p.trace = p.fstar = true;
              p.noise = accel::noise_mode::none;
            }),
            "(no exception)");
  // against the problem
  const auto P = small_problem();
  accel::params<double> p;
  p.m = 201;
  EXPECT_EQ(message_of([&] { accel::run(P, p, philox_stream(1)); }),
            "accel::params.m must be in [1, n] with n = 200, got 201");
  p = {};
  p.x0 = vector<double>::Zero(3);
  EXPECT_EQ(message_of([&] { accel::run(P, p, philox_stream(1)); }),
            "accel::params.x0 must be of size d = 4, got 3");
}

TEST(ACCEL_PARAMS, FieldListIsTheSharedVocabulary) {
  std::vector<std::string> names;
  accel::params<double> p;
  p.fields([&](std::string_view n, auto&, std::string_view = {}) { names.emplace_back(n); });
  const std::vector<std::string> expect{
      "algorithm", "epsilon",     "iterations",  "m",
      "alpha",     "c",           "L",           "beta",
      "x0",        "noise",       "noise_scale", "trace",
      "E0",        "masg_p",      "masg_n1",     "allow_over_budget",
      "fstar",     "diagnostics", "release",     "clamp"};
  EXPECT_EQ(names, expect);
  EXPECT_EQ(io::enum_to_string(accel::algorithm_kind::nag_opt), "nag_opt");
  EXPECT_EQ(io::enum_to_string(accel::algorithm_kind::masg_opt), "masg_opt");
}

// ---------------------------------------------------------------------------- ACCEL.LEDGER --

// Each step is laplace{S₁/m, b_t} sampled m of n without replacement; the accountant's ε of one
// step is (3.3) ln(1 + (m/n)(e^{S₁/(m b)} − 1)), here evaluated independently at 50 digits.
TEST(ACCEL_LEDGER, StepEventIsEquation33) {
  const auto P = small_problem();
  for (const long long m : {200LL, 50LL, 7LL}) {
    accel::params<double> p;
    p.algorithm = accel::algorithm_kind::gd;
    p.iterations = 10;
    p.epsilon = 0.7;
    if (m < 200) p.m = m;
    const auto r = accel::run(P, p, philox_stream(3));
    ASSERT_EQ(r.privacy.ledger.events().size(), 1u);
    const auto& ev = r.privacy.ledger.events().front();
    EXPECT_EQ(ev.kind(), "laplace");
    EXPECT_EQ(ev.count, 10);
    EXPECT_EQ(ev.sampling.has_value(), m < 200);
    if (m < 200) {
      EXPECT_EQ(ev.sampling->scheme, accounting::sampling_scheme::without_replacement);
      EXPECT_EQ(ev.sampling->sample_size, m);
      EXPECT_EQ(ev.sampling->population, 200);
      EXPECT_EQ(ev.sampling->relation, accounting::neighbouring::replace_one);
    }
    const double b = r.noise_scales.front();
    const mp50 S1 = mp50(P.l1_sensitivity()), mb = mp50(m) * mp50(b);
    const mp50 e33 = log1p(expm1(S1 / mb) * mp50(m) / mp50(200));
    accounting::ledger<double> one;
    auto single = ev;
    single.count = 1;
    one.record(single);
    const double got = one.total().epsilon;
    EXPECT_GE(mp50(got), e33);  // never below (3.3): rounding is upward
    EXPECT_LE(static_cast<double>((mp50(got) - e33) / e33), 1e-14) << m;
    // also the calibration's own (3.3) value, iteration_epsilon
    EXPECT_NEAR(got, accel::iteration_epsilon(P.l1_sensitivity(), b, 200, m), 1e-15);
    // the whole plan: at most ε (a bound), within 1e-13 of it (Prop 3.1 spends it all)
    EXPECT_LE(r.privacy.guarantee.epsilon, 0.7);
    EXPECT_GT(r.privacy.guarantee.epsilon, 0.7 * (1 - 1e-13));
    EXPECT_EQ(r.privacy.guarantee.delta, 0.0);
    EXPECT_TRUE(r.privacy.budget_met);
    dpref::test::expect_ledger_roundtrip(r);
  }
}

TEST(ACCEL_LEDGER, OptimisedSplitOneEventPerStep) {
  const auto P = small_problem();
  for (const auto alg : {accel::algorithm_kind::nag_opt, accel::algorithm_kind::masg_opt}) {
    for (const long long m : {200LL, 40LL}) {
      accel::params<double> p;
      p.algorithm = alg;
      p.iterations = 30;
      if (m < 200) p.m = m;
      const auto r = accel::run(P, p, philox_stream(5));
      EXPECT_EQ(r.privacy.ledger.events().size(), static_cast<std::size_t>(r.iterations));
      EXPECT_LE(r.privacy.guarantee.epsilon, 1.0);
      EXPECT_GT(r.privacy.guarantee.epsilon, 1.0 - 1e-12);
      dpref::test::expect_ledger_roundtrip(r);
    }
  }
}

// ------------------------------------------------------------------------------- ACCEL.RUN --

TEST(ACCEL_RUN, DispatchesToTheSixAlgorithms) {
  const auto P = small_problem();
  accel::params<double> p;
  p.iterations = 20;
  p.m = 50;
  const philox_stream s(11);
  const auto same = [&](accel::algorithm_kind a, const accel::result<double>& direct) {
    p.algorithm = a;
    const auto r = accel::run(P, p, s);
    EXPECT_EQ(r.algorithm, a);
    EXPECT_EQ(r.x, direct.x);
    EXPECT_EQ(r.noise_scales, direct.noise_scales);
    EXPECT_EQ(r.status, status::completed);
    EXPECT_EQ(r.iterations, direct.iterations);
    EXPECT_FALSE(r.diagnostics.objective.has_value());  // PRIV.RELEASE: not asked for
  };
  same(accel::algorithm_kind::gd, accel::dp_gd::run(P, p, s));
  same(accel::algorithm_kind::shb, accel::dp_shb::run(P, p, s));
  same(accel::algorithm_kind::nag, accel::dp_nag::run(P, p, s));
  same(accel::algorithm_kind::nag_opt, accel::dp_nag_opt::run(P, p, s));
  same(accel::algorithm_kind::masg, accel::dp_masg::run(P, p, s));
  same(accel::algorithm_kind::masg_opt, accel::dp_masg_opt::run(P, p, s));
}

// ARCH.BUDGET: a fixed noise scale whose guarantee exceeds ε is refused before anything is
// released; allow_over_budget runs it and reports budget_met = false.
TEST(ACCEL_RUN, BudgetIsABound) {
  const auto P = small_problem();
  accel::params<double> p;
  p.algorithm = accel::algorithm_kind::gd;
  p.iterations = 10;
  p.noise = accel::noise_mode::fixed;
  p.noise_scale = 0.01;  // ε = 10·S₁/(n b) = 10·40/(200·0.01) = 200 > 1
  EXPECT_THROW(accel::run(P, p, philox_stream(1)), accounting::budget_exceeded);
  p.allow_over_budget = true;
  const auto r = accel::run(P, p, philox_stream(1));
  EXPECT_FALSE(r.privacy.budget_met);
  EXPECT_NEAR(r.privacy.guarantee.epsilon, 200.0, 1e-10);
  // Prop 3.1 at m = n by hand: b = S₁T/(nε) = 40·10/(200·1) = 2
  accel::params<double> q;
  q.algorithm = accel::algorithm_kind::gd;
  q.iterations = 10;
  const auto c = accel::run(P, q, philox_stream(1));
  EXPECT_NEAR(c.noise_scales.front(), 2.0, 1e-14);
  // non-private baseline: no guarantee claimed
  q.noise = accel::noise_mode::none;
  const auto np = accel::run(P, q, philox_stream(1));
  EXPECT_FALSE(np.privacy.is_private);
  EXPECT_TRUE(np.noise_scales.empty());
}

// ARCH.PUBLIC: the run uses the public L = B²/4 + 2λ, never the data's certified L (which the
// problem offers for diagnostics only, and which differs here).
TEST(ACCEL_RUN, PublicSmoothnessNotTheData) {
  const auto P = small_problem();
  accel::params<double> p;
  p.algorithm = accel::algorithm_kind::nag;
  p.iterations = 5;
  p.fstar = true;
  p.diagnostics = true;
  const auto r = accel::run(P, p, philox_stream(1));
  // B²/4 + 2λ rounded up (two nextafter steps above the exact 100.02)
  EXPECT_EQ(r.smoothness, P.public_smoothness());
  EXPECT_GE(r.smoothness, 100.02);
  EXPECT_LE(r.smoothness, 100.02 * (1 + 1e-15));
  ASSERT_TRUE(r.diagnostics.smoothness_certified.has_value());
  EXPECT_NE(*r.diagnostics.smoothness_certified, r.smoothness);
  EXPECT_EQ(r.alpha, 1.0 / r.smoothness);
  ASSERT_TRUE(r.diagnostics.fstar.has_value());
  EXPECT_LE(r.diagnostics.fstar->value, *r.diagnostics.objective);
}

// A non-finite iterate stops the run with the shared status `diverged`.
TEST(ACCEL_RESULT, DivergedIsTheSharedStatus) {
  const auto P = small_problem();
  accel::params<double> p;
  p.algorithm = accel::algorithm_kind::gd;
  p.iterations = 2000;
  p.alpha = 1e300;
  p.noise = accel::noise_mode::none;
  const auto r = accel::run(P, p, philox_stream(1));
  EXPECT_EQ(r.status, status::diverged);
  EXPECT_NE(r.message.find("non-finite"), std::string::npos);
  for (Eigen::Index i = 0; i < r.x.size(); ++i) EXPECT_TRUE(std::isfinite(r.x[i]));
}

// ------------------------------------------------------------------------------ ACCEL.JSON --

io::document parse(const std::string& text) { return io::document::parse(text, "test.json"); }

TEST(ACCEL_JSON, RunJsonDocument) {
  const std::string text =
      R"({"problem": {"n": 300, "d": 3}, "params": {"algorithm": "masg", "iterations": 8,
          "m": 60, "trace": true, "diagnostics": true}, "seed": 5})";
  const io::json a = accel::run_json<double>(parse(text));
  EXPECT_EQ(a["schema"], "dpref.result/1");
  EXPECT_EQ(a["paper"], "accel");
  EXPECT_EQ(a["algorithm"], "masg");
  EXPECT_EQ(a["status"], "completed");
  EXPECT_EQ(a["iterations"], 8);
  EXPECT_EQ(a["iterates"]["batch"], 60);
  // private run: the objective trace is a non-private diagnostic (PRIV.RELEASE)
  EXPECT_TRUE(a["trace"].is_null());
  EXPECT_EQ(a["non_private"]["trace"]["objective"].size(), 9u);
  EXPECT_TRUE(a["privacy"]["private"].get<bool>());
  EXPECT_TRUE(a["non_private"].contains("objective"));
  EXPECT_TRUE(a["non_private"].contains("note"));
  // the echoed config reproduces the run byte for byte
  const io::json b = accel::run_json<double>(io::document::from_value(a["config"], "echo"));
  EXPECT_EQ(a.dump(), b.dump());
  const std::string bad_key =
      message_of([&] { accel::run_json<double>(parse(R"({"params": {"eps": 1}})")); });
  EXPECT_NE(bad_key.find("unknown key \"eps\""), std::string::npos) << bad_key;
  const std::string bad =
      message_of([&] { accel::run_json<double>(parse(R"({"params": {"epsilon": -1}})")); });
  EXPECT_NE(bad.find("/params/epsilon"), std::string::npos) << bad;
  EXPECT_NE(bad.find("accel::params.epsilon must be finite and > 0, got -1"), std::string::npos);
}

// ---------------------------------------------------------- PRIV.BOUNDS / PRIV.RELEASE --

// Every private accel run lists the public constants its ledger relies on and how the library
// enforces them (spec/privacy_bounds.md, accel section); a non-private run lists none.
TEST(PRIV_BOUNDS, AccelPrivateRunsListTheirEnforcedBounds) {
  const auto P = small_problem();  // B = 20
  accel::params<double> p;
  p.iterations = 3;
  for (const auto a : {accel::algorithm_kind::gd, accel::algorithm_kind::shb,
                       accel::algorithm_kind::nag, accel::algorithm_kind::nag_opt,
                       accel::algorithm_kind::masg, accel::algorithm_kind::masg_opt}) {
    p.algorithm = a;
    const auto r = accel::run(P, p, philox_stream(1));
    ASSERT_EQ(r.privacy.enforced.size(), 1u) << io::enum_to_string(a);
    EXPECT_EQ(r.privacy.enforced[0].constant, "l1_bound");
    EXPECT_EQ(r.privacy.enforced[0].value, 20.0);
    EXPECT_EQ(r.privacy.enforced[0].kind, enforcement::refuse);
    EXPECT_NE(r.privacy.enforced[0].how.find("refused"), std::string::npos);
  }
  // secure: the clamp too (default 2^10 S1 = 40960, or the given one)
  p.algorithm = accel::algorithm_kind::gd;
  p.release = noise_mode::secure;
  auto r = accel::run(P, p, philox_stream(1));
  ASSERT_EQ(r.privacy.enforced.size(), 3u);
  EXPECT_EQ(r.privacy.enforced[1].constant, "clamp");
  EXPECT_EQ(r.privacy.enforced[1].value, 40960.0);
  EXPECT_EQ(r.privacy.enforced[1].kind, enforcement::clip);
  // and each example's l1 ball on the lattice (SEC.LAPLACE.SUM): radius Δ1/2 = S1/(2m) = 40/400
  EXPECT_EQ(r.privacy.enforced[2].constant, "record_radius");
  // (the double nearest 1/5 lies above it, so S1/m = 40/200 rounded up is 0.2; halved exactly)
  EXPECT_EQ(r.privacy.enforced[2].value, 0.1);
  EXPECT_EQ(r.privacy.enforced[2].kind, enforcement::clip);
  p.clamp = 5.0;
  r = accel::run(P, p, philox_stream(1));
  EXPECT_EQ(r.privacy.enforced[1].value, 5.0);
  // the quadratic (3.16) has no records: derived (sensitivity 0 <= the declared S1 = 3)
  matrix<double> Q = matrix<double>::Identity(2, 2);
  const problems::quadratic<double> F(Q, vector<double>::Zero(2), 0.0, 3.0);
  accel::params<double> q;
  q.iterations = 2;
  q.noise = accel::noise_mode::fixed;
  q.noise_scale = 10.0;
  r = accel::run(F, q, philox_stream(1));
  ASSERT_EQ(r.privacy.enforced.size(), 1u);
  EXPECT_EQ(r.privacy.enforced[0].constant, "l1_sensitivity");
  EXPECT_EQ(r.privacy.enforced[0].value, 3.0);
  EXPECT_EQ(r.privacy.enforced[0].kind, enforcement::derived);
  // non-private: no guarantee, nothing listed
  q.noise = accel::noise_mode::none;
  q.noise_scale.reset();
  EXPECT_TRUE(accel::run(F, q, philox_stream(1)).privacy.enforced.empty());
  // a problem of another kind: its declared S1 is an unchecked claim, so a private run is refused
  // (and the same problem runs without noise)
  struct undeclared : test::accel_stub<4> {
    void gradient_into(const vector<double>& x, vector<double>& g) const { g = x; }
    void minibatch_gradient_into(const vector<double>& x, std::span<const long long>,
                                 vector<double>& g) const {
      g = x;
    }
  } U;
  accel::params<double> u;
  u.algorithm = accel::algorithm_kind::gd;
  u.alpha = 0.1;
  u.iterations = 2;
  EXPECT_NE(message_of([&] {
              accel::run(U, u, philox_stream(1));
            }).find("accel::run: a private run needs a problem whose l1 sensitivity is enforced"),
            std::string::npos);
  u.noise = accel::noise_mode::none;
  EXPECT_EQ(accel::run(U, u, philox_stream(1)).status, status::completed);
  // the JSON carries the list
  const io::json j = accel::run_json<double>(
      io::document::parse(R"({"problem": {"n": 50, "d": 2, "l1_bound": 3}})", "t.json"));
  ASSERT_EQ(j["privacy"]["enforced"].size(), 1u);
  EXPECT_EQ(j["privacy"]["enforced"][0]["constant"], "l1_bound");
  EXPECT_EQ(j["privacy"]["enforced"][0]["value"], 3.0);
  EXPECT_EQ(j["privacy"]["enforced"][0]["enforcement"], "refuse");
}

// A private run releases x_{T'} and public quantities only: no objective, trace, F* or data L
// unless diagnostics is asked for, and then under non_private with its note.
TEST(PRIV_RELEASE, AccelPrivateDocumentCarriesOnlyTheLedgersReleases) {
  const auto P = small_problem();
  accel::params<double> p;
  p.iterations = 4;
  const auto r = accel::run(P, p, philox_stream(2));
  EXPECT_FALSE(r.diagnostics.objective.has_value());
  EXPECT_FALSE(r.diagnostics.fstar.has_value());
  EXPECT_FALSE(r.diagnostics.smoothness_certified.has_value());
  EXPECT_TRUE(r.trace.empty());
  const auto doc = [](const std::string& params) {
    return accel::run_json<double>(io::document::parse(
        R"({"problem": {"n": 60, "d": 3}, "params": {"iterations": 4)" + params + "}}", "t.json"));
  };
  const io::json a = doc("");
  EXPECT_FALSE(a.contains("non_private"));
  EXPECT_TRUE(a["trace"].is_null());
  std::vector<std::string> keys;
  for (const auto& [k, v] : a["iterates"].items()) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  // x is the release; the rest is public (b_t, α, β, m, n, d, L_pub, S1 = 2B, μ = 2λ)
  EXPECT_EQ(keys, (std::vector<std::string>{"S1", "alpha", "batch", "beta", "d", "mu", "n",
                                            "noise_scales", "smoothness", "x"}));
  // asked for: the diagnostics under non_private, labelled; the released x is the same
  const io::json b = doc(R"(, "diagnostics": true, "trace": true, "fstar": true)");
  ASSERT_TRUE(b.contains("non_private"));
  EXPECT_NE(b["non_private"]["note"].get<std::string>().find("not covered"), std::string::npos);
  EXPECT_TRUE(b["non_private"]["objective"].is_number());
  EXPECT_TRUE(b["non_private"]["F_star"]["value"].is_number());
  EXPECT_TRUE(b["non_private"]["smoothness_certified"].is_number());
  EXPECT_EQ(b["non_private"]["trace"]["objective"].size(), 5u);
  EXPECT_TRUE(b["trace"].is_null());
  EXPECT_EQ(a["iterates"]["x"], b["iterates"]["x"]);
  EXPECT_EQ(a["privacy"], b["privacy"]);
  // refused rather than silently dropped
  EXPECT_NE(message_of([&] { doc(R"(, "trace": true)"); }).find("/params/trace"),
            std::string::npos);
  // a non-private run keeps its diagnostics (no guarantee is claimed)
  const io::json c = doc(R"(, "noise": "none", "trace": true)");
  EXPECT_FALSE(c["privacy"]["private"].get<bool>());
  EXPECT_TRUE(c["non_private"]["objective"].is_number());
  EXPECT_EQ(c["trace"]["objective"].size(), 5u);
}

// ARCH.NUMBERS: "0.1" is converted once at the target precision (mp50: nearest 1/10).
TEST(ACCEL_JSON, NumbersAtTargetPrecision) {
  const io::json a = accel::run_json<mp50>(
      parse(R"({"problem": {"n": 100, "d": 2, "lambda": 0.1}, "params": {"algorithm": "gd",
                "epsilon": 0.1, "iterations": 3}})"));
  const mp50 eps =
      io::parse_real<mp50>(a["privacy"]["requested"]["epsilon"].get<std::string>(), "epsilon");
  EXPECT_EQ(eps, mp50(1) / 10);
  EXPECT_NE(eps, mp50(0.1));
  const mp50 lam =
      io::parse_real<mp50>(a["config"]["problem"]["lambda"].get<std::string>(), "lambda");
  EXPECT_EQ(lam, mp50(1) / 10);
  // μ = 2λ at mp50 from the exact 1/10
  EXPECT_EQ(io::parse_real<mp50>(a["iterates"]["mu"].get<std::string>(), "mu"), mp50(2) / 10);
  EXPECT_EQ(a["precision"], "mp50");
}

}  // namespace
}  // namespace dpref

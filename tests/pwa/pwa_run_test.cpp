// The pwa module in the shape of spec/architecture.md: parameters and their one message shape
// (PWA.PARAMS), the run contract with its planned ledger (PWA.RUN, PWA.RUN.BUDGET), public
// constants (PWA.RUN.PUBLIC), the JSON entry point (PWA.JSON) and the errata handled by `run`
// (PWA.RUN.E2 projection, PWA.RUN.E3 best iterate, PWA.RUN.E4 M_S noise). Every expected value
// is derived by hand from the paper's formulas, not read back from the code under test.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/pwa/json.hpp"
#include "support/ledger_roundtrip.hpp"
#include "support/messages.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;

pwa::problem<double> gaussian(int m, int d, double c, double bmax = 1, std::uint64_t seed = 7) {
  return pwa::gaussian_instance<double>(seed, m, d, c, bmax);
}

// ------------------------------------------------------------------------------ PWA.PARAMS --

// Every invalid value is refused by validate() with "pwa::params.<field> must be <cond>, got <v>".
TEST(PWA_PARAMS, MessagesNameFieldAndValue) {
  const auto msg = [](auto edit) {
    pwa::params<double> p;
    edit(p);
    return message_of([&] { p.validate(); });
  };
  EXPECT_EQ(msg([](auto&) {}), "(no exception)");
  EXPECT_NE(msg([](auto& p) { p.epsilon = 0; }).find("pwa::params.epsilon must be"),
            std::string::npos);
  EXPECT_NE(msg([](auto& p) { p.epsilon = -2; }).find("got -2"), std::string::npos);
  EXPECT_NE(msg([](auto& p) { p.epsilon = std::nan(""); }).find("pwa::params.epsilon"),
            std::string::npos);
  EXPECT_NE(msg([](auto& p) { p.iterations = 0; }).find("pwa::params.iterations must be >= 1"),
            std::string::npos);
  EXPECT_NE(msg([](auto& p) { p.step = -1.0; }).find("pwa::params.step must be"),
            std::string::npos);
  EXPECT_NE(msg([](auto& p) {
              p.algorithm = pwa::algorithm_kind::private_subgradient;
              p.noise_rule = pwa::noise_rule::paper;
            }).find("pwa::params.noise_rule must be theorem9 unless"),
            std::string::npos);
  EXPECT_NE(msg([](auto& p) {
              p.algorithm = pwa::algorithm_kind::perturb_data;
              p.projection = pwa::projection_mode::box;
            }).find("pwa::params.projection must be none for perturb_data"),
            std::string::npos);
  EXPECT_NE(msg([](auto& p) { p.max_attempts = 0; }).find("pwa::params.max_attempts"),
            std::string::npos);
}

// The checks that need the problem: start of size d inside P; inverse_cdf only in d = 1.
TEST(PWA_PARAMS, AgainstTheProblem) {
  const auto prob = gaussian(5, 2, 1);
  pwa::params<double> p;
  p.start = std::vector<double>{0.5};
  EXPECT_NE(message_of([&] {
              pwa::run(prob, p, philox_stream(1));
            }).find("pwa::params.start must be of size d = 2, got 1"),
            std::string::npos);
  p.start = std::vector<double>{0.5, 1.5};
  EXPECT_NE(message_of([&] {
              pwa::run(prob, p, philox_stream(1));
            }).find("pwa::params.start must be a point of P"),
            std::string::npos);
  p.start.reset();
  p.algorithm = pwa::algorithm_kind::exponential;
  p.sampler = pwa::sampler_kind::inverse_cdf;
  EXPECT_NE(message_of([&] {
              pwa::run(prob, p, philox_stream(1));
            }).find("pwa::params.sampler must be rejection or envelope when d > 1"),
            std::string::npos);
}

// --------------------------------------------------------------------------------- PWA.RUN --

// Algorithm 2 through run: k selections, one exponential event of count k with Δu = bmax and
// scale ≈ 2·bmax·k/ε (Lemma 18, Theorem 15), the guarantee ε within 1e-12, x^(k+1) equal to the
// hand-replayed iteration x ← x − α a_{i*} over the released selections.
TEST(PWA_RUN, PrivateSubgradientLedgerAndIterates) {
  const auto prob = gaussian(20, 2, 1, 0.5);
  pwa::params<double> p;
  p.epsilon = 0.1;
  p.iterations = 100;
  p.step = 0.01;
  const auto r = pwa::run(prob, p, philox_stream(20261121));
  ASSERT_TRUE(r.privacy.is_private);
  EXPECT_EQ(r.status, status::completed);
  EXPECT_EQ(r.iterations, 100);
  ASSERT_EQ(r.privacy.ledger.events().size(), 1u);
  const auto& ev = r.privacy.ledger.events()[0];
  EXPECT_EQ(ev.count, 100);
  const auto& em = std::get<accounting::exponential_mechanism<double>>(ev.what);
  EXPECT_EQ(em.utility_sensitivity, 0.5);
  EXPECT_NEAR(em.scale, 2 * 0.5 * 100 / 0.1, 1e-9);  // 1000
  EXPECT_LE(r.privacy.guarantee.epsilon, 0.1);
  EXPECT_GE(r.privacy.guarantee.epsilon, 0.1 * (1 - 1e-12));
  EXPECT_TRUE(r.privacy.budget_met);
  ASSERT_EQ(r.selected.size(), 100u);
  vector<double> x = vector<double>::Zero(2);
  for (const long long i : r.selected) x -= 0.01 * prob.A().row(i).transpose();
  EXPECT_LT((x - r.x).norm(), 1e-12);
  dpref::test::expect_ledger_roundtrip(r);
  // same seed → same output; another seed → another output
  EXPECT_EQ(pwa::run(prob, p, philox_stream(20261121)).x, r.x);
  EXPECT_NE(pwa::run(prob, p, philox_stream(20261122)).selected, r.selected);
}

// M_P (Theorem 16): m = 16, bmax = 1/2, ε = 0.1: Δ = √16·0.5 = 2, scale Δ/ε = 20; output in P.
TEST(PWA_RUN, PerturbData) {
  const auto prob = gaussian(16, 3, 2, 0.5);
  pwa::params<double> p;
  p.algorithm = pwa::algorithm_kind::perturb_data;
  p.epsilon = 0.1;
  const auto r = pwa::run(prob, p, philox_stream(3));
  EXPECT_NEAR(*r.sensitivity, 2.0, 1e-14);
  EXPECT_NEAR(*r.noise_scale, 20.0, 1e-12);
  EXPECT_LE(r.privacy.guarantee.epsilon, 0.1);
  EXPECT_GE(r.privacy.guarantee.epsilon, 0.1 * (1 - 1e-12));
  EXPECT_TRUE(prob.polytope().contains(r.x, 1e-12));
  dpref::test::expect_ledger_roundtrip(r);
}

// Non-private algorithms claim no guarantee; the optimum is the LP's, converged.
TEST(PWA_RUN, NonPrivateAlgorithms) {
  const auto prob = gaussian(10, 2, 1);
  pwa::params<double> p;
  p.algorithm = pwa::algorithm_kind::optimum;
  const auto r = pwa::run(prob, p, philox_stream(1));
  EXPECT_FALSE(r.privacy.is_private);
  EXPECT_EQ(r.status, status::converged);
  EXPECT_NEAR(*r.diagnostics.suboptimality, 0.0, 1e-12);
  // no feasible point beats it (a grid over [−1, 1]²)
  for (int i = -20; i <= 20; ++i)
    for (int j = -20; j <= 20; ++j) {
      vector<double> y(2);
      y << i / 20.0, j / 20.0;
      EXPECT_GE(prob.value(y), r.diagnostics.optimum->value - 1e-12);
    }
  p.algorithm = pwa::algorithm_kind::regular_subgradient;
  const auto g = pwa::run(prob, p, philox_stream(1));
  EXPECT_FALSE(g.privacy.is_private);
  EXPECT_TRUE(g.privacy.ledger.empty());
}

// M_E (Theorem 19) in d = 1 with the exact inverse-CDF sampler: one event, Δu = bmax, scale
// 2bmax/ε′ with ε′ <= ε; the sample lies in [−c, c].
TEST(PWA_RUN, ExponentialMechanism) {
  const auto prob = gaussian(6, 1, 2, 1);
  pwa::params<double> p;
  p.algorithm = pwa::algorithm_kind::exponential;
  p.sampler = pwa::sampler_kind::inverse_cdf;
  p.epsilon = 0.3;
  const auto r = pwa::run(prob, p, philox_stream(9));
  EXPECT_NEAR(*r.noise_scale, 2.0 / 0.3, 1e-12);
  EXPECT_LE(r.privacy.guarantee.epsilon, 0.3);
  EXPECT_GE(r.privacy.guarantee.epsilon, 0.3 * (1 - 1e-12));
  EXPECT_LE(std::abs(r.x[0]), 2.0);
  dpref::test::expect_ledger_roundtrip(r);
}

// ------------------------------------------------------------------------- PWA.RUN.BUDGET --

// The requested ε is a bound: for awkward (ε, k) the certified guarantee never exceeds it, for
// every private algorithm (the calibration raises the scale by ulps before any draw).
TEST(PWA_RUN_BUDGET, GuaranteeNeverExceedsRequest) {
  const auto prob = gaussian(7, 2, 1, 0.3);
  for (const double eps : {0.1, 1.0 / 3, 0.7, 7.0, 1e-3})
    for (const long long k : {1LL, 3LL, 7LL, 100LL, 999LL})
      for (const auto a :
           {pwa::algorithm_kind::private_subgradient, pwa::algorithm_kind::perturb_data,
            pwa::algorithm_kind::perturb_solution}) {
        pwa::params<double> p;
        p.algorithm = a;
        p.epsilon = eps;
        p.iterations = k;
        p.optimum = false;
        const auto r = pwa::run(prob, p, philox_stream(5));
        EXPECT_TRUE(r.privacy.budget_met);
        EXPECT_LE(r.privacy.guarantee.epsilon, eps) << eps << " " << k;
        EXPECT_GE(r.privacy.guarantee.epsilon, eps * (1 - 1e-9)) << eps << " " << k;
      }
}

// ------------------------------------------------------------------------- PWA.RUN.PUBLIC --

// The calibration uses only the public constants (bmax, c, m, d): multiplying the private b by
// 1000 changes neither the ledger nor the noise scale (ARCH.PUBLIC).
TEST(PWA_RUN_PUBLIC, CalibrationIgnoresThePrivateData) {
  const auto prob = gaussian(12, 2, 1, 0.5);
  const auto other = prob.with_b(vector<double>(prob.b() * 1000.0));
  for (const auto a : {pwa::algorithm_kind::private_subgradient, pwa::algorithm_kind::perturb_data,
                       pwa::algorithm_kind::perturb_solution, pwa::algorithm_kind::exponential}) {
    pwa::params<double> p;
    p.algorithm = a;
    const auto r1 = pwa::run(prob, p, philox_stream(2));
    const auto r2 = pwa::run(other, p, philox_stream(2));
    EXPECT_EQ(accounting::ledger_value(r1.privacy.ledger),
              accounting::ledger_value(r2.privacy.ledger));
    EXPECT_EQ(*r1.noise_scale, *r2.noise_scale);
  }
}

// ----------------------------------------------------------------------------- errata tests --

// errata PWA-E2: Algorithm 2 as printed does not project; projection = box clamps every iterate
// (post-processing; the ledger is unchanged). c = 0.25, α = 0.05, k = 100: more than half of 40
// unprojected outputs leave P, every projected one stays in P. With rows Gx <= h, run refuses.
TEST(PWA_RUN_E2, BoxProjection) {
  const auto prob = gaussian(20, 2, 0.25);
  pwa::params<double> p;
  p.step = 0.05;
  p.optimum = false;
  int outside = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    p.projection = pwa::projection_mode::none;
    const auto a = pwa::run(prob, p, philox_stream(seed));
    outside += prob.polytope().contains(a.x) ? 0 : 1;
    p.projection = pwa::projection_mode::box;
    const auto b = pwa::run(prob, p, philox_stream(seed));
    EXPECT_TRUE(prob.polytope().contains(b.x));
    EXPECT_EQ(accounting::ledger_value(a.privacy.ledger),
              accounting::ledger_value(b.privacy.ledger));
  }
  EXPECT_GT(outside, 20);
  pwa::polytope<double> P = pwa::polytope<double>::box_only(2, 1);
  P.G = matrix<double>(1, 2);
  P.G << 1, 1;
  P.h = vector<double>::Constant(1, 0.5);
  const pwa::problem<double> rows(prob.A(), prob.b(), P, 1);
  p.projection = pwa::projection_mode::box;
  EXPECT_NE(message_of([&] {
              pwa::run(rows, p, philox_stream(1));
            }).find("pwa::params.projection must be none when P has rows"),
            std::string::npos);
}

// errata PWA-E3: Theorem 24 bounds E[min_i f(x^(i))], not the output x^(k+1). The run reports
// the best iterate only as a non-private diagnostic (asked for with diagnostics): it equals the
// minimum of the trace over x^(1..k) (recomputed here), and the JSON keeps it out of "iterates".
TEST(PWA_RUN_E3, BestIterateIsNonPrivate) {
  const auto prob = gaussian(20, 2, 1);
  pwa::params<double> p;
  p.trace = true;
  p.diagnostics = true;
  p.iterations = 50;
  const auto r = pwa::run(prob, p, philox_stream(4));
  ASSERT_EQ(r.diagnostics.objective_trace.size(), 51u);
  double best = r.diagnostics.objective_trace[0];
  for (std::size_t i = 0; i < 50; ++i) best = std::min(best, r.diagnostics.objective_trace[i]);
  EXPECT_EQ(*r.diagnostics.best_iterate_objective, best);
  EXPECT_EQ(*r.diagnostics.objective, r.diagnostics.objective_trace[50]);
  pwa::config<double> cfg;
  cfg.params = p;
  const io::json j = pwa::result_json(r, cfg);
  EXPECT_FALSE(j["iterates"].contains("best_iterate_objective"));
  EXPECT_EQ(j["non_private"]["best_iterate_objective"].get<double>(), best);
  EXPECT_TRUE(j["iterates"]["bounds"]["theorem24_best_iterate"].is_number());
  // the objective trace of a private run is non-private too: under non_private, not "trace"
  EXPECT_TRUE(j["trace"].is_null());
  EXPECT_EQ(j["non_private"]["objective_trace"].size(), 51u);
}

// ------------------------------------------------------------------------ PWA.RUN.RELEASE --

const pwa::algorithm_kind kPrivate[] = {
    pwa::algorithm_kind::private_subgradient, pwa::algorithm_kind::perturb_data,
    pwa::algorithm_kind::perturb_solution, pwa::algorithm_kind::exponential};

std::string name_of(pwa::algorithm_kind a) {
  return std::string(enum_names(a)[static_cast<std::size_t>(a)].second);
}

// PRIV.RELEASE: a private run computes no function of the private b outside its release unless
// asked: no diagnostics in the result, no "non_private" key in its document, a null "trace";
// with diagnostics = true they appear under "non_private" with the note, and the released
// output is the same (diagnostics read no noise). Non-private algorithms keep "non_private".
TEST(PWA_RUN_RELEASE, PrivateRunsReleaseOnlyWhatTheLedgerCovers) {
  const auto prob = gaussian(8, 2, 1);
  for (const auto a : kPrivate) {
    pwa::config<double> cfg;
    cfg.params.algorithm = a;
    cfg.params.iterations = 10;
    const auto r = pwa::run(prob, cfg.params, philox_stream(6));
    EXPECT_FALSE(r.diagnostics.objective) << name_of(a);
    EXPECT_FALSE(r.diagnostics.best_iterate_objective) << name_of(a);
    EXPECT_FALSE(r.diagnostics.optimum) << name_of(a);
    EXPECT_FALSE(r.diagnostics.sampler_counts) << name_of(a);
    EXPECT_TRUE(r.diagnostics.objective_trace.empty()) << name_of(a);
    const io::json j = pwa::result_json(r, cfg);
    EXPECT_FALSE(j.contains("non_private")) << name_of(a);
    EXPECT_TRUE(j["trace"].is_null()) << name_of(a);
    EXPECT_FALSE(j["privacy"]["enforced"].empty()) << name_of(a);
    cfg.params.diagnostics = cfg.params.optimum = true;
    cfg.params.trace = a == pwa::algorithm_kind::private_subgradient;
    const auto d = pwa::run(prob, cfg.params, philox_stream(6));
    EXPECT_EQ(d.x, r.x) << name_of(a);
    EXPECT_EQ(d.selected, r.selected) << name_of(a);
    EXPECT_EQ(*d.diagnostics.objective, prob.value(d.x)) << name_of(a);
    const io::json k = pwa::result_json(d, cfg);
    ASSERT_TRUE(k.contains("non_private")) << name_of(a);
    EXPECT_NE(k["non_private"]["note"].get<std::string>().find("not covered"), std::string::npos);
    EXPECT_TRUE(k["non_private"]["suboptimality"].is_number()) << name_of(a);
    EXPECT_TRUE(k["trace"].is_null()) << name_of(a);
    EXPECT_EQ(k["non_private"].contains("sampler"), a == pwa::algorithm_kind::exponential);
  }
  for (const auto a : {pwa::algorithm_kind::regular_subgradient, pwa::algorithm_kind::optimum}) {
    pwa::config<double> cfg;
    cfg.params.algorithm = a;
    cfg.params.iterations = 10;
    cfg.params.trace = true;
    const io::json j = pwa::result_json(pwa::run(prob, cfg.params, philox_stream(6)), cfg);
    EXPECT_TRUE(j["non_private"]["objective"].is_number()) << name_of(a);
    EXPECT_FALSE(j["privacy"].contains("enforced")) << name_of(a);
  }
}

// The fields that only produce non-private output are refused for a private algorithm without
// diagnostics (never silently ignored); the non-private algorithms accept them.
TEST(PWA_RUN_RELEASE, NonPrivateFieldsNeedDiagnostics) {
  for (const auto a : kPrivate) {
    pwa::params<double> p;
    p.algorithm = a;
    p.optimum = true;
    EXPECT_EQ(message_of([&] { p.validate(); }),
              "pwa::params.optimum must be false for the private " + name_of(a) +
                  " unless diagnostics = true (the certified optimum and the suboptimality are "
                  "functions of the private b without noise), got true");
    p.optimum = false;
    p.trace = true;
    EXPECT_EQ(message_of([&] { p.validate(); }),
              "pwa::params.trace must be false for the private " + name_of(a) +
                  " unless diagnostics = true (f(x^(i)) of every iterate is a function of the "
                  "private b without noise), got true");
    p.diagnostics = true;
    EXPECT_EQ(message_of([&] { p.validate(); }), "(no exception)");
  }
  for (const auto a : {pwa::algorithm_kind::regular_subgradient, pwa::algorithm_kind::optimum}) {
    pwa::params<double> p;
    p.algorithm = a;
    p.optimum = p.trace = true;
    EXPECT_EQ(message_of([&] { p.validate(); }), "(no exception)");
  }
}

// PRIV.BOUNDS: every private run lists the public constants its ledger relies on, with their
// enforcement (spec/privacy_bounds.md, pwa section), in both release modes.
TEST(PWA_RUN_RELEASE, EnforcedConstants) {
  const auto prob = gaussian(8, 2, 1.5, 0.25);
  const auto constants = [&](pwa::algorithm_kind a, noise_mode mode) {
    pwa::params<double> p;
    p.algorithm = a;
    p.iterations = 5;
    p.release = mode;
    std::string out;
    for (const auto& e : pwa::run(prob, p, philox_stream(1)).privacy.enforced)
      out += e.constant + ":" +
             std::string(enum_names(e.kind)[static_cast<std::size_t>(e.kind)].second) + "=" +
             std::to_string(e.value) + " ";
    return out;
  };
  for (const auto a :
       {pwa::algorithm_kind::private_subgradient, pwa::algorithm_kind::exponential}) {
    EXPECT_EQ(constants(a, noise_mode::idealised), "bmax:derived=0.250000 ");
    EXPECT_EQ(constants(a, noise_mode::secure),
              "bmax:derived=0.250000 release_clamp:clip=1000.000000 ");
  }
  EXPECT_EQ(constants(pwa::algorithm_kind::perturb_data, noise_mode::idealised),
            "bmax:derived=0.250000 ");
  EXPECT_EQ(constants(pwa::algorithm_kind::perturb_data, noise_mode::secure),
            "bmax:derived=0.250000 release_clamp:clip=1000.000000 ");
  EXPECT_EQ(constants(pwa::algorithm_kind::perturb_solution, noise_mode::idealised),
            "c:clip=1.500000 ");
  EXPECT_EQ(constants(pwa::algorithm_kind::perturb_solution, noise_mode::secure),
            "c:clip=1.500000 ");
}

// errata PWA-E4: M_S's noise. d = 4, c = 2, ε = 1/2: Δ = diam P = 2√4·2 = 8; Theorem 9 scale
// Δ/ε = 16 and guarantee ε; the printed rule √d·Δ/ε = 32 and the ledger certifies ε/√d = 1/4.
TEST(PWA_RUN_E4, SolutionPerturbationNoiseRule) {
  const auto prob = gaussian(10, 4, 2);
  pwa::params<double> p;
  p.algorithm = pwa::algorithm_kind::perturb_solution;
  p.epsilon = 0.5;
  const auto a = pwa::run(prob, p, philox_stream(8));
  EXPECT_NEAR(*a.sensitivity, 8.0, 1e-13);
  EXPECT_NEAR(*a.noise_scale, 16.0, 1e-12);
  EXPECT_NEAR(a.privacy.guarantee.epsilon, 0.5, 1e-12);
  EXPECT_LE(a.privacy.guarantee.epsilon, 0.5);
  p.noise_rule = pwa::noise_rule::paper;
  const auto b = pwa::run(prob, p, philox_stream(8));
  EXPECT_NEAR(*b.noise_scale, 32.0, 1e-12);
  EXPECT_NEAR(b.privacy.guarantee.epsilon, 0.25, 1e-12);
  // Theorem 17's bound G·d·b for each scale
  const double G = prob.A().rowwise().norm().maxCoeff();
  EXPECT_NEAR(*a.bound_theorem17, G * 4 * 16, 1e-9 * G * 64);
  EXPECT_NEAR(*b.bound_theorem17, G * 4 * 32, 1e-9 * G * 128);
  dpref::test::expect_ledger_roundtrip(b);
}

// PRIV.BOUNDS through pwa: every private document lists its enforced constants, each with its
// enforcement kind and a sentence; the envelope refuses a private pwa result without them.
TEST(PRIV_BOUNDS, PwaPrivateDocumentsListTheirEnforcedConstants) {
  const auto prob = gaussian(8, 2, 1);
  for (const auto a : kPrivate) {
    pwa::config<double> cfg;
    cfg.params.algorithm = a;
    cfg.params.iterations = 5;
    auto r = pwa::run(prob, cfg.params, philox_stream(2));
    const io::json j = pwa::result_json(r, cfg);
    ASSERT_FALSE(j["privacy"]["enforced"].empty()) << name_of(a);
    for (const auto& e : j["privacy"]["enforced"]) {
      EXPECT_TRUE(e["constant"].is_string());
      EXPECT_TRUE(e["value"].is_number());
      EXPECT_TRUE(e["enforcement"] == "clip" || e["enforcement"] == "refuse" ||
                  e["enforcement"] == "derived");
      EXPECT_GT(e["how"].get<std::string>().size(), 40u);
    }
    r.privacy.enforced.clear();  // negative control: the envelope's refusal
    EXPECT_THROW((void)pwa::result_json(r, cfg), std::logic_error) << name_of(a);
  }
}

// PRIV.RELEASE through pwa: the document of a private run has no "non_private" key unless
// diagnostics were asked for; the envelope refuses non-private values a private pwa run did not
// ask for.
TEST(PRIV_RELEASE, PwaPrivateDocumentsCarryNoUnaskedDiagnostics) {
  const io::json a = pwa::run_json<double>(io::document::parse(
      R"({"problem": {"m": 8, "d": 2}, "params": {"iterations": 5}})", "test.json"));
  EXPECT_FALSE(a.contains("non_private"));
  const io::json b = pwa::run_json<double>(io::document::parse(
      R"({"problem": {"m": 8, "d": 2}, "params": {"iterations": 5, "diagnostics": true}})",
      "test.json"));
  ASSERT_TRUE(b.contains("non_private"));
  EXPECT_NE(b["non_private"]["note"].get<std::string>().find("not covered"), std::string::npos);
  EXPECT_EQ(a["iterates"], b["iterates"]);
  const auto r = pwa::run(gaussian(8, 2, 1), pwa::params<double>{}, philox_stream(2));
  result_parts parts;
  parts.paper = "pwa";
  parts.non_private = io::json{{"note", "x"}, {"objective", 1.0}};  // negative control
  EXPECT_THROW((void)result_value(r, parts), std::logic_error);
  parts.diagnostics = true;
  EXPECT_NO_THROW((void)result_value(r, parts));
}

// -------------------------------------------------------------------------------- PWA.JSON --

io::document parse(const std::string& text) { return io::document::parse(text, "test.json"); }

// The document: schema, paper, algorithm, the complete config that reproduces the run, the
// ledger; unknown keys and invalid values refused with the JSON path.
TEST(PWA_JSON, RunJsonDocument) {
  const std::string text =
      R"({"problem": {"m": 8, "d": 2}, "params": {"epsilon": 0.5, "iterations": 20}, "seed": 3})";
  const io::json a = pwa::run_json<double>(parse(text));
  EXPECT_EQ(a["schema"], "dpref.result/1");
  EXPECT_EQ(a["paper"], "pwa");
  EXPECT_EQ(a["algorithm"], "private_subgradient");
  EXPECT_EQ(a["status"], "completed");
  EXPECT_EQ(a["iterations"], 20);
  EXPECT_EQ(a["privacy"]["requested"]["epsilon"], 0.5);
  EXPECT_EQ(a["config"]["params"]["iterations"], 20);
  const io::json b = pwa::run_json<double>(io::document::from_value(a["config"], "echo"));
  EXPECT_EQ(a.dump(), b.dump());
  EXPECT_NE(message_of([&] {
              pwa::run_json<double>(parse(R"({"params": {"epsilonn": 1}})"));
            }).find("epsilonn"),
            std::string::npos);
  const std::string bad =
      message_of([&] { pwa::run_json<double>(parse(R"({"params": {"epsilon": -1}})")); });
  EXPECT_NE(bad.find("/params/epsilon"), std::string::npos) << bad;
  EXPECT_NE(bad.find("got -1"), std::string::npos) << bad;
  const std::string m0 =
      message_of([&] { pwa::run_json<double>(parse(R"({"problem": {"m": 0}})")); });
  EXPECT_NE(m0.find("pwa::problem.m must be >= 1"), std::string::npos) << m0;
}

// ARCH.NUMBERS: "0.1" is converted once at the target precision: at mp50 ε is the mp50 value
// nearest 1/10 (not the double 0.1), and the requested budget echoes it.
TEST(PWA_JSON, NumbersAtTargetPrecision) {
  const io::json a = pwa::run_json<mp50>(
      parse(R"({"problem": {"m": 5, "d": 2}, "params": {"epsilon": 0.1, "iterations": 4,
                "optimum": false}})"));
  const mp50 eps =
      io::parse_real<mp50>(a["privacy"]["requested"]["epsilon"].get<std::string>(), "epsilon");
  EXPECT_EQ(eps, mp50(1) / 10);
  EXPECT_NE(eps, mp50(0.1));
  EXPECT_EQ(a["precision"], "mp50");
}

// An instance file: A, b, G, h read at the target precision; the sizes must match m, d; the
// public c and bmax come from the spec.
TEST(PWA_JSON, InstanceFile) {
  const auto path = std::filesystem::temp_directory_path() / "dpref_pwa_instance_test.json";
  {
    std::ofstream f(path);
    f << R"({"A": [[1, 0], [-1, 0], [0, 1], [0, -1]], "b": [0, 0, 0, 0], "G": [[1, 1]], "h": [1]})";
  }
  const std::string cfg = R"({"problem": {"instance": ")" + path.string() +
                          R"(", "m": 4, "d": 2, "c": 2, "bmax": 0.5},
                              "params": {"algorithm": "optimum"}})";
  const io::json a = pwa::run_json<double>(parse(cfg));
  // f = ‖x‖∞ (pwa Example 5 with z = 0): f_opt = 0 at x = 0
  EXPECT_NEAR(a["non_private"]["optimum"]["value"].get<double>(), 0.0, 1e-14);
  EXPECT_EQ(a["privacy"]["private"], false);
  std::string wrong = cfg;
  wrong.replace(wrong.find("\"m\": 4"), 6, "\"m\": 5");
  EXPECT_NE(message_of([&] {
              pwa::run_json<double>(parse(wrong));
            }).find("pwa::problem.m must be the number of rows of A"),
            std::string::npos);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dpref

// The linesearch paper in the shape of spec/architecture.md: one contract (LS.API: params,
// validate messages, config JSON, run, status criteria), the privacy invariants enforced by the
// library (LS.PUBLIC: public constants are what the run uses; every case the CLI refused is
// refused by the library) and the ledger (LS.LEDGER: typed events, guarantee = ledger.total(),
// a requested budget is a bound). Deterministic: fixed seeds, no statistical assertions.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/linesearch/json.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "dpref/linesearch/mlp_study.hpp"
#include "dpref/linesearch/study.hpp"
#include "support/messages.hpp"
#include "synthetic_erm.hpp"

namespace {

using namespace dpref;
namespace ls = dpref::linesearch;
namespace acc = dpref::accounting;

using dpref::test::message_of;

ls::problem<double> small_problem(Eigen::Index n = 1200, Eigen::Index d = 3,
                                  std::uint64_t seed = 3) {
  return test::synthetic_erm<double>(n, d, seed);
}

ls::params<double> small(ls::algorithm a, double eps = 1.0) {
  ls::params<double> p;
  p.algorithm = a;
  p.epsilon = eps;
  p.max_order = 64;
  return p;
}

const std::vector<ls::algorithm> kPrivate = {
    ls::algorithm::blsgd, ls::algorithm::blsgd_ac, ls::algorithm::blgd,   ls::algorithm::dpsgd,
    ls::algorithm::dpagd, ls::algorithm::outpert,  ls::algorithm::objpert};

// ------------------------------------------------------------------------------- LS.API

TEST(LS_API, ValidateNamesOwnerFieldConditionAndValue) {
  const auto msg = [](auto mutate) {
    ls::params<double> p;
    mutate(p);
    return message_of([&] { p.validate(); });
  };
  EXPECT_EQ(msg([](auto& p) { p.epsilon = std::nan(""); }),
            "linesearch::params.epsilon must be finite and in (0, 1e6], got nan");
  EXPECT_EQ(msg([](auto& p) { p.epsilon = -1; }),
            "linesearch::params.epsilon must be finite and in (0, 1e6], got -1");
  EXPECT_EQ(msg([](auto& p) { p.delta = 0; }), "linesearch::params.delta must be in (0, 1), got 0");
  EXPECT_EQ(msg([](auto& p) { p.max_order = 100000000; }),
            "linesearch::params.max_order must be >= 2 and <= 1024, got 100000000");
  EXPECT_EQ(msg([](auto& p) { p.q = 0; }), "linesearch::params.q must be in (0, 1], got 0");
  EXPECT_EQ(msg([](auto& p) { p.max_iterations = 0; }),
            "linesearch::params.max_iterations must be >= 1 and <= 10000000, got 0");
  EXPECT_EQ(msg([](auto& p) { p.max_it = 5000; }),
            "linesearch::params.max_it must be >= 1 and <= 1000, got 5000");
  EXPECT_EQ(msg([](auto& p) { p.C_grad = std::numeric_limits<double>::infinity(); }),
            "linesearch::params.C_grad must be finite and in (0, 1e12], got inf");
  EXPECT_EQ(msg([](auto& p) { p.svt_bound = acc::svt_bound::paper_eq4_5; }),
            "linesearch::params.svt_bound must be proven unless allow_over_budget is set (the "
            "paper's (4)/(5) is not a proven bound, errata LS-E1), got unproven_eq4_5");
  // force lifts a work bound, never a memory/ledger bound
  ls::params<double> p;
  p.max_order = 2000;
  EXPECT_THROW(p.validate(), std::domain_error);
  p.force = true;
  EXPECT_NO_THROW(p.validate());
  p.max_order = 5000;
  EXPECT_THROW(p.validate(), std::domain_error);
  ls::problem_spec<double> s;
  s.synthetic_n = 10000000;
  s.synthetic_d = 100;
  EXPECT_EQ(message_of([&] { s.validate(); }),
            "linesearch::problem.synthetic_n must be <= 2^26 / synthetic_d (memory bound on n·d), "
            "got 10000000");
  s = {};
  s.max_rows = -1;
  EXPECT_EQ(message_of([&] { s.validate(); }),
            "linesearch::problem.max_rows must be >= 1 and <= 100000000, got -1");
}

TEST(LS_API, RunJsonNamesTheFlagOrTheJsonPath) {
  // a value from a flag is named by the flag, one from a file by the file and JSON pointer
  io::document flags =
      io::document::from_value(io::json{{"params", {{"epsilon", "-2"}}}}, "command line");
  flags.set_display_name("/params/epsilon", "--epsilon");
  EXPECT_EQ(message_of([&] { (void)ls::run_json<double>(flags); }),
            "--epsilon: linesearch::params.epsilon must be finite and in (0, 1e6], got -2");
  const io::document file =
      io::document::parse(R"({"problem": {"synthetic_n": 0}, "params": {}})", "cfg.json");
  EXPECT_EQ(message_of([&] { (void)ls::run_json<double>(file); }),
            "cfg.json: /problem/synthetic_n: linesearch::problem.synthetic_n must be >= 1 and <= "
            "10000000, got 0");
  const io::document unknown = io::document::parse(R"({"params": {"epsilom": 1}})", "cfg.json");
  EXPECT_NE(message_of([&] {
              (void)ls::run_json<double>(unknown);
            }).find("cfg.json: /params has unknown key \"epsilom\""),
            std::string::npos);
  const io::document bad_enum =
      io::document::parse(R"({"params": {"algorithm": "sgd"}})", "cfg.json");
  EXPECT_NE(message_of([&] {
              (void)ls::run_json<double>(bad_enum);
            }).find("cfg.json: /params/algorithm must be one of blsgd, blsgd_ac, blgd"),
            std::string::npos);
  // an unattainable request is refused before the run, naming the field
  const io::document tiny = io::document::parse(
      R"({"problem": {"synthetic_n": 100, "synthetic_d": 2},
          "params": {"epsilon": 0.01, "max_order": 16}})",
      "cfg.json");
  EXPECT_NE(message_of([&] {
              (void)ls::run_json<double>(tiny);
            }).find("cfg.json: /params/epsilon: linesearch::params.epsilon must be attainable"),
            std::string::npos);
}

TEST(LS_API, ConfigEchoReproducesTheRunBitForBit) {
  for (const auto a : {ls::algorithm::blsgd, ls::algorithm::dpsgd, ls::algorithm::objpert}) {
    io::json cfg = {{"problem", {{"synthetic_n", 80}, {"synthetic_d", 2}}},
                    {"params",
                     {{"algorithm", std::string(io::enum_to_string(a))},
                      {"epsilon", 2},
                      {"max_order", 32},
                      {"trace", true}}}};
    const io::json first = ls::run_json<double>(io::document::parse(cfg.dump(), "a.json"));
    const io::json again =
        ls::run_json<double>(io::document::parse(first["config"].dump(), "config"));
    EXPECT_EQ(first.dump(), again.dump()) << io::enum_to_string(a);
    const io::json m1 = ls::run_json<mp50>(io::document::parse(cfg.dump(), "a.json"));
    const io::json m2 = ls::run_json<mp50>(io::document::parse(m1["config"].dump(), "config"));
    EXPECT_EQ(m1.dump(), m2.dump()) << io::enum_to_string(a);
  }
}

TEST(LS_API, StatusFollowsTheDocumentedCriteria) {
  const auto P = small_problem();
  EXPECT_EQ(ls::run(P, small(ls::algorithm::blsgd), philox_stream(1)).status,
            status::budget_exhausted);  // §4.3 halting: the next call did not fit
  auto capped = small(ls::algorithm::blsgd);
  capped.max_iterations = 3;
  const auto c = ls::run(P, capped, philox_stream(1));
  EXPECT_EQ(c.status, status::iteration_limit);
  EXPECT_EQ(c.iterations, 3);
  EXPECT_EQ(ls::run(P, small(ls::algorithm::dpsgd), philox_stream(1)).status, status::completed);
  EXPECT_EQ(ls::run(P, small(ls::algorithm::dpagd), philox_stream(1)).status,
            status::budget_exhausted);
  EXPECT_EQ(ls::run(P, small(ls::algorithm::outpert), philox_stream(1)).status, status::completed);
  EXPECT_EQ(ls::run(P, small(ls::algorithm::nonprivate), philox_stream(1)).status,
            status::converged);
  EXPECT_EQ(ls::run(P, small(ls::algorithm::majority), philox_stream(1)).status, status::completed);
}

TEST(LS_API, NonPrivateBaselinesClaimNoGuarantee) {
  const auto P = small_problem();
  for (const auto a : {ls::algorithm::nonprivate, ls::algorithm::majority}) {
    ls::config<double> cfg;
    cfg.params = small(a);
    const auto r = ls::run(P, cfg.params, philox_stream(1));
    const io::json j = ls::result_json(cfg, r);
    EXPECT_EQ(j["privacy"], (io::json{{"private", false}}));  // never "epsilon": 0
    EXPECT_TRUE(j["iterates"].empty());                       // nothing released privately
    EXPECT_TRUE(j["non_private"].contains("training_accuracy"));
  }
  // private runs: the objective and accuracy only when asked for, as labelled non-private
  // diagnostics (PRIV.RELEASE; the default document is tested in PRIV_RELEASE below)
  ls::config<double> cfg;
  cfg.params = small(ls::algorithm::blsgd);
  cfg.params.diagnostics = true;
  const io::json j = ls::result_json(cfg, ls::run(P, cfg.params, philox_stream(1)));
  EXPECT_FALSE(j["iterates"].contains("objective"));
  EXPECT_TRUE(j["non_private"].contains("objective"));
  EXPECT_TRUE(j["non_private"].contains("note"));
}

// ------------------------------------------------------------------------------ LS.PUBLIC

TEST(LS_PUBLIC, PublicConstantsAreWhatTheRunUsesNotTheData) {
  // Two data sets whose per-example gradient norms differ by a factor 100 (features × 100):
  // the noise of every call is set by the public C_grad, C_obj and budgets only, so the
  // ledgers of DP-SGD (a fixed plan) are identical, and every DP-BLSGD event's parameters are
  // functions of the public parameters (σ = C_grad/√(2ρ), b = 2C_obj/ε_BT, ...).
  const auto P = small_problem();
  matrix<double> X = 100.0 * P.features();
  const ls::problem<double> Q(X, P.labels(), P.loss(), P.mu());
  const auto sgd = small(ls::algorithm::dpsgd);
  EXPECT_EQ(acc::ledger_value(ls::run(P, sgd, philox_stream(1)).privacy.ledger).dump(),
            acc::ledger_value(ls::run(Q, sgd, philox_stream(1)).privacy.ledger).dump());
  const auto p = small(ls::algorithm::blsgd);
  const double eps_iter = p.epsilon / p.eps_iter_divisor;
  for (const auto* prob : {&P, &Q}) {
    const auto r = ls::run(*prob, p, philox_stream(2));
    // σ = C_grad/√(2ρ) with ρ = (1+ξ)^k·ε_iter²/2 (§5.4; CHEB raises ρ_grad k >= 0 times);
    // b1 = 2C_obj/ε_BT with ε_BT = (1+ξ)^k·ε_iter.
    const auto raised = [&](double base, double value, double per_step) {
      const double k = std::log(base / value) / std::log(per_step);
      EXPECT_GT(k, -1e-9);
      EXPECT_NEAR(k, std::round(k), 1e-9) << base << " " << value;
    };
    for (const auto& e : r.privacy.ledger.events()) {
      const auto& g = std::get<acc::gaussian_mechanism<double>>(e.what);
      EXPECT_EQ(g.sensitivity, p.C_grad);
      raised(p.C_grad / eps_iter, g.sigma, std::sqrt(1 + p.xi));
      for (const auto& part : e.joint) {
        const auto& s = std::get<acc::sparse_vector_mechanism<double>>(part.what);
        EXPECT_EQ(s.sensitivity, p.C_obj);
        raised(2 * p.C_obj / eps_iter, s.threshold_scale, 1 + p.xi);
      }
    }
  }
  // OUTPERT / OBJPERT: the public R (absent: √d) sets the noise, whatever the row norms:
  // 2R(1 + 2^-20)/(nμε) (PRIV.LINESEARCH.MINIMISER).
  auto o = small(ls::algorithm::outpert);
  const auto ro = ls::run(Q, o, philox_stream(3));
  EXPECT_NEAR(*ro.noise_scale, 2 * std::sqrt(3.0) * (1 + 0x1p-20) / (1200 * 1e-3 * 1.0),
              1e-12 * *ro.noise_scale);
  o.R = 0.25;
  EXPECT_NEAR(*ls::run(Q, o, philox_stream(3)).noise_scale,
              2 * 0.25 * (1 + 0x1p-20) / (1200 * 1e-3), 1e-12);
}

TEST(LS_PUBLIC, EveryCaseTheCliRefusedIsRefusedByTheLibrary) {
  const auto P = small_problem();
  // unknown algorithm / noise / strategy / bound names (the old CLI checked them by hand)
  for (const char* text :
       {R"({"params": {"algorithm": "nope"}})", R"({"params": {"noise": "x"}})",
        R"({"params": {"strategy": "adap"}})", R"({"params": {"svt_bound": "paper"}})",
        R"({"params": {"batch_accounting": "per-call"}})", R"({"problem": {"loss": "huber"}})"})
    EXPECT_THROW((void)ls::run_json<double>(io::document::parse(text, "x.json")),
                 std::invalid_argument)
        << text;
  // the paper's unproven modes need allow_over_budget (LS-E1, LS.BATCH)
  auto p = small(ls::algorithm::blsgd);
  p.batch_accounting = ls::batch_accounting::per_call;
  EXPECT_THROW(ls::run(P, p, philox_stream(1)), std::domain_error);
  // MLP experiment: iterations, eval_every, ls_share, algorithms, budgets, data folder
  const auto mlp_msg = [](const std::string& text) {
    return message_of([&] { (void)ls::mlp_json(io::document::parse(text, "m.json")); });
  };
  EXPECT_NE(mlp_msg(R"({"iterations": 0, "synthetic_n": 50})").find("m.json: /iterations"),
            std::string::npos);
  EXPECT_NE(mlp_msg(R"({"eval_every": 0, "synthetic_n": 50})").find("m.json: /eval_every"),
            std::string::npos);
  EXPECT_NE(mlp_msg(R"({"ls_share": 1, "synthetic_n": 50})").find("m.json: /ls_share"),
            std::string::npos);
  EXPECT_NE(mlp_msg(R"({"algorithms": ["dpagd"], "synthetic_n": 50})").find("m.json: /algorithms"),
            std::string::npos);
  EXPECT_NE(mlp_msg(R"({"calibration": "paper_same_rho", "synthetic_n": 50})")
                .find("m.json: /calibration"),
            std::string::npos);
  EXPECT_NE(mlp_msg(R"({"data_dir": "/no/such/dir"})").find("--data-dir must hold"),
            std::string::npos);
  // study: figures, folds, work bound
  const auto study_msg = [](const std::string& text) {
    return message_of([&] { (void)ls::study_json(io::document::parse(text, "s.json")); });
  };
  EXPECT_NE(study_msg(R"({"figures": [4]})").find("s.json: /figures"), std::string::npos);
  EXPECT_NE(study_msg(R"({"folds": 0})").find("s.json: /folds"), std::string::npos);
  EXPECT_NE(study_msg(R"({"folds": 100, "reps": 100})").find("20000 runs"), std::string::npos);
}

// ------------------------------------------------------------------------------ LS.LEDGER

TEST(LS_LEDGER, GuaranteeIsTheLedgerTotalForEveryAlgorithmAndPrecision) {
  const auto P = small_problem(300, 2);
  const auto Pm = test::synthetic_erm<mp50>(60, 2, 3);
  for (const auto a : kPrivate) {
    const auto r = ls::run(P, small(a, 1.0), philox_stream(7));
    EXPECT_TRUE(r.privacy.is_private);
    EXPECT_EQ(r.privacy.ledger.total().epsilon, r.privacy.guarantee.epsilon);
    EXPECT_LE(r.privacy.guarantee.epsilon, 1.0) << io::enum_to_string(a);
    EXPECT_TRUE(r.privacy.budget_met);
    // the ledger's JSON re-accounts to the same guarantee (what `dpref account` does)
    const io::document d = io::document::parse(acc::ledger_value(r.privacy.ledger).dump(), "l");
    EXPECT_EQ(acc::read_ledger<double>(io::node(d)).total().epsilon, r.privacy.guarantee.epsilon);
    ls::params<mp50> pm;
    pm.algorithm = a;
    pm.epsilon = 1;
    pm.max_order = 32;
    const auto rm = ls::run(Pm, pm, philox_stream(7));
    EXPECT_EQ(rm.privacy.ledger.total().epsilon, rm.privacy.guarantee.epsilon);
    EXPECT_LE(rm.privacy.guarantee.epsilon, mp50(1));
  }
}

TEST(LS_LEDGER, DpBlsgdEventsAreTypedAndJointPerSample) {
  const auto P = small_problem(2000, 3);
  auto p = small(ls::algorithm::blsgd, 1.0);
  p.strategy = ls::budget_strategy::must;
  const auto r = ls::run(P, p, philox_stream(4));
  ASSERT_GT(r.calls.cheb, 0);
  long long cheb = 0;
  for (const auto& e : r.privacy.ledger.events()) {
    ASSERT_EQ(e.kind(), "gaussian");  // each sample starts with its gradient
    ASSERT_TRUE(e.sampling.has_value());
    EXPECT_EQ(e.sampling->scheme, acc::sampling_scheme::poisson);
    EXPECT_EQ(e.sampling->rate, p.q);
    if (e.joint.empty()) cheb += e.count;  // CHEB's fresh sample (or a last lone gradient)
    for (const auto& part : e.joint) {
      ASSERT_EQ(part.kind(), "sparse_vector");
      const auto& s = std::get<acc::sparse_vector_mechanism<double>>(part.what);
      EXPECT_EQ(s.noise, acc::svt_noise::laplace);
      EXPECT_EQ(s.bound, acc::svt_bound::proven);  // LS-E1
      EXPECT_EQ(s.max_queries, p.max_it);
    }
  }
  EXPECT_GE(cheb, r.calls.cheb);
  // Joint amplification is what the ledger charges: the same calls amplified one by one
  // (§4.3 as printed) cost less — the under-count of LS.BATCH.
  std::vector<acc::event<double>> separate;
  for (const auto& e : r.privacy.ledger.events()) {
    acc::event<double> head = e;
    head.joint.clear();
    separate.push_back(head);
    for (const auto& part : e.joint) {
      acc::event<double> s = part;
      s.count = e.count * part.count;
      s.sampling = e.sampling;
      separate.push_back(s);
    }
  }
  EXPECT_LT(acc::account(separate, r.privacy.ledger.options()).epsilon,
            r.privacy.guarantee.epsilon);
}

TEST(LS_LEDGER, ARequestedBudgetIsABound) {
  // §5.7 (the README's `linesearch mlp --eps 2` reported ε = 4.05 for DP-BLSGD): with the default
  // calibration every algorithm's certified guarantee is within the request.
  const std::string base =
      R"("synthetic_n": 200, "synthetic_d": 6, "hidden": 4, "iterations": 15, "eval_every": 5,
         "q": 0.1, "max_order": 64, "epsilon": 2, "delta": 1e-5)";
  const io::json j = ls::mlp_json(io::document::parse("{" + base + "}", "m.json"));
  ASSERT_EQ(j["runs"].size(), 2u);
  for (const auto& run : j["runs"]) {
    EXPECT_TRUE(run["privacy"]["budget_met"].get<bool>()) << run["algorithm"];
    EXPECT_LE(run["privacy"]["guarantee"]["epsilon"].get<double>(), 2.0);
    EXPECT_GT(run["privacy"]["guarantee"]["epsilon"].get<double>(), 1.99);  // calibrated
  }
  // The paper's calibration (DP-SGD's ρ for both) is a reproduction mode: allowed only with
  // allow_over_budget, and then DP-BLSGD says budget_met = false with the paper's claim.
  const io::json paper = ls::mlp_json(io::document::parse(
      "{" + base + R"(, "calibration": "paper_same_rho", "allow_over_budget": true})", "m.json"));
  const auto& b = paper["runs"][0];
  ASSERT_EQ(b["algorithm"], "blsgd");
  EXPECT_FALSE(b["privacy"]["budget_met"].get<bool>());
  EXPECT_GT(b["privacy"]["guarantee"]["epsilon"].get<double>(), 2.0);
  EXPECT_TRUE(b.contains("paper_claim"));   // not a guarantee; no data beyond the releases
  EXPECT_FALSE(b.contains("non_private"));  // no checkpoints without diagnostics
  EXPECT_TRUE(paper["runs"][1]["privacy"]["budget_met"].get<bool>());
  // An explicit per-iteration budget above the request is refused before any training.
  EXPECT_THROW((void)ls::mlp_json(io::document::parse("{" + base + R"(, "rho_iter": 5})", "m")),
               acc::budget_exceeded);
}

}  // namespace

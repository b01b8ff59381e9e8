// The dda module in the shape of spec/architecture.md: params and their one message shape
// (DDA.PARAMS), the network refusals (DDA.NETWORK), the public Lipschitz bound (DDA.PUBLIC), the
// one entry point with status and ledger (DDA.RUN, DDA.LEDGER), budgets (DDA.BUDGET) and the
// JSON entry point (DDA.JSON). Every refusal is tested through the library (not the CLI).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <variant>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/dda/json.hpp"
#include "dpref/io/json.hpp"
#include "support/dda_data.hpp"
#include "support/messages.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;

/// n = 10 nodes, q = 40 records per node, d = 5, records of norm <= `scale` (<= 1).
dda::problem<double> small_problem(double scale = 1.0, int nodes = 10) {
  return test::dda_synthetic_problem(400, 5, 7, nodes, scale);
}

dda::params<double> small_params() { return test::dda_base_params(300); }

dda::network complete_edges(int n = 10) { return test::dda_complete_network(n); }

const accounting::gaussian_mechanism<double>& gaussian_of(const accounting::event<double>& e) {
  return std::get<accounting::gaussian_mechanism<double>>(e.what);
}

TEST(DDA_PARAMS, MessagesNameFieldAndValue) {
  auto p = small_params();
  p.epsilon = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(message_of([&] { p.validate(); }),
            "dda::params.epsilon must be finite and > 0, got nan");
  p = small_params();
  p.lipschitz = 0;
  EXPECT_EQ(message_of([&] { p.validate(); }),
            "dda::params.lipschitz must be finite and > 0, got 0");
  p.lipschitz = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message_of([&] { p.validate(); }),
            "dda::params.lipschitz must be finite and > 0, got inf");
  p = small_params();
  p.delta = 0;
  EXPECT_EQ(message_of([&] { p.validate(); }), "dda::params.delta must be in (0, 1), got 0");
  p = small_params();
  p.iterations = 0;
  EXPECT_NE(message_of([&] { p.validate(); }).find("dda::params.iterations must be >= 1"),
            std::string::npos);
  p = small_params();
  p.allow_over_budget = true;  // only the paper's unsound calibration may exceed the budget
  EXPECT_NE(message_of([&] { p.validate(); })
                .find("dda::params.allow_over_budget must be false unless calibration = "
                      "paper_theorem1"),
            std::string::npos);
  p.calibration = dda::calibration_kind::paper_theorem1;
  EXPECT_NO_THROW(p.validate());
  // the library refuses through run() too (invalid_parameter, nothing released)
  p = small_params();
  p.lipschitz = -1;
  EXPECT_THROW(dda::run(small_problem(), complete_edges(), p, philox_stream(1)), invalid_parameter);
}

TEST(DDA_NETWORK, EdgeSamplingRefusedOffTransitiveGraphs) {
  const auto prob = small_problem(1.0, 10);
  auto net = complete_edges(10);
  net.graph = dda::graph_kind::grid;  // 3 x ... : rows = 3 does not divide 10
  EXPECT_EQ(message_of([&] { net.validate(); }),
            "dda::network.nodes must be a multiple of rows = floor(sqrt(nodes)) for graph = "
            "grid, got 10");
  const auto prob9 = small_problem(1.0, 9);
  net.nodes = 9;  // 3 x 3 grid: degrees 2, 3, 4 -> per-node activation deg(i)/12 != 2/9
  const std::string m = message_of([&] { dda::run(prob9, net, small_params(), philox_stream(1)); });
  EXPECT_EQ(m.rfind("dda::network.graph must be complete or ring with activation = edges", 0), 0u)
      << m;
  EXPECT_NE(m.find("got grid"), std::string::npos) << m;
  EXPECT_THROW(dda::run(prob9, net, small_params(), philox_stream(1)), invalid_parameter);
  // node mode on the same grid: ι = m/n is exact
  net.activation = dda::activation_mode::nodes;
  net.per_step = 3;
  const auto r = dda::run(prob9, net, small_params(), philox_stream(1));
  EXPECT_DOUBLE_EQ(r.iota, 3.0 / 9.0);
  // a non-private run in edge mode on the grid is allowed (no calibration uses ι)
  net.activation = dda::activation_mode::edges;
  net.per_step = 1;
  auto p = small_params();
  p.calibration = dda::calibration_kind::none;
  EXPECT_FALSE(dda::run(prob9, net, p, philox_stream(1)).privacy.is_private);
  // the ring is vertex- and edge-transitive: allowed
  net.graph = dda::graph_kind::ring;
  EXPECT_TRUE(dda::run(prob9, net, small_params(), philox_stream(1)).privacy.is_private);
  // network and problem disagree on n
  EXPECT_NE(message_of([&] {
              dda::run(prob, net, small_params(), philox_stream(1));
            }).find("dda::network.nodes must be == the problem's nodes (10), got 9"),
            std::string::npos);
}

TEST(DDA_PUBLIC, CalibrationUsesThePublicLipschitzBound) {
  // records of norm <= 0.25: the data-dependent L is <= 0.25, the public bound is 1 (or 2)
  const auto prob = small_problem(0.25);
  ASSERT_LE(prob.empirical_lipschitz(), 0.25 + 1e-15);
  ASSERT_GT(prob.empirical_lipschitz(), 0.2);
  auto p = small_params();
  const auto net = complete_edges();
  const auto r1 = dda::run(prob, net, p, philox_stream(3));
  p.lipschitz = 2;
  const auto r2 = dda::run(prob, net, p, philox_stream(3));
  // Δ = 2L in the ledger is the public bound's, never 2·empirical_lipschitz()
  ASSERT_EQ(r1.privacy.ledger.events().size(), 2u);
  EXPECT_EQ(gaussian_of(r1.privacy.ledger.events()[0]).sensitivity, 2.0);
  EXPECT_EQ(gaussian_of(r2.privacy.ledger.events()[0]).sensitivity, 4.0);
  EXPECT_EQ(gaussian_of(r1.privacy.ledger.events()[0]).sigma, r1.sigma);
  // the accountant sees σ/Δ only, so σ scales with the public L (bisection: relative 1e-6)
  EXPECT_NEAR(r2.sigma / r1.sigma, 2.0, 1e-5);
  // a calibration on the empirical L would give a 4x smaller σ
  auto pe = small_params();
  pe.lipschitz = prob.empirical_lipschitz();
  const auto re = dda::run(prob, net, pe, philox_stream(3));
  EXPECT_LT(re.sigma, 0.3 * r1.sigma);
}

TEST(DDA_RUN, ResultCarriesStatusLedgerAndCertifiedGuarantee) {
  const auto prob = small_problem();
  const auto p = small_params();
  const auto net = complete_edges();
  const auto r = dda::run(prob, net, p, philox_stream(5));
  EXPECT_EQ(r.status, status::completed);
  EXPECT_EQ(r.iterations, 300);
  EXPECT_EQ(r.calibration, "rdp");
  EXPECT_TRUE(r.privacy.is_private);
  EXPECT_TRUE(r.privacy.budget_met);
  EXPECT_EQ(r.privacy.requested.eps, 0.8);
  EXPECT_EQ(r.privacy.requested.delta, 1e-5);
  EXPECT_LE(r.privacy.guarantee.epsilon, 0.8);
  EXPECT_LE(r.privacy.guarantee.delta, 1e-5);
  EXPECT_DOUBLE_EQ(r.iota, 0.2);  // one edge of K_10: 2/10
  // events: Gaussian(2L, σ) on 1 of q = 40 records (WOR), k* times; the binomial tail
  const auto& ev = r.privacy.ledger.events();
  ASSERT_EQ(ev.size(), 2u);
  ASSERT_TRUE(ev[0].sampling.has_value());
  EXPECT_EQ(ev[0].sampling->scheme, accounting::sampling_scheme::without_replacement);
  EXPECT_EQ(ev[0].sampling->sample_size, 1);
  EXPECT_EQ(ev[0].sampling->population, 40);
  // k* bounds Bin(300, 0.2) (mean 60, sd 6.9) except with probability δ/16: well above the mean,
  // below T
  EXPECT_GT(ev[0].count, 60 + 3 * 7);
  EXPECT_LT(ev[0].count, 300);
  // the realised activity of every node is within k* here (it is with probability >= 1 − δ/16)
  for (auto k : r.active_rounds) EXPECT_LE(k, ev[0].count);
  const auto& tail = std::get<accounting::approx_mechanism<double>>(ev[1].what);
  EXPECT_EQ(tail.epsilon, 0.0);
  EXPECT_EQ(tail.delta, 1e-5 / 16);
  // the guarantee is the ledger's, and the ledger's JSON (the input of `dpref account`)
  // re-accounts to the same numbers bit for bit
  const auto total = r.privacy.ledger.total();
  EXPECT_EQ(total.epsilon, r.privacy.guarantee.epsilon);
  const std::string text = accounting::ledger_value(r.privacy.ledger).dump();
  const auto doc = io::document::parse(text, "ledger");
  const auto back = accounting::read_ledger<double>(io::node(doc));
  EXPECT_EQ(back.total().epsilon, r.privacy.guarantee.epsilon);
  EXPECT_EQ(back.total().delta, r.privacy.guarantee.delta);
  // σ is the smallest certified one: 0.1% less noise is over budget
  const auto s = dda::setup_of(p, 0.2, 40);
  EXPECT_GT(dda::plan_ledger(s, r.sigma * 0.999).total().epsilon, 0.8);
  // the run is Algorithm 1 at that σ on the same stream, bit for bit
  const auto e = dda::run_dp_dda(prob, net.sampler<double>(), p.engine(r.sigma), philox_stream(5));
  EXPECT_TRUE((e.x_bar.array() == r.x_bar.array()).all());
  // same seed, same result; another seed, another result
  const auto r2 = dda::run(prob, net, p, philox_stream(5));
  EXPECT_TRUE((r2.x_tilde.array() == r.x_tilde.array()).all());
  const auto r3 = dda::run(prob, net, p, philox_stream(6));
  EXPECT_FALSE((r3.x_bar.array() == r.x_bar.array()).all());
}

TEST(DDA_LEDGER, HiddenActiveSetsChargeEveryRoundAtRateIotaOverQ) {
  const auto prob = small_problem();
  auto p = small_params();
  const auto net = complete_edges();
  const auto pub = dda::run(prob, net, p, philox_stream(5));
  p.active_set_hidden = true;
  const auto hid = dda::run(prob, net, p, philox_stream(5));
  const auto& ev = hid.privacy.ledger.events();
  ASSERT_EQ(ev.size(), 1u);  // no binomial tail: every one of the T rounds is charged
  EXPECT_EQ(ev[0].count, 300);
  ASSERT_TRUE(ev[0].sampling.has_value());
  EXPECT_EQ(ev[0].sampling->sample_size, 0);
  EXPECT_EQ(ev[0].sampling->rate, 0.2 / 40);  // γ = ι/q
  EXPECT_EQ(hid.privacy.ledger.options().delta, 1e-5);
  EXPECT_EQ(pub.privacy.ledger.options().delta, 1e-5 - 1e-5 / 8);
  EXPECT_EQ(pub.privacy.ledger.options().max_order, 64);
  EXPECT_LE(hid.privacy.guarantee.epsilon, 0.8);
  // the ι/q amplification (not dda Definition 1) needs less noise than the public model
  EXPECT_LT(hid.sigma, pub.sigma);
  // the realised activity (public schedule): at most k* and about ι T per node
  long long total = 0;
  for (auto k : pub.active_rounds) total += k;
  EXPECT_EQ(total, 2 * 300);  // one edge per round: two active nodes
}

TEST(DDA_RUN, NonPrivateBaselineClaimsNothing) {
  const auto prob = small_problem();
  auto p = small_params();
  p.calibration = dda::calibration_kind::none;
  const auto r = dda::run(prob, complete_edges(), p, philox_stream(5));
  EXPECT_FALSE(r.privacy.is_private);
  EXPECT_TRUE(r.privacy.ledger.empty());
  EXPECT_EQ(r.sigma, 0.0);
  EXPECT_EQ(r.calibration, "none");
  const auto j = privacy_value(r.privacy);
  EXPECT_EQ(j.dump(), "{\"private\":false}");
}

TEST(DDA_BUDGET, PaperTheorem1NeedsAllowOverBudget) {
  const auto prob = small_problem();
  auto p = small_params();
  p.calibration = dda::calibration_kind::paper_theorem1;
  // σ of Theorem 1 as printed: √(32 ι² L² T ln(2/δ₀))/(q ε)
  const double sigma_paper = std::sqrt(32 * 0.2 * 0.2 * 300 * std::log(2 / 0.01)) / (40 * 0.8);
  const std::string m = message_of([&] { dda::run(prob, complete_edges(), p, philox_stream(5)); });
  EXPECT_NE(m.find("dda::run: the certified guarantee"), std::string::npos) << m;
  EXPECT_NE(m.find("nothing was released"), std::string::npos) << m;
  EXPECT_THROW(dda::run(prob, complete_edges(), p, philox_stream(5)), accounting::budget_exceeded);
  p.allow_over_budget = true;
  const auto r = dda::run(prob, complete_edges(), p, philox_stream(5));
  EXPECT_NEAR(r.sigma, sigma_paper, 1e-12 * sigma_paper);
  EXPECT_GE(r.sigma, sigma_paper * (1 - 1e-15));  // rounded up
  EXPECT_FALSE(r.privacy.budget_met);
  EXPECT_GT(r.privacy.guarantee.epsilon, 0.8);
  EXPECT_EQ(privacy_value(r.privacy)["budget_met"], false);
  // the sound chain's σ is within budget (the accountant certifies at least as much)
  p.allow_over_budget = false;
  p.calibration = dda::calibration_kind::sound_chain;
  const auto rs = dda::run(prob, complete_edges(), p, philox_stream(5));
  EXPECT_TRUE(rs.privacy.budget_met);
  EXPECT_GT(rs.sigma, r.sigma);
}

TEST(DDA_JSON, RunJsonResultDocument) {
  const std::string cfg = R"({"problem": {"records": 400, "dimension": 5, "data_seed": 7},
    "network": {"nodes": 10}, "params": {"iterations": 200, "trace_every": 100,
    "diagnostics": true, "optimum": true}, "seed": 3})";
  const auto doc = io::document::parse(cfg, "cfg.json");
  const auto a = dda::run_json<double>(doc);
  EXPECT_EQ(a["schema"], "dpref.result/1");
  EXPECT_EQ(a["paper"], "dda");
  EXPECT_EQ(a["status"], "completed");
  EXPECT_EQ(a["iterations"], 200);
  EXPECT_EQ(a["privacy"]["private"], true);
  EXPECT_EQ(a["privacy"]["budget_met"], true);
  EXPECT_EQ(a["config"]["params"]["lipschitz"], 1.0);
  EXPECT_EQ(a["config"]["network"]["graph"], "complete");
  EXPECT_EQ(a["non_private"]["trace"].size(), 2u);
  EXPECT_EQ(a["iterates"]["x_tilde"].size(), 10u);
  // F* bracket (non-private): lower <= upper <= F(x̄), suboptimality = F(x̄) − upper >= 0
  const auto& np = a["non_private"];
  EXPECT_LE(np["F_star"]["lower"].get<double>(), np["F_star"]["upper"].get<double>());
  EXPECT_LE(np["F_star"]["upper"].get<double>(), np["objective_x_bar"].get<double>());
  EXPECT_EQ(np["suboptimality_x_bar"].get<double>(),
            np["objective_x_bar"].get<double>() - np["F_star"]["upper"].get<double>());
  EXPECT_TRUE(np["trace"][0].contains("suboptimality_x_bar"));
  // same config, same bytes; the echoed config reproduces the run
  EXPECT_EQ(dda::run_json<double>(doc).dump(), a.dump());
  const auto echoed = io::document::parse(a["config"].dump(), "echo");
  EXPECT_EQ(dda::run_json<double>(echoed).dump(), a.dump());
  // refusals name the JSON path and the value
  const auto bad = io::document::parse(R"({"params": {"lipschitz": 0}})", "bad.json");
  const std::string m = message_of([&] { dda::run_json<double>(bad); });
  EXPECT_NE(m.find("/params/lipschitz"), std::string::npos) << m;
  EXPECT_NE(m.find("got 0"), std::string::npos) << m;
  const auto grid = io::document::parse(
      R"({"problem": {"records": 90}, "network": {"graph": "grid", "nodes": 9}})", "g.json");
  const std::string mg = message_of([&] { dda::run_json<double>(grid); });
  EXPECT_NE(mg.find("/network/graph"), std::string::npos) << mg;
  EXPECT_NE(mg.find("got grid"), std::string::npos) << mg;
  const auto unknown = io::document::parse(R"({"params": {"sigma": 1}})", "u.json");
  EXPECT_THROW(dda::run_json<double>(unknown), std::invalid_argument);
}

TEST(PRIV_DDA_RELEASE, PrivateRunReleasesOnlyWhatTheLedgerCoversByDefault) {
  // no diagnostics requested: no non_private key, no data-dependent value outside the ledger's
  // releases; the enforced bound is listed
  const auto doc = io::document::parse(
      R"({"problem": {"records": 400, "dimension": 5}, "network": {"nodes": 10},
      "params": {"iterations": 50}})",
      "cfg.json");
  const auto a = dda::run_json<double>(doc);
  EXPECT_FALSE(a.contains("non_private"));
  EXPECT_TRUE(a["trace"].is_null());
  ASSERT_EQ(a["privacy"]["enforced"].size(), 1u);
  EXPECT_EQ(a["privacy"]["enforced"][0]["constant"], "lipschitz");
  EXPECT_EQ(a["privacy"]["enforced"][0]["enforcement"], "clip");
  EXPECT_EQ(a["privacy"]["enforced"][0]["value"], 1.0);
  for (const auto* key :
       {"x_bar", "x_tilde", "y_tilde", "sigma", "iota", "records_per_node", "calibration"})
    EXPECT_TRUE(a["iterates"].contains(key)) << key;
  EXPECT_EQ(a["iterates"].size(), 7u);
  // diagnostics-only fields are refused in a private run without the request, naming the field
  for (const char* bad :
       {R"({"params": {"optimum": true}})", R"({"params": {"trace_every": 5}})"}) {
    const std::string m =
        message_of([&] { dda::run_json<double>(io::document::parse(bad, "bad.json")); });
    EXPECT_NE(m.find("unless diagnostics = true in a private run"), std::string::npos) << m;
  }
  // a non-private run keeps its non_private section without a request
  const auto np = dda::run_json<double>(io::document::parse(
      R"({"problem": {"records": 400, "dimension": 5}, "network": {"nodes": 10},
      "params": {"iterations": 50, "calibration": "none", "optimum": true}})",
      "np.json"));
  EXPECT_EQ(np["privacy"]["private"], false);
  EXPECT_TRUE(np["non_private"].contains("empirical_lipschitz"));
  EXPECT_TRUE(np["non_private"].contains("F_star"));
  // with the request: under non_private, with its note
  const auto dg = dda::run_json<double>(io::document::parse(
      R"({"problem": {"records": 400, "dimension": 5}, "network": {"nodes": 10},
      "params": {"iterations": 50, "diagnostics": true}})",
      "dg.json"));
  EXPECT_TRUE(dg["non_private"]["note"].get<std::string>().find("not covered") !=
              std::string::npos);
  EXPECT_TRUE(dg["non_private"].contains("empirical_lipschitz"));
  // the released values do not depend on whether diagnostics were asked for
  EXPECT_EQ(dg["iterates"].dump(), a["iterates"].dump());
}

}  // namespace
}  // namespace dpref

// The shared shape of every paper module (spec/architecture.md): status, parameter validation,
// exact number text, strict JSON.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "dpref/io/json.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/params.hpp"
#include "dpref/status.hpp"
#include "support/generators.hpp"
#include "support/messages.hpp"
#include "support/scalars.hpp"

namespace {

using namespace dpref;
using dpref::io::document;
using dpref::io::node;

using dpref::test::message_of;

TEST(ARCH_STATUS, NamesRoundTripAndUnknownNamesAreRefused) {
  for (const auto& [s, name] : status_names) {
    EXPECT_EQ(to_string(s), name);
    EXPECT_EQ(status_from_string(name), s);
  }
  const std::string m = message_of([] { (void)status_from_string("done"); });
  EXPECT_NE(m.find("got 'done'"), std::string::npos) << m;
  EXPECT_NE(m.find("budget_exhausted"), std::string::npos) << m;
}

TEST(ARCH_PARAMS, OneMessageShapeNamingOwnerFieldConditionAndValue) {
  const param_checker c("ev::params");
  EXPECT_EQ(message_of([&] { c.positive("epsilon", std::nan("")); }),
            "ev::params.epsilon must be finite and > 0, got nan");
  EXPECT_EQ(message_of([&] { c.positive("epsilon", -1.0); }),
            "ev::params.epsilon must be finite and > 0, got -1");
  EXPECT_EQ(message_of([&] { c.delta("delta", 1.0); }),
            "ev::params.delta must be in [0, 1), got 1");
  EXPECT_EQ(message_of([&] { c.at_least<long long>("iterations", 1, 2); }),
            "ev::params.iterations must be >= 2, got 1");
  EXPECT_EQ(message_of([&] { c.at_least<int>("threads", 0, 1, 256); }),
            "ev::params.threads must be >= 1 and <= 256, got 0");
  EXPECT_THROW(c.rate("q", 0.0), invalid_parameter);
  EXPECT_NO_THROW(c.rate("q", 1.0));
  EXPECT_NO_THROW(c.delta("delta", 0.0));
  try {
    c.nonnegative("gamma", -2.0);
    FAIL() << "no exception";
  } catch (const invalid_parameter& e) {
    EXPECT_EQ(e.field(), "gamma");
  }
}

TEST(ARCH_NUMBERS, DecimalTextIsConvertedOnceAtTheTargetPrecision) {
  // 0.1 at mp50 is the mp50 value nearest 1/10, not the double 0.1 widened.
  const mp50 tenth = io::parse_real<mp50>("0.1", "x");
  EXPECT_EQ(tenth, mp50(1) / 10);
  EXPECT_NE(tenth, mp50(0.1));
  EXPECT_EQ(io::parse_real<double>("0.1", "x"), 0.1);
  EXPECT_EQ(io::parse_real<long double>("0.1", "x"), 0.1L);
  // negative control: the widened double differs from 1/10 at mp50
  EXPECT_NE(mp50(io::parse_real<double>("0.1", "x")), mp50(1) / 10);
}

TEST(ARCH_NUMBERS, RefusesWhatIsNotAFiniteDecimalNumber) {
  for (const char* bad : {"", "nan", "inf", "-inf", "0x10", " 1", "1 ", "+1", "1e", "1.", ".5",
                          "1e400", "-1e400", "1,5", "1e-400", "abc"}) {
    const std::string m = message_of([&] { (void)io::parse_real<double>(bad, "--epsilon"); });
    EXPECT_EQ(m.rfind("--epsilon ", 0), 0u) << bad << ": " << m;
    EXPECT_NE(m.find(std::string("'") + bad + "'"), std::string::npos) << m;
  }
  EXPECT_EQ(io::parse_real<double>("0", "x"), 0.0);
  EXPECT_EQ(io::parse_real<double>("-0.0e5", "x"), 0.0);
  EXPECT_EQ(io::parse_real<double>("1e308", "x"), 1e308);
}

TEST(ARCH_NUMBERS, IntegersAreRangeCheckedNeverWrappedOrTruncated) {
  EXPECT_EQ(io::parse_integer<long long>("10000", "count"), 10000);
  EXPECT_EQ(io::parse_integer<std::uint64_t>("18446744073709551615", "seed"),
            std::numeric_limits<std::uint64_t>::max());
  for (const char* bad : {"-1", "2.5", "1e3", "18446744073709551616", "", "+3", "0x1", " 1"}) {
    const std::string m =
        message_of([&] { (void)io::parse_integer<std::uint64_t>(bad, "--seed"); });
    EXPECT_NE(m.find("--seed must be an integer in [0, 18446744073709551615]"), std::string::npos)
        << bad << ": " << m;
  }
  const std::string m =
      message_of([] { (void)io::parse_integer<long long>("10000000000000000000", "count"); });
  EXPECT_NE(m.find("got '10000000000000000000'"), std::string::npos) << m;
}

template <class R>
class ARCH_NUMBERS_ROUNDTRIP : public ::testing::Test {};
using all_scalars = ::testing::Types<double, long double, mp50, mpfr_real>;
TYPED_TEST_SUITE(ARCH_NUMBERS_ROUNDTRIP, all_scalars, dpref::test::scalar_names);

TYPED_TEST(ARCH_NUMBERS_ROUNDTRIP, FormatThenParseIsTheIdentity) {
  using R = TypeParam;
  for (const R& x : {R(1) / 3, R(-2) / 7, R(1) / 10, R(123456789), R(1e-300), R(0)}) {
    const std::string t = io::format_real(x);
    EXPECT_EQ(io::parse_real<R>(t, "x"), x) << t;
  }
}

RC_GTEST_PROP(ARCH_NUMBERS_ROUNDTRIP, AnyFiniteDoubleRoundTrips, (double x)) {
  RC_PRE(std::isfinite(x));
  RC_ASSERT(io::parse_real<double>(io::format_real(x), "x") == x);
}

TEST(ARCH_JSON, DuplicateKeysAreRefusedWithTheirPath) {
  const std::string m =
      message_of([] { (void)document::parse(R"({"a": {"count": 1, "count": 2}})", "in.json"); });
  EXPECT_EQ(m, "in.json: /a/count must be a key that appears once");
}

TEST(ARCH_JSON, NestingDepthAndSizeAreBounded) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  const std::string m = message_of([&] { (void)document::parse(deep, "deep.json"); });
  EXPECT_NE(m.find("nested at most 64 levels deep"), std::string::npos) << m;
  io::parse_limits tiny;
  tiny.max_bytes = 10;
  EXPECT_THROW((void)document::parse(R"({"a": 1234567890})", "x", tiny), std::invalid_argument);
  EXPECT_NO_THROW((void)document::parse("[[[[1]]]]", "ok"));
}

TEST(ARCH_JSON, MalformedTextNamesTheSource) {
  const std::string m = message_of([] { (void)document::parse("{\"a\": }", "f.json"); });
  EXPECT_EQ(m.rfind("f.json: malformed JSON at byte", 0), 0u) << m;
}

struct toy_params {
  double epsilon = 1;
  long long count = 1;
  bool trace = false;
  std::string name = "x";
  std::vector<double> weights;
  template <class V>
  void fields(V&& v) {
    v("epsilon", epsilon, "ε");
    v("count", count, "n");
    v("trace", trace, "t");
    v("name", name, "s");
    v("weights", weights, "w");
  }
};

TEST(ARCH_JSON, TypedReadsRefuseWrongTypesAndUnknownKeys) {
  auto read = [](const char* text) {
    const document d = document::parse(text, "p.json");
    toy_params p;
    io::read_fields(node(d), p);
    return p;
  };
  EXPECT_EQ(read(R"({"count": 10000})").count, 10000);
  EXPECT_EQ(message_of([&] { read(R"({"Count": 10000})"); }),
            "p.json: (top level) has unknown key \"Count\" (valid keys: count, epsilon, name, "
            "trace, weights)");
  EXPECT_EQ(message_of([&] { read(R"({"count": 2.5})"); }),
            "p.json: /count must be an integer in [-9223372036854775808, 9223372036854775807] "
            "(no fraction, no exponent), got 2.5");
  EXPECT_EQ(message_of([&] { read(R"({"count": true})"); }),
            "p.json: /count must be an integer in [-9223372036854775808, 9223372036854775807] "
            "(no fraction, no exponent), got true");
  EXPECT_EQ(message_of([&] { read(R"({"count": 1e19})"); }).find("got 1e19") != std::string::npos,
            true);
  EXPECT_EQ(message_of([&] { read(R"({"epsilon": "abc"})"); }),
            "p.json: /epsilon must be a finite decimal number in the range of double, got \"abc\"");
  EXPECT_EQ(message_of([&] { read(R"({"trace": 1})"); }),
            "p.json: /trace must be true or false, got 1");
  EXPECT_EQ(message_of([&] { read(R"({"weights": [1, "x"]})"); }),
            "p.json: /weights/1 must be a finite decimal number in the range of double, got \"x\"");
  const toy_params ok = read(R"({"epsilon": "0.25", "weights": [1, 2.5], "name": "y"})");
  EXPECT_EQ(ok.epsilon, 0.25);
  ASSERT_EQ(ok.weights.size(), 2u);
  EXPECT_EQ(ok.weights[1], 2.5);
}

TEST(ARCH_JSON, RealsAreWrittenExactlyAndReadBackBitForBit) {
  toy_params p;
  p.epsilon = 0.1;
  p.weights = {1.0 / 3, -2e-300};
  const std::string text = io::fields_value(p).dump();
  const document d = document::parse(text, "out");
  toy_params q;
  io::read_fields(node(d), q);
  EXPECT_EQ(q.epsilon, p.epsilon);
  EXPECT_EQ(q.weights, p.weights);
  // other precisions are written as decimal strings carrying every digit
  const io::json v = io::real_value(mp50(1) / 3);
  ASSERT_TRUE(v.is_string());
  const document d2 = document::from_value(io::json::array({v}), "mem");
  EXPECT_EQ(node(d2).elements()[0].real<mp50>(), mp50(1) / 3);
}

TEST(ARCH_JSON, DisplayNamesLetCommandLineValuesNameTheirFlag) {
  document d = document::from_value(io::json{{"epsilon", "nan"}}, "command line");
  d.set_display_name("/epsilon", "--epsilon");
  toy_params p;
  EXPECT_EQ(message_of([&] { io::read_fields(node(d), p); }),
            "--epsilon must be a finite decimal number in the range of double, got \"nan\"");
}

}  // namespace

// ---- results and budgets (ARCH.RESULT, ARCH.BUDGET, ARCH.FIELDS) ----------------------------
#include "dpref/run/report_json.hpp"

namespace {

TEST(ARCH_FIELDS, OneFieldListGivesReaderWriterAndStrictness) {
  // the writer emits every field in field-list order; the reader accepts exactly those keys
  toy_params p;
  p.count = 7;
  const io::json j = io::fields_value(p);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"epsilon", "count", "trace", "name", "weights"}));
  const document d = document::parse(j.dump(), "mem");
  toy_params q;
  io::read_fields(node(d), q);
  EXPECT_EQ(q.count, 7);
  io::json extra = j;
  extra["epsilom"] = 1;
  const document e = document::parse(extra.dump(), "mem");
  EXPECT_THROW(io::read_fields(node(e), q), std::invalid_argument);
}

TEST(ARCH_BUDGET, APlanThatExceedsTheRequestFailsBeforeAnyRelease) {
  using namespace dpref::accounting;
  ledger<double> plan;
  plan.record(make_event<double>(laplace_mechanism<double>{1, 10}, 11));  // ε = 1.1
  privacy_budget_request<double> req;
  req.epsilon = 1;
  const std::string m = message_of([&] { (void)plan_privacy(plan, req, "toy::run"); });
  EXPECT_EQ(m.rfind("toy::run: the certified guarantee (epsilon = 1.1", 0), 0u) << m;
  EXPECT_THROW((void)plan_privacy(plan, req, "toy::run"), budget_exceeded);
  req.allow_over_budget = true;
  const privacy_report<double> r = plan_privacy(plan, req, "toy::run");
  EXPECT_FALSE(r.budget_met);
  EXPECT_GE(r.guarantee.epsilon, 1.1);
  req.allow_over_budget = false;
  req.epsilon = 1.2;
  EXPECT_TRUE(plan_privacy(plan, req, "toy::run").budget_met);
}

namespace {
/// A private run of one Laplace event (ε = 0.25) planned within ε = 0.25.
run_report<double> toy_private_run() {
  run_report<double> p;
  accounting::ledger<double> plan;
  plan.record(accounting::make_event<double>(accounting::laplace_mechanism<double>{1, 4}));
  privacy_budget_request<double> req;
  req.epsilon = 0.25;
  p.privacy = plan_privacy(plan, req, "toy");
  return p;
}
}  // namespace

TEST(ARCH_RESULT, NonPrivateRunsClaimNoGuaranteeAndPrivateRunsCarryTheirLedger) {
  run_report<double> np;
  np.privacy = non_private<double>();
  const io::json a = result_value(np, {"ev", "projected_gradient", {}, {}, nullptr, {}});
  EXPECT_EQ(a["privacy"], io::json({{"private", false}}));
  EXPECT_EQ(a["schema"], "dpref.result/1");
  run_report<double> p = toy_private_run();
  p.privacy.enforced.push_back({"bound", 1.0, enforcement::clip, "clipped in l1"});
  const io::json b = result_value(p, {"ev", "private_gradient", {}, {}, nullptr, {}});
  EXPECT_EQ(b["privacy"]["guarantee"]["epsilon"], 0.25);
  EXPECT_EQ(b["privacy"]["ledger"]["events"][0]["mechanism"], "laplace");
  EXPECT_EQ(b["privacy"]["budget_met"], true);
}

TEST(PRIV_BOUNDS, APrivateResultListsItsEnforcedBoundsOrIsRefused) {
  run_report<double> p = toy_private_run();
  // no enforced bound: the document is refused (a certificate resting on unenforced constants)
  const std::string m = message_of([&] {
    (void)result_value(p, {"toy", "alg", {}, {}, nullptr, {}});
  });
  EXPECT_NE(m.find("lists no enforced public bound"), std::string::npos) << m;
  p.privacy.enforced.push_back(
      {"lipschitz", 0.5, enforcement::clip, "subgradients clipped to l2 norm <= lipschitz"});
  p.privacy.enforced.push_back({"bmax", 2.0, enforcement::refuse, "|b_i| > bmax refused"});
  const io::json b = result_value(p, {"toy", "alg", {}, {}, nullptr, {}});
  const io::json& e = b["privacy"]["enforced"];
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0], io::json({{"constant", "lipschitz"},
                            {"value", 0.5},
                            {"enforcement", "clip"},
                            {"how", "subgradients clipped to l2 norm <= lipschitz"}}));
  EXPECT_EQ(e[1]["enforcement"], "refuse");
  // a non-private run claims nothing and lists nothing
  run_report<double> np;
  np.privacy = non_private<double>();
  EXPECT_FALSE(
      result_value(np, {"toy", "alg", {}, {}, nullptr, {}})["privacy"].contains("enforced"));
}

TEST(PRIV_RELEASE, PrivateResultsCarryDiagnosticsOnlyOnRequest) {
  run_report<double> p = toy_private_run();
  p.privacy.enforced.push_back({"c", 1.0, enforcement::derived, "from public structure"});
  // not asked, nothing computed: no non_private key at all
  const io::json a = result_value(p, {"toy", "alg", {}, {{"x", 1}}, nullptr, {}});
  EXPECT_FALSE(a.contains("non_private"));
  // not asked but computed: a programming error, refused rather than released
  result_parts leaked{"toy", "alg", {}, {}, nullptr, {{"note", "n"}, {"objective", 3}}};
  const std::string m = message_of([&] { (void)result_value(p, leaked); });
  EXPECT_NE(m.find("computed non-private diagnostics it was not asked for"), std::string::npos)
      << m;
  // asked: written, and they must carry their note
  leaked.diagnostics = true;
  EXPECT_EQ(result_value(p, leaked)["non_private"]["objective"], 3);
  result_parts unlabelled{"toy", "alg", {}, {}, nullptr, {{"objective", 3}}, true};
  EXPECT_NE(message_of([&] { (void)result_value(p, unlabelled); }).find("carry no note"),
            std::string::npos);
  // non-private runs keep their section without a request
  run_report<double> np;
  np.privacy = non_private<double>();
  EXPECT_EQ(
      result_value(np,
                   {"toy", "alg", {}, {}, nullptr, {{"objective", 3}}})["non_private"]["objective"],
      3);
}

}  // namespace

// ---- issue 31: fields that do not apply, strict types, vacuous guarantees, work bounds -------
// (spec/hardening.md HARD.APPLIES, HARD.VACUOUS, HARD.WORK)
#include "dpref/accounting/account_report.hpp"
#include "dpref/audit/builtin.hpp"
#include "dpref/enum_names.hpp"

namespace {

enum class toy_mode { plain, scaled };
DPREF_ENUM_NAMES(toy_mode, plain, scaled)

// DPREF_ENUM_NAMES splits the macro's text: every enumerator with its own spelling, in order,
// including names with digits and underscores and a single value (checked at compile time)
enum class toy_spelled { a1, snake_case_name, z };
DPREF_ENUM_NAMES(toy_spelled, a1, snake_case_name, z)
enum class toy_single { only };
DPREF_ENUM_NAMES(toy_single, only)
static_assert(enum_names(toy_spelled{}).size() == 3);
static_assert(enum_names(toy_spelled{})[0].first == toy_spelled::a1 &&
              enum_names(toy_spelled{})[0].second == "a1");
static_assert(enum_names(toy_spelled{})[1].first == toy_spelled::snake_case_name &&
              enum_names(toy_spelled{})[1].second == "snake_case_name");
static_assert(enum_names(toy_spelled{})[2].first == toy_spelled::z &&
              enum_names(toy_spelled{})[2].second == "z");
static_assert(enum_names(toy_single{}).size() == 1 && enum_names(toy_single{})[0].second == "only");
static_assert(enum_names(toy_mode{})[1].second == "scaled");

/// A struct with one mode-dependent field (scale) and one optional-dependent field (step).
struct toy_mode_params {
  toy_mode mode = toy_mode::plain;
  double scale = 2;
  std::optional<double> rate;
  double step = 1;
  template <class V>
  void fields(V&& v) {
    v("mode", mode, "plain or scaled");
    v("scale", scale, "scaled only");
    v("rate", rate, "optional");
    v("step", step, "only without rate");
  }
  template <class A>
  void applicability(A&& a) const {
    a("scale", mode == toy_mode::scaled, "applies only to mode scaled (mode is plain)");
    a("step", !rate.has_value(), "applies only when rate is absent");
  }
};
struct toy_config {
  toy_mode_params params;
  long long seed = 1;
  template <class V>
  void fields(V&& v) {
    v("params", params, "nested");
    v("seed", seed, "seed");
  }
};

TEST(HARD_APPLIES, AFieldThatDoesNotApplyIsRefusedWhenGivenAndNotEchoed) {
  const auto read = [](const char* text) {
    toy_config c;
    io::read_fields(node(document::parse(text, "p.json")), c);
    return c;
  };
  // given where it does not apply: refused, naming the key (JSON pointer), the reason, the value
  EXPECT_EQ(message_of([&] { (void)read(R"({"params": {"scale": 3}})"); }),
            "p.json: /params/scale must be absent: it applies only to mode scaled (mode is "
            "plain), got 3");
  // the decision uses the values read, in any key order
  EXPECT_EQ(read(R"({"params": {"scale": 3, "mode": "scaled"}})").params.scale, 3);
  EXPECT_EQ(message_of([&] { (void)read(R"({"params": {"step": 2, "rate": 0.5}})"); }),
            "p.json: /params/step must be absent: it applies only when rate is absent, got 2");
  // an explicit null of an optional is its default ("absent"); absent keys are never refused
  EXPECT_NO_THROW((void)read(R"({"params": {"rate": null, "step": 2}})"));
  EXPECT_NO_THROW((void)read(R"({"params": {}})"));
  // flags build the same document: the message names the flag
  document f = document::from_value(io::json{{"params", {{"scale", "3"}}}}, "command line");
  f.set_display_name("/params/scale", "--scale");
  toy_config c;
  EXPECT_EQ(message_of([&] { io::read_fields(node(f), c); }),
            "--scale must be absent: it applies only to mode scaled (mode is plain), got \"3\"");
  // the echo omits what does not apply, so that it reads back (the --params round trip)
  toy_config w;
  w.params.rate = 0.25;
  const io::json echo = io::fields_value(w);
  EXPECT_FALSE(echo["params"].contains("scale"));
  EXPECT_FALSE(echo["params"].contains("step"));
  toy_config back;
  io::read_fields(node(document::parse(echo.dump(), "echo")), back);
  EXPECT_EQ(io::fields_value(back), echo);
  // a generator's full document loses exactly the keys that do not apply
  const io::json full = {{"params", {{"mode", "plain"}, {"scale", 2}, {"step", 1}}}, {"seed", 3}};
  const io::json trimmed = io::without_inapplicable<toy_config>(full);
  EXPECT_EQ(trimmed, io::json({{"params", {{"mode", "plain"}, {"step", 1}}}, {"seed", 3}}));
  EXPECT_NO_THROW((void)read(trimmed.dump().c_str()));
}

TEST(HARD_APPLIES, JsonIntegersAreNeverCoercedFromStrings) {
  // a JSON document's integer must be a JSON integer; only flags (all text) give digit strings
  EXPECT_EQ(message_of([] {
              toy_config c;
              io::read_fields(node(document::parse(R"({"seed": "5"})", "p.json")), c);
            }),
            "p.json: /seed must be an integer in [-9223372036854775808, 9223372036854775807] (no "
            "fraction, no exponent), got \"5\"");
  document f = document::from_value(io::json{{"seed", "5"}}, "command line");
  f.set_display_name("/seed", "--seed");
  toy_config c;
  io::read_fields(node(f), c);
  EXPECT_EQ(c.seed, 5);
  // a real from an in-memory integer keeps every digit (beyond 2^53)
  const document big = document::from_value(io::json{{"x", 9007199254740993LL}}, "mem");
  EXPECT_EQ(node(big).at("x").real<long double>(), 9007199254740993.0L);
}

TEST(HARD_VACUOUS, ALedgerWhoseDeltaTermsReachOneIsRefusedNotPrinted) {
  const char* text =
      R"({"accounting": {"delta": 0}, "events": [{"mechanism": "approx", "epsilon": 0,
          "delta": 0.6, "count": 2}]})";
  const document d = document::parse(text, "l.json");
  const std::string m = message_of([&] { (void)accounting::account_document<double>(node(d)); });
  EXPECT_NE(m.find("l.json: (top level) must be a ledger with a non-vacuous guarantee"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("got (epsilon, delta) = (0, 1)"), std::string::npos) << m;
  const document ok = document::parse(
      R"({"accounting": {"delta": 0}, "events": [{"mechanism": "approx", "epsilon": 0.1,
          "delta": 0.2, "count": 2}]})",
      "ok.json");
  EXPECT_NO_THROW((void)accounting::account_document<double>(node(ok)));
}

TEST(HARD_WORK, AuditSamplesAreBoundedBeforeTheFirstDrawUnlessForced) {
  audit::builtin_options o;
  o.mechanism = "laplace";
  o.samples = std::uint64_t{1} << 34;  // the flag's own maximum: 2^36 draws per pair
  const std::string m = message_of([&] { audit::validate(o); });
  EXPECT_NE(m.find("samples must be such that 4 × samples × (dim or candidates) <= 2^30"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("got 17179869184"), std::string::npos) << m;
  o.force = true;
  EXPECT_NO_THROW(audit::validate(o));
  o.force = false;
  o.samples = std::uint64_t{1} << 28;  // exactly at the bound
  EXPECT_NO_THROW(audit::validate(o));
  o.mechanism = "exponential";
  o.candidates = 10000;
  o.samples = 100000;
  EXPECT_THROW(audit::validate(o), std::invalid_argument);
}

}  // namespace

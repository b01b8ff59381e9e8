// The decision rules of `dpref reproduce` (spec/reproduce.md REPRO.RULE, src/reproduce/rule.hpp):
// the evaluator's grammar and semantics on hand-computed cases, decide()'s order (contradicted
// first), and the refusals. The Python check re-evaluates the same rule text on the report's
// numbers with its own evaluator (REPRO_VERDICT_rederive).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "reproduce/rule.hpp"

namespace {

namespace rp = dpref::reproduce;

const std::vector<rp::number> kNumbers = {{"a", 2.0},
                                          {"b", 3.0},
                                          {"se", 0.25},
                                          {"zero", 0.0},
                                          {"missing", std::numeric_limits<double>::quiet_NaN()}};

double ev(const std::string& e) { return rp::evaluate_rule(e, kNumbers); }

TEST(REPRO_RULE, ArithmeticPrecedenceAndFunctions) {
  EXPECT_EQ(ev("a + b * 2"), 8.0);
  EXPECT_EQ(ev("(a + b) * 2"), 10.0);
  EXPECT_EQ(ev("a - b - 1"), -2.0);  // left associative
  EXPECT_EQ(ev("b / a / 2"), 0.75);
  EXPECT_EQ(ev("-a + 5"), 3.0);
  EXPECT_EQ(ev("abs(a - b)"), 1.0);
  EXPECT_EQ(ev("max(a, b, 1) - min(a, b)"), 1.0);
  EXPECT_EQ(ev("sqrt(4 * a * a)"), 4.0);
  EXPECT_EQ(ev("log(exp(b))"), 3.0);
  EXPECT_EQ(ev("1e-12 * 1e12"), 1.0);
  EXPECT_EQ(ev("abs(a) + 5 * se <= log(2)"), 0.0);  // 3.25 > 0.693
  EXPECT_EQ(ev("abs(a) - 5 * se > log(2)"), 1.0);   // 0.75 > 0.693
}

TEST(REPRO_RULE, BooleansComparisonsAndNaN) {
  EXPECT_EQ(ev("a < b and b < 4"), 1.0);
  EXPECT_EQ(ev("a > b or zero == 0"), 1.0);
  EXPECT_EQ(ev("not a < b"), 0.0);  // not binds looser than a comparison
  EXPECT_EQ(ev("not (a < b) or a != a"), 0.0);
  EXPECT_EQ(ev("a >= 2 and a <= 2 and a == 2"), 1.0);
  // NaN (a non-finite number of the report): every comparison false, != true
  EXPECT_EQ(ev("missing <= 1"), 0.0);
  EXPECT_EQ(ev("missing > 1"), 0.0);
  EXPECT_EQ(ev("missing != missing"), 1.0);
  EXPECT_EQ(ev("not (missing <= 1)"), 1.0);
  EXPECT_TRUE(std::isinf(ev("a / zero")));
  // a name that starts with a keyword is a name
  const std::vector<rp::number> n = {{"order", 1.0}, {"notes", 2.0}, {"andy", 3.0}};
  EXPECT_EQ(rp::evaluate_rule("order + notes + andy == 6", n), 1.0);
}

TEST(REPRO_RULE, DecideChecksContradictedFirst) {
  rp::claim c;
  c.id = "X";
  c.numbers = kNumbers;
  c.rule = {"a < b", "a > 1"};  // both hold: contradicted wins
  EXPECT_EQ(rp::decide(c), rp::verdict::contradicted);
  c.rule = {"a < b", "a > 5"};
  EXPECT_EQ(rp::decide(c), rp::verdict::reproduced);
  c.rule = {"a > b", "a > 5"};
  EXPECT_EQ(rp::decide(c), rp::verdict::not_reproduced);
  c.rule = {"a > b", ""};  // never contradicted
  EXPECT_EQ(rp::decide(c), rp::verdict::not_reproduced);
}

std::string error_of(const std::string& e) {
  try {
    (void)ev(e);
  } catch (const std::invalid_argument& x) {
    return x.what();
  }
  return "no error";
}

TEST(REPRO_RULE, InvalidRulesAreRefusedByName) {
  EXPECT_EQ(error_of("a < nope"), "decision rule 'a < nope': unknown number 'nope'");
  EXPECT_EQ(error_of("a < b < 4"), "decision rule 'a < b < 4': unexpected '< 4'");
  EXPECT_EQ(error_of("pow(a, 2)"),
            "decision rule 'pow(a, 2)': unknown function pow with 2 argument(s)");
  EXPECT_EQ(error_of("log(a, b)"),
            "decision rule 'log(a, b)': unknown function log with 2 argument(s)");
  EXPECT_EQ(error_of("(a + b"), "decision rule '(a + b': missing ')'");
  EXPECT_EQ(error_of("a +"), "decision rule 'a +': expression ends early");
  EXPECT_EQ(error_of("a[0]"), "decision rule 'a[0]': unexpected '[0]'");
  rp::claim c;
  c.id = "X";
  EXPECT_THROW((void)rp::decide(c), std::invalid_argument);  // no rule
}

}  // namespace

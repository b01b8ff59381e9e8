// The decision-rule evaluator of `dpref reproduce` (rule.hpp, spec/reproduce.md REPRO.RULE).
#include "rule.hpp"

#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dpref::reproduce {
namespace {

class parser {
 public:
  parser(std::string_view text, const std::vector<number>& numbers)
      : text_(text), numbers_(numbers) {}

  double parse() {
    const double v = disjunction();
    skip();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(text_.substr(pos_)) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("decision rule '" + std::string(text_) + "': " + what);
  }
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  /// Consumes the operator `op` (a keyword must end at a non-identifier character).
  bool accept(std::string_view op) {
    skip();
    if (text_.substr(pos_, op.size()) != op) return false;
    const std::size_t end = pos_ + op.size();
    if (std::isalpha(static_cast<unsigned char>(op.front())) && end < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_'))
      return false;
    pos_ = end;
    return true;
  }
  static double truth(bool b) { return b ? 1.0 : 0.0; }

  double disjunction() {
    double v = conjunction();
    while (accept("or")) {
      const double r = conjunction();  // both sides are evaluated: no side effects
      v = truth(v != 0 || r != 0);
    }
    return v;
  }
  double conjunction() {
    double v = negation();
    while (accept("and")) {
      const double r = negation();
      v = truth(v != 0 && r != 0);
    }
    return v;
  }
  double negation() {
    if (accept("not")) return truth(negation() == 0);
    return comparison();
  }
  double comparison() {
    const double a = sum();
    // two-character operators first
    if (accept("<=")) return truth(a <= sum());
    if (accept(">=")) return truth(a >= sum());
    if (accept("==")) return truth(a == sum());
    if (accept("!=")) return truth(a != sum());
    if (accept("<")) return truth(a < sum());
    if (accept(">")) return truth(a > sum());
    return a;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (accept("+"))
        v += product();
      else if (accept("-"))
        v -= product();
      else
        return v;
    }
  }
  double product() {
    double v = unary();
    for (;;) {
      if (accept("*"))
        v *= unary();
      else if (accept("/"))
        v /= unary();
      else
        return v;
    }
  }
  double unary() {
    if (accept("-")) return -unary();
    return atom();
  }
  double atom() {
    skip();
    if (pos_ >= text_.size()) fail("expression ends early");
    const char ch = text_[pos_];
    if (ch == '(') {
      ++pos_;
      const double v = disjunction();
      if (!accept(")")) fail("missing ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(ch)) || ch == '.') {
      const std::string rest(text_.substr(pos_));
      std::size_t used = 0;
      const double v = std::stod(rest, &used);
      pos_ += used;
      return v;
    }
    if (!std::isalpha(static_cast<unsigned char>(ch)) && ch != '_')
      fail("unexpected '" + std::string(1, ch) + "'");
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    const std::string name(text_.substr(start, pos_ - start));
    if (accept("(")) return call(name);
    for (const number& n : numbers_)
      if (n.name == name)
        return std::isfinite(n.value) ? n.value : std::numeric_limits<double>::quiet_NaN();
    fail("unknown number '" + name + "'");
  }
  double call(const std::string& f) {
    std::vector<double> args{disjunction()};
    while (accept(",")) args.push_back(disjunction());
    if (!accept(")")) fail("missing ')' after the arguments of " + f);
    const bool one = args.size() == 1;
    if (f == "abs" && one) return std::fabs(args[0]);
    if (f == "sqrt" && one) return std::sqrt(args[0]);
    if (f == "log" && one) return std::log(args[0]);
    if (f == "exp" && one) return std::exp(args[0]);
    if ((f == "min" || f == "max") && args.size() >= 2) {
      double v = args[0];
      for (const double a : args) v = f == "min" ? (a < v ? a : v) : (a > v ? a : v);
      return v;
    }
    fail("unknown function " + f + " with " + std::to_string(args.size()) + " argument(s)");
  }

  std::string_view text_;
  const std::vector<number>& numbers_;
  std::size_t pos_ = 0;
};

}  // namespace

double evaluate_rule(std::string_view expr, const std::vector<number>& numbers) {
  return parser(expr, numbers).parse();
}

verdict decide(const claim& c) {
  if (c.rule.reproduced_if.empty())
    throw std::invalid_argument("claim " + c.id + ": no decision rule (reproduced_if is empty)");
  if (!c.rule.contradicted_if.empty() && evaluate_rule(c.rule.contradicted_if, c.numbers) != 0)
    return verdict::contradicted;
  return evaluate_rule(c.rule.reproduced_if, c.numbers) != 0 ? verdict::reproduced
                                                             : verdict::not_reproduced;
}

}  // namespace dpref::reproduce

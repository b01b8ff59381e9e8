// Checking one answer against one conformance vector (spec/conformance.md CONF.CHECK).
//
// A vector is {"id", "op", "input", "expected": {key: value}, "tolerance": {key: tolerance}}
// (or "expect_error": true); an answer is {"output": {key: value}} or {"error": "message"}.
// Values are numbers, decimal strings, booleans, hex strings or nested arrays of them. Each
// tolerance says how the answer's leaves may differ from the expected leaves:
//   {"kind": "exact"}                        equal (hex words compared as integers)
//   {"kind": "ulps", "ulps": N, "bits": p}   |y - x| <= N ulp_p(x); N = 0: y = x rounded to p bits
//   {"kind": "rel", "rel": "r", "bits": p}   |y - x| <= r |x|
//   {"kind": "abs", "abs": "a", "bits": p}   |y - x| <= a
// with an optional "direction": "up" (y >= x: certified upper bounds), "down" (y <= x) or
// "both" (default). The answer y is read as the nearest p-bit number to its text (what an
// implementation at that precision holds); the expected x at 640 bits. The report names the
// worst leaf and its error in the tolerance's unit (signed: y - x).
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpref/conformance/numbers.hpp"
#include "dpref/io/json.hpp"

namespace dpref::conformance {

/// Verdict on one vector: passed, failed, or unsupported (the implementation answered
/// {"unsupported": reason}: counted apart, never as passed nor as failed).
struct verdict {
  std::string id;
  bool pass = false;
  bool unsupported = false;  ///< the implementation does not implement the op / event kind
  bool wrong_side = false;   ///< a directed leaf on the forbidden side (below an upper bound)
  std::string problem;       ///< why it failed, or the unsupported reason ("" if it passed)
  std::string worst_key;     ///< leaf with the largest error relative to its allowance
  double worst_error = 0;    ///< signed error of that leaf in `unit`
  double worst_ratio = 0;    ///< |error| / allowance (<= 1 passes; 0 for a passing 0-ulp leaf;
                             ///< direction violations and failed exact leaves: inf)
  double allowed = 0;        ///< allowance of that leaf in `unit`
  std::string unit;          ///< "ulps", "rel", "abs" or "" (exact)

  [[nodiscard]] io::json to_json() const {
    io::json j = io::json::object();
    j["id"] = id;
    j["pass"] = pass;
    j["status"] = pass ? "pass" : unsupported ? "unsupported" : "fail";
    if (wrong_side) j["wrong_side"] = true;
    if (!problem.empty()) j["problem"] = problem;
    if (!worst_key.empty()) {
      j["worst"] = {
          {"key", worst_key},
          {"error", std::isfinite(worst_error) ? io::json(worst_error) : io::json("inf")},
          {"allowed", allowed},
          {"unit", unit},
          {"ratio", std::isfinite(worst_ratio) ? io::json(worst_ratio) : io::json("inf")}};
    }
    return j;
  }
};

namespace detail {

inline std::string leaf_text(const io::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) {
    // shortest round-trip text of the double the JSON number denotes
    return io::format_real(v.get<double>());
  }
  throw std::invalid_argument("a number or a decimal string");
}

inline bool is_hex(const io::json& v) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

struct tolerance_spec {
  std::string kind = "exact";
  std::string direction = "both";
  long long ulps = 0;
  int bits = 53;
  mp bound;  // rel or abs
};

inline tolerance_spec read_tolerance(const io::json& t) {
  tolerance_spec s;
  if (!t.is_object() || !t.contains("kind"))
    throw std::invalid_argument("tolerance must be an object with a \"kind\"");
  s.kind = t.at("kind").get<std::string>();
  if (t.contains("direction")) s.direction = t.at("direction").get<std::string>();
  if (s.direction != "both" && s.direction != "up" && s.direction != "down")
    throw std::invalid_argument("tolerance direction must be both, up or down");
  if (t.contains("bits")) s.bits = t.at("bits").get<int>();
  if (s.kind == "ulps") {
    s.ulps = t.at("ulps").get<long long>();
  } else if (s.kind == "rel" || s.kind == "abs") {
    s.bound = mp::parse(leaf_text(t.at(s.kind)), reference_bits, "tolerance " + s.kind);
  } else if (s.kind != "exact") {
    throw std::invalid_argument("tolerance kind must be exact, ulps, rel or abs, got '" + s.kind +
                                "'");
  }
  return s;
}

/// Compares leaf y (answer) with x (expected); updates the verdict's worst leaf.
inline void compare_leaf(const io::json& x, const io::json& y, const tolerance_spec& t,
                         const std::string& key, verdict& v) {
  if (t.kind == "exact") {
    bool equal;
    if (is_hex(x) && is_hex(y)) {
      equal = std::stoull(x.get<std::string>(), nullptr, 16) ==
              std::stoull(y.get<std::string>(), nullptr, 16);
    } else {
      equal = x == y;
    }
    if (!equal) {
      v.pass = false;
      if (v.problem.empty()) v.problem = key + ": expected " + x.dump() + ", got " + y.dump();
      if (v.worst_ratio < std::numeric_limits<double>::infinity()) {
        v.worst_key = key;
        v.worst_error = std::numeric_limits<double>::infinity();
        v.worst_ratio = std::numeric_limits<double>::infinity();
        v.allowed = 0;
        v.unit = "";
      }
    }
    return;
  }
  const mp ex = mp::parse(leaf_text(x), reference_bits, "expected " + key);
  std::string ytext;
  try {
    ytext = leaf_text(y);
  } catch (const std::invalid_argument&) {
    v.pass = false;
    if (v.problem.empty()) v.problem = key + ": expected a number, got " + y.dump();
    return;
  }
  if (ytext.find_first_of("iInN") != std::string::npos && !io::is_decimal_number(ytext)) {
    v.pass = false;  // a non-finite answer fails its vector (it does not abort the check)
    if (v.problem.empty()) v.problem = key + ": not a finite number, got '" + ytext + "'";
    v.worst_key = key;
    v.worst_error = v.worst_ratio = std::numeric_limits<double>::infinity();
    v.unit = t.kind;
    return;
  }
  mp got;
  try {
    got = mp::parse(ytext, t.bits, "answer " + key);
  } catch (const std::invalid_argument& e) {
    v.pass = false;
    if (v.problem.empty()) v.problem = e.what();
    return;
  }
  const mp diff = sub(got, ex);
  double error = 0, allowed = 0, ratio = 0;
  bool ok = true;
  if (t.kind == "ulps") {
    const mp u = ulp(ex, t.bits);
    if (t.ulps == 0) {
      ok = compare(got, round_to(ex, t.bits)) == 0;
      error = u.is_zero() ? (diff.is_zero() ? 0.0 : std::numeric_limits<double>::infinity())
                          : div(diff, u).to_double();
      ratio = ok ? 0 : std::numeric_limits<double>::infinity();
    } else {
      error = u.is_zero() ? (diff.is_zero() ? 0.0 : std::numeric_limits<double>::infinity())
                          : div(diff, u).to_double();
      allowed = static_cast<double>(t.ulps);
      ratio = std::fabs(error) / allowed;
      ok = ratio <= 1;
    }
    allowed = static_cast<double>(t.ulps);
  } else {
    mp limit = t.bound;
    if (t.kind == "rel") {
      limit = mul(t.bound, abs(ex));
      error = ex.is_zero() ? (diff.is_zero() ? 0.0 : std::numeric_limits<double>::infinity())
                           : div(diff, abs(ex)).to_double();
    } else {
      error = diff.to_double();
    }
    allowed = t.bound.to_double();
    ok = compare(abs(diff), limit) <= 0;
    ratio = limit.is_zero() ? (diff.is_zero() ? 0.0 : std::numeric_limits<double>::infinity())
                            : div(abs(diff), limit).to_double();
  }
  if ((t.direction == "up" && diff.sign() < 0) || (t.direction == "down" && diff.sign() > 0)) {
    ok = false;
    ratio = std::numeric_limits<double>::infinity();
    v.wrong_side = true;
    if (v.problem.empty())
      v.problem = key + (t.direction == "up" ? ": BELOW" : ": ABOVE") + " the exact value by " +
                  io::format_real(std::fabs(error)) + " " + t.kind + " (a certified " +
                  (t.direction == "up" ? "upper" : "lower") +
                  " bound must never be; any amount fails)";
  }
  if (!ok) {
    v.pass = false;
    if (v.problem.empty())
      v.problem = key + ": error " + std::to_string(error) + " " + t.kind + " exceeds " +
                  std::to_string(allowed);
  }
  if (ratio > v.worst_ratio || v.worst_key.empty()) {
    v.worst_key = key;
    v.worst_error = error;
    v.worst_ratio = ratio;
    v.allowed = allowed;
    v.unit = t.kind;
  }
}

inline void compare_tree(const io::json& x, const io::json& y, const tolerance_spec& t,
                         const std::string& key, verdict& v) {
  if (x.is_array()) {
    if (!y.is_array() || y.size() != x.size()) {
      v.pass = false;
      if (v.problem.empty())
        v.problem = key + ": expected an array of " + std::to_string(x.size()) + " values, got " +
                    io::brief(y);
      return;
    }
    for (std::size_t i = 0; i < x.size(); ++i)
      compare_tree(x[i], y[i], t, key + "/" + std::to_string(i), v);
    return;
  }
  compare_leaf(x, y, t, key, v);
}

}  // namespace detail

/// The verdict on `answer` ({"output": {...}} or {"error": "..."}) for `vector`.
/// @throws std::invalid_argument for a malformed vector (not for a wrong answer)
/// @spec CONF.CHECK
inline verdict check(const io::json& vector, const io::json& answer) {
  verdict v;
  v.id = vector.value("id", std::string());
  v.pass = true;
  const bool want_error = vector.value("expect_error", false);
  if (answer.is_object() && answer.contains("unsupported")) {
    v.pass = false;
    v.unsupported = true;
    const io::json& why = answer.at("unsupported");
    v.problem = why.is_string() ? why.get<std::string>() : why.dump();
    return v;
  }
  if (!answer.is_object() || (!answer.contains("output") && !answer.contains("error"))) {
    v.pass = false;
    v.problem = "no answer (an object with \"output\", \"error\" or \"unsupported\" was expected)";
    return v;
  }
  if (want_error) {
    if (!answer.contains("error")) {
      v.pass = false;
      v.problem = "expected an error (invalid input must be refused), got an output";
    }
    return v;
  }
  if (answer.contains("error")) {
    v.pass = false;
    v.problem = "error: " + (answer.at("error").is_string() ? answer.at("error").get<std::string>()
                                                            : answer.at("error").dump());
    return v;
  }
  const io::json& out = answer.at("output");
  const io::json& expected = vector.at("expected");
  const io::json& tol = vector.at("tolerance");
  for (auto it = expected.begin(); it != expected.end(); ++it) {
    if (!tol.contains(it.key()))
      throw std::invalid_argument("vector " + v.id + ": no tolerance for \"" + it.key() + "\"");
    const detail::tolerance_spec t = detail::read_tolerance(tol.at(it.key()));
    // a key is a member of the output, or a JSON pointer into it ("/iterates/x")
    const bool pointer = !it.key().empty() && it.key()[0] == '/';
    const io::json* got = nullptr;
    if (out.is_object()) {
      if (pointer) {
        const io::json::json_pointer ptr(it.key());
        if (out.contains(ptr)) got = &out.at(ptr);
      } else if (out.contains(it.key())) {
        got = &out.at(it.key());
      }
    }
    if (!got) {
      v.pass = false;
      if (v.problem.empty()) v.problem = "the output has no \"" + it.key() + "\"";
      continue;
    }
    detail::compare_tree(it.value(), *got, t, it.key(), v);
  }
  return v;
}

}  // namespace dpref::conformance

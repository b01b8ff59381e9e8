// Shared pieces of the conformance corpus generator (spec/conformance.md CONF.CORPUS): the
// corpus version, the digits of expected values and of reference evaluations, the tolerance
// objects, and finishing a vector with dpref's own answer (generation fails unless it passes).
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dpref/conformance/check.hpp"
#include "dpref/conformance/numbers.hpp"
#include "dpref/conformance/ops.hpp"
#include "dpref/conformance/registry.hpp"

namespace dpref::conformance {

/// Version of the corpus layout and of the vectors' meaning (bumped when either changes).
inline constexpr int corpus_version = 2;
/// Significant digits of expected values.
inline constexpr int expected_digits = 60;
/// Decimal digits of mpfr_real for reference evaluations (set by the generator's caller).
inline constexpr unsigned reference_digits = 120;
namespace gen {

inline io::json str(const mp& x) { return x.digits(expected_digits); }

inline io::json ulps_tol(long long n, int bits, const char* direction = "both") {
  return {{"kind", "ulps"}, {"ulps", n}, {"bits", bits}, {"direction", direction}};
}

/// Certified outputs of a precision: never below the exact value, at most 64 ulps above (the
/// accountant rounds every intermediate up; dpref's measured slack is below 3 ulps).
inline io::json certified_tol(int bits) { return ulps_tol(64, bits, "up"); }

inline io::json exact_tol() { return {{"kind", "exact"}}; }
/// |y - x| <= r |x| (r a decimal text), answers read at `bits`.
inline io::json rel_tol(const char* r, int bits = 53) {
  return {{"kind", "rel"}, {"rel", r}, {"bits", bits}};
}

template <real_scalar Real>
int bits_of() {
  return binary_digits<Real>();
}

/// dpref's answer ({"output"} or {"error"}) to a vector's request.
inline io::json answer_of(const io::json& v, const std::vector<paper_runner>& runners = {}) {
  try {
    const io::document d =
        io::document::from_value(v.at("input"), "vector " + v.at("id").get<std::string>());
    return {{"output", evaluate(v.at("op").get<std::string>(), io::node(d), runners)}};
  } catch (const std::exception& e) {
    return {{"error", e.what()}};
  }
}

/// Adds dpref's answer as "reference" and checks it passes (throws std::logic_error if not).
inline io::json finish(io::json v, const std::vector<paper_runner>& runners = {}) {
  const io::json a = answer_of(v, runners);
  const verdict r = check(v, a);
  if (!r.pass)
    throw std::logic_error("conformance generator: dpref fails its own vector " + r.id + ": " +
                           r.problem);
  v["reference"] = a;
  return v;
}

inline io::json address_json(const address& a) {
  return {
      {"seed", a.seed}, {"stream", a.stream}, {"substream", a.substream}, {"position", a.position}};
}
}  // namespace gen
}  // namespace dpref::conformance

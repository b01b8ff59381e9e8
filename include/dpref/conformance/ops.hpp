// The operations of the conformance protocol (spec/conformance.md CONF.OPS) and of the Python
// package (spec/python.md): typed C++ functions over dpref's generic layers, and `evaluate`,
// dpref's own answer to one protocol request {"op", "input"} -> output object.
//
//   philox     {seed, stream, substream, position, lane, count} -> {"words": ["0x...", ...]}
//   sample     {distribution, params {name: decimal text}, precision, address {seed, stream,
//              substream, position}, count} -> {"samples": [...]}
//   account    {ledger {"accounting", "events"}, precision} -> {"epsilon", "delta"}
//   calibrate  {function, args {name: decimal text}, precision} -> {"value"}
//   project_capped_simplex {x0: [...], a: [...], b, precision} -> {"x": [...], "nu"}
//
// Reals in inputs are decimal text (or JSON numbers) converted once at the target precision
// (ARCH.NUMBERS); reals in outputs are JSON numbers for double and decimal strings carrying
// every digit otherwise.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/account_report.hpp"
#include "dpref/accounting/analytic_gaussian.hpp"
#include "dpref/accounting/discrete.hpp"
#include "dpref/accounting/gaussian.hpp"
#include "dpref/accounting/laplace.hpp"
#include "dpref/conformance/registry.hpp"
#include "dpref/conformance/typed_ops.hpp"
#include "dpref/error.hpp"
#include "dpref/geometry/capped_simplex.hpp"
#include "dpref/io/json.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/io/precision.hpp"
#include "dpref/random.hpp"
#include "dpref/random/batch.hpp"
#include "dpref/random/secure/discrete_gaussian.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"

namespace dpref::conformance {

// ------------------------------------------------------------------------------ evaluate --

namespace detail {
inline std::string text_of(const io::node& n) {
  if (n.value().is_string()) return n.value().get<std::string>();
  if (n.value().is_boolean()) return n.value().get<bool>() ? "true" : "false";
  if (n.value().is_number()) return n.shown();
  n.fail("a number, a decimal string or a boolean");
}

inline std::map<std::string, std::string> text_map(const io::node& n) {
  std::map<std::string, std::string> out;
  if (!n.is_object()) n.fail("an object");
  for (const std::string& k : n.keys()) out[k] = text_of(n.at(k));
  return out;
}

inline address address_of(const io::node& n) {
  address a;
  io::read_fields(n, a);
  return a;
}

inline std::string hex_word(std::uint64_t w) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(w));
  return buf;
}

template <real_scalar Real>
io::json sample_output(const sample_request& r) {
  const distribution_info& d = info_of(r);
  io::json out = io::json::array();
  switch (d.kind) {
    case sample_kind::real: {
      std::vector<Real> v(r.count);
      sample_reals<Real>(r, v);
      for (const Real& x : v) out.push_back(io::real_value(x));
      break;
    }
    case sample_kind::boolean: {
      std::vector<std::uint8_t> v(r.count);
      sample_booleans<Real>(r, v);
      for (const auto x : v) out.push_back(x != 0);
      break;
    }
    case sample_kind::vector: {
      const std::size_t dim = sample_dim(r);
      std::vector<Real> v(r.count * dim);
      sample_vectors<Real>(r, v);
      for (std::size_t i = 0; i < r.count; ++i) {
        io::json row = io::json::array();
        for (std::size_t j = 0; j < dim; ++j) row.push_back(io::real_value(v[i * dim + j]));
        out.push_back(std::move(row));
      }
      break;
    }
    case sample_kind::integer: {
      std::vector<std::int64_t> v(r.count);
      sample_integers(r, v);
      for (const auto x : v) out.push_back(x);
      break;
    }
  }
  return {{"samples", std::move(out)}};
}
/// Refuses keys of n outside `known` ("<where> has unknown key "k" (valid keys: ...)").
inline void only_keys(const io::node& n, const std::vector<std::string>& known) {
  if (!n.is_object()) n.fail("an object");
  for (const std::string& k : n.keys()) {
    bool ok = false;
    for (const auto& x : known) ok = ok || x == k;
    if (!ok) {
      std::string valid;
      for (const auto& x : known) valid.append(valid.empty() ? "" : ", ").append(x);
      throw std::invalid_argument(n.where() + " has unknown key \"" + k +
                                  "\" (valid keys: " + valid + ")");
    }
  }
}

/// The value at n with every JSON number replaced by its decimal text (a string), so that a
/// value read from it converts each number from the text it was written with.
inline io::json numbers_as_text(const io::node& n) {
  const io::json& v = n.value();
  if (v.is_number_float()) return n.shown();  // integers stay JSON integers (HARD.APPLIES)
  if (v.is_array()) {
    io::json out = io::json::array();
    for (const io::node& e : n.elements()) out.push_back(numbers_as_text(e));
    return out;
  }
  if (v.is_object()) {
    io::json out = io::json::object();
    for (const std::string& k : n.keys()) out[k] = numbers_as_text(n.at(k));
    return out;
  }
  return v;
}

inline io::precision precision_of(const io::node& input) {
  const auto p = input.find("precision");
  return io::parse_precision(p ? p->string() : std::string("double"), input.where() + "/precision");
}

template <real_scalar Real>
std::vector<Real> reals_of(const io::node& n) {
  std::vector<Real> out;
  for (const io::node& e : n.elements()) out.push_back(e.template real<Real>());
  return out;
}
}  // namespace detail

/// dpref's answer to one request of the conformance protocol: the output object of `op` on
/// `input` (spec/conformance.md CONF.PROTOCOL); op "run" ({paper, config, precision} -> the
/// result document) dispatches to `runners` (the table of src/papers/papers.hpp).
/// @throws std::invalid_argument for an unknown op or malformed input; the library's
/// exceptions for invalid values (the protocol reports them as {"error": message})
inline io::json evaluate(const std::string& op, const io::node& input,
                         const std::vector<paper_runner>& runners = {}) {
  if (op == "philox") {
    detail::only_keys(input, {"seed", "stream", "substream", "position", "lane", "count"});
    address a;
    a.seed = input.at("seed").integer<std::uint64_t>();
    a.stream = input.at("stream").integer<std::uint64_t>();
    a.substream = input.at("substream").integer<std::uint64_t>();
    a.position = input.at("position").integer<std::uint64_t>();
    const auto lane = input.at("lane").integer<unsigned>(0, 1u << 20);
    const auto count = input.at("count").integer<std::size_t>(0, std::size_t{1} << 24);
    io::json words = io::json::array();
    for (const std::uint64_t w : philox_words(a, lane, count)) words.push_back(detail::hex_word(w));
    return {{"words", std::move(words)}};
  }
  if (op == "sample") {
    detail::only_keys(input, {"distribution", "params", "precision", "address", "count"});
    sample_request r;
    r.distribution = input.at("distribution").string();
    if (const auto p = input.find("params")) r.params = detail::text_map(*p);
    r.at = detail::address_of(input.at("address"));
    r.count = input.at("count").integer<std::size_t>(0, std::size_t{1} << 24);
    const io::precision p = detail::precision_of(input);
    if (p.k == io::precision::kind::mpfr && p.digits < 20)
      throw std::invalid_argument(
          "dpref sample: --precision mpfr:DIGITS needs 20 <= DIGITS <= 10000");
    if (info_of(r).kind == sample_kind::integer) return detail::sample_output<double>(r);
    return io::with_precision(p, [&]<class Real>() { return detail::sample_output<Real>(r); });
  }
  if (op == "account") {
    detail::only_keys(input, {"ledger", "precision"});
    // numbers keep their decimal text (converted once at the target precision)
    const io::document doc = io::document::from_value(detail::numbers_as_text(input.at("ledger")),
                                                      input.doc().source() + " ledger");
    const io::precision p = detail::precision_of(input);
    const io::json rep = io::with_precision(p, [&]<class Real>() { return account<Real>(doc); });
    return {{"epsilon", rep.at("guarantee").at("epsilon")},
            {"delta", rep.at("guarantee").at("delta")}};
  }
  if (op == "calibrate") {
    detail::only_keys(input, {"function", "args", "precision"});
    const std::string name = input.at("function").string();
    const auto args = detail::text_map(input.at("args"));
    const io::precision p = detail::precision_of(input);
    return io::with_precision(p, [&]<class Real>() -> io::json {
      return {{"value", io::real_value(calibrate<Real>(name, args))}};
    });
  }
  if (op == "project_capped_simplex") {
    detail::only_keys(input, {"x0", "a", "b", "precision"});
    const io::precision p = detail::precision_of(input);
    return io::with_precision(p, [&]<class Real>() -> io::json {
      const auto [x, nu] = project_capped_simplex<Real>(detail::reals_of<Real>(input.at("x0")),
                                                        detail::reals_of<Real>(input.at("a")),
                                                        input.at("b").template real<Real>());
      io::json jx = io::json::array();
      for (const Real& v : x) jx.push_back(io::real_value(v));
      return {{"x", std::move(jx)}, {"nu", io::real_value(nu)}};
    });
  }
  if (op == "run") {
    detail::only_keys(input, {"paper", "config", "precision"});
    const paper_runner& r = find_runner(runners, input.at("paper").string());
    const io::document config = io::document::from_value(
        detail::numbers_as_text(input.at("config")), input.doc().source() + " config");
    return r.run(config, detail::precision_of(input));
  }
  throw std::invalid_argument(
      "dpref::conformance::evaluate: op must be one of philox, sample, account, calibrate, "
      "project_capped_simplex, run, got '" +
      op + "'");
}

}  // namespace dpref::conformance

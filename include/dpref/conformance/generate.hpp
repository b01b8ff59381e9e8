// The generic families of the conformance corpus (spec/conformance.md CONF.CORPUS) and the
// writer of a corpus directory. Every expected value is the exact value of the defined
// quantity to 60 significant digits, computed independently of the double / mp50 code paths
// under test where the definition allows it:
//   - samplers: the transform of the draw's bits (spec/random.md RAND.REIMPLEMENT) evaluated
//     with MPFR at 640 bits (log, log1p, Newton on erf / erfc), using exactly the uniform the
//     precision's sampler reads;
//   - accounting, calibration, projections: dpref's certified / exact evaluation at 120 decimal
//     digits (mpfr_real), i.e. the defined quantity within 10^-100 relative;
//   - Philox words, secure integer samples, Bernoulli draws and uniforms: exact by definition.
// Inputs are decimal texts exact in binary64 (dyadic), so they denote the same number at every
// precision. Each vector also carries dpref's own answer ("reference"), and generation fails
// unless that answer passes the vector (the corpus is checked against dpref when it is made).
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
#include "dpref/version.hpp"

namespace dpref::conformance {

/// Version of the corpus layout and of the vectors' meaning (bumped when either changes).
inline constexpr int corpus_version = 1;
/// Significant digits of expected values.
inline constexpr int expected_digits = 60;
/// Decimal digits of mpfr_real for reference evaluations (set by the generator's caller).
inline constexpr unsigned reference_digits = 120;

namespace gen {

inline io::json str(const mp& x) { return x.digits(expected_digits); }

inline io::json ulps_tol(long long n, int bits, const char* direction = "both") {
  return {{"kind", "ulps"}, {"ulps", n}, {"bits", bits}, {"direction", direction}};
}
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

// ------------------------------------------------------------------------------- philox --

inline family philox_family() {
  family f{"random/philox",
           "Philox-4x64-10 words of stream addresses (RAND.STREAM.ADDRESS, RAND.STREAM.ALIGN)",
           {}};
  struct c {
    address a;
    unsigned lane;
    std::size_t count;
  };
  const std::uint64_t top = ~std::uint64_t{0};
  const std::vector<c> cases = {
      {{0, 0, 0, 0}, 0, 8},
      {{0, 0, 0, 0}, 1, 8},
      {{0, 0, 0, 0}, 2, 4},
      {{0, 0, 0, 0}, 5, 4},
      {{1, 2, 3, 4}, 0, 8},
      {{1, 2, 3, 4}, 1, 8},
      {{20261121, 7, 0, 3}, 0, 6},
      {{20261121, 7, 0, 3}, 1, 6},
      {{top, top, top, top - 11}, 0, 12},
      {{top, top, top, top - 11}, 3, 12},
      {{12345, 0, 1ull << 40, 1ull << 62}, 0, 5},
      {{0, 1, 0, 0}, 0, 4},
      {{0, 0, 1, 0}, 0, 4},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const c& x = cases[i];
    io::json in = {{"seed", x.a.seed},         {"stream", x.a.stream}, {"substream", x.a.substream},
                   {"position", x.a.position}, {"lane", x.lane},       {"count", x.count}};
    io::json words = io::json::array();
    for (const auto w : philox_words(x.a, x.lane, x.count)) words.push_back(detail::hex_word(w));
    f.vectors.push_back(finish({{"id", "random/philox/" + std::to_string(i)},
                                {"op", "philox"},
                                {"input", in},
                                {"expected", {{"words", words}}},
                                {"tolerance", {{"words", exact_tol()}}}}));
  }
  return f;
}

// ------------------------------------------------------------------------------ samplers --

/// Exact standard exponential / Gaussian of one draw for the sampler path of Real (the uniform
/// that path reads: double Laplace / exponential the 106-bit double-double fold, double Gaussian
/// the long double two-lane fold, multiprecision types their own fold; RAND.REIMPLEMENT).
template <real_scalar Real>
mp exact_exponential(const stream_draw& d, unsigned skip) {
  mp t(reference_bits);
  bool upper;
  if constexpr (std::is_same_v<Real, double>) {
    const auto f = dpref::detail::folded_uniform_dd(d, skip);
    t = add(exact(f.hi), exact(f.lo));
    upper = f.upper;
  } else {
    const auto f = folded_uniform<Real>(d, dpref::detail::inversion_lanes<Real>(), skip);
    t = exact(f.t);
    upper = f.upper;
  }
  return upper ? neg(log1p(neg(t))) : neg(log(t));
}

template <real_scalar Real>
mp exact_standard_gaussian(const stream_draw& d) {
  using Eval = dpref::detail::evaluation_t<Real>;
  const auto f = folded_uniform<Eval>(d, dpref::detail::inversion_lanes<Real>(), 1);
  mp z = mul(sqrt(from_long(2)), inverse_erf(exact(f.t), !f.upper));
  return draw_bit(d, 0) ? neg(z) : z;
}

template <real_scalar Real>
std::vector<mp> exact_direction(philox_stream& s, std::size_t dim) {
  std::vector<mp> z;
  mp n2(reference_bits);
  for (std::size_t i = 0; i < dim; ++i) {
    z.push_back(exact_standard_gaussian<Real>(s.next_draw()));
    n2 = add(n2, mul(z.back(), z.back()));
  }
  const mp n = sqrt(n2);
  for (auto& x : z) x = div(x, n);
  return z;
}

/// Exact samples of `dpref sample` at Real for the real and vector distributions.
template <real_scalar Real>
io::json exact_samples(const sample_request& r) {
  const distribution_info& d = info_of(r);
  philox_stream s(r.at.seed, r.at.stream, r.at.substream, r.at.position);
  io::json out = io::json::array();
  const auto param = [&](const char* name) { return exact(detail::real_param<Real>(r, d, name)); };
  for (std::size_t i = 0; i < r.count; ++i) {
    if (d.name == "uniform") {
      out.push_back(str(exact(uniform01<Real>(s))));
    } else if (d.name == "laplace") {
      const stream_draw draw = s.next_draw();
      const mp x = mul(param("b"), exact_exponential<Real>(draw, 1));
      out.push_back(str(draw_bit(draw, 0) ? neg(x) : x));
    } else if (d.name == "exponential") {
      out.push_back(str(div(exact_exponential<Real>(s.next_draw(), 0), param("rate"))));
    } else if (d.name == "gaussian") {
      out.push_back(str(mul(param("sigma"), exact_standard_gaussian<Real>(s.next_draw()))));
    } else if (d.name == "direction" || d.name == "vector-laplace") {
      const std::size_t dim = sample_dim(r);
      mp radius = from_long(1);
      if (d.name == "vector-laplace") {
        mp sum(reference_bits);
        for (std::size_t k = 0; k < dim; ++k)
          sum = add(sum, exact_exponential<Real>(s.next_draw(), 0));
        radius = mul(param("b"), sum);
      }
      io::json row = io::json::array();
      for (const mp& u : exact_direction<Real>(s, dim)) row.push_back(str(mul(radius, u)));
      out.push_back(std::move(row));
    } else {
      throw std::logic_error("exact_samples: no exact path for " + d.name);
    }
  }
  return out;
}

struct sampler_case {
  std::string distribution;
  std::map<std::string, std::string> params;
  address at;
  std::size_t count;
};

/// Tolerance (ulps at the precision) each sampler output is entitled to: double Laplace,
/// exponential, Gaussian and direction are faithful (1 ulp: a correctly rounded result except
/// within 2^-60 relative of a rounding boundary), the ℓ2-Laplace vector is a product of two
/// faithful doubles (3 ulps); multiprecision paths compute in the type itself (a few roundings
/// of elementary functions: 8 ulps, 16 for the vectors); uniforms are exact (0).
template <real_scalar Real>
long long sampler_ulps(const std::string& dist) {
  const bool dbl = std::is_same_v<Real, double>;
  if (dist == "uniform") return 0;
  if (dist == "vector-laplace") return dbl ? 3 : 16;
  if (dist == "direction") return dbl ? 1 : 16;
  return dbl ? 1 : 8;
}

/// Positions (in stream `at`) of draws that exercise the edges of the folded uniform with
/// `skip` leading bits taken: the series branch of -log1p(-t) (upper half, t < 2^-7), tiny t in
/// both halves, and t next to 1/2.
inline std::vector<std::uint64_t> edge_positions(const address& at, unsigned skip) {
  philox_stream s(at.seed, at.stream, at.substream);
  std::vector<std::uint64_t> found(4, ~std::uint64_t{0});
  for (std::uint64_t p = 0; p < (std::uint64_t{1} << 22); ++p) {
    const std::uint64_t w0 = s.word_at(p, 0);
    const bool upper = ((w0 << skip) >> 63) != 0;
    const std::uint64_t rest = upper ? ~(w0 << (skip + 1)) : (w0 << (skip + 1));
    const int lead = rest == 0 ? 64 : std::countl_zero(rest);  // t < 2^-(lead + 1)
    const int k = upper && lead >= 6 && lead < 16 ? 0
                  : upper && lead >= 18           ? 1
                  : !upper && lead >= 18          ? 2
                  : (~rest >> 48) == 0            ? 3
                                                  : -1;
    if (k >= 0 && found[static_cast<std::size_t>(k)] == ~std::uint64_t{0})
      found[static_cast<std::size_t>(k)] = p;
  }
  std::vector<std::uint64_t> out;
  for (const auto p : found)
    if (p != ~std::uint64_t{0}) out.push_back(p);
  return out;
}

template <real_scalar Real>
family sampler_family(const std::string& precision_name) {
  family f{"random/samplers-" + precision_name,
           "samples of dpref sample at precision " + precision_name +
               " against the exact transform of the draw (RAND.REIMPLEMENT)",
           {}};
  const address a0{20261121, 0, 0, 0}, a1{1, 2, 3, 1000003}, a2{~std::uint64_t{0}, 1, 7, 5};
  std::vector<sampler_case> cases = {
      {"uniform", {}, a0, 16},
      {"uniform", {}, a2, 8},
      {"laplace", {{"b", "1"}}, a0, 16},
      {"laplace", {{"b", "2.5"}}, a1, 16},
      {"laplace", {{"b", "0.0078125"}}, a2, 8},
      {"exponential", {{"rate", "1"}}, a0, 16},
      {"exponential", {{"rate", "0.75"}}, a1, 16},
      {"gaussian", {{"sigma", "1"}}, a0, 16},
      {"gaussian", {{"sigma", "3.25"}}, a1, 16},
      {"gaussian", {{"sigma", "0.5"}}, a2, 8},
      {"direction", {{"dim", "3"}}, a0, 4},
      {"vector-laplace", {{"dim", "2"}, {"b", "1.5"}}, a1, 4},
      {"vector-laplace", {{"dim", "5"}, {"b", "1"}}, a2, 2},
  };
  const address edge{20261121, 99, 0, 0};
  for (const auto p : edge_positions(edge, 1)) {
    address a = edge;
    a.position = p;
    cases.push_back({"laplace", {{"b", "1"}}, a, 1});
    cases.push_back({"gaussian", {{"sigma", "1"}}, a, 1});
  }
  for (const auto p : edge_positions(edge, 0)) {
    address a = edge;
    a.position = p;
    cases.push_back({"exponential", {{"rate", "1"}}, a, 1});
  }
  const int bits = bits_of<Real>();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const sampler_case& c = cases[i];
    sample_request r{c.distribution, c.params, c.at, c.count};
    io::json params = io::json::object();
    for (const auto& [k, v] : c.params) params[k] = v;
    f.vectors.push_back(
        finish({{"id", f.path + "/" + std::to_string(i) + "-" + c.distribution},
                {"op", "sample"},
                {"input",
                 {{"distribution", c.distribution},
                  {"params", params},
                  {"precision", precision_name},
                  {"address", address_json(c.at)},
                  {"count", c.count}}},
                {"expected", {{"samples", exact_samples<Real>(r)}}},
                {"tolerance", {{"samples", ulps_tol(sampler_ulps<Real>(c.distribution), bits)}}}}));
  }
  return f;
}

/// Bernoulli and the secure integer samplers: exact outputs (dpref's answer is the expected
/// value: these samplers are exact by construction, RAND.BERN.EXACT, RAND.SECURE.*).
inline family exact_sampler_family() {
  family f{"random/exact-samplers",
           "Bernoulli (double and mp50) and secure discrete Laplace / Gaussian: exact outputs",
           {}};
  const address a0{20261121, 0, 0, 0}, a1{5, 6, 7, 8};
  struct c {
    std::string dist, precision;
    std::map<std::string, std::string> params;
    address at;
    std::size_t count;
  };
  const std::vector<c> cases = {
      {"bernoulli", "double", {{"p", "0.3"}}, a0, 32},
      {"bernoulli", "mp50", {{"p", "0.3"}}, a0, 32},
      {"bernoulli", "double", {{"p", "0.9990234375"}}, a1, 32},
      {"bernoulli", "double", {{"p", "1"}}, a1, 4},
      {"discrete-laplace", "double", {{"t", "1"}}, a0, 24},
      {"discrete-laplace", "double", {{"t", "7/3"}}, a1, 24},
      {"discrete-laplace", "double", {{"t", "1000000"}}, a0, 8},
      {"discrete-gaussian", "double", {{"sigma2", "1"}}, a0, 24},
      {"discrete-gaussian", "double", {{"sigma2", "25/4"}}, a1, 24},
      {"discrete-gaussian", "double", {{"sigma2", "1000000/3"}}, a0, 8},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const c& x = cases[i];
    io::json params = io::json::object();
    for (const auto& [k, v] : x.params) params[k] = v;
    io::json v = {{"id", f.path + "/" + std::to_string(i) + "-" + x.dist},
                  {"op", "sample"},
                  {"input",
                   {{"distribution", x.dist},
                    {"params", params},
                    {"precision", x.precision},
                    {"address", address_json(x.at)},
                    {"count", x.count}}}};
    const io::json a = answer_of(v);
    v["expected"] = {{"samples", a.at("output").at("samples")}};
    v["tolerance"] = {{"samples", exact_tol()}};
    f.vectors.push_back(finish(std::move(v)));
  }
  return f;
}

// ---------------------------------------------------------------------------- accounting --

/// Expected (ε, δ) of a ledger: dpref's certified evaluation at reference_digits (mpfr_real;
/// the caller has set its precision).
inline io::json exact_account(const io::json& ledger) {
  const io::document d = io::document::from_value(ledger, "ledger");
  const accounting::account_report<mpfr_real> r =
      accounting::account_document<mpfr_real>(io::node(d));
  return {{"epsilon", str(exact(r.total.epsilon))}, {"delta", str(exact(r.total.delta))}};
}

/// Certified outputs of a precision: never below the exact value, at most 64 ulps above (the
/// accountant rounds every intermediate up; dpref's measured slack is below 3 ulps).
inline io::json certified_tol(int bits) { return ulps_tol(64, bits, "up"); }

inline family accounting_family(const std::string& path, const std::string& description,
                                const std::vector<std::pair<std::string, io::json>>& ledgers,
                                const std::vector<std::pair<std::string, io::json>>& refused) {
  family f{path, description, {}};
  const std::vector<std::pair<std::string, int>> precisions = {{"double", bits_of<double>()},
                                                               {"mp50", bits_of<mp50>()}};
  for (const auto& [name, ledger] : ledgers) {
    io::json expected;
    try {
      expected = exact_account(ledger);
    } catch (const std::exception& e) {
      throw std::logic_error("conformance generator: " + path + "/" + name + ": " + e.what());
    }
    for (const auto& [p, bits] : precisions)
      f.vectors.push_back(finish(
          {{"id", path + "/" + name + "/" + p},
           {"op", "account"},
           {"input", {{"ledger", ledger}, {"precision", p}}},
           {"expected", expected},
           {"tolerance", {{"epsilon", certified_tol(bits)}, {"delta", certified_tol(bits)}}}}));
  }
  for (const auto& [name, ledger] : refused)
    f.vectors.push_back(finish({{"id", path + "/" + name + "/refused"},
                                {"op", "account"},
                                {"input", {{"ledger", ledger}, {"precision", "double"}}},
                                {"expect_error", true}}));
  return f;
}

inline io::json ledger(io::json accounting, io::json events) {
  return {{"accounting", std::move(accounting)}, {"events", std::move(events)}};
}

inline io::json rdp_options(const char* delta = "0.00000762939453125", long long max_order = 256,
                            const char* conversion = "balle2020") {
  return {
      {"method", "rdp"}, {"delta", delta}, {"max_order", max_order}, {"conversion", conversion}};
}

inline family accounting_events_family() {
  const io::json pure_opt = rdp_options("0");
  std::vector<std::pair<std::string, io::json>> l = {
      {"pure", ledger(pure_opt, {{{"mechanism", "pure"}, {"epsilon", "0.5"}, {"count", 3}}})},
      {"approx", ledger(pure_opt, {{{"mechanism", "approx"},
                                    {"epsilon", "0.25"},
                                    {"delta", "0.00000095367431640625"},
                                    {"count", 4}}})},
      {"rdp-curve", ledger(rdp_options("0.00000762939453125", 6),
                           {{{"mechanism", "rdp"},
                             {"orders", {"2", "3", "4", "5", "6"}},
                             {"epsilon", {"0.125", "0.1875", "0.25", "0.3125", "0.375"}},
                             {"count", 8}}})},
      {"laplace-pure",
       ledger(pure_opt,
              {{{"mechanism", "laplace"}, {"sensitivity", "1"}, {"scale", "2"}, {"count", 5}}})},
      {"laplace-rdp", ledger(rdp_options(), {{{"mechanism", "laplace"},
                                              {"sensitivity", "1"},
                                              {"scale", "2"},
                                              {"analysis", "rdp"},
                                              {"count", 5}}})},
      {"vector-laplace", ledger(pure_opt, {{{"mechanism", "vector_laplace"},
                                            {"sensitivity", "1"},
                                            {"scale", "4"},
                                            {"count", 1}}})},
      {"gaussian",
       ledger(
           rdp_options(),
           {{{"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "1.5"}, {"count", 10}}})},
      {"gaussian-mironov",
       ledger(
           rdp_options("0.00000762939453125", 256, "mironov"),
           {{{"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "1.5"}, {"count", 10}}})},
      {"gaussian-poisson-mtz",
       ledger(
           rdp_options(),
           {{{"mechanism", "gaussian"},
             {"sensitivity", "1"},
             {"sigma", "1.125"},
             {"count", 1000},
             {"sampling",
              {{"scheme", "poisson"}, {"rate", "0.0078125"}, {"neighbouring", "add_remove"}}}}})},
      {"gaussian-wor-wbk", ledger(rdp_options(), {{{"mechanism", "gaussian"},
                                                   {"sensitivity", "1"},
                                                   {"sigma", "1.25"},
                                                   {"count", 100},
                                                   {"sampling",
                                                    {{"scheme", "without_replacement"},
                                                     {"sample_size", 64},
                                                     {"population", 4096},
                                                     {"neighbouring", "replace_one"}}}}})},
      {"exponential", ledger(pure_opt, {{{"mechanism", "exponential"},
                                         {"utility_sensitivity", "0.5"},
                                         {"scale", "4"},
                                         {"monotone", false},
                                         {"count", 2}}})},
      {"exponential-monotone", ledger(pure_opt, {{{"mechanism", "exponential"},
                                                  {"utility_sensitivity", "0.5"},
                                                  {"scale", "4"},
                                                  {"monotone", true},
                                                  {"count", 2}}})},
      {"randomized-response",
       ledger(pure_opt,
              {{{"mechanism", "randomized_response"}, {"epsilon", "1.25"}, {"count", 1}}})},
      {"discrete-laplace", ledger(pure_opt, {{{"mechanism", "discrete_laplace"},
                                              {"sensitivity", 1},
                                              {"scale_num", 7},
                                              {"scale_den", 3},
                                              {"count", 1}}})},
      {"discrete-gaussian", ledger(rdp_options(), {{{"mechanism", "discrete_gaussian"},
                                                    {"sensitivity", 1},
                                                    {"variance_num", 25},
                                                    {"variance_den", 4},
                                                    {"count", 20}}})},
      {"sparse-vector-laplace", ledger(rdp_options(), {{{"mechanism", "sparse_vector"},
                                                        {"noise", "laplace"},
                                                        {"sensitivity", "1"},
                                                        {"threshold_scale", "8"},
                                                        {"query_scale", "16"},
                                                        {"max_queries", 20},
                                                        {"bound", "proven"},
                                                        {"count", 3}}})},
      {"sparse-vector-laplace-pure", ledger(pure_opt, {{{"mechanism", "sparse_vector"},
                                                        {"noise", "laplace"},
                                                        {"sensitivity", "1"},
                                                        {"threshold_scale", "8"},
                                                        {"query_scale", "16"},
                                                        {"max_queries", 20},
                                                        {"bound", "proven"},
                                                        {"analysis", "pure"},
                                                        {"count", 3}}})},
      {"sparse-vector-gaussian", ledger(rdp_options(), {{{"mechanism", "sparse_vector"},
                                                         {"noise", "gaussian"},
                                                         {"sensitivity", "1"},
                                                         {"threshold_scale", "4"},
                                                         {"query_scale", "8"},
                                                         {"max_queries", 10},
                                                         {"bound", "proven"},
                                                         {"count", 2}}})},
      {"laplace-poisson-zhu-wang",
       ledger(rdp_options(),
              {{{"mechanism", "laplace"},
                {"sensitivity", "1"},
                {"scale", "2"},
                {"analysis", "rdp"},
                {"count", 200},
                {"sampling",
                 {{"scheme", "poisson"}, {"rate", "0.0625"}, {"neighbouring", "add_remove"}}}}})},
      {"pure-wor-amplified", ledger(pure_opt, {{{"mechanism", "pure"},
                                                {"epsilon", "1"},
                                                {"count", 10},
                                                {"sampling",
                                                 {{"scheme", "without_replacement"},
                                                  {"sample_size", 16},
                                                  {"population", 256},
                                                  {"neighbouring", "replace_one"}}}}})},
      {"laplace-poisson-amplified",
       ledger(pure_opt,
              {{{"mechanism", "laplace"},
                {"sensitivity", "1"},
                {"scale", "0.5"},
                {"count", 7},
                {"sampling",
                 {{"scheme", "poisson"}, {"rate", "0.125"}, {"neighbouring", "add_remove"}}}}})},
  };
  std::vector<std::pair<std::string, io::json>> refused = {
      {"gaussian-negative-sigma",
       ledger(rdp_options(),
              {{{"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "-1"}, {"count", 1}}})},
      {"rdp-without-delta",
       ledger(rdp_options("0"),
              {{{"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "1"}, {"count", 1}}})},
      {"unknown-mechanism",
       ledger(pure_opt, {{{"mechanism", "cauchy"}, {"scale", "1"}, {"count", 1}}})},
      {"zero-count", ledger(pure_opt, {{{"mechanism", "pure"}, {"epsilon", "1"}, {"count", 0}}})},
  };
  return accounting_family("accounting/events",
                           "one event per ledger: every mechanism kind, subsampling scheme and "
                           "conversion of the accountant (ACC.EVENT, ACC.ACCOUNT)",
                           l, refused);
}

inline family accounting_compositions_family() {
  const io::json sgd = {
      {"mechanism", "gaussian"},
      {"sensitivity", "1"},
      {"sigma", "1.125"},
      {"count", 10000},
      {"sampling", {{"scheme", "poisson"}, {"rate", "0.0078125"}, {"neighbouring", "add_remove"}}}};
  const io::json lap = {
      {"mechanism", "laplace"}, {"sensitivity", "1"}, {"scale", "20"}, {"count", 5}};
  const io::json expm = {{"mechanism", "exponential"},
                         {"utility_sensitivity", "0.5"},
                         {"scale", "10"},
                         {"monotone", false},
                         {"count", 1}};
  const io::json gau = {
      {"mechanism", "gaussian"}, {"sensitivity", "1"}, {"sigma", "20"}, {"count", 3}};
  const io::json apx = {{"mechanism", "approx"},
                        {"epsilon", "0.0625"},
                        {"delta", "0.000000007450580596923828125"},
                        {"count", 1}};
  const io::json svt = {{"mechanism", "sparse_vector"},
                        {"noise", "laplace"},
                        {"sensitivity", "1"},
                        {"threshold_scale", "40"},
                        {"query_scale", "80"},
                        {"max_queries", 20},
                        {"bound", "proven"},
                        {"count", 10}};
  std::vector<std::pair<std::string, io::json>> l = {
      {"dp-sgd", ledger(rdp_options("0.0000095367431640625"), {sgd})},
      {"mixed", ledger(rdp_options("0.0000095367431640625"), {sgd, lap, expm, gau, svt, apx})},
      {"mixed-mironov", ledger(rdp_options("0.0000095367431640625", 256, "mironov"),
                               {sgd, lap, expm, gau, svt, apx})},
      {"mixed-max-order-64", ledger(rdp_options("0.0000095367431640625", 64), {sgd, gau, svt})},
      {"mixed-max-order-1024", ledger(rdp_options("0.0000095367431640625", 1024), {sgd, gau, svt})},
      {"pure-and-approx", ledger(rdp_options("0"), {lap, expm, apx})},
      {"million-steps", ledger(rdp_options("0.00000762939453125"), {{{"mechanism", "gaussian"},
                                                                     {"sensitivity", "1"},
                                                                     {"sigma", "64"},
                                                                     {"count", 1000000}}})},
  };
  return accounting_family("accounting/compositions",
                           "ledgers of several events: sequential composition of the pure, "
                           "approximate and Rényi parts (ACC.ACCOUNT, ACC.COMP.*)",
                           l, {});
}

// --------------------------------------------------------------------------- calibration --

inline family calibration_family() {
  family f{"calibration/calibrators",
           "generic calibrators and privacy functions (ACC.LAPLACE, ACC.GAUSS.*, ACC.EXPMECH, "
           "ACC.DISCRETE.*): certified values, never below the exact one",
           {}};
  using args = std::map<std::string, std::string>;
  const std::vector<std::pair<std::string, args>> ok = {
      {"laplace_scale", {{"epsilon", "0.5"}, {"sensitivity", "1"}}},
      {"laplace_scale", {{"epsilon", "0.09375"}, {"sensitivity", "2"}}},
      {"laplace_scale", {{"epsilon", "3"}, {"sensitivity", "0.25"}}},
      {"gaussian_sigma",
       {{"epsilon", "1"}, {"delta", "0.00000762939453125"}, {"sensitivity", "1"}}},
      {"gaussian_sigma",
       {{"epsilon", "0.5"}, {"delta", "0.00000095367431640625"}, {"sensitivity", "2"}}},
      {"gaussian_sigma", {{"epsilon", "4"}, {"delta", "0.0009765625"}, {"sensitivity", "1"}}},
      {"gaussian_sigma_classical",
       {{"epsilon", "0.5"}, {"delta", "0.00000762939453125"}, {"sensitivity", "1"}}},
      {"gaussian_sigma_classical",
       {{"epsilon", "0.875"}, {"delta", "0.000000000931322574615478515625"}, {"sensitivity", "3"}}},
      {"gaussian_epsilon",
       {{"sigma", "2"}, {"delta", "0.00000762939453125"}, {"sensitivity", "1"}}},
      {"gaussian_epsilon", {{"sigma", "0.75"}, {"delta", "0.0009765625"}, {"sensitivity", "1"}}},
      {"gaussian_delta", {{"sigma", "2"}, {"epsilon", "0.5"}, {"sensitivity", "1"}}},
      {"gaussian_delta", {{"sigma", "1"}, {"epsilon", "0"}, {"sensitivity", "1"}}},
      {"laplace_epsilon", {{"scale", "3"}, {"sensitivity", "1"}}},
      {"vector_laplace_epsilon", {{"scale", "0.75"}, {"sensitivity", "2"}}},
      {"exponential_epsilon",
       {{"scale", "4"}, {"utility_sensitivity", "0.5"}, {"monotone", "false"}}},
      {"exponential_epsilon",
       {{"scale", "4"}, {"utility_sensitivity", "0.5"}, {"monotone", "true"}}},
      {"discrete_laplace_epsilon", {{"t_num", "7"}, {"t_den", "3"}, {"sensitivity", "1"}}},
      {"discrete_gaussian_delta",
       {{"var_num", "25"}, {"var_den", "4"}, {"sensitivity", "1"}, {"epsilon", "0.5"}}},
      {"discrete_gaussian_delta",
       {{"var_num", "1"}, {"var_den", "1"}, {"sensitivity", "2"}, {"epsilon", "1"}}},
  };
  const std::vector<std::pair<std::string, args>> refused = {
      {"laplace_scale", {{"epsilon", "0"}, {"sensitivity", "1"}}},
      {"gaussian_sigma_classical",
       {{"epsilon", "1.5"}, {"delta", "0.00000762939453125"}, {"sensitivity", "1"}}},
      {"gaussian_sigma", {{"epsilon", "1"}, {"delta", "0"}, {"sensitivity", "1"}}},
  };
  const std::vector<std::pair<std::string, int>> precisions = {{"double", bits_of<double>()},
                                                               {"mp50", bits_of<mp50>()}};
  int i = 0;
  for (const auto& [fn, a] : ok) {
    io::json ja = io::json::object();
    for (const auto& [k, v] : a) ja[k] = v;
    const io::json expected = {{"value", str(exact(calibrate<mpfr_real>(fn, a)))}};
    for (const auto& [p, bits] : precisions)
      f.vectors.push_back(finish({{"id", f.path + "/" + std::to_string(i) + "-" + fn + "/" + p},
                                  {"op", "calibrate"},
                                  {"input", {{"function", fn}, {"args", ja}, {"precision", p}}},
                                  {"expected", expected},
                                  {"tolerance", {{"value", certified_tol(bits)}}}}));
    ++i;
  }
  for (const auto& [fn, a] : refused) {
    io::json ja = io::json::object();
    for (const auto& [k, v] : a) ja[k] = v;
    f.vectors.push_back(
        finish({{"id", f.path + "/" + std::to_string(i++) + "-" + fn + "/refused"},
                {"op", "calibrate"},
                {"input", {{"function", fn}, {"args", ja}, {"precision", "double"}}},
                {"expect_error", true}}));
  }
  return f;
}

// ------------------------------------------------------------------------------ geometry --

inline family geometry_family() {
  family f{"geometry/capped-simplex",
           "exact Euclidean projection onto {0 <= x <= a, 1'x = b} (EV.PROJ.EXACT)",
           {}};
  struct c {
    std::vector<std::string> x0, a;
    std::string b;
  };
  // deterministic dyadic inputs: x0_i = (37 i mod 29 - 14) / 8, a_i = (1 + 13 i mod 7) / 4
  const auto make = [](std::size_t t, double fraction) {
    c out;
    double sum = 0;
    for (std::size_t i = 0; i < t; ++i) {
      const double x0 = static_cast<double>(static_cast<long>((37 * i + 5) % 29) - 14) / 8;
      const double a = static_cast<double>(1 + (13 * i + 3) % 7) / 4;
      out.x0.push_back(io::format_real(x0));
      out.a.push_back(io::format_real(a));
      sum += a;
    }
    out.b = io::format_real(std::ldexp(std::floor(std::ldexp(sum * fraction, 6)), -6));
    return out;
  };
  const std::vector<c> cases = {
      make(1, 1),
      make(2, 0.5),
      make(5, 0.3),
      make(5, 0.9),
      make(12, 0.25),
      make(12, 0.6),
      make(24, 0.1),
      make(24, 0.75),
      make(7, 0),
      {{"0.5", "0.5", "0.5", "0.5"}, {"1", "1", "1", "1"}, "2"},  // ties
      {{"3", "-2", "0.125", "7.5"}, {"0.5", "2", "1", "0.25"}, "1.75"},
  };
  const std::vector<std::pair<std::string, int>> precisions = {{"double", bits_of<double>()},
                                                               {"mp50", bits_of<mp50>()}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const c& x = cases[i];
    std::vector<mpfr_real> x0, a;
    for (const auto& s : x.x0) x0.push_back(io::parse_real<mpfr_real>(s, "x0"));
    for (const auto& s : x.a) a.push_back(io::parse_real<mpfr_real>(s, "a"));
    const auto [px, nu] =
        project_capped_simplex<mpfr_real>(x0, a, io::parse_real<mpfr_real>(x.b, "b"));
    io::json ex = io::json::array();
    bool free_coordinate = false;
    double scale = std::fabs(std::stod(x.b));
    for (std::size_t k = 0; k < px.size(); ++k) {
      ex.push_back(str(exact(px[k])));
      free_coordinate = free_coordinate || (px[k] > 0 && px[k] < a[k]);
      scale = std::max({scale, std::fabs(static_cast<double>(x0[k])), static_cast<double>(a[k])});
    }
    const double t = static_cast<double>(px.size());
    io::json expected = {{"x", ex}};
    if (free_coordinate) expected["nu"] = str(exact(nu));  // nu is unique
    io::json in_x0 = io::json::array(), in_a = io::json::array();
    for (const auto& s : x.x0) in_x0.push_back(s);
    for (const auto& s : x.a) in_a.push_back(s);
    for (const auto& [p, bits] : precisions) {
      // entitled error: 2 (T^2 + 2) 2^-p S, S = max(|x0|, a, b) (sums of T terms, one division)
      const mp tol_abs = mul(exact(2 * (t * t + 2) * scale), [nbits = bits] {  // clang 14: no
        mp u(reference_bits);                                                  // binding capture
        mpfr_set_ui_2exp(u.get(), 1, -nbits, MPFR_RNDN);
        return u;
      }());
      const io::json tol = {{"kind", "abs"}, {"abs", tol_abs.digits(6)}, {"bits", bits}};
      io::json tolerance = {{"x", tol}};
      if (free_coordinate) tolerance["nu"] = tol;
      f.vectors.push_back(
          finish({{"id", f.path + "/" + std::to_string(i) + "/" + p},
                  {"op", "project_capped_simplex"},
                  {"input", {{"x0", in_x0}, {"a", in_a}, {"b", x.b}, {"precision", p}}},
                  {"expected", expected},
                  {"tolerance", tolerance}}));
    }
  }
  return f;
}

}  // namespace gen

/// One short deterministic trajectory of a paper's algorithm as a vector of op "run" (the slot
/// the paper folders fill, spec/conformance.md CONF.TRAJECTORY): input {paper, config,
/// precision}; expected = the values at the JSON pointers of `outputs` (e.g. "/iterates/x") of
/// the result computed at `reference_precision` (decimal strings with every digit of that
/// precision), each with the tolerance the paper states for it (e.g. {"kind": "rel", "rel":
/// "1e-10", "bits": 53}). Fails (std::logic_error) unless dpref's own run at `precision` passes
/// the vector.
inline io::json trajectory_vector_each(const std::string& id, const paper_runner& runner,
                                       const io::json& config,
                                       const std::vector<std::pair<std::string, io::json>>& outputs,
                                       const std::string& precision = "double",
                                       const std::string& reference_precision = "mpfr:60") {
  const io::document d = io::document::from_value(config, id + " config");
  const unsigned digits = mpfr_real::default_precision();  // restored: other families need it
  const io::json ref = runner.run(d, io::parse_precision(reference_precision));
  mpfr_real::default_precision(digits);
  io::json expected = io::json::object(), tol = io::json::object();
  for (const auto& [p, t] : outputs) {
    expected[p] = ref.at(io::json::json_pointer(p));
    tol[p] = t;
  }
  return gen::finish(
      {{"id", id},
       {"op", "run"},
       {"input", {{"paper", runner.name}, {"config", config}, {"precision", precision}}},
       {"expected", std::move(expected)},
       {"tolerance", std::move(tol)},
       {"reference_precision", reference_precision}},
      {runner});
}

/// trajectory_vector_each with one tolerance for every pointer.
inline io::json trajectory_vector(const std::string& id, const paper_runner& runner,
                                  const io::json& config, const std::vector<std::string>& pointers,
                                  const io::json& tolerance,
                                  const std::string& precision = "double",
                                  const std::string& reference_precision = "mpfr:60") {
  std::vector<std::pair<std::string, io::json>> outputs;
  for (const auto& p : pointers) outputs.emplace_back(p, tolerance);
  return trajectory_vector_each(id, runner, config, outputs, precision, reference_precision);
}

/// The generic families, in corpus order (one file each).
inline std::vector<family_entry> generic_families() {
  return {
      {"random/philox", gen::philox_family},
      {"random/samplers-double", [] { return gen::sampler_family<double>("double"); }},
      {"random/samplers-mp50", [] { return gen::sampler_family<mp50>("mp50"); }},
      {"random/exact-samplers", gen::exact_sampler_family},
      {"accounting/events", gen::accounting_events_family},
      {"accounting/compositions", gen::accounting_compositions_family},
      {"calibration/calibrators", gen::calibration_family},
      {"geometry/capped-simplex", gen::geometry_family},
  };
}

/// Text of one family file: a header and one vector per line (deterministic).
inline std::string family_text(const family& f) {
  std::string s = "{\"schema\": \"dpref.vectors/" + std::to_string(corpus_version) +
                  "\",\n \"family\": " + io::json(f.path).dump() +
                  ",\n \"description\": " + io::json(f.description).dump() + ",\n \"vectors\": [\n";
  for (std::size_t i = 0; i < f.vectors.size(); ++i)
    s += "  " + f.vectors[i].dump() + (i + 1 < f.vectors.size() ? ",\n" : "\n");
  s += " ]}\n";
  return s;
}

/// Summary of a written corpus.
struct corpus_summary {
  std::size_t files = 0, vectors = 0, bytes = 0;
};

/// Writes every family under `dir` (<path>.json) and MANIFEST.json. mpfr_real's precision must
/// be reference_digits (the CLI sets it before calling).
/// @throws std::invalid_argument if a file cannot be written; std::logic_error if dpref fails
/// one of its own vectors
inline corpus_summary write_corpus(const std::filesystem::path& dir,
                                   const std::vector<family_entry>& families,
                                   const std::vector<std::string>& trajectory_papers) {
  namespace fs = std::filesystem;
  corpus_summary sum;
  io::json manifest = io::json::object();
  manifest["schema"] = "dpref.vectors/" + std::to_string(corpus_version);
  manifest["corpus_version"] = corpus_version;
  manifest["generator"] = std::string("dpref ") + version;
  manifest["protocol"] = "dpref.conformance/1";
  manifest["spec"] = "spec/conformance.md";
  io::json list = io::json::array();
  const auto write = [&](const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out) throw std::invalid_argument("dpref vectors: cannot write '" + p.string() + "'");
    sum.bytes += text.size();
    ++sum.files;
  };
  const unsigned digits = mpfr_real::default_precision();
  for (const auto& e : families) {
    const family f = e.generate();
    mpfr_real::default_precision(digits);  // a generator may have run at another precision
    const std::string text = family_text(f);
    write(dir / (f.path + ".json"), text);
    list.push_back({{"family", f.path},
                    {"file", f.path + ".json"},
                    {"vectors", f.vectors.size()},
                    {"bytes", text.size()}});
    sum.vectors += f.vectors.size();
  }
  manifest["families"] = std::move(list);
  io::json papers = io::json::array();
  for (const auto& p : trajectory_papers) papers.push_back(p);
  manifest["trajectories"] = {
      {"papers", std::move(papers)},
      {"slot",
       "trajectories/<paper>.json: one short deterministic trajectory per algorithm "
       "(op \"run\"), registered in src/papers/papers.hpp"}};
  write(dir / "MANIFEST.json", manifest.dump(1) + "\n");
  return sum;
}

}  // namespace dpref::conformance

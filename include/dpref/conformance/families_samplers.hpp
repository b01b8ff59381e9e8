// The conformance families of the Philox words and of the samplers (spec/conformance.md
// CONF.CORPUS): every expected value is the transform of the draw's bits (spec/random.md
// RAND.REIMPLEMENT) evaluated with MPFR at 640 bits, using exactly the uniform the precision's
// sampler reads; Philox words, secure integer samples, Bernoulli draws and uniforms are exact by
// definition.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dpref/conformance/check.hpp"
#include "dpref/conformance/gen_common.hpp"
#include "dpref/conformance/numbers.hpp"
#include "dpref/conformance/ops.hpp"
#include "dpref/conformance/registry.hpp"

namespace dpref::conformance::gen {

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

}  // namespace dpref::conformance::gen

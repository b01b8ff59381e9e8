// The typed operations of the conformance protocol (spec/conformance.md CONF.OPS): Philox
// words, samples by distribution name at a precision, calibrators by name, the accountant on a
// ledger and the capped-simplex projection, as C++ functions over dpref's generic layers. The
// protocol's dispatch on {"op", "input"} is `evaluate` (conformance/ops.hpp).
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

/// A stream address (RAND.STREAM.ADDRESS).
struct address {
  std::uint64_t seed = 0, stream = 0, substream = 0, position = 0;
  template <class V>
  void fields(V&& v) {
    v("seed", seed, "run seed");
    v("stream", stream, "stream id");
    v("substream", substream, "substream id");
    v("position", position, "first draw");
  }
};

// ------------------------------------------------------------------------------- philox --

/// Lane-`lane` words of positions position .. position + count - 1 (RAND.STREAM.ADDRESS).
/// @throws std::invalid_argument if a position would pass 2^64 - 1
inline std::vector<std::uint64_t> philox_words(const address& at, unsigned lane,
                                               std::size_t count) {
  if (count > 0 && static_cast<std::uint64_t>(count - 1) > ~std::uint64_t{0} - at.position)
    fail_argument("dpref::philox_words", "count", "such that every position is < 2^64", count);
  const philox_stream s(at.seed, at.stream, at.substream);
  std::vector<std::uint64_t> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = s.word_at(at.position + i, lane);
  return out;
}

// ------------------------------------------------------------------------------- sample --

/// What one sample of a distribution is.
enum class sample_kind { real, boolean, vector, integer };

struct distribution_info {
  std::string name;
  sample_kind kind;
  std::vector<std::pair<std::string, std::string>> params;  ///< name, default (text)
};

/// The distributions of `dpref sample` with their parameters (the names of the C++ sampler
/// arguments) and defaults (those of `dpref sample`).
inline const std::vector<distribution_info>& distributions() {
  static const std::vector<distribution_info> d = {
      {"laplace", sample_kind::real, {{"b", "1"}}},
      {"gaussian", sample_kind::real, {{"sigma", "1"}}},
      {"exponential", sample_kind::real, {{"rate", "1"}}},
      {"uniform", sample_kind::real, {}},
      {"bernoulli", sample_kind::boolean, {{"p", "1"}}},
      {"gamma", sample_kind::real, {{"shape", "1"}, {"theta", "1"}}},
      {"vector-laplace", sample_kind::vector, {{"dim", "1"}, {"b", "1"}}},
      {"direction", sample_kind::vector, {{"dim", "1"}}},
      {"discrete-laplace", sample_kind::integer, {{"t", "1"}}},
      {"discrete-gaussian", sample_kind::integer, {{"sigma2", "1"}}},
  };
  return d;
}

/// A request of the sample op: parameters as decimal text (absent: the default).
struct sample_request {
  std::string distribution;
  std::map<std::string, std::string> params;
  address at;
  std::size_t count = 0;
};

/// The distribution named by r (validated: name and parameter names).
/// @throws std::invalid_argument "dpref::sample: distribution must be one of ..., got 'x'" or
/// "dpref::sample: params has unknown key "k" for <dist> (valid keys: ...)"
inline const distribution_info& info_of(const sample_request& r) {
  const auto& all = distributions();
  const distribution_info* d = nullptr;
  std::string names;
  for (const auto& x : all) {
    names.append(names.empty() ? "" : ", ").append(x.name);
    if (x.name == r.distribution) d = &x;
  }
  if (!d)
    throw std::invalid_argument("dpref::sample: distribution must be one of " + names + ", got '" +
                                r.distribution + "'");
  for (const auto& [k, v] : r.params) {
    bool ok = false;
    std::string valid;
    for (const auto& [name, def] : d->params) {
      valid.append(valid.empty() ? "" : ", ").append(name);
      ok = ok || name == k;
    }
    if (!ok)
      throw std::invalid_argument("dpref::sample: params has unknown key \"" + k + "\" for " +
                                  d->name + " (valid keys: " + (valid.empty() ? "none" : valid) +
                                  ")");
  }
  return *d;
}

namespace detail {
inline std::string param_text(const sample_request& r, const distribution_info& d,
                              const std::string& name) {
  const auto it = r.params.find(name);
  if (it != r.params.end()) return it->second;
  for (const auto& [n, def] : d.params)
    if (n == name) return def;
  return "1";
}

template <real_scalar Real>
Real real_param(const sample_request& r, const distribution_info& d, const std::string& name) {
  return io::parse_real<Real>(param_text(r, d, name), "dpref::sample: params." + name);
}

/// "p/q" or "p": a rational of 64-bit integers.
inline std::pair<std::int64_t, std::int64_t> rational_param(const sample_request& r,
                                                            const distribution_info& d,
                                                            const std::string& name) {
  const std::string text = param_text(r, d, name);
  const std::string what = "dpref::sample: params." + name;
  const auto slash = text.find('/');
  try {
    const std::int64_t num = io::parse_integer<std::int64_t>(text.substr(0, slash), what);
    const std::int64_t den = slash == std::string::npos
                                 ? 1
                                 : io::parse_integer<std::int64_t>(text.substr(slash + 1), what);
    return {num, den};
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(what + " must be an integer ratio p/q, got '" + text + "'");
  }
}

inline philox_stream stream_of(const address& a) {
  return philox_stream(a.seed, a.stream, a.substream, a.position);
}
}  // namespace detail

/// Dimension of one sample (1 for scalar distributions).
inline std::size_t sample_dim(const sample_request& r) {
  const distribution_info& d = info_of(r);
  if (d.kind != sample_kind::vector) return 1;
  return io::parse_integer<std::size_t>(detail::param_text(r, d, "dim"),
                                        "dpref::sample: params.dim", 1, std::size_t{1} << 20);
}

/// Real samples (laplace, gaussian, exponential, uniform, gamma) into out (out.size() = count):
/// the values of `dpref sample` at this address bit for bit (double: the batch kernels of
/// random/batch.hpp for laplace, exponential and uniform).
/// @throws std::invalid_argument for a request of another kind; the samplers' std::domain_error
template <real_scalar Real>
void sample_reals(const sample_request& r, std::span<Real> out,
                  batch::kernel k = batch::kernel::automatic) {
  const distribution_info& d = info_of(r);
  if (d.kind != sample_kind::real)
    fail_argument("dpref::sample", "distribution", "a real-valued distribution", r.distribution);
  philox_stream s = detail::stream_of(r.at);
  const std::string& n = d.name;
  if constexpr (std::is_same_v<Real, double>) {
    if (n == "laplace") return batch::laplace(s, detail::real_param<double>(r, d, "b"), out, k);
    if (n == "exponential")
      return batch::exponential(s, detail::real_param<double>(r, d, "rate"), out, k);
    if (n == "uniform") return batch::uniform01(s, out);
  }
  if (n == "uniform") {
    for (Real& x : out) x = uniform01<Real>(s);
    return;
  }
  if (n == "gamma") {
    const Real shape = detail::real_param<Real>(r, d, "shape");
    const Real theta = detail::real_param<Real>(r, d, "theta");
    for (Real& x : out) x = gamma<Real>(s, shape, theta);
    return;
  }
  const Real p = detail::real_param<Real>(r, d, d.params.front().first);
  if (n == "laplace")
    for (Real& x : out) x = laplace<Real>(s, p);
  else if (n == "gaussian")
    for (Real& x : out) x = gaussian<Real>(s, p);
  else
    for (Real& x : out) x = exponential<Real>(s, p);
}

/// Bernoulli samples (0 or 1) into out.
template <real_scalar Real>
void sample_booleans(const sample_request& r, std::span<std::uint8_t> out) {
  const distribution_info& d = info_of(r);
  if (d.kind != sample_kind::boolean)
    fail_argument("dpref::sample", "distribution", "bernoulli", r.distribution);
  philox_stream s = detail::stream_of(r.at);
  const Real p = detail::real_param<Real>(r, d, "p");
  for (std::uint8_t& x : out) x = bernoulli<Real>(s, p) ? 1 : 0;
}

/// Vector samples (vector-laplace, direction) row by row into out (count x dim, row-major).
template <real_scalar Real>
void sample_vectors(const sample_request& r, std::span<Real> out) {
  const distribution_info& d = info_of(r);
  if (d.kind != sample_kind::vector)
    fail_argument("dpref::sample", "distribution", "vector-laplace or direction", r.distribution);
  const std::size_t dim = sample_dim(r);
  if (out.size() % dim != 0)
    fail_argument("dpref::sample", "out.size()", "a multiple of dim", out.size());
  philox_stream s = detail::stream_of(r.at);
  const bool direction = d.name == "direction";
  const Real b = direction ? Real(1) : detail::real_param<Real>(r, d, "b");
  for (std::size_t i = 0; i < out.size() / dim; ++i) {
    const vector<Real> w =
        direction ? uniform_direction<Real>(s, dim) : vector_laplace<Real>(s, dim, b);
    for (std::size_t j = 0; j < dim; ++j) out[i * dim + j] = w[static_cast<Eigen::Index>(j)];
  }
}

/// Secure integer samples (discrete-laplace with scale t, discrete-gaussian with variance
/// sigma2, both "p/q") into out.
inline void sample_integers(const sample_request& r, std::span<std::int64_t> out) {
  const distribution_info& d = info_of(r);
  if (d.kind != sample_kind::integer)
    fail_argument("dpref::sample", "distribution", "discrete-laplace or discrete-gaussian",
                  r.distribution);
  philox_stream s = detail::stream_of(r.at);
  const bool lap = d.name == "discrete-laplace";
  const auto [num, den] = detail::rational_param(r, d, lap ? "t" : "sigma2");
  for (std::int64_t& x : out)
    x = lap ? secure::discrete_laplace(s, num, den) : secure::discrete_gaussian(s, num, den);
}

// ---------------------------------------------------------------------------- calibrate --

/// The generic calibrators and privacy functions of dpref::accounting (names of the calibrate
/// op; every returned value is certified: a noise scale or an ε / δ never below the exact one).
struct calibrator_info {
  std::string name;
  std::vector<std::string> args;  ///< argument names, in order
  std::string what;               ///< C++ function and meaning
};

inline const std::vector<calibrator_info>& calibrators() {
  static const std::vector<calibrator_info> c = {
      {"laplace_scale", {"epsilon", "sensitivity"}, "laplace_scale: b = Δ1/ε"},
      {"gaussian_sigma",
       {"epsilon", "delta", "sensitivity"},
       "analytic_gaussian_sigma: smallest σ with δ(ε) <= δ (Balle–Wang)"},
      {"gaussian_sigma_classical",
       {"epsilon", "delta", "sensitivity"},
       "gaussian_sigma_classical: σ = √(2 ln(1.25/δ)) Δ/ε, ε < 1"},
      {"gaussian_epsilon",
       {"sigma", "delta", "sensitivity"},
       "analytic_gaussian_privacy: smallest ε with δ(ε) <= δ"},
      {"gaussian_delta",
       {"sigma", "epsilon", "sensitivity"},
       "analytic_gaussian_delta: δ(ε) of N(0, σ²) (Balle–Wang)"},
      {"laplace_epsilon", {"scale", "sensitivity"}, "laplace_privacy: ε = Δ1/b"},
      {"vector_laplace_epsilon", {"scale", "sensitivity"}, "vector_laplace_privacy: ε = Δ2/b"},
      {"exponential_epsilon",
       {"scale", "utility_sensitivity", "monotone"},
       "exponential_mechanism_privacy: ε = 2Δu/s (Δu/s if monotone)"},
      {"discrete_laplace_epsilon",
       {"t_num", "t_den", "sensitivity"},
       "discrete_laplace_privacy: ε = Δ/t"},
      {"discrete_gaussian_delta",
       {"var_num", "var_den", "sensitivity", "epsilon"},
       "discrete_gaussian_delta: exact hockey-stick δ(ε) of N_Z(0, σ²)"},
  };
  return c;
}

/// Evaluates calibrator `name` at Real with arguments given as text (absent "sensitivity":
/// 1, absent "monotone": false).
/// @throws std::invalid_argument for an unknown name or argument; the function's
/// std::domain_error for invalid values
template <real_scalar Real>
Real calibrate(const std::string& name, const std::map<std::string, std::string>& args) {
  const calibrator_info* info = nullptr;
  std::string names;
  for (const auto& c : calibrators()) {
    names.append(names.empty() ? "" : ", ").append(c.name);
    if (c.name == name) info = &c;
  }
  if (!info)
    throw std::invalid_argument("dpref::calibrate: function must be one of " + names + ", got '" +
                                name + "'");
  for (const auto& [k, v] : args) {
    bool ok = false;
    for (const auto& a : info->args) ok = ok || a == k;
    if (!ok) {
      std::string valid;
      for (const auto& a : info->args) valid.append(valid.empty() ? "" : ", ").append(a);
      throw std::invalid_argument("dpref::calibrate: args has unknown key \"" + k + "\" for " +
                                  name + " (valid keys: " + valid + ")");
    }
  }
  const auto text = [&](const std::string& k) -> std::string {
    const auto it = args.find(k);
    if (it != args.end()) return it->second;
    if (k == "sensitivity") return "1";
    if (k == "monotone") return "false";
    throw std::invalid_argument("dpref::calibrate: " + name + " needs the argument \"" + k + "\"");
  };
  const auto real = [&](const std::string& k) {
    return io::parse_real<Real>(text(k), "dpref::calibrate: " + k);
  };
  const auto integer = [&](const std::string& k) {
    return io::parse_integer<std::int64_t>(text(k), "dpref::calibrate: " + k);
  };
  using namespace accounting;
  if (name == "laplace_scale") return laplace_scale(real("sensitivity"), real("epsilon"));
  if (name == "gaussian_sigma")
    return analytic_gaussian_sigma(real("sensitivity"), real("epsilon"), real("delta"));
  if (name == "gaussian_sigma_classical")
    return gaussian_sigma_classical(real("sensitivity"), real("epsilon"), real("delta"));
  if (name == "gaussian_epsilon")
    return analytic_gaussian_privacy(real("sensitivity"), real("sigma"), real("delta")).eps;
  if (name == "gaussian_delta")
    return analytic_gaussian_delta(real("sensitivity"), real("sigma"), real("epsilon"));
  if (name == "laplace_epsilon") return laplace_privacy(real("sensitivity"), real("scale")).eps;
  if (name == "vector_laplace_epsilon")
    return vector_laplace_privacy(real("sensitivity"), real("scale")).eps;
  if (name == "exponential_epsilon") {
    const std::string m = text("monotone");
    if (m != "true" && m != "false")
      throw std::invalid_argument("dpref::calibrate: monotone must be true or false, got '" + m +
                                  "'");
    return exponential_mechanism_privacy(real("utility_sensitivity"), real("scale"), m == "true")
        .eps;
  }
  if (name == "discrete_laplace_epsilon")
    return discrete_laplace_privacy(real("sensitivity"), integer("t_num"), integer("t_den")).eps;
  return discrete_gaussian_delta<Real>(integer("var_num"), integer("var_den"),
                                       integer("sensitivity"), real("epsilon"));
}

// ------------------------------------------------------------------------------ account --

/// `dpref account --json` of a ledger document at Real (account_report.hpp).
template <real_scalar Real>
io::json account(const io::document& ledger) {
  return accounting::account_document<Real>(io::node(ledger)).json;
}

// ------------------------------------------------------------------------------ project --

/// Exact Euclidean projection of x0 onto {0 <= x <= a, 1'x = b} (geometry/capped_simplex.hpp):
/// the point and the multiplier nu (x_i = clip(x0_i - nu, 0, a_i)).
template <real_scalar Real>
std::pair<std::vector<Real>, Real> project_capped_simplex(const std::vector<Real>& x0,
                                                          const std::vector<Real>& a,
                                                          const Real& b) {
  vector<Real> v0(static_cast<Eigen::Index>(x0.size())), va(static_cast<Eigen::Index>(a.size()));
  for (std::size_t i = 0; i < x0.size(); ++i) v0[static_cast<Eigen::Index>(i)] = x0[i];
  for (std::size_t i = 0; i < a.size(); ++i) va[static_cast<Eigen::Index>(i)] = a[i];
  const auto r = geometry::project_capped_simplex<Real>(v0, va, b);
  std::vector<Real> x(static_cast<std::size_t>(r.x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = r.x[static_cast<Eigen::Index>(i)];
  return {std::move(x), r.nu};
}

}  // namespace dpref::conformance

// The built-in mechanisms of `dpref audit` (spec/audit.md): each calibrated to a claimed ε (and
// δ), audited against that claim with the worst-case neighbour pairs and event families of its
// kind, and the JSON report of `dpref audit --json`. Shared by the CLI (src/cli/audit_command.cpp)
// and the Python package (`dpref.audit("laplace", ...)`), so both give the same report.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "dpref/accounting/analytic_gaussian.hpp"
#include "dpref/accounting/discrete.hpp"
#include "dpref/accounting/laplace.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/negative_controls.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/audit/report_json.hpp"
#include "dpref/mechanisms/above_threshold.hpp"
#include "dpref/mechanisms/exponential.hpp"
#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/random/secure/snapping.hpp"

namespace dpref::audit {

/// Options of one built-in audit (the flags of `dpref audit`).
struct builtin_options {
  std::string mechanism;
  double epsilon = 1;
  double delta = 1e-3;
  std::uint64_t samples = 1u << 20;
  std::uint64_t seed = 20261121;
  double alpha = 1e-6;
  unsigned threads = 0;
  std::size_t dim = 2;
  std::size_t candidates = 10;
  /// Lift the work bound (HARD.WORK): work() <= max_work without it.
  bool force = false;
  /// Work bound: 4 × samples draws per neighbour pair (search and test, both sides), each
  /// costing dim (vector-laplace) or candidates (exponential) draws: at most 2^30 without force
  /// (about a minute on one core).
  static constexpr double max_work = 1073741824.0;
  [[nodiscard]] double work() const {
    const double per = mechanism == "vector-laplace" ? static_cast<double>(dim)
                       : mechanism == "exponential"  ? static_cast<double>(candidates)
                                                     : 1.0;
    return 4.0 * static_cast<double>(samples) * per;
  }
  /// Processes sharing the sampling (nullptr: this one); results do not depend on it.
  const parallel::communicator* comm = nullptr;
};

/// Names of the built-in mechanisms (negative controls included).
inline const std::vector<std::string>& builtin_mechanisms() {
  static const std::vector<std::string> names = {
      "laplace",          "laplace-fast",          "gaussian",        "vector-laplace",
      "exponential",      "above-threshold",       "snapped-laplace", "laplace-half-scale",
      "textbook-laplace", "svt-no-threshold-noise"};
  return names;
}

namespace detail {
inline double identity_statistic(double y) { return y; }

/// Threshold events on a 136-cell grid over [-8 scale, 9 scale) (and the low-order-bit events).
inline std::vector<event_family<double>> scalar_families(double scale, bool lowbits) {
  std::vector<event_family<double>> f = {
      threshold_family<double>("threshold", identity_statistic, -8 * scale, 9 * scale, 136)};
  if (lowbits)
    f.push_back(lowbits_family<double>("low-order bits", identity_statistic, {-40, 4, 52}));
  return f;
}

inline std::string format_g6(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}
}  // namespace detail

/// Checks the options with the ranges of `dpref audit`'s flags.
/// @throws std::invalid_argument "dpref::audit::run_builtin: <option> must be ..., got ..."
inline void validate(const builtin_options& o) {
  constexpr const char* fn = "dpref::audit::run_builtin";
  const auto& names = builtin_mechanisms();
  if (std::find(names.begin(), names.end(), o.mechanism) == names.end()) {
    std::string all;
    for (const auto& n : names) all.append(all.empty() ? "" : ", ").append(n);
    fail_argument(fn, "mechanism", "one of " + all, o.mechanism);
  }
  if (!(o.epsilon >= 1e-3 && o.epsilon <= 20))
    fail_argument(fn, "epsilon", "in [0.001, 20]", o.epsilon);
  if (!(o.delta >= 1e-12 && o.delta <= 0.5)) fail_argument(fn, "delta", "in [1e-12, 0.5]", o.delta);
  if (o.samples < 1000 || o.samples > (std::uint64_t{1} << 34))
    fail_argument(fn, "samples", "in [1000, 2^34]", o.samples);
  if (!(o.alpha >= 1e-15 && o.alpha <= 0.5)) fail_argument(fn, "alpha", "in [1e-15, 0.5]", o.alpha);
  if (o.dim < 1 || o.dim > 64) fail_argument(fn, "dim", "in [1, 64]", o.dim);
  if (o.candidates < 2 || o.candidates > 10000)
    fail_argument(fn, "candidates", "in [2, 10000]", o.candidates);
  if (!o.force && o.work() > builtin_options::max_work)
    fail_argument(fn, "samples",
                  "such that 4 × samples × (dim or candidates) <= 2^30 draws per pair (the work "
                  "bound; about a minute), or force (--force)",
                  o.samples);
}

/// Runs the built-in audit `o.mechanism`; `sampler` receives the sampler's description.
/// @throws std::invalid_argument for options outside the ranges of validate()
inline audit_report run_builtin(const builtin_options& o, std::string& sampler) {
  validate(o);
  audit_config cfg;
  cfg.seed = o.seed;
  cfg.search_samples = cfg.test_samples = o.samples;
  cfg.alpha = o.alpha;
  cfg.epsilon = o.epsilon;
  cfg.delta = 0;
  cfg.threads = o.threads;
  cfg.comm = o.comm;
  const double sens = 1;
  const std::string& m = o.mechanism;
  if (m == "laplace" || m == "laplace-fast" || m == "laplace-half-scale") {
    double b = accounting::laplace_scale(sens, o.epsilon);
    if (m == "laplace-half-scale") b /= 2;
    sampler = m == "laplace-fast" ? "dpref::fast::laplace" : "dpref::laplace<double>";
    const bool fast = m == "laplace-fast";
    const auto mech = [b, fast](const double& x, philox_stream& s) {
      return fast ? mechanisms::laplace_mechanism_fast(s, x, b)
                  : mechanisms::laplace_mechanism<double>(s, x, b);
    };
    return run_audit<double, double>(mech, scalar_pairs(sens), detail::scalar_families(b, false),
                                     cfg);
  }
  if (m == "textbook-laplace" || m == "snapped-laplace") {
    const double b = accounting::laplace_scale(sens, o.epsilon);
    const bool snapped = m == "snapped-laplace";
    const int k = static_cast<int>(std::floor(std::log2(b))) - 10;
    if (snapped) cfg.epsilon = accounting::snapped_laplace_privacy(sens, b, k).eps;
    sampler = snapped ? "dpref::secure::snapped_laplace (grid 2^" + std::to_string(k) + ")"
                      : "textbook x - b sgn(u) ln(1 - 2|u|) in double";
    const auto mech = [b, k, snapped](const double& x, philox_stream& s) {
      return snapped ? secure::snapped_laplace(s, x, b, k) : textbook_laplace(s, x, b);
    };
    return run_audit<double, double>(mech, scalar_pairs(sens), detail::scalar_families(b, true),
                                     cfg);
  }
  if (m == "gaussian") {
    cfg.delta = o.delta;
    const double sigma = accounting::analytic_gaussian_sigma(sens, o.epsilon, o.delta);
    sampler = "dpref::gaussian<double>, analytic sigma = " + detail::format_g6(sigma);
    const auto mech = [sigma](const double& x, philox_stream& s) {
      return mechanisms::gaussian_mechanism<double>(s, x, sigma);
    };
    return run_audit<double, double>(mech, scalar_pairs(sens),
                                     detail::scalar_families(sigma, false), cfg);
  }
  if (m == "vector-laplace") {
    using vec = Eigen::VectorXd;
    const double b = accounting::laplace_scale(sens, o.epsilon);
    sampler = "dpref::vector_laplace<double>, d = " + std::to_string(o.dim);
    const auto mech = [b](const vec& x, philox_stream& s) {
      return mechanisms::vector_laplace_mechanism<double>(s, x, b);
    };
    const auto fams = [](const neighbour_pair<vec>& p) {
      const vec a = p.first, c = p.second;
      const double d = (c - a).norm();
      return std::vector<event_family<vec>>{threshold_family<vec>(
          "likelihood-ratio statistic",
          [a, c](const vec& y) { return (y - c).norm() - (y - a).norm(); }, -d, d, 100)};
    };
    return run_audit_per_pair<vec, vec>(mech, vector_pairs(o.dim, sens), fams, cfg);
  }
  if (m == "exponential") {
    sampler =
        "exact rejection (secure::uniform_int + bernoulli), m = " + std::to_string(o.candidates);
    const double eps = o.epsilon;
    const auto mech = [eps, sens](const std::vector<double>& u, philox_stream& s) {
      return mechanisms::exponential_mechanism<double>(s, std::span<const double>(u), eps, sens);
    };
    const std::size_t mc = o.candidates;
    return run_audit<std::vector<double>, std::size_t>(
        mech, utility_pairs(mc, sens),
        {index_family<std::size_t>(
            "candidate", [](std::size_t i) { return i; }, mc, false)},
        cfg);
  }
  // sparse vector: AboveThreshold (linesearch Algorithm 1) or a broken variant
  constexpr std::size_t k = 8;
  const bool broken = m == "svt-no-threshold-noise";
  // not a structured binding: clang 14 cannot capture one in the lambda below
  const auto scales = mechanisms::above_threshold_laplace_scales(sens, o.epsilon);
  const auto b1 = scales.first, b2 = scales.second;
  if (!broken) cfg.epsilon = accounting::svt_laplace_privacy(sens, b1, b2).eps;
  sampler = broken ? "sparse vector without threshold noise (NOT private)"
                   : "AboveThreshold, Laplace noise, max_it = 8";
  const double eps = o.epsilon;
  const auto mech = [=](const std::vector<double>& q, philox_stream& s) -> std::size_t {
    if (broken) {
      const auto t = sparse_vector(s, std::span<const double>(q), 0.0, sens, eps, 1,
                                   svt_variant::no_threshold_noise);
      return t.answers == 0 ? k : static_cast<std::size_t>(std::countr_zero(t.answers));
    }
    const auto r = mechanisms::above_threshold<double>(s, std::span<const double>(q), 0.0,
                                                       mechanisms::svt_noise::laplace, b1, b2);
    return r.found ? r.index : k;
  };
  return run_audit<std::vector<double>, std::size_t>(
      mech, query_pairs(k, sens),
      {index_family<std::size_t>(
          "first TOP", [](std::size_t i) { return i; }, k + 1, true,
          [](std::size_t j) { return j == k ? std::string("fail") : std::to_string(j); })},
      cfg);
}

/// The report of `dpref audit --json` for a built-in audit.
inline nlohmann::json builtin_report_json(const builtin_options& o, const audit_report& r,
                                          const std::string& sampler) {
  nlohmann::json j = report_json(r, o.seed, o.samples, o.samples);
  j["mechanism"] = o.mechanism;
  j["sampler"] = sampler;
  return j;
}

}  // namespace dpref::audit

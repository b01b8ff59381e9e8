// l2 sensitivity of the EV projection Π_{C(a,b)}(x0) to the private data (a, b)
// (ev (9), Theorem 8; errata EV-E1). spec/ev.md EV.THM8, EV.SENS.TIGHT, EV.SENS.SEARCH.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/geometry/capped_simplex.hpp"
#include "dpref/params.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::ev {

/// Which sensitivity value calibrates the noise.
enum class sensitivity_bound {
  paper,  ///< ev Theorem 8: Δ = 2δr + δE (valid, loose by a factor in [1, √2])
  tight,  ///< errata EV-E1: Δ* = sqrt(δr² + (δr + δE)²) for T >= 2, δE for T = 1 (attained)
};
DPREF_ENUM_NAMES(sensitivity_bound, tight, paper)

/// Δ for adjacency ‖a − a′‖₁ <= δr, |b − b′| <= δE at horizon T.
/// @throws std::domain_error if δr or δE is negative or not finite, or T = 0.
/// @spec EV.THM8 (paper), EV.SENS.TIGHT (tight)
template <real_scalar Real>
Real projection_sensitivity(const Real& delta_r, const Real& delta_e, std::size_t horizon,
                            sensitivity_bound which) {
  constexpr const char* fn = "dpref::ev::projection_sensitivity";
  require_nonnegative(fn, "delta_r", delta_r);
  require_nonnegative(fn, "delta_e", delta_e);
  if (horizon == 0) fail_domain(fn, "horizon", ">= 1", horizon);
  if (which == sensitivity_bound::paper) return 2 * delta_r + delta_e;  // ev (9), Theorem 8
  if (horizon == 1) return delta_e;  // x = b: only the energy moves the point
  using std::sqrt;
  const Real up = delta_r + delta_e;  // ‖d⁺‖₁ <= δr + δE, ‖d⁻‖₁ <= δr (errata 1(b) iv)
  return sqrt(delta_r * delta_r + up * up);
}

/// ‖Π_{C(a,b)}(x0) − Π_{C(a′,b′)}(x0)‖₂.
/// @spec EV.SENS.SEARCH
template <real_scalar Real>
Real projection_distance(const vector<Real>& x0, const vector<Real>& a, const Real& b,
                         const vector<Real>& a2, const Real& b2) {
  const auto p = geometry::project_capped_simplex(x0, a, b).x;
  const auto q = geometry::project_capped_simplex(x0, a2, b2).x;
  return (p - q).norm();
}

/// A candidate adjacent pair and the distance of its projections.
struct sensitivity_witness {
  vector<double> x0, a, a_prime;
  double b = 0, b_prime = 0, distance = 0;
};

/// Worst-case search for the sensitivity: random restarts of an adaptive (1+1) evolution
/// strategy over x0, a, the direction of a′ − a (‖a − a′‖₁ = δr, a′ clipped at 0) and
/// b, b′ (|b − b′| <= δE, 0 <= b <= 1'a, 0 <= b′ <= 1'a′). Every evaluated pair is adjacent and
/// feasible, so the result is a certified LOWER bound of the true sensitivity.
/// @spec EV.SENS.SEARCH
inline sensitivity_witness search_sensitivity(std::size_t horizon, double delta_r, double delta_e,
                                              int restarts, int steps, philox_stream& s) {
  constexpr const char* fn = "dpref::ev::search_sensitivity";
  if (horizon == 0) fail_domain(fn, "horizon", ">= 1", horizon);
  require_nonnegative(fn, "delta_r", delta_r);
  require_nonnegative(fn, "delta_e", delta_e);
  if (restarts < 1) fail_domain(fn, "restarts", ">= 1", restarts);
  const auto t = static_cast<Eigen::Index>(horizon);
  const Eigen::Index dim = 3 * t + 2;  // x0 (t), log-scale a (t), direction (t), b, b' shape
  auto decode = [&](const vector<double>& z, sensitivity_witness& w) {
    // bounded coordinates (|x0| <= 200, 0 <= a <= 200) keep the search where double rounding
    // is far below the distances compared
    w.x0 = z.head(t).unaryExpr([](double v) { return 200.0 * std::tanh(v / 4); });
    w.a = z.segment(t, t).unaryExpr([](double v) { return 100.0 * (1 + std::tanh(v / 4)); });
    vector<double> dir = z.segment(2 * t, t);
    const double l1 = dir.lpNorm<1>();
    if (l1 > 0) dir *= delta_r / l1;
    w.a_prime = (w.a + dir).cwiseMax(0.0);
    // (1 - 2^-40) keeps b <= 1'a robust to the summation order of the feasibility check
    const double shrink = 1 - 0x1p-40;
    const double cap = shrink * std::min(w.a.sum(), w.a_prime.sum() + delta_e);
    const double u = 0.5 + 0.5 * std::tanh(z[3 * t]);
    w.b = u * cap;
    const double sign = std::tanh(z[3 * t + 1]);
    w.b_prime = std::clamp(w.b + sign * delta_e, 0.0, shrink * w.a_prime.sum());
    w.distance = projection_distance<double>(w.x0, w.a, w.b, w.a_prime, w.b_prime);
  };
  sensitivity_witness best;
  best.distance = -1;
  for (int r = 0; r < restarts; ++r) {
    vector<double> z(dim);
    // not privacy noise: random restarts of the sensitivity search (public adjacency)
    for (Eigen::Index i = 0; i < dim; ++i) z[i] = gaussian<double>(s, 1.0);
    sensitivity_witness cur;
    decode(z, cur);
    double step = 0.5;
    for (int k = 0; k < steps && step > 1e-12; ++k) {
      vector<double> cand = z;
      // not privacy noise: proposal of the sensitivity search
      for (Eigen::Index i = 0; i < dim; ++i) cand[i] += step * gaussian<double>(s, 1.0);
      sensitivity_witness w;
      decode(cand, w);
      if (w.distance >= cur.distance) {  // 1/5th success rule
        z = cand;
        cur = w;
        step = std::min(4.0, step * 1.5);
      } else {
        step *= 0.9;
      }
    }
    if (cur.distance > best.distance) best = cur;
  }
  return best;
}

/// Configuration of `dpref ev sensitivity` (sensitivity_json in json.hpp): the paper's bound and
/// the tight value at (δr, δE, T), and the worst-case search at a small horizon.
/// @spec EV.SENS.CONFIG
struct sensitivity_config {
  /// Work bound of the search: restarts × steps × search_horizon (lifted by force).
  static constexpr double max_work = 1e8;

  double delta_r = 13.2, delta_e = 12;
  long long horizon = 52, search_horizon = 3;
  long long restarts = 20, steps = 2000;
  std::uint64_t seed = 20261121;
  bool force = false;

  template <class V>
  void fields(V&& v) {
    v("delta_r", delta_r, "adjacency δr in [0, 1e6] (kW)");
    v("delta_e", delta_e, "adjacency δE in [0, 1e6] (kW·slot)");
    v("horizon", horizon, "T of the bounds, in [1, 1e6]");
    v("search_horizon", search_horizon, "T of the worst-case search, in [1, 64]");
    v("restarts", restarts, "restarts of the search, in [1, 1e5]");
    v("steps", steps, "steps per restart, in [1, 1e7]");
    v("seed", seed, "seed of the search (stream 2)");
    v("force", force, "lift the work bound restarts × steps × search_horizon <= 1e8");
  }
  /// @throws invalid_parameter "ev::sensitivity_config.<field> must be ..., got ..."
  void validate() const {
    const param_checker c("ev::sensitivity_config");
    c.in_closed("delta_r", delta_r, 0.0, 1e6, "finite and in [0, 1e6]");
    c.in_closed("delta_e", delta_e, 0.0, 1e6, "finite and in [0, 1e6]");
    c.at_least<long long>("horizon", horizon, 1, 1000000);
    c.at_least<long long>("search_horizon", search_horizon, 1, 64);
    c.at_least<long long>("restarts", restarts, 1, 100000);
    c.at_least<long long>("steps", steps, 1, 10000000);
    c.require(
        force || static_cast<double>(restarts) * static_cast<double>(steps) *
                         static_cast<double>(search_horizon) <=
                     max_work,
        "steps",
        "such that restarts × steps × search_horizon <= 1e8 (work bound; set force to lift it)",
        steps);
  }
};

}  // namespace dpref::ev

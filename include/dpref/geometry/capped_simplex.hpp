// Exact Euclidean projection onto C(a, b) = {x in R^T : 0 <= x <= a, 1'x = b}
// (ev §IV, the per-user constraint set; errata EV-E1 §1(a)). spec/ev.md EV.PROJ.*.
//
// The projection is x_i = clip(x0_i - nu, 0, a_i) where nu solves g(nu) = sum_i x_i(nu) = b;
// g is continuous, piecewise linear and non-increasing with breakpoints x0_i - a_i (coordinate
// i leaves its upper bound: "start") and x0_i (it reaches 0: "stop").
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::geometry {

namespace detail {

template <class Real>
void validate_capped_simplex(const char* fn, const vector<Real>& x0, const vector<Real>& a,
                             const Real& b) {
  if (a.size() == 0) fail_argument(fn, "a", "non-empty (T >= 1)", a.size());
  if (x0.size() != a.size())
    fail_argument(fn, "x0", "of the same dimension as a (" + std::to_string(a.size()) + ")",
                  x0.size());
  Real total(0);
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    if (!is_finite_value(a[i]) || a[i] < Real(0))
      fail_domain(fn, "a[i]", "finite and >= 0 (a >= 0)", a[i]);
    if (!is_finite_value(x0[i])) fail_domain(fn, "x0[i]", "finite", x0[i]);
    total += a[i];
  }
  if (!is_finite_value(b) || b < Real(0)) fail_domain(fn, "b", "finite and >= 0", b);
  // b may exceed the computed 1'a by the rounding error bound of a T-term sum (a caller's
  // b = a.sum() in another summation order); such b is treated as 1'a (x = a).
  const Real slack = Real(2 * a.size()) * machine_epsilon<Real>() * total;
  if (b > total + slack) fail_domain(fn, "b", "<= 1'a (C(a, b) is empty otherwise)", b);
}

/// x = clip(x0 - nu, 0, a).
template <class Real>
vector<Real> clip_shift(const vector<Real>& x0, const vector<Real>& a, const Real& nu) {
  vector<Real> x(x0.size());
  for (Eigen::Index i = 0; i < x0.size(); ++i) {
    const Real v = x0[i] - nu;
    x[i] = v < Real(0) ? Real(0) : (v > a[i] ? a[i] : v);
  }
  return x;
}

}  // namespace detail

/// Result of a projection: the point and the multiplier nu of 1'x = b (KKT certificate:
/// x_i = clip(x0_i - nu, 0, a_i)).
template <real_scalar Real>
struct capped_simplex_projection {
  vector<Real> x;
  Real nu;
};

/// Exact projection of x0 onto C(a, b) by an O(T log T) breakpoint sweep; nu is computed from
/// the index sets of the final segment (not from an incrementally updated g), the last linear
/// piece solved exactly.
/// @throws std::invalid_argument on dimension mismatch or T = 0; std::domain_error if a has a
/// negative or non-finite entry, x0 a non-finite entry, b < 0, or b > 1'a (infeasible) beyond
/// the rounding error 2·T·eps·1'a of the sum (b within it is treated as 1'a).
/// @spec EV.PROJ.EXACT
template <real_scalar Real>
capped_simplex_projection<Real> project_capped_simplex(const vector<Real>& x0,
                                                       const vector<Real>& a, const Real& b) {
  constexpr const char* fn = "dpref::geometry::project_capped_simplex";
  detail::validate_capped_simplex(fn, x0, a, b);
  const auto t = static_cast<std::size_t>(a.size());
  // Special cases (errata 1(a)): b = 1'a gives x = a, b = 0 gives x = 0.
  if (b == Real(0)) return {vector<Real>::Zero(a.size()), Real(x0.maxCoeff())};
  if (b >= a.sum()) return {a, Real((x0 - a).minCoeff())};
  // events: value, index, kind (0 = start before 1 = stop at ties)
  struct event {
    Real value;
    std::size_t index;
    int kind;
  };
  std::vector<event> events;
  events.reserve(2 * t);
  for (std::size_t i = 0; i < t; ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    events.push_back({Real(x0[k] - a[k]), i, 0});
    events.push_back({x0[k], i, 1});
  }
  std::sort(events.begin(), events.end(), [](const event& l, const event& r) {
    return l.value < r.value || (l.value == r.value && l.kind < r.kind);
  });
  // state per coordinate: 0 = at upper bound (U), 1 = free (F), 2 = at zero (Z)
  std::vector<unsigned char> state(t, 0);
  Real sum_upper = a.sum(), sum_free(0);
  std::size_t n_free = 0;
  std::size_t e = 0;
  for (; e < events.size(); ++e) {
    const Real v = events[e].value;
    // g(v) on the current segment: sum_U a + sum_F (x0 - v)
    const Real g = sum_upper + sum_free - Real(n_free) * v;
    if (g <= b) break;
    const auto k = static_cast<Eigen::Index>(events[e].index);
    if (events[e].kind == 0) {
      state[events[e].index] = 1;
      sum_upper -= a[k];
      sum_free += x0[k];
      ++n_free;
    } else {
      state[events[e].index] = 2;
      sum_free -= x0[k];
      --n_free;
    }
  }
  if (n_free == 0) {
    // g is flat at the crossing: b equals sum_U a exactly (e.g. b = 1'a); any nu on the flat
    // piece works, the point is a on U and 0 elsewhere.
    const Real nu = e < events.size() ? events[e].value : events.back().value;
    vector<Real> x(a.size());
    for (std::size_t i = 0; i < t; ++i)
      x[static_cast<Eigen::Index>(i)] = state[i] == 0 ? a[static_cast<Eigen::Index>(i)] : Real(0);
    return {x, nu};
  }
  // recompute the sums of the final segment from the index sets (errata 1(a))
  Real su(0), sf(0);
  for (std::size_t i = 0; i < t; ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    if (state[i] == 0) su += a[k];
    if (state[i] == 1) sf += x0[k];
  }
  const Real nu = (sf + su - b) / Real(n_free);
  return {detail::clip_shift(x0, a, nu), nu};
}

}  // namespace dpref::geometry

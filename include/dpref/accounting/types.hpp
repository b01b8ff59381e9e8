// Privacy types of the accounting layer (spec/accounting.md): pure ε-DP, approximate (ε, δ)-DP and
// Rényi-DP curves ε(α) on a grid of orders.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accounting {

/// Pure ε-differential privacy.
template <real_scalar Real>
struct pure_dp {
  Real eps{};
};

/// Approximate (ε, δ)-differential privacy.
template <real_scalar Real>
struct approx_dp {
  Real eps{};
  Real delta{};
};

/// Rényi-DP curve: the mechanism is (orders[i], eps[i])-RDP for every i. Orders are > 1 and
/// strictly increasing; integer orders 2…α_max and optional fractional orders may be mixed.
template <real_scalar Real>
struct rdp_curve {
  std::vector<Real> orders;
  std::vector<Real> eps;
};

/// Result of an RDP → (ε, δ) conversion: the guarantee, the order that attains it and a flag
/// set when that order is the smallest or the largest of the grid (the grid should be widened).
template <real_scalar Real>
struct conversion_result {
  approx_dp<Real> guarantee;
  Real order{};
  bool at_grid_edge = false;
};

/// Validates an ε value: finite and > 0.
/// @spec ACC.TYPES
template <real_scalar Real>
void require_epsilon(std::string_view fn, std::string_view param, const Real& eps) {
  require_positive(fn, param, eps);
}

/// Validates a δ value: finite and in [0, 1).
/// @spec ACC.TYPES
template <real_scalar Real>
void require_delta(std::string_view fn, std::string_view param, const Real& delta) {
  if (!is_finite_value(delta) || delta < Real(0) || !(delta < Real(1)))
    fail_domain(fn, param, "in [0, 1)", delta);
}

/// Validates a δ value in (0, 1): require_delta, then δ > 0.
/// @spec ACC.TYPES
template <real_scalar Real>
void require_positive_delta(std::string_view fn, std::string_view param, const Real& delta) {
  require_delta(fn, param, delta);
  if (!(delta > Real(0))) fail_domain(fn, param, "> 0", delta);
}

/// Validates a Rényi order α: finite and > 1.
/// @spec ACC.TYPES
template <real_scalar Real>
void require_order(std::string_view fn, std::string_view param, const Real& order) {
  if (!is_finite_value(order) || !(order > Real(1))) fail_domain(fn, param, "> 1", order);
}

/// Validates a sampling rate q ∈ (0, 1].
/// @spec ACC.TYPES
template <real_scalar Real>
void require_rate(std::string_view fn, std::string_view param, const Real& q) {
  if (!is_finite_value(q) || !(q > Real(0)) || q > Real(1)) fail_domain(fn, param, "in (0, 1]", q);
}

/// Validates an RDP curve: equal sizes, non-empty, orders finite, > 1 and strictly increasing,
/// ε(α) finite and >= 0.
/// @spec ACC.TYPES
template <real_scalar Real>
void validate_curve(std::string_view fn, const rdp_curve<Real>& c) {
  if (c.orders.empty()) fail_argument(fn, "curve.orders", "non-empty", c.orders.size());
  if (c.orders.size() != c.eps.size())
    fail_argument(fn, "curve.eps.size()", "equal to curve.orders.size()", c.eps.size());
  for (std::size_t i = 0; i < c.orders.size(); ++i) {
    if (!is_finite_value(c.orders[i]) || !(c.orders[i] > Real(1)))
      fail_domain(fn, "curve.orders[i]", "finite and > 1", c.orders[i]);
    if (i > 0 && !(c.orders[i] > c.orders[i - 1]))
      fail_domain(fn, "curve.orders", "strictly increasing", c.orders[i]);
    require_nonnegative(fn, "curve.eps[i]", c.eps[i]);
  }
}

/// Integer orders lo, lo+1, …, hi as Real (the usual RDP grid).
/// @spec ACC.TYPES
template <real_scalar Real>
std::vector<Real> integer_orders(int lo, int hi) {
  if (lo < 2) fail_domain("integer_orders", "lo", ">= 2", lo);
  if (hi < lo) fail_domain("integer_orders", "hi", ">= lo", hi);
  std::vector<Real> out;
  out.reserve(static_cast<std::size_t>(hi - lo + 1));
  for (int a = lo; a <= hi; ++a) out.push_back(Real(a));
  return out;
}

}  // namespace dpref::accounting

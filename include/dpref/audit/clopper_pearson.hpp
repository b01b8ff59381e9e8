// Exact one-sided Clopper–Pearson confidence bounds for a binomial proportion
// (spec/audit.md AUDIT.CP). For k successes in n trials and false-alarm probability alpha:
//   lower(k, n, alpha) = Beta quantile B^{-1}(alpha; k, n - k + 1)      (0 if k = 0),
//   upper(k, n, alpha) = Beta quantile B^{-1}(1 - alpha; k + 1, n - k)  (1 if k = n),
// so that P_p[lower > p] <= alpha and P_p[upper < p] <= alpha for every p.
#pragma once

#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <cstdint>

#include "dpref/error.hpp"

namespace dpref::audit {

namespace detail {
inline void check_cp(const char* fn, double k, double n, double alpha) {
  if (!(n >= 1) || !std::isfinite(n)) fail_domain(fn, "n", "finite and >= 1", n);
  if (!(k >= 0) || !(k <= n)) fail_domain(fn, "k", "in [0, n]", k);
  if (!(alpha > 0) || !(alpha < 1)) fail_domain(fn, "alpha", "in (0, 1)", alpha);
}
}  // namespace detail

/// One-sided lower Clopper–Pearson bound, real-valued k allowed (used to project the bound that
/// a test sample would give from a search-sample frequency).
/// @param k successes in [0, n] @param n trials >= 1 @param alpha false-alarm probability in (0,1)
/// @return p_lo with P[p_lo > p] <= alpha @throws std::domain_error for invalid arguments
/// @spec AUDIT.CP
inline double cp_lower_real(double k, double n, double alpha) {
  detail::check_cp("dpref::audit::cp_lower", k, n, alpha);
  if (k <= 0) return 0.0;
  return boost::math::ibeta_inv(k, n - k + 1, alpha);
}

/// One-sided upper Clopper–Pearson bound, real-valued k allowed.
/// @param k successes in [0, n] @param n trials >= 1 @param alpha false-alarm probability in (0,1)
/// @return p_hi with P[p_hi < p] <= alpha @throws std::domain_error for invalid arguments
/// @spec AUDIT.CP
inline double cp_upper_real(double k, double n, double alpha) {
  detail::check_cp("dpref::audit::cp_upper", k, n, alpha);
  if (k >= n) return 1.0;
  // complement form keeps full relative accuracy for small upper bounds
  return boost::math::ibetac_inv(k + 1, n - k, alpha);
}

/// Exact one-sided lower Clopper–Pearson bound for k successes out of n.
/// @spec AUDIT.CP
inline double cp_lower(std::uint64_t k, std::uint64_t n, double alpha) {
  return cp_lower_real(static_cast<double>(k), static_cast<double>(n), alpha);
}

/// Exact one-sided upper Clopper–Pearson bound for k successes out of n.
/// @spec AUDIT.CP
inline double cp_upper(std::uint64_t k, std::uint64_t n, double alpha) {
  return cp_upper_real(static_cast<double>(k), static_cast<double>(n), alpha);
}

}  // namespace dpref::audit

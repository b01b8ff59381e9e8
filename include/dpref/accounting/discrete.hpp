// Privacy of the secure integer mechanisms (random/secure/): discrete Laplace, discrete Gaussian
// (Canonne–Kamath–Steinke 2020) and the lattice-snapped Laplace. Results rounded up
// (ACC.CERT.UP). spec/accounting.md ACC.DISCRETE.*.
#pragma once

#include <cmath>
#include <cstdint>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/random/secure/snapping.hpp"

namespace dpref::accounting {

/// ε of x + Z, Z ~ discrete Laplace with scale t = t_num/t_den (P(z) ∝ exp(−|z|/t)), on an
/// integer-valued query of sensitivity Δ: ε = Δ/t (CKS 2020, §2).
/// @throws std::domain_error if Δ is not finite and > 0 or t_num, t_den are not > 0.
/// @spec ACC.DISCRETE.LAPLACE
template <real_scalar Real>
pure_dp<Real> discrete_laplace_privacy(const Real& sensitivity, std::int64_t t_num,
                                       std::int64_t t_den) {
  constexpr const char* fn = "dpref::accounting::discrete_laplace_privacy";
  require_positive(fn, "sensitivity", sensitivity);
  if (t_num <= 0) fail_domain(fn, "t_num", "> 0", t_num);
  if (t_den <= 0) fail_domain(fn, "t_den", "> 0", t_den);
  certifier<Real> c;
  return {c.up(c.in(sensitivity)*work_real(t_den) / work_real(t_num))};
}

/// ε of secure::snapped_laplace(s, x, b, k) on a real query of sensitivity Δ: rounding x to the
/// grid g = 2^k moves the integer query by at most Δ/g + 1, and the noise is g·Z with Z discrete
/// Laplace of integer scale t = laplace_grid_scale(b, k) = max(1, ⌈b/g⌉):
/// ε = (Δ/g + 1)/t = (Δ + g)/(g t).
/// @throws std::domain_error for invalid Δ, b or k (as snapped_laplace).
/// @spec ACC.DISCRETE.SNAPPED
template <real_scalar Real>
pure_dp<Real> snapped_laplace_privacy(const Real& sensitivity, double scale_b, int k) {
  require_positive("dpref::accounting::snapped_laplace_privacy", "sensitivity", sensitivity);
  const std::int64_t t = secure::laplace_grid_scale(scale_b, k);  // validates b and k
  certifier<Real> c;
  const work_real g = detail::w_ldexp(work_real(1), k);
  return {c.up((c.in(sensitivity) + g) / (g * work_real(t)))};
}

/// δ(ε) of x + Z, Z ~ discrete Gaussian N_Z(0, σ²) with σ² = var_num/var_den, on an integer
/// query of sensitivity Δ: the exact hockey-stick divergence δ = Σ_z max(0, p(z) − e^ε p(z − Δ))
/// (CKS 2020 Theorem 7 in summation form). The sum runs over |z| <= L with the tail mass beyond
/// L added (an upper bound, as max(0, p − e^ε q) <= p), and the normaliser is truncated (which
/// only increases p): the returned δ is an upper bound of the exact value.
/// @throws std::domain_error for var_num, var_den <= 0, Δ < 1 or ε not finite and >= 0.
/// @spec ACC.DISCRETE.GAUSS
template <real_scalar Real>
Real discrete_gaussian_delta(std::int64_t var_num, std::int64_t var_den, std::int64_t sensitivity,
                             const Real& eps) {
  constexpr const char* fn = "dpref::accounting::discrete_gaussian_delta";
  if (var_num <= 0) fail_domain(fn, "var_num", "> 0", var_num);
  if (var_den <= 0) fail_domain(fn, "var_den", "> 0", var_den);
  if (sensitivity < 1) fail_domain(fn, "sensitivity", ">= 1 (integer query)", sensitivity);
  require_nonnegative(fn, "eps", eps);
  certifier<Real> c;
  using std::exp;
  using std::sqrt;
  const work_real var = work_real(var_num) / work_real(var_den);
  const work_real sigma = sqrt(var);
  // exp(-L^2/(2σ^2)) < 2^-(2W) for L = σ sqrt(4 W ln 2) + Δ; the tail sum is bounded by the
  // geometric series of the ratio at L, so the truncation error is far below the margin.
  const int w = working_bits(binary_digits<Real>());
  const double bound = static_cast<double>(sigma) * std::sqrt(4.0 * w * std::log(2.0)) + 1;
  if (bound > 1e7) fail_domain(fn, "var_num/var_den", "<= about 1e10 (summation range)", var_num);
  const auto lim = static_cast<std::int64_t>(bound) + sensitivity;
  const work_real e_eps = exp(c.in(eps));
  work_real z(0), d(0);
  for (std::int64_t x = -lim; x <= lim; ++x) z += exp(-work_real(x) * work_real(x) / (2 * var));
  for (std::int64_t x = -lim; x <= lim; ++x) {
    const work_real p = exp(-work_real(x) * work_real(x) / (2 * var));
    const work_real q = exp(-work_real(x - sensitivity) * work_real(x - sensitivity) / (2 * var));
    const work_real diff = p - e_eps * q;
    if (diff > 0) d += diff;
  }
  // tail mass beyond ±lim: 2 Σ_{z > lim} exp(-z²/2σ²) <= 2 exp(-lim²/2σ²) / (1 - exp(-lim/σ²))
  const work_real l(lim);
  const work_real tail = 2 * exp(-l * l / (2 * var)) / (1 - exp(-l / var));
  return c.up((d + tail) / z, e_eps);  // cancellation in p − e^ε q: absolute scale e^ε
}

}  // namespace dpref::accounting

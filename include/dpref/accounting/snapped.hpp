// Privacy of the lattice ("snapped") releases of real vectors (spec/secure_release.md
// SEC.ACC.LAPLACE, SEC.ACC.GAUSS, SEC.ACC.VLAPLACE): the guarantee of 2^k (n + Z), n the rounded
// clamped query, Z exact integer noise, for a REAL query of l1 / l2 sensitivity Δ in R^d.
// Results are rounded up, calibrated noise never below the exact requirement (ACC.CERT.UP).
//
// Sensitivity inflation (derivation in spec/secure_release.md): clamping is 1-Lipschitz per
// coordinate and rounding moves each coordinate by at most half a grid step, so the integer
// queries n, n' of neighbouring inputs satisfy |n_i - n'_i| <= |x_i - x'_i| / 2^k + 1 for every
// coordinate i, hence
//   ||n - n'||_1 <= Δ1 / 2^k + d        (l1: inflation d 2^k in x units)
//   ||n - n'||_2 <= Δ2 / 2^k + sqrt(d)  (l2: inflation sqrt(d) 2^k in x units).
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/discrete.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/error.hpp"
#include "dpref/random/secure/lattice.hpp"

namespace dpref::accounting {

namespace detail {

inline void check_snapped_grid(std::string_view fn, int k, long long d) {
  if (k < secure::lattice_k_min || k > secure::lattice_k_max)
    fail_domain(fn, "grid_exponent", "in [-1022, 970]", k);
  if (d < 1) fail_domain(fn, "dimension", ">= 1", d);
}

/// Δ / 2^k + m with m = d (l1) or sqrt(d) (l2): the inflated sensitivity in grid steps.
inline work_real grid_sensitivity(const work_real& sens, int k, long long d, bool l2) {
  using std::sqrt;
  const work_real m = l2 ? sqrt(work_real(d)) : work_real(d);
  return w_ldexp(sens, -k) + m;
}

/// Smallest integer t >= 1 with certified eps_of(t) <= target, starting from the estimate
/// ceil(steps / target). @throws std::domain_error if t would exceed 2^52.
template <real_scalar Real, class EpsOf>
std::int64_t smallest_grid_scale(const work_real& estimate, const Real& target, EpsOf&& eps_of,
                                 std::string_view fn) {
  const work_real c = ceil(estimate);
  if (c > work_real(static_cast<double>(std::int64_t{1} << 52)))
    fail_domain(fn, "epsilon", "large enough that the grid scale is <= 2^52 (coarser grid)",
                static_cast<double>(c));
  auto t = static_cast<std::int64_t>(static_cast<double>(c));
  if (t < 1) t = 1;
  while (t > 1 && eps_of(t - 1) <= target) --t;
  while (eps_of(t) > target) ++t;
  return t;
}

}  // namespace detail

/// ε of the snapped Laplace release of a d-vector (coordinate-wise discrete Laplace of integer
/// scale t on the grid 2^k) for a real query of l1 sensitivity Δ1: ε = (Δ1 + d 2^k)/(2^k t).
/// @throws std::domain_error for Δ1 not finite and > 0, k out of range, t < 1 or d < 1
/// @spec SEC.ACC.LAPLACE
template <real_scalar Real>
pure_dp<Real> snapped_laplace_vector_privacy(const Real& l1_sensitivity, int grid_exponent,
                                             std::int64_t grid_scale, long long dimension) {
  constexpr const char* fn = "dpref::accounting::snapped_laplace_vector_privacy";
  require_positive(fn, "l1_sensitivity", l1_sensitivity);
  detail::check_snapped_grid(fn, grid_exponent, dimension);
  if (grid_scale < 1) fail_domain(fn, "grid_scale", ">= 1", grid_scale);
  certifier<Real> c;
  return {c.up(detail::grid_sensitivity(c.in(l1_sensitivity), grid_exponent, dimension, false) /
               work_real(grid_scale))};
}

/// ε of the lattice l2-Laplace release (Z = round(W), W of density ∝ exp(−‖W‖₂/t), on the grid
/// 2^k) for a real query of l2 sensitivity Δ2: ε = (Δ2 + √d 2^k)/(2^k t).
/// @throws std::domain_error for invalid arguments (as above)
/// @spec SEC.ACC.VLAPLACE
template <real_scalar Real>
pure_dp<Real> snapped_vector_laplace_privacy(const Real& l2_sensitivity, int grid_exponent,
                                             std::int64_t grid_scale, long long dimension) {
  constexpr const char* fn = "dpref::accounting::snapped_vector_laplace_privacy";
  require_positive(fn, "l2_sensitivity", l2_sensitivity);
  detail::check_snapped_grid(fn, grid_exponent, dimension);
  if (grid_scale < 1) fail_domain(fn, "grid_scale", ">= 1", grid_scale);
  certifier<Real> c;
  return {c.up(detail::grid_sensitivity(c.in(l2_sensitivity), grid_exponent, dimension, true) /
               work_real(grid_scale))};
}

/// zCDP ρ of the snapped discrete Gaussian release of a d-vector (coordinate-wise N_Z(0, σ_g²),
/// σ_g² = var_num/var_den in grid steps) for a real query of l2 sensitivity Δ2:
/// ρ = (Δ2/2^k + √d)² / (2σ_g²) (Canonne–Kamath–Steinke 2020: the product of discrete Gaussians
/// satisfies ‖v‖²/(2σ²)-zCDP for integer shifts v; its RDP at order α is αρ).
/// @throws std::domain_error for invalid arguments
/// @spec SEC.ACC.GAUSS
template <real_scalar Real>
Real snapped_gaussian_rho(const Real& l2_sensitivity, int grid_exponent, std::int64_t var_num,
                          std::int64_t var_den, long long dimension) {
  constexpr const char* fn = "dpref::accounting::snapped_gaussian_rho";
  require_positive(fn, "l2_sensitivity", l2_sensitivity);
  detail::check_snapped_grid(fn, grid_exponent, dimension);
  if (var_num < 1) fail_domain(fn, "var_num", ">= 1", var_num);
  if (var_den < 1) fail_domain(fn, "var_den", ">= 1", var_den);
  certifier<Real> c;
  const work_real v =
      detail::grid_sensitivity(c.in(l2_sensitivity), grid_exponent, dimension, true);
  return c.up(v * v * work_real(var_den) / (2 * work_real(var_num)));
}

/// RDP curve α ↦ αρ of the snapped discrete Gaussian (ρ of snapped_gaussian_rho), each value
/// rounded up. @spec SEC.ACC.GAUSS
template <real_scalar Real>
rdp_curve<Real> snapped_gaussian_rdp_curve(const Real& l2_sensitivity, int grid_exponent,
                                           std::int64_t var_num, std::int64_t var_den,
                                           long long dimension, const std::vector<Real>& orders) {
  (void)snapped_gaussian_rho(l2_sensitivity, grid_exponent, var_num, var_den, dimension);
  certifier<Real> c;
  const work_real v =
      detail::grid_sensitivity(c.in(l2_sensitivity), grid_exponent, dimension, true);
  const work_real rho = v * v * work_real(var_den) / (2 * work_real(var_num));
  rdp_curve<Real> out{orders, {}};
  for (const Real& a : orders) out.eps.push_back(c.up(c.in(a)*rho));
  return out;
}

/// Exact δ(ε) of the SCALAR (d = 1) snapped discrete Gaussian: the integer query moves by at
/// most ⌊Δ/2^k⌋ + 1 grid steps, so δ is discrete_gaussian_delta at that integer sensitivity.
/// @throws std::domain_error for invalid arguments or a shift beyond 2^40 steps
/// @spec SEC.ACC.GAUSS
template <real_scalar Real>
Real snapped_gaussian_delta(const Real& sensitivity, int grid_exponent, std::int64_t var_num,
                            std::int64_t var_den, const Real& eps) {
  constexpr const char* fn = "dpref::accounting::snapped_gaussian_delta";
  require_positive(fn, "sensitivity", sensitivity);
  detail::check_snapped_grid(fn, grid_exponent, 1);
  certifier<Real> c;
  const work_real steps = floor(detail::w_ldexp(c.in(sensitivity), -grid_exponent)) + 1;
  if (steps > work_real(static_cast<double>(std::int64_t{1} << 40)))
    fail_domain(fn, "sensitivity", "<= 2^(k + 40)", sensitivity);
  const auto shift = static_cast<std::int64_t>(static_cast<double>(steps));  // exact integer
  return discrete_gaussian_delta(var_num, var_den, shift, eps);
}

/// The inflated sensitivities in x units, rounded up: Δ1 + d 2^k (l1) and Δ2 + √d 2^k (l2).
/// Calibrate σ of a snapped Gaussian with the l2 one.
/// @throws std::domain_error for invalid arguments
/// @spec SEC.ACC.GAUSS
template <real_scalar Real>
Real snapped_inflated_sensitivity(const Real& sensitivity, int grid_exponent, long long dimension,
                                  bool l2) {
  constexpr const char* fn = "dpref::accounting::snapped_inflated_sensitivity";
  require_positive(fn, "sensitivity", sensitivity);
  detail::check_snapped_grid(fn, grid_exponent, dimension);
  certifier<Real> c;
  return c.up(detail::w_ldexp(
      detail::grid_sensitivity(c.in(sensitivity), grid_exponent, dimension, l2), grid_exponent));
}

/// Calibration: the smallest integer grid scale t with certified
/// snapped_laplace_vector_privacy(Δ1, k, t, d) <= ε; the scale in x units is t 2^k (exact).
/// @throws std::domain_error for invalid arguments or t > 2^52
/// @spec SEC.ACC.LAPLACE
template <real_scalar Real>
std::int64_t snapped_laplace_grid_scale(const Real& l1_sensitivity, const Real& epsilon,
                                        int grid_exponent, long long dimension) {
  constexpr const char* fn = "dpref::accounting::snapped_laplace_grid_scale";
  require_positive(fn, "l1_sensitivity", l1_sensitivity);
  require_positive(fn, "epsilon", epsilon);
  detail::check_snapped_grid(fn, grid_exponent, dimension);
  work_real estimate;
  {
    certifier<Real> c;
    estimate = detail::grid_sensitivity(c.in(l1_sensitivity), grid_exponent, dimension, false) /
               c.in(epsilon);
  }
  return detail::smallest_grid_scale(
      estimate, epsilon,
      [&](std::int64_t t) {
        return snapped_laplace_vector_privacy(l1_sensitivity, grid_exponent, t, dimension).eps;
      },
      fn);
}

/// Calibration of the lattice l2-Laplace: the smallest integer t with certified
/// snapped_vector_laplace_privacy(Δ2, k, t, d) <= ε.
/// @throws std::domain_error for invalid arguments or t > 2^52
/// @spec SEC.ACC.VLAPLACE
template <real_scalar Real>
std::int64_t snapped_vector_laplace_grid_scale(const Real& l2_sensitivity, const Real& epsilon,
                                               int grid_exponent, long long dimension) {
  constexpr const char* fn = "dpref::accounting::snapped_vector_laplace_grid_scale";
  require_positive(fn, "l2_sensitivity", l2_sensitivity);
  require_positive(fn, "epsilon", epsilon);
  detail::check_snapped_grid(fn, grid_exponent, dimension);
  work_real estimate;
  {
    certifier<Real> c;
    estimate = detail::grid_sensitivity(c.in(l2_sensitivity), grid_exponent, dimension, true) /
               c.in(epsilon);
  }
  return detail::smallest_grid_scale(
      estimate, epsilon,
      [&](std::int64_t t) {
        return snapped_vector_laplace_privacy(l2_sensitivity, grid_exponent, t, dimension).eps;
      },
      fn);
}

}  // namespace dpref::accounting

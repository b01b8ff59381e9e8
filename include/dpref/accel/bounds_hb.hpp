// accel Theorem 3.5 (DP-SHB on a quadratic): the rate ρ of (3.18), the noise term m(α, β), the
// exact stationary quantities of errata ACC-E4, and the full bound (3.17).
//
// For a mode with curvature λ the HB error obeys e_{t+1} = T_λ e_t − α w_t with
// T_λ = [[1 + β − αλ, −β], [1, 0]], eigenvalues a_{λ,±} = (1 + β − αλ ± √((1 + β − αλ)² − 4β))/2.
// ρ_λ = max|a_{λ,±}| is quasi-convex in λ, so ρ = max(ρ_μ, ρ_L) (3.18).
// The stationary variance of a mode (AR(2) with φ1 = 1 + β − αλ, φ2 = −β, innovation α²σ²) is
//   γ(λ) = α(1 + β)σ² / ((1 − β) λ (2 + 2β − αλ)),
// m(α, β) = Σ_i γ(λ_i) is the stationary E‖x − x*‖² and ½Σ λ_i γ(λ_i) the stationary
// E[F − F*] (errata ACC-E4: the paper's L·m overstates it; (L/2)·m is the smoothness bound).
#pragma once

#include <cmath>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel::bounds {

/// Spectral radius of the 2×2 matrix of trace s and determinant det (e.g. [[s, −det], [1, 0]]):
/// the larger |(s ± √(s² − 4 det))/2|.
template <real_scalar Real>
Real companion_radius(const Real& s, const Real& det) {
  using std::abs;
  using std::sqrt;
  const Real disc = s * s - Real(4) * det;
  if (disc < Real(0)) return sqrt(det);  // complex pair: |a±|² = a₊a₋ = det
  const Real r = sqrt(disc);
  const Real p = abs(s + r), q = abs(s - r);
  return (p > q ? p : q) / Real(2);
}

/// ρ_λ: spectral radius of T_λ (accel proof of Theorem 3.5). @spec ACCEL.THM35
template <real_scalar Real>
Real hb_mode_radius(const Real& alpha, const Real& beta, const Real& lambda) {
  return companion_radius(Real(Real(1) + beta - alpha * lambda), beta);
}

/// ρ of accel (3.18) = max{|a_{μ,±}|, |a_{L,±}|}. @param alpha > 0 @param beta in [0, 1)
/// @param mu,L 0 < μ <= L @spec ACCEL.THM35
template <real_scalar Real>
Real hb_rate(const Real& alpha, const Real& beta, const Real& mu, const Real& L) {
  constexpr const char* fn = "hb_rate";
  require_positive(fn, "alpha", alpha);
  require_in_closed(fn, "beta", beta, Real(0), Real(1), "in [0, 1)");
  if (!(beta < Real(1))) fail_domain(fn, "beta", "in [0, 1)", beta);
  require_positive(fn, "mu", mu);
  require_positive(fn, "L", L);
  if (mu > L) fail_domain(fn, "mu", "<= L", mu);
  const Real a = hb_mode_radius(alpha, beta, mu), b = hb_mode_radius(alpha, beta, L);
  return a > b ? a : b;
}

/// NAG on a quadratic mode: spectral radius of [[(1+β)(1−αλ), −β(1−αλ)], [1, 0]] (accel (2.6)).
/// @spec ACCEL.NAG
template <real_scalar Real>
Real nag_mode_radius(const Real& alpha, const Real& beta, const Real& lambda) {
  const Real c = Real(1) - alpha * lambda;
  return companion_radius(Real((Real(1) + beta) * c), Real(beta * c));
}

/// Stationary per-mode variance γ(λ) (errata ACC-E4, property 16). Requires the mode to be
/// stable: 0 < αλ < 2 + 2β. @spec ACCEL.THM35
template <real_scalar Real>
Real hb_mode_variance(const Real& alpha, const Real& beta, const Real& lambda, const Real& sigma2) {
  constexpr const char* fn = "hb_mode_variance";
  require_positive(fn, "alpha", alpha);
  require_positive(fn, "lambda", lambda);
  require_nonnegative(fn, "sigma2", sigma2);
  if (!(beta >= Real(0) && beta < Real(1))) fail_domain(fn, "beta", "in [0, 1)", beta);
  const Real q = Real(2) + Real(2) * beta - alpha * lambda;
  if (!(q > Real(0))) fail_domain(fn, "alpha*lambda", "< 2 + 2 beta", alpha * lambda);
  return alpha * (Real(1) + beta) * sigma2 / ((Real(1) - beta) * lambda * q);
}

/// m(α, β) of Theorem 3.5 = (σ²/2) Σ 2α(1+β)/((1−β)λ_i(2+2β−αλ_i)) = Σ_i γ(λ_i).
/// @param eigenvalues λ_i of Q (all > 0) @param sigma2 σ_T² @spec ACCEL.THM35
template <real_scalar Real>
Real hb_m(const Real& alpha, const Real& beta, const std::vector<Real>& eigenvalues,
          const Real& sigma2) {
  if (eigenvalues.empty()) fail_argument("hb_m", "eigenvalues", "non-empty", 0);
  Real s(0);
  for (const Real& l : eigenvalues) s += hb_mode_variance(alpha, beta, l, sigma2);
  return s;
}

/// Exact stationary E[F − F*] = ½ Σ λ_i γ(λ_i) (errata ACC-E4). @spec ACCEL.THM35
template <real_scalar Real>
Real hb_stationary_excess(const Real& alpha, const Real& beta, const std::vector<Real>& eigenvalues,
                          const Real& sigma2) {
  if (eigenvalues.empty()) fail_argument("hb_stationary_excess", "eigenvalues", "non-empty", 0);
  Real s(0);
  for (const Real& l : eigenvalues) s += l * hb_mode_variance(alpha, beta, l, sigma2);
  return s / Real(2);
}

/// Right-hand side of (3.17): V(ξ0) C_t² ρ^{2t} + L m(α, β), with
/// V(ξ0) = ‖(ξ0 − ξ*)(ξ0 − ξ*)ᵀ‖ + σ²α²/(1 − ρ²) (ξ0 deterministic: ‖·‖ = ‖ξ0 − ξ*‖²) and
/// C_t = t as in the paper's Figure 1. @param xi0_dist2 ‖ξ0 − ξ*‖² @spec ACCEL.THM35
template <real_scalar Real>
Real hb_theorem35_bound(long long t, const Real& xi0_dist2, const Real& alpha, const Real& beta,
                        const std::vector<Real>& eigenvalues, const Real& sigma2) {
  if (t < 0) fail_domain("hb_theorem35_bound", "t", ">= 0", t);
  Real mu = eigenvalues.front(), L = eigenvalues.front();
  for (const Real& l : eigenvalues) {
    if (l < mu) mu = l;
    if (l > L) L = l;
  }
  const Real rho = hb_rate(alpha, beta, mu, L);
  if (!(rho < Real(1))) fail_domain("hb_theorem35_bound", "rho", "< 1", rho);
  using std::pow;
  const Real V = xi0_dist2 + sigma2 * alpha * alpha / (Real(1) - rho * rho);
  const Real Ct = Real(t);
  return V * Ct * Ct * Real(pow(rho, Real(2 * t))) + L * hb_m(alpha, beta, eigenvalues, sigma2);
}

/// Polyak's heavy-ball parameters α_HB = 4/(√μ + √L)², β_HB = ((√κ − 1)/(√κ + 1))².
template <real_scalar Real>
std::pair<Real, Real> hb_polyak_parameters(const Real& mu, const Real& L) {
  using std::sqrt;
  const Real sm = sqrt(mu), sl = sqrt(L), k = sqrt(L / mu);
  const Real r = (k - Real(1)) / (k + Real(1));
  return {Real(4) / ((sm + sl) * (sm + sl)), r * r};
}

}  // namespace dpref::accel::bounds

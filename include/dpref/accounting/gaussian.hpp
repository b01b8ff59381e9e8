// Gaussian mechanism → privacy: the classical 1.25/δ form (Dwork–Roth Thm A.1) and the Rényi-DP
// curve αΔ²/(2σ²) (Mironov 2017). The exact analytic Gaussian is in
// analytic_gaussian.hpp.
#pragma once

#include <string_view>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

namespace detail {
/// The arguments of a Gaussian (ε, δ) analysis `fn`: Δ > 0, σ > 0, δ ∈ (0, 1).
template <real_scalar Real>
void require_gaussian_privacy(std::string_view fn, const Real& l2_sensitivity, const Real& sigma,
                              const Real& delta) {
  require_positive(fn, "l2_sensitivity", l2_sensitivity);
  require_positive(fn, "sigma", sigma);
  require_positive_delta(fn, "delta", delta);
}
}  // namespace detail

/// Classical Gaussian mechanism (Dwork–Roth Thm A.1): ε = √(2 ln(1.25/δ)) Δ/σ, valid for ε < 1.
/// @param l2_sensitivity Δ > 0 @param sigma σ > 0 @param delta δ ∈ (0, 1)
/// @return approx_dp with ε rounded up @throws std::domain_error if ε >= 1 or invalid input
/// @spec ACC.GAUSS.CLASSICAL
template <real_scalar Real>
approx_dp<Real> gaussian_privacy_classical(const Real& l2_sensitivity, const Real& sigma,
                                           const Real& delta) {
  detail::require_gaussian_privacy("gaussian_privacy_classical", l2_sensitivity, sigma, delta);
  Real eps;
  {
    using std::log;
    using std::sqrt;
    certifier<Real> c;
    const work_real c125 = work_real(5) / 4;
    eps = c.up(sqrt(2 * log(c125 / c.in(delta))) * c.in(l2_sensitivity) / c.in(sigma));
  }
  if (!(eps < Real(1)))
    fail_domain("gaussian_privacy_classical", "resulting eps", "< 1 (validity range)", eps);
  return {eps, delta};
}

/// Classical calibration σ = √(2 ln(1.25/δ)) Δ/ε for ε ∈ (0, 1), rounded up.
/// @param l2_sensitivity Δ > 0 @param eps ε ∈ (0, 1) @param delta δ ∈ (0, 1) @return σ
/// @throws std::domain_error outside the validity range
/// @spec ACC.GAUSS.CLASSICAL
template <real_scalar Real>
Real gaussian_sigma_classical(const Real& l2_sensitivity, const Real& eps, const Real& delta) {
  require_positive("gaussian_sigma_classical", "l2_sensitivity", l2_sensitivity);
  require_epsilon("gaussian_sigma_classical", "eps", eps);
  if (!(eps < Real(1))) fail_domain("gaussian_sigma_classical", "eps", "< 1", eps);
  require_positive_delta("gaussian_sigma_classical", "delta", delta);
  using std::log;
  using std::sqrt;
  certifier<Real> c;
  const work_real c125 = work_real(5) / 4;
  return c.up(sqrt(2 * log(c125 / c.in(delta))) * c.in(l2_sensitivity) / c.in(eps));
}

/// Rényi-DP of the Gaussian mechanism: ε(α) = αΔ²/(2σ²) (Mironov 2017).
/// @param l2_sensitivity Δ > 0 @param sigma σ > 0 @param order α > 1 @return ε(α) rounded up
/// @throws std::domain_error for invalid arguments
/// @spec ACC.RDP.GAUSS
template <real_scalar Real>
Real gaussian_rdp(const Real& l2_sensitivity, const Real& sigma, const Real& order) {
  require_positive("gaussian_rdp", "l2_sensitivity", l2_sensitivity);
  require_positive("gaussian_rdp", "sigma", sigma);
  require_order("gaussian_rdp", "order", order);
  certifier<Real> c;
  const work_real r = c.in(l2_sensitivity) / c.in(sigma);
  return c.up(c.in(order)*r * r / 2);
}

/// Gaussian RDP curve on the given orders.
/// @spec ACC.RDP.GAUSS
template <real_scalar Real>
rdp_curve<Real> gaussian_rdp_curve(const Real& l2_sensitivity, const Real& sigma,
                                   const std::vector<Real>& orders) {
  rdp_curve<Real> out{orders, {}};
  out.eps.reserve(orders.size());
  for (const Real& a : orders) out.eps.push_back(gaussian_rdp(l2_sensitivity, sigma, a));
  validate_curve("gaussian_rdp_curve", out);
  return out;
}

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_GAUSSIAN_INSTANCES(EXT, R)                                             \
  EXT template approx_dp<R> gaussian_privacy_classical<R>(const R&, const R&, const R&); \
  EXT template R gaussian_sigma_classical<R>(const R&, const R&, const R&);              \
  EXT template R gaussian_rdp<R>(const R&, const R&, const R&);                          \
  EXT template rdp_curve<R> gaussian_rdp_curve<R>(const R&, const R&, const std::vector<R>&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_GAUSSIAN(R) DPREF_ACC_GAUSSIAN_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_GAUSSIAN)
#undef DPREF_ACC_EXTERN_GAUSSIAN
#endif

}  // namespace dpref::accounting

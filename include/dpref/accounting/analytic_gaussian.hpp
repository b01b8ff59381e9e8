// Exact (analytic) Gaussian mechanism of Balle & Wang (ICML 2018), both directions:
// δ(ε; σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ), σ ↦ ε for a given δ and (ε, δ) ↦ σ.
#pragma once

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/gaussian.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

namespace detail {
/// Balle–Wang δ(ε) at the working precision; second member: scale of the cancelled terms.
inline std::pair<work_real, work_real> analytic_gaussian_delta_work(const work_real& sens,
                                                                    const work_real& sigma,
                                                                    const work_real& eps) {
  using std::exp;
  using std::log;
  const work_real u = sens / (2 * sigma);
  const work_real v = eps * sigma / sens;
  const work_real p1 = w_phi(u - v);
  const work_real p2 = w_phi(-u - v);
  const work_real second = (p2 > 0) ? exp(eps + log(p2)) : work_real(0);
  return {p1 - second, p1};
}
}  // namespace detail

/// δ of the Gaussian mechanism N(0, σ²) at privacy level ε (Balle & Wang 2018, Thm 8), exact
/// formula, rounded up.
/// @param l2_sensitivity Δ > 0 @param sigma σ > 0 @param eps ε >= 0 @return δ ∈ [0, 1]
/// @throws std::domain_error for invalid arguments
/// @spec ACC.GAUSS.ANALYTIC
template <real_scalar Real>
Real analytic_gaussian_delta(const Real& l2_sensitivity, const Real& sigma, const Real& eps) {
  require_positive("analytic_gaussian_delta", "l2_sensitivity", l2_sensitivity);
  require_positive("analytic_gaussian_delta", "sigma", sigma);
  require_nonnegative("analytic_gaussian_delta", "eps", eps);
  certifier<Real> c;
  const auto [d, s] =
      detail::analytic_gaussian_delta_work(c.in(l2_sensitivity), c.in(sigma), c.in(eps));
  Real r = c.up(d, s);
  if (r < Real(0)) r = Real(0);
  if (r > Real(1)) r = Real(1);
  return r;
}

/// Smallest ε (to the caller's precision, rounded up) such that the Gaussian mechanism with
/// noise σ is (ε, δ)-DP, by the exact Balle–Wang δ(ε).
/// @param l2_sensitivity Δ > 0 @param sigma σ > 0 @param delta δ ∈ (0, 1)
/// @return approx_dp{ε, δ} @throws std::domain_error for invalid arguments
/// @spec ACC.GAUSS.ANALYTIC
template <real_scalar Real>
approx_dp<Real> analytic_gaussian_privacy(const Real& l2_sensitivity, const Real& sigma,
                                          const Real& delta) {
  detail::require_gaussian_privacy("analytic_gaussian_privacy", l2_sensitivity, sigma, delta);
  auto ok = [&](const Real& e) {
    return analytic_gaussian_delta(l2_sensitivity, sigma, e) <= delta;
  };
  if (ok(Real(0))) return {Real(0), delta};
  using std::log;
  using std::sqrt;
  const Real guess = sqrt(2 * log(Real(2) / delta)) * l2_sensitivity / sigma;
  return {smallest_satisfying<Real>(ok, guess, "analytic_gaussian_privacy", "eps"), delta};
}

/// Smallest noise σ (rounded up: never smaller than exact) such that N(0, σ²) on a query of ℓ2
/// sensitivity Δ is (ε, δ)-DP by the exact Balle–Wang criterion.
/// @param l2_sensitivity Δ > 0 @param eps ε > 0 @param delta δ ∈ (0, 1) @return σ
/// @throws std::domain_error for invalid arguments
/// @spec ACC.GAUSS.ANALYTIC
template <real_scalar Real>
Real analytic_gaussian_sigma(const Real& l2_sensitivity, const Real& eps, const Real& delta) {
  require_positive("analytic_gaussian_sigma", "l2_sensitivity", l2_sensitivity);
  require_epsilon("analytic_gaussian_sigma", "eps", eps);
  require_positive_delta("analytic_gaussian_sigma", "delta", delta);
  auto ok = [&](const Real& s) { return analytic_gaussian_delta(l2_sensitivity, s, eps) <= delta; };
  using std::log;
  using std::sqrt;
  const Real guess = sqrt(2 * log(Real(2) / delta)) * l2_sensitivity / eps;
  return smallest_satisfying<Real>(ok, guess, "analytic_gaussian_sigma", "sigma");
}

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_ANALYTIC_INSTANCES(EXT, R)                                            \
  EXT template R analytic_gaussian_delta<R>(const R&, const R&, const R&);              \
  EXT template approx_dp<R> analytic_gaussian_privacy<R>(const R&, const R&, const R&); \
  EXT template R analytic_gaussian_sigma<R>(const R&, const R&, const R&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_ANALYTIC(R) DPREF_ACC_ANALYTIC_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_ANALYTIC)
#undef DPREF_ACC_EXTERN_ANALYTIC
#endif

}  // namespace dpref::accounting

// Laplace-type mechanisms → privacy: scalar/ℓ1 Laplace (Dwork–McSherry–Nissim–Smith 2006), ℓ2
// vector Laplace (the ℓ2 K-norm mechanism, Hardt–Talwar 2010), the exponential mechanism
// (McSherry–Talwar 2007) and the Rényi-DP curve of the Laplace mechanism (Mironov 2017).
#pragma once

#include <cstddef>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

/// ε of the Laplace mechanism q(D) + Lap(b)^d with ℓ1 sensitivity Δ1: ε = Δ1/b (Dwork–Roth
/// Thm 3.6).
/// @param l1_sensitivity Δ1 > 0 @param scale b > 0 @return pure_dp, ε rounded up
/// @throws std::domain_error for non-positive or non-finite arguments
/// @spec ACC.LAPLACE
template <real_scalar Real>
pure_dp<Real> laplace_privacy(const Real& l1_sensitivity, const Real& scale) {
  require_positive("laplace_privacy", "l1_sensitivity", l1_sensitivity);
  require_positive("laplace_privacy", "scale", scale);
  certifier<Real> c;
  return {c.up(c.in(l1_sensitivity) / c.in(scale))};
}

/// ε of the ℓ2 vector Laplace mechanism, density ∝ exp(−ε‖w‖₂/Δ2) with scale b = Δ2/ε:
/// ε = Δ2/b (Hardt–Talwar 2010, K = ℓ2 ball; Chaudhuri–Monteleoni–Sarwate 2011).
/// @param l2_sensitivity Δ2 > 0 @param scale b > 0 @return pure_dp, ε rounded up
/// @throws std::domain_error for non-positive or non-finite arguments
/// @spec ACC.LAPLACE.VECTOR
template <real_scalar Real>
pure_dp<Real> vector_laplace_privacy(const Real& l2_sensitivity, const Real& scale) {
  require_positive("vector_laplace_privacy", "l2_sensitivity", l2_sensitivity);
  require_positive("vector_laplace_privacy", "scale", scale);
  certifier<Real> c;
  return {c.up(c.in(l2_sensitivity) / c.in(scale))};
}

/// Smallest Laplace scale b = Δ/ε (rounded up: noise never smaller than exact).
/// @param sensitivity Δ > 0 @param eps target ε > 0 @return b
/// @throws std::domain_error for non-positive or non-finite arguments
/// @spec ACC.LAPLACE
template <real_scalar Real>
Real laplace_scale(const Real& sensitivity, const Real& eps) {
  require_positive("laplace_scale", "sensitivity", sensitivity);
  require_epsilon("laplace_scale", "eps", eps);
  certifier<Real> c;
  return c.up(c.in(sensitivity) / c.in(eps));
}

/// ε of the exponential mechanism sampling P(x) ∝ exp(u(D, x)/scale) with utility sensitivity
/// Δu: ε = 2Δu/scale (McSherry–Talwar 2007; Dwork–Roth Thm 3.10 with scale = 2Δu/ε); ε = Δu/scale
/// if u is monotone in D.
/// @param utility_sensitivity Δu > 0 @param scale > 0 @param monotone utility monotone in D
/// @return pure_dp, ε rounded up @throws std::domain_error for invalid arguments
/// @spec ACC.EXPMECH
template <real_scalar Real>
pure_dp<Real> exponential_mechanism_privacy(const Real& utility_sensitivity, const Real& scale,
                                            bool monotone = false) {
  require_positive("exponential_mechanism_privacy", "utility_sensitivity", utility_sensitivity);
  require_positive("exponential_mechanism_privacy", "scale", scale);
  certifier<Real> c;
  const work_real f = monotone ? work_real(1) : work_real(2);
  return {c.up(f * c.in(utility_sensitivity) / c.in(scale))};
}

namespace detail {
/// Mironov (2017) Laplace RDP of order α > 1 for e = Δ/b, in log space:
/// (α−1)⁻¹ log[α/(2α−1) e^{(α−1)e} + (α−1)/(2α−1) e^{−αe}]. Returns {value, abs error scale}.
inline std::pair<work_real, work_real> laplace_rdp_work(const work_real& e, const work_real& a) {
  using std::log;
  const work_real am1 = a - 1;
  const work_real den = 2 * a - 1;
  const work_real t1 = log(a / den) + am1 * e;
  const work_real t2 = log(am1 / den) - a * e;
  const work_real num = w_logaddexp(t1, t2);
  return {num / am1, (1 + a * e) / am1};
}
}  // namespace detail

/// Rényi-DP of the Laplace mechanism (Mironov 2017, Prop. 6): for e = Δ1/b and order α > 1,
/// ε(α) = (α−1)⁻¹ log[α/(2α−1) e^{(α−1)e} + (α−1)/(2α−1) e^{−αe}] (also the building
/// block of svt_bound::paper_eq4_5, ACC.SVT.RDP.PAPER4). Evaluated in log space, stable for α → 1
/// and α up to 1e6.
/// @param l1_sensitivity Δ1 > 0 @param scale b > 0 @param order α > 1
/// @return ε(α) rounded up @throws std::domain_error for invalid arguments
/// @spec ACC.RDP.LAPLACE
template <real_scalar Real>
Real laplace_rdp(const Real& l1_sensitivity, const Real& scale, const Real& order) {
  require_positive("laplace_rdp", "l1_sensitivity", l1_sensitivity);
  require_positive("laplace_rdp", "scale", scale);
  require_order("laplace_rdp", "order", order);
  certifier<Real> c;
  const auto [v, s] = detail::laplace_rdp_work(c.in(l1_sensitivity) / c.in(scale), c.in(order));
  const Real r = c.up(v, s);
  return r < Real(0) ? Real(0) : r;
}

/// Laplace RDP curve on the given orders (see laplace_rdp).
/// @spec ACC.RDP.LAPLACE
template <real_scalar Real>
rdp_curve<Real> laplace_rdp_curve(const Real& l1_sensitivity, const Real& scale,
                                  const std::vector<Real>& orders) {
  rdp_curve<Real> out{orders, {}};
  out.eps.reserve(orders.size());
  for (const Real& a : orders) out.eps.push_back(laplace_rdp(l1_sensitivity, scale, a));
  validate_curve("laplace_rdp_curve", out);
  return out;
}

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_LAPLACE_INSTANCES(EXT, R)                                           \
  EXT template pure_dp<R> laplace_privacy<R>(const R&, const R&);                     \
  EXT template pure_dp<R> vector_laplace_privacy<R>(const R&, const R&);              \
  EXT template R laplace_scale<R>(const R&, const R&);                                \
  EXT template pure_dp<R> exponential_mechanism_privacy<R>(const R&, const R&, bool); \
  EXT template R laplace_rdp<R>(const R&, const R&, const R&);                        \
  EXT template rdp_curve<R> laplace_rdp_curve<R>(const R&, const R&, const std::vector<R>&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_LAPLACE(R) DPREF_ACC_LAPLACE_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_LAPLACE)
#undef DPREF_ACC_EXTERN_LAPLACE
#endif

}  // namespace dpref::accounting

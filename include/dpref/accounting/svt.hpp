// AboveThreshold / sparse vector (Dwork–Roth Alg. 1; Lyu–Su–Li 2017): pure ε and Rényi-DP. The RDP
// default is a PROVEN bound (errata LS-E1): the ε-DP → RDP conversion for Laplace noise and the
// Zhu–Wang NeurIPS'20 Theorem 8 bound for Gaussian noise. The published bounds without a
// complete proof (ACC.SVT.RDP.PAPER4, ACC.SVT.RDP.PAPER5) are available by name only.
#pragma once

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/laplace.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

/// Which AboveThreshold RDP bound to use.
enum class svt_bound {
  proven,      ///< default: a bound with a complete proof (errata LS-E1)
  paper_eq4_5  ///< published eq (4) (Laplace) / eq (5) (Gaussian): ACC.SVT.RDP.PAPER4/PAPER5
};

/// Pure ε of Laplace AboveThreshold with threshold noise Lap(b1), query noise Lap(b2) and
/// query sensitivity Δ: ε = Δ/b1 + 2Δ/b2 (Dwork–Roth Thm 3.23: b1 = 2Δ/ε, b2 = 4Δ/ε gives ε).
/// @param sensitivity Δ > 0 @param threshold_scale b1 > 0 @param query_scale b2 > 0
/// @return pure_dp, ε rounded up @throws std::domain_error for invalid arguments
/// @spec ACC.SVT.PURE
template <real_scalar Real>
pure_dp<Real> svt_laplace_privacy(const Real& sensitivity, const Real& threshold_scale,
                                  const Real& query_scale) {
  require_positive("svt_laplace_privacy", "sensitivity", sensitivity);
  require_positive("svt_laplace_privacy", "threshold_scale", threshold_scale);
  require_positive("svt_laplace_privacy", "query_scale", query_scale);
  certifier<Real> c;
  const work_real d = c.in(sensitivity);
  return {c.up(d / c.in(threshold_scale) + 2 * d / c.in(query_scale))};
}

/// RDP of Laplace AboveThreshold at order α with ε1 = Δ/b1, ε2 = Δ/b2.
/// proven: tight ε-DP → RDP of ε = ε1 + 2ε2; paper_eq4_5 (ACC.SVT.RDP.PAPER4):
/// RDP_Lap(α; ε1) + RDP_Lap(α; 2ε2) (proof incomplete, errata LS-E1).
/// @param order α > 1 @param eps1 ε1 > 0 @param eps2 ε2 > 0 @param bound which bound
/// @return ε(α) rounded up @throws std::domain_error for invalid arguments
/// @spec ACC.SVT.RDP.LAPLACE ACC.SVT.RDP.PAPER4
template <real_scalar Real>
Real svt_laplace_rdp(const Real& order, const Real& eps1, const Real& eps2,
                     svt_bound bound = svt_bound::proven) {
  require_epsilon("svt_laplace_rdp", "eps1", eps1);
  require_epsilon("svt_laplace_rdp", "eps2", eps2);
  require_order("svt_laplace_rdp", "order", order);
  certifier<Real> c;
  const work_real a = c.in(order), e1 = c.in(eps1), e2 = c.in(eps2);
  if (bound == svt_bound::proven) return detail::pure_to_rdp_up<Real>(c, e1 + 2 * e2, a, nullptr);
  const auto [v1, s1] = detail::laplace_rdp_work(e1, a);      // ACC.SVT.RDP.PAPER4, first factor
  const auto [v2, s2] = detail::laplace_rdp_work(2 * e2, a);  // second factor
  const Real r = c.up(v1 + v2, s1 + s2);
  return r < Real(0) ? Real(0) : r;
}

/// RDP of Gaussian AboveThreshold (threshold noise N(0, σ1²), query noise N(0, σ2²), query
/// sensitivity Δ, at most k queries). proven: Zhu–Wang NeurIPS'20 Thm 8 (form of autodp's
/// RDP_gaussian_svt_c1, errata LS-E1): ln(k)/(α−1) + αΔ²/σ1² + 2αΔ²/σ2².
/// paper_eq4_5 (ACC.SVT.RDP.PAPER5): αΔ²(4σ1² + σ2²)/(2σ1²σ2²) (proof incomplete, k-free).
/// @param order α > 1 @param sensitivity Δ > 0 @param sigma1 σ1 > 0 @param sigma2 σ2 > 0
/// @param max_queries k >= 1 (used by the proven bound) @param bound which bound
/// @return ε(α) rounded up @throws std::domain_error for invalid arguments
/// @spec ACC.SVT.RDP.GAUSS ACC.SVT.RDP.PAPER5
template <real_scalar Real>
Real svt_gaussian_rdp(const Real& order, const Real& sensitivity, const Real& sigma1,
                      const Real& sigma2, long max_queries, svt_bound bound = svt_bound::proven) {
  require_order("svt_gaussian_rdp", "order", order);
  require_positive("svt_gaussian_rdp", "sensitivity", sensitivity);
  require_positive("svt_gaussian_rdp", "sigma1", sigma1);
  require_positive("svt_gaussian_rdp", "sigma2", sigma2);
  if (max_queries < 1) fail_domain("svt_gaussian_rdp", "max_queries", ">= 1", max_queries);
  certifier<Real> c;
  const work_real a = c.in(order), d = c.in(sensitivity), s1 = c.in(sigma1), s2 = c.in(sigma2);
  const work_real d2 = d * d;
  if (bound == svt_bound::proven) {
    const work_real v =
        detail::w_log_int(max_queries) / (a - 1) + a * d2 / (s1 * s1) + 2 * a * d2 / (s2 * s2);
    return c.up(v);
  }
  const work_real v1 = s1 * s1, v2 = s2 * s2;
  return c.up(a * d2 * (4 * v1 + v2) / (2 * v1 * v2));  // ACC.SVT.RDP.PAPER5
}

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_SVT_INSTANCES(EXT, R)                                         \
  EXT template pure_dp<R> svt_laplace_privacy<R>(const R&, const R&, const R&); \
  EXT template R svt_laplace_rdp<R>(const R&, const R&, const R&, svt_bound);   \
  EXT template R svt_gaussian_rdp<R>(const R&, const R&, const R&, const R&, long, svt_bound);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_SVT(R) DPREF_ACC_SVT_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_SVT)
#undef DPREF_ACC_EXTERN_SVT
#endif

}  // namespace dpref::accounting

// Conversions between privacy notions: RDP → (ε, δ) (Mironov 2017 Prop 3; Balle et
// al. 2020 Thm 21 = Canonne–Kamath–Steinke 2020 Prop 12) with the optimal order, and
// ε-DP → RDP (Bun–Steinke 2016 Prop 3.3; the tight randomized-response form).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

/// RDP → (ε, δ) conversion rule.
enum class conversion_method {
  mironov,   ///< ε = ε(α) + log(1/δ)/(α−1) (Mironov 2017 Prop 3)
  balle2020  ///< ε = ε(α) + log((α−1)/α) − (log δ + log α)/(α−1) (tighter; = CKS 2020)
};

namespace detail {
/// ε(δ) at one order; second member: scale of cancelling terms.
inline std::pair<work_real, work_real> convert_one(const work_real& tau, const work_real& a,
                                                   const work_real& log_inv_delta,
                                                   conversion_method m) {
  using std::abs;
  using std::log;
  const work_real am1 = a - 1;
  if (m == conversion_method::mironov) return {tau + log_inv_delta / am1, abs(tau) + 1};
  const work_real la = log(a);
  const work_real v = tau + log(am1 / a) + (log_inv_delta - la) / am1;
  return {v, abs(tau) + log_inv_delta + la + 1};
}
}  // namespace detail

/// Converts an RDP curve to (ε, δ)-DP choosing the best order of the grid.
/// @param curve validated RDP curve @param delta δ ∈ (0, 1) @param method conversion rule
/// @return guarantee (ε rounded up, clamped at 0), the order used and whether it lies at the
///         edge of the grid (then the grid should be extended)
/// @throws std::domain_error / std::invalid_argument for invalid input
/// @spec ACC.CONV.MIRONOV ACC.CONV.BALLE
template <real_scalar Real>
conversion_result<Real> rdp_to_dp(const rdp_curve<Real>& curve, const Real& delta,
                                  conversion_method method = conversion_method::balle2020) {
  validate_curve("rdp_to_dp", curve);
  require_positive_delta("rdp_to_dp", "delta", delta);
  certifier<Real> c;
  using std::log;
  const work_real lid = -log(c.in(delta));
  std::size_t best = 0;
  work_real best_v, best_s;
  for (std::size_t i = 0; i < curve.orders.size(); ++i) {
    auto [v, s] = detail::convert_one(c.in(curve.eps[i]), c.in(curve.orders[i]), lid, method);
    if (i == 0 || v < best_v) {
      best = i;
      best_v = v;
      best_s = s;
    }
  }
  Real eps = c.up(best_v, best_s);
  if (eps < Real(0)) eps = Real(0);
  const bool edge = curve.orders.size() < 3 || best == 0 || best + 1 == curve.orders.size();
  return {{eps, delta}, curve.orders[best], edge};
}

namespace detail {
/// The arguments of an ε-DP → RDP conversion `fn`: ε (require_epsilon) and α (require_order).
template <real_scalar Real>
void require_pure_to_rdp(const char* fn, const Real& eps, const Real& order) {
  require_epsilon(fn, "eps", eps);
  require_order(fn, "order", order);
}
}  // namespace detail

/// ε-DP → RDP, Bun–Steinke 2016 (Prop 3.3): D_α ≤ αε²/2.
/// @param eps ε > 0 @param order α > 1 @return RDP ε(α) rounded up
/// @spec ACC.CONV.PURE2RDP
template <real_scalar Real>
Real pure_to_rdp_bun_steinke(const Real& eps, const Real& order) {
  detail::require_pure_to_rdp("pure_to_rdp_bun_steinke", eps, order);
  certifier<Real> c;
  const work_real e = c.in(eps);
  return c.up(c.in(order)*e * e / 2);
}

namespace detail {
/// Tight ε-DP → RDP bound min(ε, αε²/2, (α−1)⁻¹ log[(e^{αε} + e^{(1−α)ε})/(1 + e^ε)]), each
/// candidate rounded up separately; `cap` (if given) is an exact upper bound of ε in Real.
template <real_scalar Real>
Real pure_to_rdp_up(const certifier<Real>& c, const work_real& e, const work_real& a,
                    const Real* cap) {
  const work_real am1 = a - 1;
  const work_real rr = (w_logaddexp(a * e, -am1 * e) - w_logaddexp(work_real(0), e)) / am1;
  Real r = c.up(rr, (a * e + 1) / am1);
  const Real bs = c.up(a * e * e / 2);
  if (bs < r) r = bs;
  const Real ce = cap ? *cap : c.up(e);
  if (ce < r) r = ce;
  return r < Real(0) ? Real(0) : r;
}
}  // namespace detail

/// ε-DP → RDP, tight form: min(ε, αε²/2, (α−1)⁻¹ log[(e^{αε} + e^{(1−α)ε})/(1 + e^ε)]) (the
/// last term is the Rényi divergence of randomized response, the worst ε-DP pair).
/// @param eps ε > 0 @param order α > 1 @return RDP ε(α) rounded up (never above ε)
/// @spec ACC.CONV.PURE2RDP
template <real_scalar Real>
Real pure_to_rdp(const Real& eps, const Real& order) {
  detail::require_pure_to_rdp("pure_to_rdp", eps, order);
  certifier<Real> c;
  return detail::pure_to_rdp_up(c, c.in(eps), c.in(order), &eps);
}

/// Curve version of pure_to_rdp.
/// @spec ACC.CONV.PURE2RDP
template <real_scalar Real>
rdp_curve<Real> pure_to_rdp_curve(const Real& eps, const std::vector<Real>& orders) {
  rdp_curve<Real> out{orders, {}};
  out.eps.reserve(orders.size());
  for (const Real& a : orders) out.eps.push_back(pure_to_rdp(eps, a));
  validate_curve("pure_to_rdp_curve", out);
  return out;
}

namespace fast {
/// Double-precision RDP → (ε, δ) (Balle 2020 rule) without MPFR: each order's value is widened
/// by an a-priori bound on the double rounding error (2^-40 of the magnitudes involved), so the
/// result stays an upper bound; not MPFR-certified.
/// @spec ACC.CONV.BALLE
inline conversion_result<double> rdp_to_dp(const rdp_curve<double>& curve, double delta) {
  validate_curve("fast::rdp_to_dp", curve);
  require_positive_delta("fast::rdp_to_dp", "delta", delta);
  const double lid = -std::log(delta);
  std::size_t best = 0;
  double best_v = 0.0;
  for (std::size_t i = 0; i < curve.orders.size(); ++i) {
    const double a = curve.orders[i], tau = curve.eps[i], la = std::log(a);
    const double v = tau + std::log((a - 1.0) / a) + (lid - la) / (a - 1.0);
    const double err = std::ldexp(std::fabs(tau) + lid + la + 1.0, -40);
    if (i == 0 || v + err < best_v) {
      best = i;
      best_v = v + err;
    }
  }
  const bool edge = curve.orders.size() < 3 || best == 0 || best + 1 == curve.orders.size();
  return {{best_v < 0.0 ? 0.0 : best_v, delta}, curve.orders[best], edge};
}
}  // namespace fast

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_CONVERSION_INSTANCES(EXT, R)                                  \
  EXT template conversion_result<R> rdp_to_dp<R>(const rdp_curve<R>&, const R&, \
                                                 conversion_method);            \
  EXT template R pure_to_rdp_bun_steinke<R>(const R&, const R&);                \
  EXT template R pure_to_rdp<R>(const R&, const R&);                            \
  EXT template rdp_curve<R> pure_to_rdp_curve<R>(const R&, const std::vector<R>&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_CONVERSION(R) DPREF_ACC_CONVERSION_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_CONVERSION)
#undef DPREF_ACC_EXTERN_CONVERSION
#endif

}  // namespace dpref::accounting

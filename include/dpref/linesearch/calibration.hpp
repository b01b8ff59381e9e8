// Calibration of the linesearch algorithms' budgets (the RDP budget helpers of DP-BLSGD that
// accountant.hpp does not provide, linesearch §4.3, §5.4; DP-SGD's σ is dp_sgd_sigma, dp_sgd.hpp):
//  - the total budget ε_tot(α) on integer orders that certifies a target (ε, δ) through the same
//    conversion the accountant reports with (Balle et al. 2020, rdp_to_dp), rounded down;
//  - the increment amp(S_k) − amp(S_{k−1}) of a joint per-sample cost (rdp_increment; the
//    Gaussian NOISYBTLS cost itself is built in linesearch/dp_blsgd.hpp from
//    svt_gaussian_rdp, since the accountant only knows the Laplace version);
//  - the amplified cost of a pure ε-DP step (DP-AGD's NoisyMin), by the tight ε-DP → RDP.
// spec/linesearch.md LS.BUDGET, LS.BATCH.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::linesearch {

/// ε_tot(α) = ε − log((α−1)/α) + (log δ + log α)/(α−1) (the Balle 2020 rule of rdp_to_dp
/// solved for ε(α)), shrunk by a relative 2^-(digits−shrink_bits) so that the certified
/// conversion of any spent(α) <= ε_tot(α) rounds to <= ε (the ledger filter of run_ledger.hpp
/// uses 24 bits: it also covers the rounding of a running sum); rounded down, clamped at 0.
/// @param eps target ε > 0 @param delta target δ ∈ (0, 1) @param orders orders > 1, increasing
/// @param shrink_bits the relative shrink is 2^-(digits − shrink_bits), shrink_bits in [8, 40]
/// @return curve on `orders` @throws std::domain_error for invalid input or when ε_tot(α) = 0
/// at every order (ε not attainable at δ on this grid)
/// @spec LS.BUDGET
template <real_scalar Real>
accounting::rdp_curve<Real> rdp_budget_for_dp(const Real& eps, const Real& delta,
                                              const std::vector<Real>& orders,
                                              int shrink_bits = 8) {
  if (shrink_bits < 8 || shrink_bits > 40)
    fail_domain("rdp_budget_for_dp", "shrink_bits", "in [8, 40]", shrink_bits);
  accounting::require_epsilon("rdp_budget_for_dp", "eps", eps);
  accounting::require_delta("rdp_budget_for_dp", "delta", delta);
  if (!(delta > Real(0))) fail_domain("rdp_budget_for_dp", "delta", "> 0", delta);
  using std::log;
  accounting::certifier<Real> c;
  const int digits = std::numeric_limits<Real>::digits > 0 ? std::numeric_limits<Real>::digits
                                                           : static_cast<int>(c.bits());
  const accounting::work_real e =
      c.in(eps) *
      (1 - accounting::detail::w_ldexp(accounting::work_real(1), -(digits - shrink_bits)));
  const accounting::work_real ld = log(c.in(delta));
  accounting::rdp_curve<Real> out{orders, {}};
  for (const Real& a : orders) {
    if (!is_finite_value(a) || !(a > Real(1)))
      fail_domain("rdp_budget_for_dp", "orders[i]", "> 1", a);
    const accounting::work_real aw = c.in(a);
    const accounting::work_real v = e - log((aw - 1) / aw) + (ld + log(aw)) / (aw - 1);
    const Real r = c.down(v);
    out.eps.push_back(r > Real(0) ? r : Real(0));
  }
  accounting::validate_curve("rdp_budget_for_dp", out);
  bool any = false;
  for (const Real& v : out.eps) any = any || v > Real(0);
  if (!any)
    fail_domain("rdp_budget_for_dp", "eps",
                "attainable at this delta with the given orders (raise the largest order)", eps);
  return out;
}

/// Pointwise a − b rounded up and clamped at 0 (incremental charge of a joint per-batch cost:
/// Σ_k up(A_k − A_{k−1}) >= A_K). @throws std::invalid_argument if the grids differ
/// @spec LS.BATCH
template <real_scalar Real>
accounting::rdp_curve<Real> rdp_increment(const accounting::rdp_curve<Real>& a,
                                          const accounting::rdp_curve<Real>& b) {
  if (a.orders != b.orders) fail_argument("rdp_increment", "b.orders", "equal to a.orders", 0);
  accounting::certifier<Real> c;
  accounting::rdp_curve<Real> out{a.orders, {}};
  for (std::size_t i = 0; i < a.eps.size(); ++i) {
    const Real r = c.up(c.in(a.eps[i]) - c.in(b.eps[i]));
    out.eps.push_back(r > Real(0) ? r : Real(0));
  }
  return out;
}

/// amp of a pure ε-DP step on a Poisson(q) subsample (q = 1: no amplification), ε → RDP by the
/// tight conversion (pure_to_rdp). @spec LS.BUDGET
template <real_scalar Real>
accounting::rdp_curve<Real> pure_step_cost(const Real& q, const Real& eps,
                                           const std::vector<Real>& orders) {
  return accounting::poisson_subsampled_rdp_zw(accounting::pure_to_rdp_curve(eps, orders), q);
}

}  // namespace dpref::linesearch

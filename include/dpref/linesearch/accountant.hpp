// Per-call budget accounting of linesearch Algorithm 2 (DP-BLSGD, §4.3): a total RDP budget
// ε_tot(α) over a grid of integer orders; each noisy gradient costs amp(αρ_grad) and each
// NOISYBTLS call amp(ε_ls(α)) with ε_ls(α) = ε(α, ε_BT/2, ε_BT/4); amp is the Zhu–Wang Poisson
// amplification (linesearch Lemma 4). The SVT cost uses the proven bound by default (LS-E1).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::linesearch {

/// Running RDP budget of DP-BLSGD (linesearch Algorithm 2 lines 7, 9, 11, 15–16, 21).
/// @spec ACC.CAL.LINESEARCH
template <real_scalar Real>
class accountant {
 public:
  /// @param q Poisson sampling ratio ∈ (0, 1] @param total ε_tot(α) on orders 2, 3, …, α_max
  /// @param bound SVT bound used for NOISYBTLS (default proven, errata LS-E1)
  accountant(const Real& q, accounting::rdp_curve<Real> total,
             accounting::svt_bound bound = accounting::svt_bound::proven)
      : q_(q), total_(std::move(total)), bound_(bound) {
    accounting::require_rate("dpref::linesearch::accountant", "q", q);
    accounting::validate_curve("dpref::linesearch::accountant", total_);
    spent_ = accounting::rdp_curve<Real>{total_.orders,
                                         std::vector<Real>(total_.orders.size(), Real(0))};
  }

  /// amp(αρ_grad): amplified cost of one noisy gradient with budget ρ_grad (Lemma 1 + Lemma 4).
  [[nodiscard]] accounting::rdp_curve<Real> gradient_cost(const Real& rho_grad) const {
    require_positive("dpref::linesearch::accountant::gradient_cost", "rho_grad", rho_grad);
    accounting::rdp_curve<Real> base{total_.orders, {}};
    accounting::certifier<Real> c;
    for (const Real& a : total_.orders) base.eps.push_back(c.up(c.in(a)*c.in(rho_grad)));
    return accounting::poisson_subsampled_rdp_zw(base, q_);
  }
  /// amp(ε_ls(α)), ε_ls(α) = ε(α, ε_BT/2, ε_BT/4) (Algorithm 2 lines 8, 20).
  [[nodiscard]] accounting::rdp_curve<Real> line_search_cost(const Real& eps_bt) const {
    accounting::require_epsilon("dpref::linesearch::accountant::line_search_cost", "eps_bt",
                                eps_bt);
    accounting::rdp_curve<Real> base{total_.orders, {}};
    for (const Real& a : total_.orders)
      base.eps.push_back(accounting::svt_laplace_rdp(a, eps_bt / 2, eps_bt / 4, bound_));
    return accounting::poisson_subsampled_rdp_zw(base, q_);
  }
  /// Whether some order α still has ε_tot(α) − spent(α) >= cost(α).
  [[nodiscard]] bool can_afford(const accounting::rdp_curve<Real>& cost) const {
    const accounting::rdp_curve<Real> after = accounting::compose_rdp(spent_, cost);
    for (std::size_t i = 0; i < after.eps.size(); ++i)
      if (!(after.eps[i] > total_.eps[i])) return true;
    return false;
  }
  /// Subtracts cost from the budget. @throws budget_exceeded (before recording) if no order
  /// can afford it.
  void charge(const accounting::rdp_curve<Real>& cost, const std::string& what) {
    if (!can_afford(cost))
      throw accounting::budget_exceeded("dpref::linesearch::accountant::charge: '" + what +
                                        "' exceeds the remaining RDP budget at every order");
    spent_ = accounting::compose_rdp(spent_, cost);
    ++calls_;
  }
  /// Remaining ε_tot(α) − spent(α) per order (rounded down; may be negative at some orders).
  [[nodiscard]] std::vector<Real> remaining() const {
    accounting::certifier<Real> c;
    std::vector<Real> out;
    for (std::size_t i = 0; i < spent_.eps.size(); ++i)
      out.push_back(c.down(c.in(total_.eps[i]) - c.in(spent_.eps[i])));
    return out;
  }
  [[nodiscard]] const accounting::rdp_curve<Real>& spent() const { return spent_; }
  [[nodiscard]] long long calls() const { return calls_; }
  /// (ε, δ) guarantee of what was spent (Balle 2020 conversion, best order).
  [[nodiscard]] accounting::conversion_result<Real> to_dp(const Real& delta) const {
    return accounting::rdp_to_dp(spent_, delta, accounting::conversion_method::balle2020);
  }

 private:
  Real q_;
  accounting::rdp_curve<Real> total_;
  accounting::svt_bound bound_;
  accounting::rdp_curve<Real> spent_;
  long long calls_ = 0;
};

// Explicit instances (src/instances/linesearch.cpp); EXT is `extern` for consumers.
#define DPREF_LINESEARCH_ACCOUNTANT_INSTANCES(EXT, R) EXT template class accountant<R>;
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_LINESEARCH_EXTERN_ACCOUNTANT(R) DPREF_LINESEARCH_ACCOUNTANT_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_LINESEARCH_EXTERN_ACCOUNTANT)
#undef DPREF_LINESEARCH_EXTERN_ACCOUNTANT
#endif

}  // namespace dpref::linesearch

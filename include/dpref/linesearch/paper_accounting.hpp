// The paper's own budget tracking (linesearch §4.3), used only by the paper-reproduction modes
// (params.svt_bound = unproven_eq4_5 or params.batch_accounting = per_call, which need
// allow_over_budget): a total RDP budget ε_tot(α) on integer orders; each noisy gradient costs
// amp(αρ_grad), each NOISYBTLS call amp(ε_ls(α)) with the chosen SVT bound, amp = Lemma 4
// (Zhu–Wang); calls on one Poisson sample are amplified separately (per_call, §4.3 as printed)
// or jointly (the k-th call on B charged amp(S_k) − amp(S_{k−1})). The run stops when no order
// can pay the next call; the ledger still records the sound events (run_ledger.hpp) and the
// reported guarantee is the ledger's; this filter's total is the "paper_claim" (iterates, not a
// guarantee). spec/linesearch.md LS.THM4, LS.BATCH, ACC.CAL.LINESEARCH.
#pragma once

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/linesearch/calibration.hpp"
#include "dpref/linesearch/params.hpp"

namespace dpref::linesearch::detail {

/// Base (un-amplified) and amplified RDP costs of the calls under the paper's rules, cached by
/// budget value.
template <real_scalar Real>
class cost_model {
 public:
  cost_model(btls_noise noise, long long max_it, accounting::svt_bound bound,
             linesearch::batch_accounting mode, const Real& q, long long max_order)
      : noise_(noise),
        max_it_(max_it),
        bound_(bound),
        mode_(mode),
        q_(q),
        orders_(accounting::integer_orders<Real>(2, static_cast<int>(max_order))) {}

  [[nodiscard]] const std::vector<Real>& orders() const { return orders_; }

  /// Lemma 1: (α, αρ) of the Gaussian gradient with noise variance C²/(2ρ).
  const accounting::rdp_curve<Real>& gradient_base(const Real& rho) {
    return cached(base_, tag('g', rho), [&] {
      accounting::certifier<Real> c;
      accounting::rdp_curve<Real> r{orders_, {}};
      for (const Real& a : orders_) r.eps.push_back(c.up(c.in(a)*c.in(rho)));
      return r;
    });
  }
  /// Theorem 2/3 (or the proven bound, LS-E1) of one NOISYBTLS call with budget b.
  const accounting::rdp_curve<Real>& btls_base(const Real& b) {
    return cached(base_, tag('l', b), [&] {
      accounting::rdp_curve<Real> r{orders_, {}};
      using std::sqrt;
      if (noise_ == btls_noise::laplace) {
        for (const Real& a : orders_)
          r.eps.push_back(accounting::svt_laplace_rdp(a, Real(b / 2), Real(b / 4), bound_));
      } else {
        const Real s1 = sqrt(Real(3) / (Real(2) * b)), s2 = sqrt(Real(3) / b);
        for (const Real& a : orders_)
          r.eps.push_back(
              accounting::svt_gaussian_rdp(a, Real(1), s1, s2, static_cast<long>(max_it_), bound_));
      }
      return r;
    });
  }
  /// amp(·) of Lemma 4 (cached by the key of the base curve).
  const accounting::rdp_curve<Real>& amplified(const std::string& k,
                                               const accounting::rdp_curve<Real>& base) {
    return cached(amp_, k, [&] { return accounting::poisson_subsampled_rdp_zw(base, q_); });
  }
  [[nodiscard]] linesearch::batch_accounting mode() const { return mode_; }
  [[nodiscard]] const Real& q() const { return q_; }
  /// c followed by the exact text of x (built by append: GCC 12's -Wrestrict false positive on
  /// operator+ of short strings at -O3).
  static std::string tag(char c, const Real& x) {
    const std::string t = io::format_real(x);
    std::string s;
    s.reserve(t.size() + 1);
    s.push_back(c);
    s.append(t);
    return s;
  }

 private:
  template <class F>
  const accounting::rdp_curve<Real>& cached(std::map<std::string, accounting::rdp_curve<Real>>& m,
                                            const std::string& k, F&& make) {
    auto it = m.find(k);
    if (it == m.end()) it = m.emplace(k, make()).first;
    return it->second;
  }
  btls_noise noise_;
  long long max_it_;
  accounting::svt_bound bound_;
  linesearch::batch_accounting mode_;
  Real q_;
  std::vector<Real> orders_;
  std::map<std::string, accounting::rdp_curve<Real>> base_, amp_;
};

/// Running joint cost of the calls on one Poisson sample.
template <real_scalar Real>
struct batch_state {
  std::string key;                      ///< sequence of the calls so far
  accounting::rdp_curve<Real> base;     ///< S_k
  accounting::rdp_curve<Real> charged;  ///< amp(S_k) (what was charged for this sample)
  bool empty = true;
};

/// Increment to charge for adding `item` to the sample's calls, and the state after it.
template <real_scalar Real>
std::pair<accounting::rdp_curve<Real>, batch_state<Real>> propose(
    cost_model<Real>& m, const batch_state<Real>& st, const std::string& item_key,
    const accounting::rdp_curve<Real>& item_base) {
  if (m.mode() == linesearch::batch_accounting::per_call || st.empty) {
    const auto& a = m.amplified(item_key, item_base);
    batch_state<Real> next{item_key, item_base, a, false};
    return {a, next};
  }
  batch_state<Real> next;
  next.key.reserve(st.key.size() + item_key.size() + 1);
  next.key.append(st.key);
  next.key.push_back(';');
  next.key.append(item_key);
  next.base = accounting::compose_rdp(st.base, item_base);
  next.charged = m.amplified(next.key, next.base);
  next.empty = false;
  return {rdp_increment(next.charged, st.charged), next};
}

/// The paper's filter of one run: §4.3's per-order budget ε_tot(α) with the cost model above.
/// With enforce == false it only records (fixed plans; the claim of a paper-mode plan).
template <real_scalar Real>
class paper_filter {
 public:
  paper_filter(const params<Real>& p, const Real& q, bool enforce)
      : model_(p.noise, p.max_it, p.svt_bound, p.batch_accounting, q, p.max_order),
        enforce_(enforce),
        spent_{model_.orders(), std::vector<Real>(model_.orders().size(), Real(0))} {
    if (enforce_) total_ = rdp_budget_for_dp(p.epsilon, p.delta, model_.orders());
  }

  /// A gradient with budget ρ: the first call of a new sample (fresh_sample, which resets st) or
  /// one more call on the current sample (GradAvg).
  [[nodiscard]] bool try_gradient(batch_state<Real>& st, const Real& rho, bool fresh_sample) {
    if (fresh_sample) st = {};
    return try_item(st, model_.tag('g', rho), model_.gradient_base(rho));
  }
  /// One more NOISYBTLS call with budget b on the current sample.
  [[nodiscard]] bool try_search(batch_state<Real>& st, const Real& b) {
    return try_item(st, model_.tag('l', b), model_.btls_base(b));
  }
  /// The paper's (ε, δ) of what was charged (Balle 2020 conversion, best order).
  [[nodiscard]] accounting::approx_dp<Real> claim(const Real& delta) const {
    return accounting::rdp_to_dp(spent_, delta, accounting::conversion_method::balle2020).guarantee;
  }
  [[nodiscard]] const accounting::rdp_curve<Real>& spent() const { return spent_; }

 private:
  bool try_item(batch_state<Real>& st, const std::string& k,
                const accounting::rdp_curve<Real>& base) {
    auto [inc, next] = propose(model_, st, k, base);
    accounting::rdp_curve<Real> after = accounting::compose_rdp(spent_, inc);
    if (enforce_) {  // §4.3: some order α still within ε_tot(α)
      bool some = false;
      for (std::size_t i = 0; i < after.eps.size() && !some; ++i)
        some = !(after.eps[i] > total_.eps[i]);
      if (!some) return false;
    }
    spent_ = std::move(after);
    st = std::move(next);
    return true;
  }
  cost_model<Real> model_;
  bool enforce_;
  accounting::rdp_curve<Real> total_, spent_;
};

}  // namespace dpref::linesearch::detail

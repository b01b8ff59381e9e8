// DP-BLSGD (linesearch Algorithm 2) with CHEB (Algorithm 3), the angle moving average (7)–(8),
// intelligent backtracking (§4.2), the RDP budget tracking of §4.3, DP-BLSGD-AC (clipping
// decay (9)) and DP-BLGD (q = 1 with DP-AGD's GradAvg budget increase).
//
// Iteration t reads only substream t of the caller's stream, in this order: the Poisson batch B
// (one Bernoulli(q) draw per example), the gradient noise (d draws), then per NOISYBTLS call
// one draw for T̂ and one per query, per CHEB call a batch B2 and d draws.
//
// Budget tracking (§4.3): ε_tot(α) certifies (ε, δ) through rdp_to_dp (rdp_budget_for_dp) on the
// orders 2..max_order; before every data access the run asks the accountant whether SOME
// order can still pay the call, charges it (and the ledger) and only then draws the noise; it
// halts as soon as no order can pay the next call. The reported (ε, δ) is the certified
// conversion of what was spent.
//
// Accounting of the calls that share the batch B (gradient line 6 and every NOISYBTLS retry of
// line 10): §4.3 amplifies every call separately (batch_accounting::per_call). Calls that read
// the same Poisson sample form ONE subsampled mechanism, and Lemma 4 applied to each part
// separately under-counts (at α = 2 the exact joint value log(1 + q²(e^{ε1+ε2} − 1)) exceeds the
// sum of the parts by q²(1 − q²)(e^{ε1} − 1)(e^{ε2} − 1) > 0). The default
// batch_accounting::joint amplifies the running base cost of B as a whole: the k-th call on B
// is charged amp(S_k) − amp(S_{k−1}), S_k = Σ_{j≤k} base cost (Lemma 3 on the sub-sample).
// CHEB's gradient reads its own fresh sample B2 and is amplified alone.
// spec/linesearch.md LS.ALG2, LS.ALG3, LS.EQ7, LS.BLGD, LS.BATCH, LS.BUDGET.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <boost/math/constants/constants.hpp>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/linesearch/accountant.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/noisy_btls.hpp"
#include "dpref/linesearch/rdp_budget.hpp"

namespace dpref::linesearch {

/// How calls that read the same Poisson sample are amplified (see the file comment).
enum class batch_accounting {
  joint,    ///< default: one subsampled mechanism per sample (sound)
  per_call  ///< §4.3 as printed: every call amplified separately (under-counts)
};

namespace detail {

/// Base (un-amplified) and amplified RDP costs of the calls, cached by budget value.
template <real_scalar Real>
class cost_model {
 public:
  cost_model(const params<Real>& prm, batch_accounting mode)
      : prm_(prm), mode_(mode), orders_(accounting::integer_orders<Real>(2, prm.max_order)) {}

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
      if (prm_.btls.noise == btls_noise::laplace) {
        for (const Real& a : orders_)
          r.eps.push_back(accounting::svt_laplace_rdp(a, b / 2, b / 4, prm_.svt_bound));
      } else {
        const Real s1 = sqrt(Real(3) / (Real(2) * b)), s2 = sqrt(Real(3) / b);
        for (const Real& a : orders_)
          r.eps.push_back(
              accounting::svt_gaussian_rdp(a, Real(1), s1, s2, prm_.btls.max_it, prm_.svt_bound));
      }
      return r;
    });
  }
  /// amp(·) of Lemma 4 (cached by the key of the base curve).
  const accounting::rdp_curve<Real>& amplified(const std::string& k,
                                               const accounting::rdp_curve<Real>& base) {
    return cached(amp_, k, [&] { return accounting::poisson_subsampled_rdp_zw(base, prm_.q); });
  }
  [[nodiscard]] batch_accounting mode() const { return mode_; }
  static std::string key(const Real& x) { return ::dpref::detail::to_text(x); }
  /// c followed by the text of x (built by append: GCC 12's -Wrestrict false positive on
  /// operator+ of short strings at -O3).
  static std::string tag(char c, const Real& x) {
    const std::string t = key(x);
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
  const params<Real>& prm_;
  batch_accounting mode_;
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
  if (m.mode() == batch_accounting::per_call || st.empty) {
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

}  // namespace detail

/// DP-BLSGD (Algorithm 2) on an L2-regularised linear ERM problem or the §5.7 MLP (any
/// linesearch_problem); DP-BLSGD-AC with params.adaptive_clipping; DP-BLGD with params.q = 1 and
/// params.increase = gradavg. Start w_0 = params.w0 (default 0; data-independent).
/// §5.7 (neural networks): btls.fallback_min_step (no failed search, hence no CHEB), Gaussian
/// NOISYBTLS, params.rho_grad0 / ls_budget0 = 90% / 10% of ρ_iter, a large ε target and
/// max_iterations = T.
/// @param P problem @param prm hyper-parameters @param stream (seed, stream) of the run
/// @param mode accounting of calls sharing a sample (default joint, sound)
/// @return final iterate, counts, steps, ledger, spent RDP and certified (ε, δ)
/// @throws std::domain_error for invalid parameters
/// @spec LS.ALG2 LS.ALG3 LS.EQ7 LS.BLGD LS.THM4 LS.MLP
template <real_scalar Real, linesearch_problem<Real> Problem>
result<Real> dp_blsgd(const Problem& P, const params<Real>& prm, const philox_stream& stream,
                      batch_accounting mode = batch_accounting::joint) {
  prm.validate();
  using std::sqrt;
  detail::cost_model<Real> model(prm, mode);
  const auto& orders = model.orders();
  accountant<Real> acct(prm.q, rdp_budget_for_dp(prm.eps, prm.delta, orders), prm.svt_bound);
  merged_ledger<Real> ledger;
  result<Real> res;
  const Eigen::Index n = P.size(), d = P.dimension();
  const Real nbar = prm.q * Real(static_cast<long long>(n));  // public normaliser q·n
  const Real eps_iter = prm.eps / prm.eps_iter_divisor;       // §5.4
  // ρ_grad = ε_iter²/2, ε_BT = ε_iter or ρ_BT = ε_iter²/2 (§5.4) unless given (§5.7)
  Real rho_grad = prm.rho_grad0 > Real(0) ? prm.rho_grad0 : Real(eps_iter * eps_iter / 2);
  Real ls_budget = prm.ls_budget0 > Real(0)                ? prm.ls_budget0
                   : prm.btls.noise == btls_noise::laplace ? eps_iter
                                                           : Real(eps_iter * eps_iter / 2);
  Real C_grad = prm.C_grad, C_obj = prm.C_obj;
  Real theta_bar = boost::math::constants::half_pi<Real>();  // θ̄ ← 90° (line 2)
  step_memory<Real> mem(prm.eta0, prm.tau, prm.varsigma);
  if (prm.w0.size() != 0 && prm.w0.size() != d)
    fail_argument("dpref::linesearch::dp_blsgd", "params.w0.size()", "0 or the dimension",
                  prm.w0.size());
  vector<Real> w = prm.w0.size() != 0 ? prm.w0 : vector<Real>(vector<Real>::Zero(d)), g(d), g2(d),
               g_prev;
  bool have_prev = false;
  std::vector<Eigen::Index> batch, batch2;
  const Real max_it_r = Real(prm.btls.max_it);

  // Charges `inc` (already known affordable) and records the ledger event.
  // The ledger key includes the sequence of calls on the sample (the joint increment depends
  // on it); `calls_on_sample` is also recorded as a parameter.
  const auto charge = [&](const std::string& kind, std::vector<std::pair<std::string, Real>> p,
                          const accounting::rdp_curve<Real>& inc, const std::string& seq) {
    acct.charge(inc, kind);
    if (mode == batch_accounting::joint) {
      const auto k = static_cast<long long>(std::count(seq.begin(), seq.end(), ';') + 1);
      p.emplace_back("calls_on_sample", Real(k));
      ledger.add(kind, std::move(p), inc, seq);
    } else {
      ledger.add(kind, std::move(p), inc);
    }
  };

  for (long long t = 0;; ++t) {
    if (t >= prm.max_iterations) {
      res.status = run_status::iteration_cap;
      break;
    }
    detail::batch_state<Real> bs;
    {
      const auto [inc, next] =
          detail::propose(model, bs, model.tag('g', rho_grad), model.gradient_base(rho_grad));
      if (!acct.can_afford(inc)) {  // line 21 / §4.3 halting
        res.status = run_status::budget_exhausted;
        break;
      }
      philox_stream s = stream.substream(static_cast<std::uint64_t>(t));
      poisson_batch(s, n, prm.q, batch);  // line 4
      charge("gaussian_gradient", {{"rho_grad", rho_grad}, {"C_grad", C_grad}, {"q", prm.q}}, inc,
             next.key);  // line 7
      bs = next;
      noisy_gradient(s, P, batch, w, C_grad, rho_grad, nbar, g);  // lines 5–6
      ++res.calls.gradients;
      ++res.calls.iterations;

      Real eta(0);
      bool clip_reduced = false;
      for (;;) {  // lines 9–20
        const auto [linc, lnext] =
            detail::propose(model, bs, model.tag('l', ls_budget), model.btls_base(ls_budget));
        if (!acct.can_afford(linc)) break;  // line 9
        charge("noisy_btls",
               {{"budget", ls_budget}, {"C_obj", C_obj}, {"q", prm.q}, {"max_it", max_it_r}}, linc,
               lnext.key);  // line 11
        bs = lnext;
        const auto line = make_line(P, std::span<const Eigen::Index>(batch), w, g);
        const Real f0 = line.clipped_sum(Real(0), C_obj);
        const Real armijo =
            prm.btls.alpha * (prm.armijo_mean_scaling ? nbar : Real(1)) * line.g_squared();
        const auto out = noisy_btls(
            s, [&](const Real& e) { return Real(f0 - e * armijo - line.clipped_sum(e, C_obj)); },
            mem.eta0(), ls_budget, C_obj, prm.btls);  // line 10, Δ_q = C_obj (Theorem 1)
        ++res.calls.line_searches;
        res.calls.objective_queries += static_cast<long long>(out.queries);
        eta = out.eta;
        if (eta > Real(0)) {  // lines 12–14
          w.noalias() -= eta * g;
          if (have_prev) {  // (7), not at t = 0
            const Real th = angle_between(g, g_prev);
            theta_bar = prm.psi * theta_bar + (Real(1) - prm.psi) * th;
          }
          g_prev = g;
          have_prev = true;
          res.steps.push_back(eta);
          ++res.calls.updates;
          if (prm.trace) res.trace.push_back(P.value(w));
          if (prm.observer) prm.observer(res.calls.iterations, w);
          break;
        }
        if (prm.increase == budget_increase::cheb) {  // lines 15–17: CHEB (Algorithm 3)
          const auto& cb = model.gradient_base(rho_grad);
          const auto& cinc = model.amplified(model.tag('g', rho_grad), cb);  // fresh B2
          if (!acct.can_afford(cinc)) break;                                 // line 19
          charge("cheb_gradient", {{"rho_grad", rho_grad}, {"C_grad", C_grad}, {"q", prm.q}}, cinc,
                 model.tag('g', rho_grad));                             // line 16 (own sample B2)
          poisson_batch(s, n, prm.q, batch2);                           // Alg. 3 line 2
          noisy_gradient(s, P, batch2, w, C_grad, rho_grad, nbar, g2);  // lines 3–4
          ++res.calls.cheb;
          ++res.calls.gradients;
          const Real th = angle_between(g, g2);                                           // line 5
          const Real th_max = prm.phi_max * theta_bar, th_min = prm.phi_min * theta_bar;  // (8)
          bool raise_grad = false, raise_ls = false;
          if (prm.strategy == budget_strategy::adaptive) {
            if (g.dot(g2) < Real(0) || th > th_max)
              raise_grad = true;  // line 8
            else if (th < th_min)
              raise_ls = true;  // line 10
          } else if (prm.strategy == budget_strategy::must) {
            raise_grad = raise_ls = true;
          }
          if (raise_grad) {
            rho_grad *= Real(1) + prm.xi;
            if (prm.adaptive_clipping && !clip_reduced) {  // (9), once per SGD update
              C_grad *= Real(1) - prm.zeta;
              C_obj *= Real(1) - prm.zeta;
              clip_reduced = true;
            }
          }
          if (raise_ls) ls_budget *= Real(1) + prm.xi;
          g = (g + g2) / Real(2);  // line 11
        } else {                   // DP-BLGD: DP-AGD's GradAvg on the same sample
          const Real rho_new = (Real(1) + prm.xi) * rho_grad, extra = rho_new - rho_grad;
          const auto [ginc, gnext] =
              detail::propose(model, bs, model.tag('g', extra), model.gradient_base(extra));
          if (!acct.can_afford(ginc)) break;
          charge("gradavg_gradient", {{"rho_grad", extra}, {"C_grad", C_grad}, {"q", prm.q}}, ginc,
                 gnext.key);
          bs = gnext;
          noisy_gradient(s, P, batch, w, C_grad, extra, nbar, g2);
          ++res.calls.gradients;
          const Real b = rho_grad / rho_new;
          g = b * g + (Real(1) - b) * g2;
          rho_grad = rho_new;
          ls_budget *= Real(1) + prm.xi;
        }
      }
      mem.end_iteration(eta);
    }
  }
  res.w = w;
  res.spent = acct.spent();
  res.guarantee = acct.to_dp(prm.delta).guarantee;
  res.ledger = ledger.build();
  res.final_rho_grad = rho_grad;
  res.final_ls_budget = ls_budget;
  res.final_C_grad = C_grad;
  return res;
}

}  // namespace dpref::linesearch

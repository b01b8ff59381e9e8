// DP-BLSGD (linesearch Algorithm 2) with CHEB (Algorithm 3), the angle moving average (7)–(8),
// intelligent backtracking (§4.2), DP-BLSGD-AC (clipping decay (9)) and DP-BLGD (q = 1 with
// DP-AGD's GradAvg budget increase).
//
// Iteration t reads only substream t of the caller's stream, in this order: the Poisson batch B
// (one Bernoulli(q) draw per example), the gradient noise (d draws), then per NOISYBTLS call
// one draw for T̂ and one per query, per CHEB call a batch B2 and d draws.
//
// Privacy (spec/linesearch.md LS.LEDGER): every call is a typed ledger event charged BEFORE its
// noise is drawn, and the noise is drawn from that event's parameters. The gradient on B and
// every later call on B are one subsampled mechanism (the sample's event with `joint` parts,
// ACC.EVENT.JOINT); CHEB's gradient reads a fresh sample B2 and is an event of its own. The run
// stops (status budget_exhausted) when the next call does not fit the requested (ε, δ), and its
// guarantee is ledger.total(). In the paper-reproduction modes (allow_over_budget with the
// paper's SVT bound (4)/(5) or §4.3's per-call amplification) the paper's own filter decides
// when to stop; the ledger still records the sound events and the paper's number is reported as
// "paper_claim" (not a guarantee). Every call clips at its ledger event's sensitivity (C_grad,
// C_obj; decayed by (9) in DP-BLSGD-AC), so the events hold for any data (PRIV.LINESEARCH.*). With
// fallback_min_step (§5.7) no search fails, so every iteration is one gradient and one NOISYBTLS
// call: the plan of `iterations` steps is fixed and checked by plan_privacy before the first draw.
// spec/linesearch.md LS.ALG2, LS.ALG3, LS.EQ7, LS.BLGD, LS.BATCH, LS.LEDGER, LS.MLP.RUN.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/math/constants/constants.hpp>

#include "dpref/accounting/accountant.hpp"
#include "dpref/linesearch/bounds.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/noisy_btls.hpp"
#include "dpref/linesearch/paper_accounting.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/linesearch/run_ledger.hpp"
#include "dpref/run/report.hpp"

namespace dpref::linesearch {

namespace detail {

/// Accounting options of a run's ledger: RDP, orders 2..max_order, converted at the requested δ
/// (Balle et al. 2020).
template <real_scalar Real>
accounting::accounting_options<Real> ledger_options(const params<Real>& p) {
  accounting::accounting_options<Real> o;
  o.delta = p.delta;
  o.max_order = p.max_order;
  return o;
}

/// The subsampling of a Poisson(q) mini-batch (none for the full batch q = 1).
template <real_scalar Real>
std::optional<accounting::subsampling<Real>> poisson_sampling(const Real& q) {
  if (!(q < Real(1))) return std::nullopt;
  return accounting::subsampling<Real>{accounting::sampling_scheme::poisson, q, 0, 0,
                                       accounting::neighbouring::add_remove};
}

/// The lattice releases of DP-BLSGD's calls in secure mode (SEC.LINESEARCH): a gradient at
/// (C, ρ) is the snapped Gaussian of the clipped sum at σ = C/√(2ρ) rounded up (gradient_event's
/// σ) with the run's public clamp; a NOISYBTLS call with budget ε_BT and per-record bound C_obj
/// is the lattice AboveThreshold meeting ε_BT (mechanisms::snapped_above_threshold_for). The
/// event charged and the noise drawn are both built by these functions from the same values.
struct lattice_calls {
  double clamp = 0;  ///< public bound on each coordinate of a gradient sum
  long long dimension = 1;
  long max_queries = 1;
  [[nodiscard]] mechanisms::snapped_gaussian_params gradient(double C, double rho) const {
    return snapped_gradient(C, gradient_event<double>(C, rho).sigma, clamp, dimension);
  }
  [[nodiscard]] mechanisms::snapped_above_threshold_params search(double budget,
                                                                  double C_obj) const {
    return mechanisms::snapped_above_threshold_for(C_obj, budget, max_queries);
  }
  /// Marks a run's report secure: the enforcement of the gradient clip (first) and of the
  /// objective clip (second, described by `objective`) on the grid, and the public clamp.
  template <real_scalar Real>
  void mark_secure(privacy_report<Real>& r, const std::string& objective) const {
    r.noise = noise_mode::secure;
    r.enforced.at(0).how +=
        "; secure: again on the grid, exactly: each example's rounded gradient is clamped into "
        "the l2 ball of radius C_grad and the integers are summed exactly (SEC.GAUSS.SUM)";
    r.enforced.at(1).how += "; secure: " + objective;
    r.enforced.push_back(clamp_bound(Real(clamp), "the clipped gradient sum (default n*C_grad)"));
  }
};

/// Periodic progress text (at most every 2 s of wall time) for long runs.
class progress_clock {
 public:
  [[nodiscard]] bool due() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(2)) return false;
    last_ = now;
    return true;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// The checked total of a run's ledger: the guarantee it reports. Refuses to release (throws
/// budget_exceeded) if the filter's running sum let the ledger exceed the request; never
/// triggered in the tests (run_ledger.hpp).
template <real_scalar Real>
privacy_report<Real> final_privacy(accounting::ledger<Real> l, const params<Real>& p,
                                   std::string_view who) {
  privacy_budget_request<Real> req{p.epsilon, p.delta, p.allow_over_budget};
  return plan_privacy(std::move(l), req, who);
}

}  // namespace detail

/// DP-BLSGD (Algorithm 2) on a linear ERM problem or the §5.7 MLP (any linesearch_problem):
/// params.algorithm blsgd, blsgd_ac (clipping decay (9)) or blgd (q = 1, GradAvg). Start w_0 =
/// params.w0 (default 0; data-independent).
/// @throws invalid_parameter for invalid parameters; accounting::budget_exceeded (nothing
/// released) when a fixed plan (fallback_min_step) exceeds the request without
/// allow_over_budget
/// @spec LS.ALG2 LS.ALG3 LS.EQ7 LS.BLGD LS.THM4 LS.LEDGER LS.MLP.RUN
template <real_scalar Real, linesearch_problem<Real> Problem>
result<Real> dp_blsgd(const Problem& P, const params<Real>& prm, const philox_stream& stream) {
  prm.validate();
  using std::sqrt;
  const param_checker chk("linesearch::params");
  const bool ac = prm.algorithm == algorithm::blsgd_ac;
  const bool gradavg = prm.algorithm == algorithm::blgd;
  const Real q = gradavg ? Real(1) : prm.q;  // DP-BLGD is full batch
  const Eigen::Index n = P.size(), d = P.dimension();
  if (prm.w0)
    chk.require(prm.w0->size() == d, "w0", "of the problem's dimension " + std::to_string(d),
                prm.w0->size());
  const bool paper_mode = prm.svt_bound != accounting::svt_bound::proven ||
                          prm.batch_accounting != batch_accounting::joint;
  const bool fixed_plan = prm.fallback_min_step;
  const auto sampling = detail::poisson_sampling(q);
  const Real nbar = q * Real(static_cast<long long>(n));     // public normaliser q·n
  const Real eps_iter = prm.epsilon / prm.eps_iter_divisor;  // §5.4
  // ρ_grad = ε_iter²/2, ε_BT = ε_iter or ρ_BT = ε_iter²/2 (§5.4) unless given (§5.7)
  Real rho_grad = prm.rho_grad0 ? *prm.rho_grad0 : Real(eps_iter * eps_iter / 2);
  Real ls_budget = prm.ls_budget0                     ? *prm.ls_budget0
                   : prm.noise == btls_noise::laplace ? eps_iter
                                                      : Real(eps_iter * eps_iter / 2);
  Real C_grad = prm.C_grad, C_obj = prm.C_obj;
  btls_params<Real> cfg;
  cfg.alpha = prm.alpha;
  cfg.beta = prm.beta;
  cfg.max_it = static_cast<long>(prm.max_it);
  cfg.noise = prm.noise;
  cfg.fallback_min_step = prm.fallback_min_step;

  // release = secure (SEC.LINESEARCH, double only): every gradient is a lattice Gaussian of the
  // clipped sum and every NOISYBTLS call a lattice AboveThreshold; the event charged is built
  // from the very parameters the draw uses (lattice_gradient / lattice_search below).
  std::optional<detail::lattice_calls> lattice;
  if (prm.release == noise_mode::secure)
    lattice =
        detail::lattice_calls{prm.clamp ? static_cast<double>(*prm.clamp)
                                        : static_cast<double>(n) * static_cast<double>(C_grad),
                              static_cast<long long>(d), cfg.max_it};

  using event = accounting::event<Real>;
  const auto gradient = [&](const Real& rho, const Real& C, bool sampled, const char* label) {
    event e = lattice ? lattice->gradient(static_cast<double>(C), static_cast<double>(rho))
                            .template event<Real>(1, std::string(label) + ", secure (lattice)")
                      : accounting::make_event<Real>(gradient_event(C, rho), 1, label);
    if (sampled) e.sampling = sampling;
    return e;
  };
  const auto search = [&](const Real& b, const Real& Cq) {
    if (lattice)
      return lattice->search(static_cast<double>(b), static_cast<double>(Cq))
          .template event<Real>("NOISYBTLS (Algorithm 1) on the same sample, secure (lattice)");
    return accounting::make_event<Real>(btls_event(prm.noise, b, Cq, cfg.max_it), 1,
                                        "NOISYBTLS (Algorithm 1) on the same sample");
  };
  // the draw of a gradient event: the lattice release of its own parameters, else the Gaussian
  // (the lattice parameters are rebuilt by the same function from the same ρ and C)
  const auto draw_gradient = [&](philox_stream& st, std::span<const Eigen::Index> B,
                                 const vector<Real>& at, const Real& rho, const Real& C,
                                 const event& charged, vector<Real>& out) {
    if constexpr (std::is_same_v<Real, double>) {
      if (lattice) {
        lattice_gradient_sum(st, P, B, at, lattice->gradient(C, rho), out);
        return;
      }
    }
    const auto& m = std::get<accounting::gaussian_mechanism<Real>>(charged.what);
    P.clipped_gradient_sum(at, B, m.sensitivity, out);  // clip = the event's sensitivity
    add_gaussian_noise(st, out, m);
  };

  result<Real> res;
  run_ledger<Real> ledger(detail::ledger_options(prm), {prm.epsilon, prm.delta},
                          !paper_mode && !fixed_plan);
  std::optional<detail::paper_filter<Real>> paper;
  if (paper_mode) paper.emplace(prm, q, !fixed_plan);
  if (fixed_plan) {  // §5.7: T × (gradient + one NOISYBTLS) on one sample each
    event e = gradient(rho_grad, C_grad, true, "DP-BLSGD iteration (§5.7 plan)");
    e.joint.push_back(search(ls_budget, C_obj));
    e.count = prm.iterations;
    accounting::ledger<Real> plan(detail::ledger_options(prm));
    plan.record(std::move(e));
    (void)detail::final_privacy(std::move(plan), prm, "linesearch::run (DP-BLSGD plan)");
  }

  Real theta_bar = boost::math::constants::half_pi<Real>();  // θ̄ ← 90° (line 2)
  step_memory<Real> mem(prm.eta0, prm.tau, prm.varsigma);
  vector<Real> w = prm.w0 ? *prm.w0 : vector<Real>(vector<Real>::Zero(d)), g(d), g2(d), g_prev;
  bool have_prev = false;
  std::vector<Eigen::Index> batch, batch2;
  detail::progress_clock clock;
  res.status = status::budget_exhausted;

  for (long long t = 0;; ++t) {
    if (fixed_plan && t >= prm.iterations) {
      res.status = status::completed;
      break;
    }
    if (!fixed_plan && t >= prm.max_iterations) {
      res.status = status::iteration_limit;
      break;
    }
    if (prm.progress && clock.due())
      prm.progress("DP-BLSGD iteration " + std::to_string(t) + ", " +
                   std::to_string(res.calls.updates) + " updates");
    // The sample's event: the gradient (line 6), then the calls on the same sample as joint parts.
    event sample =
        gradient(rho_grad, C_grad, true, "DP-BLSGD sample: gradient (Algorithm 2 line 6)");
    detail::batch_state<Real> ps;
    if (paper ? !paper->try_gradient(ps, rho_grad, true) : !ledger.can_add(sample))
      break;             // line 21
    ledger.add(sample);  // line 7: charged before the noise is drawn
    philox_stream s = stream.substream(static_cast<std::uint64_t>(t));
    poisson_batch(s, n, q, batch);                            // line 4
    draw_gradient(s, batch, w, rho_grad, C_grad, sample, g);  // lines 5–6
    g /= nbar;
    ++res.calls.gradients;
    ++res.calls.iterations;

    Real eta(0);
    bool clip_reduced = false, stop = false;
    for (;;) {  // lines 9–20
      event grown = sample;
      grown.joint.push_back(search(ls_budget, C_obj));
      if (paper ? !paper->try_search(ps, ls_budget) : !ledger.can_grow(sample, grown)) {
        stop = true;  // line 9: the budget cannot pay the search
        break;
      }
      ledger.grow(sample, grown);  // line 11
      sample = std::move(grown);
      const auto& sv =
          std::get<accounting::sparse_vector_mechanism<Real>>(sample.joint.back().what);
      const auto line = make_line(P, std::span<const Eigen::Index>(batch), w, g);
      const Real armijo = prm.alpha * (prm.armijo_mean_scaling ? nbar : Real(1)) * line.g_squared();
      btls_outcome<Real> out;
      if constexpr (std::is_same_v<Real, double>) {
        if (lattice)  // SEC.SVT: the lattice parameters of the event just charged
          out = noisy_btls_lattice(s, line, armijo, mem.eta0(), lattice->search(ls_budget, C_obj),
                                   cfg);
      }
      if (!lattice) {
        // line 10, Δ_q = C_obj (Theorem 1, LS-E2): the query clips at the event's sensitivity
        const armijo_query query(line, armijo, sv.sensitivity);
        out = noisy_btls(s, query, mem.eta0(), sv, cfg);
      }
      ++res.calls.line_searches;
      res.calls.objective_queries += static_cast<long long>(out.queries);
      eta = out.eta;
      if (eta > Real(0)) {  // lines 12–14
        vector<Real> next = w - eta * g;
        if (!next.allFinite()) {
          res.status = status::diverged;
          res.message = "an iterate became non-finite at iteration " + std::to_string(t) +
                        "; the last finite iterate is returned";
          stop = true;
          break;
        }
        w = std::move(next);
        if (have_prev) {  // (7), not at t = 0
          const Real th = angle_between(g, g_prev);
          theta_bar = prm.psi * theta_bar + (Real(1) - prm.psi) * th;
        }
        g_prev = g;
        have_prev = true;
        res.steps.push_back(eta);
        ++res.calls.updates;
        if (prm.trace && prm.diagnostics) res.diagnostics.objective_trace.push_back(P.value(w));
        if (prm.observer) prm.observer(res.calls.iterations, w);
        break;
      }
      if (!gradavg) {  // lines 15–17: CHEB (Algorithm 3) on a fresh sample B2
        const event cheb =
            gradient(rho_grad, C_grad, true, "CHEB gradient (Algorithm 3) on a fresh sample");
        detail::batch_state<Real> fresh;
        if (paper ? !paper->try_gradient(fresh, rho_grad, true) : !ledger.can_add(cheb)) {
          stop = true;  // line 19
          break;
        }
        ledger.add(cheb);                                         // line 16
        poisson_batch(s, n, q, batch2);                           // Alg. 3 line 2
        draw_gradient(s, batch2, w, rho_grad, C_grad, cheb, g2);  // lines 3–4
        g2 /= nbar;
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
          if (ac && !clip_reduced) {  // (9), once per SGD update
            C_grad *= Real(1) - prm.zeta;
            C_obj *= Real(1) - prm.zeta;
            clip_reduced = true;
          }
        }
        if (raise_ls) ls_budget *= Real(1) + prm.xi;
        g = (g + g2) / Real(2);  // line 11
      } else {                   // DP-BLGD: DP-AGD's GradAvg on the same sample
        const Real rho_new = (Real(1) + prm.xi) * rho_grad, extra = rho_new - rho_grad;
        event grown2 = sample;
        grown2.joint.push_back(
            gradient(extra, C_grad, false, "GradAvg gradient on the same sample"));
        if (paper ? !paper->try_gradient(ps, extra, false) : !ledger.can_grow(sample, grown2)) {
          stop = true;
          break;
        }
        ledger.grow(sample, grown2);
        sample = std::move(grown2);
        draw_gradient(s, batch, w, extra, C_grad, sample.joint.back(), g2);
        g2 /= nbar;
        ++res.calls.gradients;
        const Real b = rho_grad / rho_new;
        g = b * g + (Real(1) - b) * g2;
        rho_grad = rho_new;
        ls_budget *= Real(1) + prm.xi;
      }
    }
    mem.end_iteration(eta);
    if (stop) break;
  }
  res.w = w;
  res.iterations = res.calls.iterations;
  res.final_rho_grad = rho_grad;
  res.final_ls_budget = ls_budget;
  res.final_C_grad = C_grad;
  res.final_C_obj = C_obj;
  res.privacy = detail::final_privacy(
      ledger.build(), prm,
      lattice ? "linesearch::run (DP-BLSGD, secure)" : "linesearch::run (DP-BLSGD)");
  res.privacy.enforced = {gradient_clip_bound(prm.C_grad, ac), objective_clip_bound(prm.C_obj, ac)};
  if (lattice)
    lattice->mark_secure(res.privacy,
                         "each example's term f̄(w) − f̄(w − ηg) is rounded to the grid and "
                         "clamped to the event's per-record bound floor(C_obj/2^k)·2^k <= C_obj, "
                         "the integers are summed exactly and compared with the discrete Laplace "
                         "noise in integers (SEC.SVT)");
  if (paper)
    res.claim =
        paper_claim<Real>{paper->claim(prm.delta), paper->spent(),
                          std::string("the paper's §4.3 accounting: SVT bound ") +
                              std::string(io::enum_to_string(prm.svt_bound)) + ", " +
                              std::string(io::enum_to_string(prm.batch_accounting)) +
                              " amplification (Lemma 4); not a guarantee (errata LS-E1, LS.BATCH)"};
  if (res.message.empty()) {
    switch (res.status) {
      case status::budget_exhausted:
        res.message = "the requested budget could not pay the next call (§4.3 halting) after " +
                      std::to_string(res.calls.iterations) + " iterations";
        break;
      case status::iteration_limit:
        res.message = "max_iterations reached before the budget was spent";
        break;
      default:
        res.message = "the planned " + std::to_string(prm.iterations) + " iterations ran (§5.7)";
    }
  }
  return res;
}

}  // namespace dpref::linesearch

// Baselines of the linesearch comparison (§5.3):
//  - DP-SGD (Abadi et al. 2016): Poisson(q) batches, clipped per-example gradients (6), Gaussian
//    noise N(0, s²C²) on the sum, normalised by q·n, fixed step η for T steps; s is the smallest
//    noise multiplier whose exact subsampled-Gaussian RDP (Mironov–Talwar–Zhang) over T steps
//    converts to <= ε at δ.
//  - DP-AGD (Lee & Kifer 2018), full batch: noisy normalised gradient (ρ_ng), NoisyMin over
//    Φ = {k·α_max/20 : k = 0..20} of the clipped objective with Lap(C_obj/ε_nm) noise,
//    ε_nm = √(2ρ_nmax) (report-noisy-min; the clipped sums are monotone under add/remove, so it is
//    ε_nm-DP); index 0 (no step) raises ρ_ng by (1+γ) with GradAvg. The public code's two bugs
//    are NOT reproduced: it takes candidate[idx − 1] for the selected index idx (off by one) and
//    its noisy min flips the noise sign; dpref selects argmin_k (score_k + noise_k) and steps with
//    α_idx. Every 10 iterations α_max ← min(1.1·max chosen, 2) (as the public code).
//  - Output and objective perturbation (Chaudhuri–Monteleoni–Sarwate 2011, Algorithms 1–2) for
//    the smooth losses (logistic, Huberized hinge), with a public bound R >= ‖x‖₂ handled by the
//    change of variables v = Rw, x′ = x/R, Λ′ = μ/R² (the paper's ‖x‖ <= 1); pure ε-DP,
//    replace-one adjacency as in the paper.
//  - NON-PRIVATE (Newton–CG to a gradient norm of tolerance<Real>; the hinge loss is replaced
//    by its Huberized surrogate h = 0.5) and MAJORITY (fraction of the majority class).
// Privacy: every release is a typed ledger event; fixed plans (DP-SGD, OUTPERT, OBJPERT) are
// checked by plan_privacy before the first draw, DP-AGD charges each call before drawing
// (run_ledger.hpp); the guarantee is the ledger's total. NON-PRIVATE and MAJORITY claim none.
// spec/linesearch.md LS.DPSGD, LS.DPAGD, LS.OUTPERT, LS.OBJPERT, LS.NONPRIVATE, LS.LEDGER.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <optional>
#include <type_traits>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/dp_blsgd.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/linesearch/run_ledger.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/vector_laplace.hpp"
#include "dpref/run/report.hpp"

namespace dpref::linesearch {

// ------------------------------------------------------------------------------ DP-SGD

/// The plan of DP-SGD: T steps of the Gaussian mechanism {C_grad, σ} on a Poisson(q) sample
/// (no sampling at q = 1). @spec LS.DPSGD
template <real_scalar Real>
accounting::ledger<Real> dp_sgd_plan(const params<Real>& p, const Real& sigma) {
  accounting::event<Real> e = accounting::make_event<Real>(
      accounting::gaussian_mechanism<Real>{p.C_grad, sigma}, p.iterations,
      "DP-SGD step: clipped gradient sum + N(0, σ²I) on a Poisson sample (Abadi et al. 2016)");
  e.sampling = detail::poisson_sampling(p.q);
  accounting::ledger<Real> l(detail::ledger_options(p));
  l.record(std::move(e));
  return l;
}

/// Secure DP-SGD (SEC.LINESEARCH): the lattice Gaussian of one step at σ: Δ2 = C_grad, clamp
/// C = params.clamp or n·C_grad (every coordinate of a clipped sum of at most n gradients is
/// within it), grid of mechanisms::snapped_gaussian_grid_exponent.
inline mechanisms::snapped_gaussian_params dp_sgd_snapped(const params<double>& p, double sigma,
                                                          long long n, long long d) {
  mechanisms::snapped_gaussian_params sp;
  sp.sensitivity = p.C_grad;
  sp.sigma = sigma;
  sp.dimension = d;
  sp.clamp = p.clamp ? *p.clamp : static_cast<double>(n) * p.C_grad;
  sp.grid_exponent = mechanisms::snapped_gaussian_grid_exponent(sp.sensitivity, sigma, d, sp.clamp);
  return sp;
}

/// The secure plan: T snapped_gaussian events (inflated sensitivity C_grad + √d 2^k, grid
/// variance rounded up) on the same Poisson(q) sample; the accountant amplifies them by the
/// generic Zhu–Wang Poisson bound (the MTZ bound is for the continuous Gaussian only).
/// @spec SEC.LINESEARCH
inline accounting::ledger<double> dp_sgd_plan_secure(const params<double>& p, double sigma,
                                                     long long n, long long d) {
  accounting::event<double> e = dp_sgd_snapped(p, sigma, n, d)
                                    .event<double>(p.iterations,
                                                   "DP-SGD step, secure: lattice Gaussian of the "
                                                   "clipped gradient sum on a Poisson sample");
  e.sampling = detail::poisson_sampling(p.q);
  accounting::ledger<double> l(detail::ledger_options(p));
  l.record(std::move(e));
  return l;
}

/// Smallest σ whose secure plan is within (ε, δ). @spec SEC.LINESEARCH
inline double dp_sgd_sigma_secure(const params<double>& p, long long n, long long d) {
  const auto ok = [&](const double& sigma) {
    const auto g = dp_sgd_plan_secure(p, sigma, n, d).total();
    return !(g.epsilon > p.epsilon) && !(g.delta > p.delta);
  };
  return accounting::smallest_satisfying<double>(ok, p.C_grad, "linesearch::params", "epsilon");
}

/// Smallest σ (rounded up, certified by the ledger's own accountant: the exact Poisson-subsampled
/// Gaussian RDP of Mironov–Talwar–Zhang over T steps, Balle 2020 conversion) whose plan is within
/// (ε, δ); the noise multiplier is σ/C_grad. @throws invalid_parameter if no σ is attainable
/// @spec LS.DPSGD
template <real_scalar Real>
Real dp_sgd_sigma(const params<Real>& p) {
  const auto ok = [&](const Real& sigma) {
    const auto g = dp_sgd_plan(p, sigma).total();
    return !(g.epsilon > p.epsilon) && !(g.delta > p.delta);
  };
  return accounting::smallest_satisfying<Real>(ok, p.C_grad, "linesearch::params", "epsilon");
}

/// DP-SGD run on any linesearch_problem (linear ERM, the §5.7 MLP): Poisson(q) batches, clipped
/// sum + N(0, σ²I), ÷ m̄, fixed step sgd_eta for T = iterations steps. σ = noise_multiplier·C_grad
/// if given (the plan must then fit the request unless allow_over_budget), else dp_sgd_sigma.
/// @spec LS.DPSGD LS.MLP
template <real_scalar Real, linesearch_problem<Real> Problem>
result<Real> dp_sgd(const Problem& P, const params<Real>& p, const philox_stream& stream) {
  p.validate();
  const Eigen::Index n = P.size(), d = P.dimension();
  if (p.w0)
    param_checker("linesearch::params")
        .require(p.w0->size() == d, "w0", "of the problem's dimension " + std::to_string(d),
                 p.w0->size());
  accounting::certifier<Real> c;
  const bool secure = p.release == noise_mode::secure;
  std::optional<mechanisms::snapped_gaussian_params> sp;
  Real sigma(0);
  result<Real> res;
  if constexpr (std::is_same_v<Real, double>) {
    if (secure) {  // SEC.LINESEARCH: planned and checked before any draw
      const auto nn = static_cast<long long>(n), dd = static_cast<long long>(d);
      sigma = p.noise_multiplier ? c.up(c.in(*p.noise_multiplier) * c.in(p.C_grad))
                                 : dp_sgd_sigma_secure(p, nn, dd);
      res.privacy = detail::final_privacy(dp_sgd_plan_secure(p, sigma, nn, dd), p,
                                          "linesearch::run (DP-SGD, secure)");
      res.privacy.noise = noise_mode::secure;
      sp = dp_sgd_snapped(p, sigma, nn, dd);
    }
  }
  if (!secure) {
    sigma = p.noise_multiplier ? c.up(c.in(*p.noise_multiplier) * c.in(p.C_grad)) : dp_sgd_sigma(p);
    res.privacy = detail::final_privacy(dp_sgd_plan(p, sigma), p, "linesearch::run (DP-SGD)");
  }
  const accounting::gaussian_mechanism<Real> m{p.C_grad, sigma};
  res.noise_multiplier = c.down(c.in(sigma) / c.in(p.C_grad));
  const Real nbar = p.q * Real(static_cast<long long>(n));
  vector<Real> w = p.w0 ? *p.w0 : vector<Real>(vector<Real>::Zero(d)), g(d);
  std::vector<Eigen::Index> batch;
  detail::progress_clock clock;
  res.status = status::completed;
  for (long long t = 0; t < p.iterations; ++t) {
    if (p.progress && clock.due()) p.progress("DP-SGD step " + std::to_string(t));
    philox_stream st = stream.substream(static_cast<std::uint64_t>(t));
    poisson_batch(st, n, p.q, batch);
    P.clipped_gradient_sum(w, batch, m.sensitivity, g);
    if constexpr (std::is_same_v<Real, double>) {
      if (sp)  // SEC.LINESEARCH: the released sum is the lattice Gaussian
        g = mechanisms::snapped_gaussian(st, g, *sp);
      else
        add_gaussian_noise(st, g, m);
    } else {
      add_gaussian_noise(st, g, m);
    }
    const vector<Real> next = w - (p.sgd_eta / nbar) * g;
    if (!next.allFinite()) {
      res.status = status::diverged;
      res.message = "an iterate became non-finite at step " + std::to_string(t) +
                    "; the last finite iterate is returned (the plan's guarantee is reported)";
      break;
    }
    w = next;
    ++res.calls.gradients;
    ++res.calls.iterations;
    ++res.calls.updates;
    res.steps.push_back(p.sgd_eta);
    if (p.trace) res.diagnostics.objective_trace.push_back(P.value(w));
    if (p.observer) p.observer(t + 1, w);
  }
  res.w = w;
  res.iterations = res.calls.iterations;
  if (res.message.empty())
    res.message = "the planned " + std::to_string(p.iterations) + " steps ran";
  return res;
}

// ------------------------------------------------------------------------------ DP-AGD

/// Report-noisy-min: argmin_k (score_k + Lap(b)) (correct sign, index 0 = "no step").
/// @spec LS.DPAGD
template <real_scalar Real>
std::size_t noisy_min(philox_stream& s, const std::vector<Real>& scores, const Real& b) {
  std::size_t best = 0;
  Real best_v(0);
  for (std::size_t k = 0; k < scores.size(); ++k) {
    const Real v = scores[k] + laplace<Real>(s, b);
    if (k == 0 || v < best_v) {
      best = k;
      best_v = v;
    }
  }
  return best;
}

/// Laplace scale b = C_obj/ε_nm (rounded up) of DP-AGD's report-noisy-min: the clipped sums
/// Σ_i min(f_i, C_obj) are monotone under add/remove (each moves by [0, C_obj], all the same
/// way), so Lap(C_obj/ε_nm) noise makes it ε_nm-DP (Dwork–Roth Claim 3.9). @spec LS.DPAGD
template <real_scalar Real>
Real noisy_min_scale(const Real& C_obj, const Real& eps_nm) {
  accounting::certifier<Real> c;
  return c.up(c.in(C_obj) / c.in(eps_nm));
}

/// DP-AGD run (full batch) on a linear ERM problem. @spec LS.DPAGD
template <real_scalar Real>
result<Real> dp_agd(const problems::linear_erm<Real>& P, const params<Real>& p,
                    const philox_stream& stream) {
  p.validate();
  using std::sqrt;
  run_ledger<Real> ledger(detail::ledger_options(p), {p.epsilon, p.delta}, true);
  result<Real> res;
  res.status = status::budget_exhausted;
  const Eigen::Index n = P.size(), d = P.dimension();
  std::vector<Eigen::Index> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), Eigen::Index(0));
  const Real eps_iter = p.epsilon / p.eps_iter_divisor;
  Real rho_ng = eps_iter * eps_iter / 2;
  const Real rho_nmax = eps_iter * eps_iter / 2;
  accounting::certifier<Real> c;
  const Real eps_nm = c.down(sqrt(2 * c.in(rho_nmax)));
  const Real b_nm = noisy_min_scale(p.C_obj, eps_nm);
  accounting::event<Real> nm = accounting::make_event<Real>(
      accounting::pure_mechanism<Real>{c.up(c.in(p.C_obj) / c.in(b_nm))}, 1,
      "DP-AGD report-noisy-min over the step candidates, Lap(C_obj/eps) on monotone clipped "
      "sums (Dwork-Roth Claim 3.9)");
  nm.how = accounting::analysis::rdp;  // composed in RDP by the tight ε-DP -> RDP conversion
  Real max_step = p.max_step;
  std::vector<Real> chosen;
  vector<Real> w = vector<Real>::Zero(d), grad(d), g(d), g2(d), dir(d);
  std::vector<Real> scores(static_cast<std::size_t>(p.candidates + 1));
  detail::progress_clock clock;
  bool stop = false;
  for (long long t = 0; !stop; ++t) {
    if (t >= p.max_iterations) {
      res.status = status::iteration_limit;
      break;
    }
    if (p.progress && clock.due()) p.progress("DP-AGD iteration " + std::to_string(t));
    const accounting::event<Real> ge = accounting::make_event<Real>(
        gradient_event(p.C_grad, rho_ng), 1, "DP-AGD full-batch gradient");
    if (!ledger.can_add(ge)) break;
    ledger.add(ge);
    philox_stream s = stream.substream(static_cast<std::uint64_t>(t));
    P.clipped_gradient_sum(w, all, p.C_grad, grad);
    g = grad;
    add_gaussian_noise(s, g, std::get<accounting::gaussian_mechanism<Real>>(ge.what));
    ++res.calls.gradients;
    ++res.calls.iterations;
    for (;;) {
      const Real nrm = g.norm();
      dir = nrm > Real(0) ? vector<Real>(g / nrm) : vector<Real>(g);
      if (!ledger.can_add(nm)) {
        stop = true;
        break;
      }
      ledger.add(nm);
      const problems::line_evaluator<Real> line(P, all, w, dir);
      for (long long k = 0; k <= p.candidates; ++k)
        scores[static_cast<std::size_t>(k)] =
            line.clipped_sum(max_step * Real(k) / Real(p.candidates), p.C_obj);
      res.calls.objective_queries += p.candidates + 1;
      ++res.calls.line_searches;
      const std::size_t idx = noisy_min(s, scores, b_nm);
      if (idx > 0) {
        const Real a = max_step * Real(static_cast<long long>(idx)) / Real(p.candidates);
        w.noalias() -= a * dir;  // candidate idx itself (the public code's idx − 1 is a bug)
        chosen.push_back(a);
        res.steps.push_back(a);
        ++res.calls.updates;
        if (p.trace) res.diagnostics.objective_trace.push_back(P.value(w));
        break;
      }
      const Real rho_new = (Real(1) + p.gamma) * rho_ng, extra = rho_new - rho_ng;
      const accounting::event<Real> ee = accounting::make_event<Real>(
          gradient_event(p.C_grad, extra), 1, "DP-AGD GradAvg gradient");
      if (!ledger.can_add(ee)) {
        stop = true;
        break;
      }
      ledger.add(ee);
      g2 = grad;
      add_gaussian_noise(s, g2, std::get<accounting::gaussian_mechanism<Real>>(ee.what));
      ++res.calls.gradients;
      const Real b = rho_ng / rho_new;
      g = b * g + (Real(1) - b) * g2;  // GradAvg
      rho_ng = rho_new;
    }
    if ((t + 1) % 10 == 0 && !chosen.empty()) {
      const Real m = Real(11) / 10 * *std::max_element(chosen.begin(), chosen.end());
      max_step = m < p.max_step ? m : p.max_step;
      chosen.clear();
    }
  }
  res.w = w;
  res.iterations = res.calls.iterations;
  res.final_rho_grad = rho_ng;
  res.privacy = detail::final_privacy(ledger.build(), p, "linesearch::run (DP-AGD)");
  res.message = res.status == status::iteration_limit
                    ? "max_iterations reached before the budget was spent"
                    : "the requested budget could not pay the next call after " +
                          std::to_string(res.calls.iterations) + " iterations";
  return res;
}

// ------------------------------------------------------------------- non-private / Chaudhuri

/// Output of minimize_smooth.
template <real_scalar Real>
struct smooth_minimum {
  vector<Real> w;
  bool converged = false;  ///< the gradient-norm test was met (or no decrease was possible)
};

/// Minimiser of F(w) + linᵀw + (extra/2)‖w‖² by Newton–CG with Armijo backtracking (smooth
/// losses only; F strongly convex when μ + extra > 0); stops when ‖∇‖ <= tol·(1 + ‖w‖).
/// @spec LS.NONPRIVATE
template <real_scalar Real>
smooth_minimum<Real> minimize_smooth(const problems::linear_erm<Real>& P, const vector<Real>& lin,
                                     const Real& extra, int max_newton = 100) {
  if (P.loss().kind == problems::margin_loss_kind::hinge)
    fail_domain("minimize_smooth", "loss", "smooth (logistic or huberized_hinge)", "hinge");
  const Eigen::Index d = P.dimension();
  smooth_minimum<Real> out;
  vector<Real>& w = out.w;
  w = vector<Real>::Zero(d);
  const auto obj = [&](const vector<Real>& x) {
    return Real(P.value(x) + lin.dot(x) + extra * x.squaredNorm() / 2);
  };
  for (int it = 0; it < max_newton; ++it) {
    const vector<Real> gr = P.gradient(w) + lin + extra * w;
    if (gr.norm() <= tolerance<Real>() * (Real(1) + w.norm())) {
      out.converged = true;
      break;
    }
    // CG on H p = −gr
    vector<Real> p = vector<Real>::Zero(d), r = -gr, dd = r;
    Real rr = r.squaredNorm();
    for (Eigen::Index k = 0; k < 2 * d + 10 && rr > tolerance<Real>() * tolerance<Real>(); ++k) {
      const vector<Real> hd = P.hessian_vector(w, dd) + extra * dd;
      const Real a = rr / dd.dot(hd);
      p += a * dd;
      r -= a * hd;
      const Real rr2 = r.squaredNorm();
      dd = r + (rr2 / rr) * dd;
      rr = rr2;
    }
    Real step(1), f1(0);
    const Real f0 = obj(w), slope = gr.dot(p);
    int b = 0;
    for (; b < 60 && (f1 = obj(vector<Real>(w + step * p))) > f0 + step * slope / 4; ++b) step /= 2;
    if (b == 60 || !(f1 < f0)) {  // no decrease at working precision: converged
      out.converged = true;
      break;
    }
    w += step * p;
  }
  return out;
}

/// The smooth problem of the baselines that need one (§5.3): the hinge loss is replaced by its
/// Huberized surrogate (h = 0.5); other losses are kept.
template <real_scalar Real>
problems::linear_erm<Real> smooth_surrogate(const problems::linear_erm<Real>& P) {
  if (P.loss().kind != problems::margin_loss_kind::hinge) return P;
  return problems::linear_erm<Real>(P.features(), P.labels(),
                                    problems::margin_loss<Real>::huberized_hinge(), P.mu());
}

/// NON-PRIVATE reference: exact minimiser of F (hinge → Huberized hinge h = 0.5 surrogate).
/// @spec LS.NONPRIVATE
template <real_scalar Real>
vector<Real> non_private(const problems::linear_erm<Real>& P) {
  const vector<Real> z = vector<Real>::Zero(P.dimension());
  return minimize_smooth(smooth_surrogate(P), z, Real(0)).w;
}

/// The training majority class (+1 on ties). @spec LS.NONPRIVATE
template <real_scalar Real>
int majority_class(const vector<Real>& train_labels) {
  long long pos = 0;
  for (Eigen::Index i = 0; i < train_labels.size(); ++i) pos += train_labels[i] > Real(0);
  return 2 * pos >= train_labels.size() ? 1 : -1;
}

/// MAJORITY: accuracy of predicting the training majority class on (test) labels y.
/// @spec LS.NONPRIVATE
template <real_scalar Real>
double majority_accuracy(const vector<Real>& train_labels, const vector<Real>& test_labels) {
  const bool major_pos = majority_class(train_labels) > 0;
  long long ok = 0;
  for (Eigen::Index i = 0; i < test_labels.size(); ++i)
    ok += (test_labels[i] > Real(0)) == major_pos;
  return static_cast<double>(ok) / static_cast<double>(test_labels.size());
}

namespace detail {
/// The problem with every row scaled to ‖x_i‖ <= R (rows within R unchanged): a data-independent
/// rule, so the sensitivity 2R/(nμ) holds for every data set (ARCH.PUBLIC). @spec LS.OUTPERT
template <real_scalar Real>
problems::linear_erm<Real> rows_within(const problems::linear_erm<Real>& P, const Real& R) {
  matrix<Real> X = P.features();
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    const Real nrm = X.col(i).norm();
    if (nrm > R) X.col(i) *= R / nrm;
  }
  return problems::linear_erm<Real>(std::move(X), P.labels(), P.loss(), P.mu());
}
template <real_scalar Real>
void require_chaudhuri(const problems::linear_erm<Real>& P, const Real& R, const char* fn) {
  require_positive(fn, "R", R);
  if (!(P.mu() > Real(0))) fail_domain(fn, "mu", "> 0 (strong convexity)", P.mu());
  if (P.loss().kind == problems::margin_loss_kind::hinge)
    fail_domain(fn, "loss", "smooth (logistic or huberized_hinge)", "hinge");
}
}  // namespace detail

/// Output perturbation's ℓ2 sensitivity 2R/(nμ) (rounded up): the regularised minimiser of a
/// 1-Lipschitz margin loss with ‖x‖ <= R moves by at most that when one example is replaced
/// (Chaudhuri et al. 2011 Corollary 8). @spec LS.OUTPERT
template <real_scalar Real>
Real output_perturbation_sensitivity(const Real& R, long long n, const Real& mu) {
  accounting::certifier<Real> c;
  return c.up(2 * c.in(R) / (accounting::work_real(n) * c.in(mu)));
}

/// Output perturbation (Chaudhuri et al. 2011 Algorithm 1): w* + b, density ∝ exp(−‖b‖/s) with
/// s the smallest scale (rounded up) whose vector-Laplace event {2R/(nμ), s} certifies ε (s ≈
/// 2R/(nμε)); rows are scaled into the public R-ball first. Replace-one adjacency.
/// @param R public bound on ‖x‖₂ @spec LS.OUTPERT
template <real_scalar Real>
result<Real> output_perturbation(const problems::linear_erm<Real>& P0, const params<Real>& p,
                                 const Real& R, const philox_stream& stream) {
  detail::require_chaudhuri(P0, R, "output_perturbation");
  const problems::linear_erm<Real> P = detail::rows_within(P0, R);
  const Real sens = output_perturbation_sensitivity(R, static_cast<long long>(P.size()), P.mu());
  if constexpr (std::is_same_v<Real, double>) {
    if (p.release == noise_mode::secure) {
      // SEC.LINESEARCH: w* released by the lattice ℓ2-Laplace; clamp C = params.clamp or R/μ
      // (‖w*‖ <= R/μ for a 1-Lipschitz loss: μw* = −(1/n)Σ ℓ′ y_i x_i), t the smallest
      // integer scale certifying ε with the inflated sensitivity Δ2 + √d 2^k
      const long long d = static_cast<long long>(P.dimension());
      const double C = p.clamp ? *p.clamp : std::nextafter(R / P.mu(), 1e308);  // R/μ, up
      const auto sp = mechanisms::snapped_vector_laplace_for(sens, p.epsilon, d, C);
      accounting::ledger<Real> l(detail::ledger_options(p));
      l.record(sp.template event<double>(
          1, "output perturbation, secure: lattice l2-Laplace of the minimiser, replace-one"));
      result<Real> res;
      res.privacy = detail::final_privacy(std::move(l), p, "linesearch::run (OUTPERT, secure)");
      res.privacy.noise = noise_mode::secure;
      res.noise_scale = sp.scale;
      philox_stream s = stream.substream(0);
      const vector<Real> zero = vector<Real>::Zero(P.dimension());
      res.w = mechanisms::snapped_vector_laplace(s, minimize_smooth(P, zero, Real(0)).w, sp);
      res.status = status::completed;
      res.message = "minimiser released by the lattice l2-Laplace (secure)";
      return res;
    }
  }
  const auto plan_of = [&](const Real& scale) {
    accounting::ledger<Real> l(detail::ledger_options(p));
    l.record(accounting::make_event<Real>(
        accounting::vector_laplace_mechanism<Real>{sens, scale}, 1,
        "output perturbation (Chaudhuri et al. 2011 Algorithm 1), replace-one adjacency"));
    return l;
  };
  const Real scale = accounting::smallest_satisfying<Real>(
      [&](const Real& sc) { return !(plan_of(sc).total().epsilon > p.epsilon); },
      Real(sens / p.epsilon), "linesearch::params", "epsilon");
  result<Real> res;
  res.privacy = detail::final_privacy(plan_of(scale), p, "linesearch::run (OUTPERT)");
  res.noise_scale = scale;
  philox_stream s = stream.substream(0);
  const vector<Real> zero = vector<Real>::Zero(P.dimension());
  res.w = minimize_smooth(P, zero, Real(0)).w +
          vector_laplace<Real>(s, static_cast<std::size_t>(P.dimension()), scale);
  res.status = status::completed;
  res.message = "minimiser + noise released";
  return res;
}

/// ε′ and Δ of objective perturbation (Chaudhuri et al. 2011 Algorithm 2) in v = Rw (Λ′ = μ/R²,
/// c = sup φ″): ε′ = ε − log(1 + 2c/(nΛ′) + c²/(nΛ′)²) (rounded down); if ε′ <= 0: Δ =
/// c/(n(e^{ε/4} − 1)) − Λ′ (rounded up), ε′ = ε/2. @spec LS.OBJPERT
template <real_scalar Real>
std::pair<Real, Real> objective_perturbation_constants(const Real& eps, const Real& c_bound,
                                                       long long n, const Real& mu, const Real& R) {
  accounting::certifier<Real> c;
  using std::exp;
  using std::log;
  const accounting::work_real lam = c.in(mu) / (c.in(R)*c.in(R));
  const accounting::work_real u = c.in(c_bound) / (accounting::work_real(n) * lam);
  const accounting::work_real e = c.in(eps);
  Real eps_p = c.down(e - log(1 + 2 * u + u * u));
  Real Delta(0);
  if (!(eps_p > Real(0))) {
    const Real D = c.up(c.in(c_bound) / (accounting::work_real(n) * (exp(e / 4) - 1)) - lam);
    Delta = D > Real(0) ? D : Real(0);
    eps_p = c.down(e / 2);
  }
  return {eps_p, Delta};
}

/// Objective perturbation (Chaudhuri et al. 2011 Algorithm 2, Theorem 9: ε-DP, replace-one):
/// b ∝ exp(−ε′‖b‖/2) (scale 2/ε′ rounded up); minimise F(w) + (R/n)bᵀw + (ΔR²/2)‖w‖² on the rows
/// scaled into the public R-ball. @spec LS.OBJPERT
template <real_scalar Real>
result<Real> objective_perturbation(const problems::linear_erm<Real>& P0, const params<Real>& p,
                                    const Real& R, const philox_stream& stream) {
  detail::require_chaudhuri(P0, R, "objective_perturbation");
  const problems::linear_erm<Real> P = detail::rows_within(P0, R);
  const long long n = static_cast<long long>(P.size());
  const auto [eps_p, Delta] = objective_perturbation_constants(
      p.epsilon, problems::margin_curvature_bound(P.loss()), n, P.mu(), R);
  accounting::ledger<Real> plan(detail::ledger_options(p));
  plan.record(accounting::make_event<Real>(
      accounting::pure_mechanism<Real>{p.epsilon}, 1,
      "objective perturbation (Chaudhuri et al. 2011 Algorithm 2, Theorem 9), replace-one "
      "adjacency; noise density exp(-eps'|b|/2)"));
  result<Real> res;
  res.privacy = detail::final_privacy(std::move(plan), p, "linesearch::run (OBJPERT)");
  accounting::certifier<Real> c;
  const Real scale = c.up(2 / c.in(eps_p));
  res.noise_scale = scale;
  philox_stream s = stream.substream(0);
  const vector<Real> b = vector_laplace<Real>(s, static_cast<std::size_t>(P.dimension()), scale);
  const Real nr = Real(n);
  res.w = minimize_smooth(P, vector<Real>((R / nr) * b), Real(Delta * R * R)).w;
  res.status = status::completed;
  res.message = "perturbed minimiser released (eps' = " + io::format_real(eps_p) +
                ", Delta = " + io::format_real(Delta) + ")";
  return res;
}

}  // namespace dpref::linesearch

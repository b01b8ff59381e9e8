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
// spec/linesearch.md LS.DPSGD, LS.DPAGD, LS.OUTPERT, LS.OBJPERT, LS.NONPRIVATE.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/linesearch/accountant.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/rdp_budget.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/vector_laplace.hpp"

namespace dpref::linesearch {

// ------------------------------------------------------------------------------ DP-SGD

/// DP-SGD parameters (Abadi et al.; C = C_grad = 3 and q = 0.1 as §5.4).
template <real_scalar Real>
struct dp_sgd_params {
  Real eps = Real(1) / 5, delta = Real(1) / 100000000;
  int max_order = 500;
  Real q = Real(1) / 10;
  Real C_grad = Real(3);
  Real eta = Real(1);                ///< fixed step size (≈ 1/L for features in [0, 1]; public)
  long long T = 50;                  ///< iterations (the "≈ 50 iterations" of §5.4)
  Real noise_multiplier = Real(0);   ///< s; 0 = calibrate (dp_sgd_noise_multiplier)
  vector<Real> w0{};                 ///< data-independent start; empty (default) = 0
  update_observer<Real> observer{};  ///< called after every update (empty: none)
};

/// Smallest noise multiplier s (rounded up) with T-fold MTZ subsampled Gaussian RDP <= (ε, δ).
/// @spec LS.DPSGD
template <real_scalar Real>
Real dp_sgd_noise_multiplier(const dp_sgd_params<Real>& p) {
  const auto orders = accounting::integer_orders<Real>(2, p.max_order);
  const auto ok = [&](const Real& s) {
    const auto c = accounting::compose_rdp_steps(
        accounting::poisson_subsampled_gaussian_rdp(p.q, s, orders), p.T);
    return !(accounting::rdp_to_dp(c, p.delta).guarantee.eps > p.eps);
  };
  return accounting::smallest_satisfying<Real>(ok, Real(1), "dp_sgd_noise_multiplier",
                                               "noise_multiplier");
}

/// DP-SGD run on any linesearch_problem (linear ERM, the §5.7 MLP). With
/// noise_multiplier = 1/√(2ρ_iter) every step is the Gaussian mechanism of Lemma 1 with budget
/// ρ_iter (σ = C/√(2ρ_iter), as noisy_gradient). @spec LS.DPSGD LS.MLP
template <real_scalar Real, linesearch_problem<Real> Problem>
result<Real> dp_sgd(const Problem& P, const dp_sgd_params<Real>& p, const philox_stream& stream) {
  require_positive("dp_sgd", "eps", p.eps);
  require_positive("dp_sgd", "eta", p.eta);
  if (p.T < 1) fail_domain("dp_sgd", "T", ">= 1", p.T);
  const Real s = p.noise_multiplier > Real(0) ? p.noise_multiplier : dp_sgd_noise_multiplier(p);
  const auto orders = accounting::integer_orders<Real>(2, p.max_order);
  const auto step = accounting::poisson_subsampled_gaussian_rdp(p.q, s, orders);
  result<Real> res;
  res.spent = accounting::compose_rdp_steps(step, p.T);
  res.guarantee = accounting::rdp_to_dp(res.spent, p.delta).guarantee;
  res.ledger.record({"subsampled_gaussian_gradient",
                     {{"noise_multiplier", s}, {"C_grad", p.C_grad}, {"q", p.q}},
                     step,
                     p.T});
  const Eigen::Index n = P.size(), d = P.dimension();
  const Real nbar = p.q * Real(static_cast<long long>(n));
  if (p.w0.size() != 0 && p.w0.size() != d)
    fail_argument("dp_sgd", "w0.size()", "0 or the dimension", p.w0.size());
  vector<Real> w = p.w0.size() != 0 ? p.w0 : vector<Real>(vector<Real>::Zero(d)), g(d);
  std::vector<Eigen::Index> batch;
  const Real sigma = s * p.C_grad;
  for (long long t = 0; t < p.T; ++t) {
    philox_stream st = stream.substream(static_cast<std::uint64_t>(t));
    poisson_batch(st, n, p.q, batch);
    P.clipped_gradient_sum(w, batch, p.C_grad, g);
    for (Eigen::Index j = 0; j < d; ++j) g[j] += gaussian<Real>(st, sigma);
    w.noalias() -= (p.eta / nbar) * g;
    ++res.calls.gradients;
    ++res.calls.iterations;
    ++res.calls.updates;
    if (p.observer) p.observer(t + 1, w);
  }
  res.w = w;
  res.final_rho_grad = Real(1) / (Real(2) * s * s);
  return res;
}

// ------------------------------------------------------------------------------ DP-AGD

/// DP-AGD parameters (Lee & Kifer 2018; budgets initialised like DP-BLSGD, ε_iter = ε/100).
template <real_scalar Real>
struct dp_agd_params {
  Real eps = Real(1) / 5, delta = Real(1) / 100000000;
  int max_order = 500;
  Real C_grad = Real(3), C_obj = Real(1);
  Real gamma = Real(1) / 10;  ///< budget increase rate (DP-AGD default)
  Real eps_iter_divisor = Real(100);
  Real max_step = Real(2);  ///< initial α_max
  long candidates = 20;     ///< |Φ| − 1
  long long max_iterations = 1000000;
};

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

/// DP-AGD run (full batch). @spec LS.DPAGD
template <real_scalar Real>
result<Real> dp_agd(const problems::linear_erm<Real>& P, const dp_agd_params<Real>& p,
                    const philox_stream& stream) {
  require_positive("dp_agd", "eps", p.eps);
  if (p.candidates < 1) fail_domain("dp_agd", "candidates", ">= 1", p.candidates);
  using std::sqrt;
  const auto orders = accounting::integer_orders<Real>(2, p.max_order);
  accountant<Real> acct(Real(1), rdp_budget_for_dp(p.eps, p.delta, orders));
  merged_ledger<Real> ledger;
  result<Real> res;
  res.status = run_status::budget_exhausted;
  const Eigen::Index n = P.size(), d = P.dimension();
  std::vector<Eigen::Index> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), Eigen::Index(0));
  const Real eps_iter = p.eps / p.eps_iter_divisor;
  Real rho_ng = eps_iter * eps_iter / 2;
  const Real rho_nmax = eps_iter * eps_iter / 2;
  const Real eps_nm = sqrt(Real(2) * rho_nmax);
  const auto nm_cost = pure_step_cost(Real(1), eps_nm, orders);
  Real max_step = p.max_step;
  std::vector<Real> chosen;
  vector<Real> w = vector<Real>::Zero(d), grad(d), g(d), g2(d), dir(d);
  std::vector<Real> scores(static_cast<std::size_t>(p.candidates + 1));
  bool stop = false;
  for (long long t = 0; !stop; ++t) {
    if (t >= p.max_iterations) {
      res.status = run_status::iteration_cap;
      break;
    }
    const auto gc = acct.gradient_cost(rho_ng);
    if (!acct.can_afford(gc)) break;
    philox_stream s = stream.substream(static_cast<std::uint64_t>(t));
    acct.charge(gc, "gradient");
    ledger.add("gaussian_gradient", {{"rho", rho_ng}, {"C_grad", p.C_grad}}, gc);
    P.clipped_gradient_sum(w, all, p.C_grad, grad);
    const Real sigma = p.C_grad / sqrt(Real(2) * rho_ng);
    g = grad;
    for (Eigen::Index j = 0; j < d; ++j) g[j] += gaussian<Real>(s, sigma);
    ++res.calls.gradients;
    ++res.calls.iterations;
    for (;;) {
      const Real nrm = g.norm();
      dir = nrm > Real(0) ? vector<Real>(g / nrm) : vector<Real>(g);
      if (!acct.can_afford(nm_cost)) {
        stop = true;
        break;
      }
      acct.charge(nm_cost, "noisy_min");
      ledger.add("noisy_min", {{"eps", eps_nm}, {"C_obj", p.C_obj}}, nm_cost);
      const problems::line_evaluator<Real> line(P, all, w, dir);
      for (long k = 0; k <= p.candidates; ++k)
        scores[static_cast<std::size_t>(k)] =
            line.clipped_sum(max_step * Real(k) / Real(p.candidates), p.C_obj);
      res.calls.objective_queries += p.candidates + 1;
      ++res.calls.line_searches;
      const std::size_t idx = noisy_min(s, scores, Real(p.C_obj / eps_nm));
      if (idx > 0) {
        const Real a = max_step * Real(static_cast<long long>(idx)) / Real(p.candidates);
        w.noalias() -= a * dir;  // candidate idx itself (the public code's idx − 1 is a bug)
        chosen.push_back(a);
        res.steps.push_back(a);
        ++res.calls.updates;
        break;
      }
      const Real rho_new = (Real(1) + p.gamma) * rho_ng, extra = rho_new - rho_ng;
      const auto ec = acct.gradient_cost(extra);
      if (!acct.can_afford(ec)) {
        stop = true;
        break;
      }
      acct.charge(ec, "gradavg");
      ledger.add("gradavg_gradient", {{"rho", extra}, {"C_grad", p.C_grad}}, ec);
      const Real s2 = p.C_grad / sqrt(Real(2) * extra);
      g2 = grad;
      for (Eigen::Index j = 0; j < d; ++j) g2[j] += gaussian<Real>(s, s2);
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
  res.spent = acct.spent();
  res.guarantee = acct.to_dp(p.delta).guarantee;
  res.ledger = ledger.build();
  res.final_rho_grad = rho_ng;
  return res;
}

// ------------------------------------------------------------------- non-private / Chaudhuri

/// Minimiser of F(w) + linᵀw + (extra/2)‖w‖² by Newton–CG with Armijo backtracking (smooth
/// losses only; F strongly convex when μ + extra > 0). @spec LS.NONPRIVATE
template <real_scalar Real>
vector<Real> minimize_smooth(const problems::linear_erm<Real>& P, const vector<Real>& lin,
                             const Real& extra, int max_newton = 100) {
  if (P.loss().kind == problems::margin_loss_kind::hinge)
    fail_domain("minimize_smooth", "loss", "smooth (logistic or huberized_hinge)", "hinge");
  const Eigen::Index d = P.dimension();
  vector<Real> w = vector<Real>::Zero(d);
  const auto obj = [&](const vector<Real>& x) {
    return Real(P.value(x) + lin.dot(x) + extra * x.squaredNorm() / 2);
  };
  for (int it = 0; it < max_newton; ++it) {
    const vector<Real> gr = P.gradient(w) + lin + extra * w;
    if (gr.norm() <= tolerance<Real>() * (Real(1) + w.norm())) break;
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
    Real step(1);
    const Real f0 = obj(w), slope = gr.dot(p);
    int b = 0;
    for (; b < 60 && obj(vector<Real>(w + step * p)) > f0 + step * slope / 4; ++b) step /= 2;
    if (b == 60) break;  // no decrease at working precision: converged
    w += step * p;
  }
  return w;
}

/// NON-PRIVATE reference: exact minimiser of F (hinge → Huberized hinge h = 0.5 surrogate).
/// @spec LS.NONPRIVATE
template <real_scalar Real>
vector<Real> non_private(const problems::linear_erm<Real>& P) {
  const vector<Real> z = vector<Real>::Zero(P.dimension());
  if (P.loss().kind != problems::margin_loss_kind::hinge) return minimize_smooth(P, z, Real(0));
  const problems::linear_erm<Real> H(P.features(), P.labels(),
                                     problems::margin_loss<Real>::huberized_hinge(), P.mu());
  return minimize_smooth(H, z, Real(0));
}

/// MAJORITY: accuracy of predicting the training majority class on (test) labels y.
/// @spec LS.NONPRIVATE
template <real_scalar Real>
double majority_accuracy(const vector<Real>& train_labels, const vector<Real>& test_labels) {
  long long pos = 0;
  for (Eigen::Index i = 0; i < train_labels.size(); ++i) pos += train_labels[i] > Real(0);
  const bool major_pos = 2 * pos >= train_labels.size();
  long long ok = 0;
  for (Eigen::Index i = 0; i < test_labels.size(); ++i)
    ok += (test_labels[i] > Real(0)) == major_pos;
  return static_cast<double>(ok) / static_cast<double>(test_labels.size());
}

namespace detail {
template <real_scalar Real>
void require_row_bound(const problems::linear_erm<Real>& P, const Real& R, const char* fn) {
  require_positive(fn, "R", R);
  for (Eigen::Index i = 0; i < P.size(); ++i)
    if (P.features().col(i).norm() > R) fail_domain(fn, "||x_i||_2", "<= R", i);
  if (!(P.mu() > Real(0))) fail_domain(fn, "mu", "> 0 (strong convexity)", P.mu());
}
}  // namespace detail

/// Output perturbation (Chaudhuri et al. 2011 Algorithm 1): w* + b, density ∝ exp(−‖b‖/s),
/// s = 2R/(nμε) (the ℓ2 sensitivity of the regularised minimiser with 1-Lipschitz φ, ‖x‖ <= R).
/// @param R public bound on ‖x‖₂ @spec LS.OUTPERT
template <real_scalar Real>
result<Real> output_perturbation(const problems::linear_erm<Real>& P, const Real& eps,
                                 const Real& R, const philox_stream& stream) {
  detail::require_row_bound(P, R, "output_perturbation");
  require_positive("output_perturbation", "eps", eps);
  result<Real> res;
  const Real n = Real(static_cast<long long>(P.size()));
  const Real scale = Real(2) * R / (n * P.mu() * eps);
  philox_stream s = stream.substream(0);
  const vector<Real> zero = vector<Real>::Zero(P.dimension());
  res.w = minimize_smooth(P, zero, Real(0)) +
          vector_laplace<Real>(s, static_cast<std::size_t>(P.dimension()), scale);
  res.guarantee = {eps, Real(0)};
  res.ledger.record(
      {"output_perturbation", {{"scale", scale}, {"R", R}}, accounting::pure_dp<Real>{eps}, 1});
  return res;
}

/// Objective perturbation (Chaudhuri et al. 2011 Algorithm 2) in v = Rw (Λ′ = μ/R², c = sup φ″):
/// ε′ = ε − log(1 + 2c/(nΛ′) + c²/(nΛ′)²); if ε′ <= 0: Δ = c/(n(e^{ε/4} − 1)) − Λ′, ε′ = ε/2;
/// b ∝ exp(−ε′‖b‖/2); minimise F(w) + (R/n)bᵀw + (ΔR²/2)‖w‖². @spec LS.OBJPERT
template <real_scalar Real>
result<Real> objective_perturbation(const problems::linear_erm<Real>& P, const Real& eps,
                                    const Real& R, const philox_stream& stream) {
  detail::require_row_bound(P, R, "objective_perturbation");
  require_positive("objective_perturbation", "eps", eps);
  using std::exp;
  using std::log;
  const Real c = problems::margin_curvature_bound(P.loss());
  const Real n = Real(static_cast<long long>(P.size()));
  const Real lam = P.mu() / (R * R);
  const Real u = c / (n * lam);
  Real eps_p = eps - log(Real(1) + Real(2) * u + u * u);
  Real Delta(0);
  if (!(eps_p > Real(0))) {
    Delta = c / (n * (exp(eps / 4) - Real(1))) - lam;
    eps_p = eps / 2;
  }
  philox_stream s = stream.substream(0);
  const vector<Real> b =
      vector_laplace<Real>(s, static_cast<std::size_t>(P.dimension()), Real(Real(2) / eps_p));
  result<Real> res;
  res.w = minimize_smooth(P, vector<Real>((R / n) * b), Real(Delta * R * R));
  res.guarantee = {eps, Real(0)};
  res.ledger.record({"objective_perturbation",
                     {{"eps_prime", eps_p}, {"Delta", Delta}, {"R", R}},
                     accounting::pure_dp<Real>{eps},
                     1});
  return res;
}

}  // namespace dpref::linesearch

// Baselines of the linesearch comparison (§5.3); DP-SGD is linesearch/dp_sgd.hpp and DP-AGD
// linesearch/dp_agd.hpp. This header:
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
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/linesearch/bounds.hpp"
#include "dpref/linesearch/certified_minimiser.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/dp_agd.hpp"
#include "dpref/linesearch/dp_blsgd.hpp"
#include "dpref/linesearch/dp_sgd.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/linesearch/run_ledger.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/run/report.hpp"

namespace dpref::linesearch {

// ------------------------------------------------------------------- non-private / Chaudhuri

/// Output of minimize_smooth.
template <real_scalar Real>
struct smooth_minimum {
  vector<Real> w;
  bool converged = false;  ///< the gradient-norm test was met (or no decrease was possible)
};

/// The Newton direction p solving (∇²F(w) + extra·I) p = −gr by conjugate gradients.
template <real_scalar Real>
vector<Real> newton_direction(const problems::linear_erm<Real>& P, const vector<Real>& w,
                              const vector<Real>& gr, const Real& extra) {
  const Eigen::Index d = P.dimension();
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
  return p;
}

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
    const vector<Real> p = newton_direction(P, w, gr, extra);  // CG on H p = −gr
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
/// The problem with every row scaled to ‖x_i‖ <= R (rows within R unchanged; a row whose norm
/// overflows becomes 0): a data-independent rule, so the sensitivity 2R/(nμ) holds for every
/// data set (ARCH.PUBLIC, PRIV.LINESEARCH.R). @spec LS.OUTPERT PRIV.LINESEARCH.R
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

/// Output perturbation's ℓ2 sensitivity (rounded up): 2R/(nμ), the move of the exact regularised
/// minimiser of a 1-Lipschitz margin loss with ‖x‖ <= R when one example is replaced (Chaudhuri
/// et al. 2011 Corollary 8), plus 2γ/μ for the released ŵ, which is certified within γ/μ of the
/// exact one (‖∇F(ŵ)‖ <= γ and μ-strong convexity): 2R(1 + 2^-20)/(nμ).
/// @spec LS.OUTPERT PRIV.LINESEARCH.MINIMISER
template <real_scalar Real>
Real output_perturbation_sensitivity(const Real& R, long long n, const Real& mu) {
  accounting::certifier<Real> c;
  return c.up(2 * c.in(R) * (1 + accounting::work_real(0x1p-20)) /
              (accounting::work_real(n) * c.in(mu)));
}

/// The minimiser output perturbation releases: ŵ of the problem with its rows scaled into the
/// R-ball first (detail::rows_within), so the sensitivity 2R/(nμ) of the exact minimiser holds
/// whatever the data (PRIV.LINESEARCH.R), and certified to have ‖∇F(ŵ)‖ <= γ =
/// minimiser_gradient_bound(R, n), so the released ŵ moves by at most
/// output_perturbation_sensitivity (PRIV.LINESEARCH.MINIMISER).
/// @throws std::runtime_error (nothing released) when the solver's ŵ cannot be certified
/// @spec LS.OUTPERT PRIV.LINESEARCH.R PRIV.LINESEARCH.MINIMISER
template <real_scalar Real>
vector<Real> output_perturbation_minimiser(const problems::linear_erm<Real>& P0, const Real& R) {
  const problems::linear_erm<Real> P = detail::rows_within(P0, R);
  const vector<Real> zero = vector<Real>::Zero(P.dimension());
  vector<Real> w = minimize_smooth(P, zero, Real(0)).w;
  const Real gamma = minimiser_gradient_bound(R, static_cast<long long>(P.size()));
  Real norm = certified_gradient_norm(P, w, gamma);
  // full Newton steps from the line-searched point (the objective test above stalls near the
  // optimum at working precision; the gradient keeps converging)
  for (int k = 0; k < 8 && !(norm <= gamma); ++k) {
    const vector<Real> next = w + newton_direction(P, w, vector<Real>(P.gradient(w)), Real(0));
    const Real next_norm = certified_gradient_norm(P, next, gamma);
    if (!(next_norm < norm)) break;
    w = next;
    norm = next_norm;
  }
  if (!(norm <= gamma))
    throw std::runtime_error(
        "linesearch output perturbation: the minimiser's certified gradient norm " +
        io::format_real(norm) + " exceeds the public bound 2^-20 R/n = " + io::format_real(gamma) +
        " on which the sensitivity relies; nothing was released (PRIV.LINESEARCH.MINIMISER)");
  return w;
}

/// The idealised release of output perturbation at a fixed noise scale: the minimiser above
/// plus b with density ∝ exp(−‖b‖/scale), drawn from s. @spec LS.OUTPERT PRIV.LINESEARCH.R
template <real_scalar Real>
vector<Real> output_perturbation_release(const problems::linear_erm<Real>& P0, const Real& R,
                                         const mechanisms::vector_laplace_noise<Real>& noise,
                                         philox_stream& s) {
  return output_perturbation_minimiser(P0, R) +
         noise.draw(s, static_cast<std::size_t>(P0.dimension()));
}

/// The same at scale `scale` with the sensitivity 2R/(nμ) of output perturbation.
/// @spec LS.OUTPERT
template <real_scalar Real>
vector<Real> output_perturbation_release(const problems::linear_erm<Real>& P0, const Real& R,
                                         const Real& scale, philox_stream& s) {
  const mechanisms::vector_laplace_noise<Real> noise(
      output_perturbation_sensitivity(R, static_cast<long long>(P0.size()), P0.mu()), scale);
  return output_perturbation_release(P0, R, noise, s);
}

/// Output perturbation (Chaudhuri et al. 2011 Algorithm 1): w* + b, density ∝ exp(−‖b‖/s) with
/// s the smallest scale (rounded up) whose vector-Laplace event {2R/(nμ), s} certifies ε (s ≈
/// 2R/(nμε)); rows are scaled into the public R-ball first. Replace-one adjacency.
/// @param R public bound on ‖x‖₂ @spec LS.OUTPERT
template <real_scalar Real>
result<Real> output_perturbation(const problems::linear_erm<Real>& P0, const params<Real>& p,
                                 const Real& R, const philox_stream& stream) {
  detail::require_chaudhuri(P0, R, "output_perturbation");
  const problems::linear_erm<Real>& P = P0;  // rows scaled in output_perturbation_minimiser
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
      res.privacy.enforced = {feature_bound(R), lipschitz_bound<Real>(), label_bound<Real>(),
                              clamp_bound(Real(C), "the minimiser (default R/mu)")};
      res.noise_scale = sp.scale;
      philox_stream s = stream.substream(0);
      res.w = mechanisms::snapped_vector_laplace(s, output_perturbation_minimiser(P0, R), sp);
      res.status = status::completed;
      res.message = "minimiser released by the lattice l2-Laplace (secure)";
      return res;
    }
  }
  // the measurement at scale sc: its event is the plan and it draws b (ARCH.MEASUREMENTS)
  const auto noise_at = [&](const Real& sc) {
    return mechanisms::vector_laplace_noise<Real>(sens, sc);
  };
  const auto plan_of = [&](const mechanisms::vector_laplace_noise<Real>& noise) {
    accounting::ledger<Real> l(detail::ledger_options(p));
    l.record(noise.event(
        1, "output perturbation (Chaudhuri et al. 2011 Algorithm 1), replace-one adjacency"));
    return l;
  };
  const Real scale = accounting::smallest_satisfying<Real>(
      [&](const Real& sc) { return !(plan_of(noise_at(sc)).total().epsilon > p.epsilon); },
      Real(sens / p.epsilon), "linesearch::params", "epsilon");
  const mechanisms::vector_laplace_noise<Real> noise = noise_at(scale);
  result<Real> res;
  res.privacy = detail::final_privacy(plan_of(noise), p, "linesearch::run (OUTPERT)");
  res.privacy.enforced = {feature_bound(R), lipschitz_bound<Real>(), label_bound<Real>()};
  res.noise_scale = scale;
  philox_stream s = stream.substream(0);
  res.w = output_perturbation_release(P0, R, noise, s);
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

/// Objective perturbation's measurement (Chaudhuri et al. 2011 Algorithm 2, Theorem 9) in v = Rw:
/// the noise b ∝ exp(−ε′‖b‖/2) (scale 2/ε′ rounded up) and its ledger event, pure{ε_T9} with
/// ε_T9 = ε′ + 2 log(1 + c/(n(Λ′ + Δ))) (Theorem 9's bound for the release minimising
/// F + (1/n)bᵀv + (Δ/2)‖v‖², rounded up), both from the same ε′, Δ, c, n, Λ′ (ARCH.MEASUREMENTS).
/// @spec LS.OBJPERT
template <real_scalar Real>
struct objective_perturbation_noise
    : mechanisms::measurement<objective_perturbation_noise<Real>, Real> {
  Real eps_prime{};  ///< ε′ of the noise term
  Real Delta{};      ///< extra ridge Δ (v-space)
  Real c_bound{};    ///< c = sup φ″ of the loss class
  Real lambda{};     ///< Λ′ = μ/R²
  long long n = 0;   ///< records
  Real scale{};      ///< 2/ε′, rounded up

  /// Algorithm 2's constants for the requested ε (objective_perturbation_constants).
  objective_perturbation_noise(const Real& eps, const Real& c, long long records, const Real& mu,
                               const Real& R)
      : c_bound(c), n(records) {
    std::tie(eps_prime, Delta) = objective_perturbation_constants(eps, c, records, mu, R);
    accounting::certifier<Real> cert;
    lambda = cert.down(cert.in(mu) / (cert.in(R)*cert.in(R)));
    scale = cert.up(2 / cert.in(eps_prime));
  }
  /// pure{ε_T9}: Theorem 9's ε for exactly this noise and ridge (<= the requested ε).
  [[nodiscard]] accounting::pure_mechanism<Real> mechanism() const {
    accounting::certifier<Real> cert;
    using std::log1p;
    const accounting::work_real u =
        cert.in(c_bound) / (accounting::work_real(n) * (cert.in(lambda) + cert.in(Delta)));
    return {cert.up(cert.in(eps_prime) + 2 * log1p(u))};
  }
  /// b in R^d: the ℓ2-Laplace measurement of scale 2/ε′ on the gradient term (Δ2 = 2 in v = Rw).
  [[nodiscard]] vector<Real> draw(philox_stream& s, std::size_t d) const {
    return mechanisms::vector_laplace_noise<Real>(Real(2), scale).draw(s, d);
  }
};

/// Objective perturbation (Chaudhuri et al. 2011 Algorithm 2, Theorem 9: ε-DP, replace-one):
/// b ∝ exp(−ε′‖b‖/2) (scale 2/ε′ rounded up); minimise F(w) + (R/n)bᵀw + (ΔR²/2)‖w‖² on the rows
/// scaled into the public R-ball; the ledger records the measurement's own event.
/// @spec LS.OBJPERT
template <real_scalar Real>
result<Real> objective_perturbation(const problems::linear_erm<Real>& P0, const params<Real>& p,
                                    const Real& R, const philox_stream& stream) {
  detail::require_chaudhuri(P0, R, "objective_perturbation");
  const problems::linear_erm<Real> P = detail::rows_within(P0, R);
  const long long n = static_cast<long long>(P.size());
  const Real c_bound = problems::margin_curvature_bound(P.loss());  // from the loss class
  const objective_perturbation_noise<Real> noise(p.epsilon, c_bound, n, P.mu(), R);
  accounting::ledger<Real> plan(detail::ledger_options(p));
  plan.record(noise.event(
      1,
      "objective perturbation (Chaudhuri et al. 2011 Algorithm 2, Theorem 9), replace-one "
      "adjacency; noise density exp(-eps'|b|/2)"));
  result<Real> res;
  res.privacy = detail::final_privacy(std::move(plan), p, "linesearch::run (OBJPERT)");
  res.privacy.enforced = {feature_bound(R), lipschitz_bound<Real>(), curvature_bound(c_bound),
                          label_bound<Real>()};
  res.noise_scale = noise.scale;
  philox_stream s = stream.substream(0);
  const vector<Real> b = noise.draw(s, static_cast<std::size_t>(P.dimension()));
  const Real nr = Real(n);
  res.w = minimize_smooth(P, vector<Real>((R / nr) * b), Real(noise.Delta * R * R)).w;
  res.status = status::completed;
  res.message = "perturbed minimiser released (eps' = " + io::format_real(noise.eps_prime) +
                ", Delta = " + io::format_real(noise.Delta) + ")";
  return res;
}

}  // namespace dpref::linesearch

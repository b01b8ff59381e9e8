// The two Laplace-type mechanisms of pwa §4 (spec/pwa.md), one implementation each, used by
// pwa::run, the study and the tests alike (a plan fixed before any draw, then the release):
//  - M_P (Theorem 16, PWA.MP): b̃ = b + w_P, w_P ~ ℓ2-Laplace with scale Δ/ε, Δ = √m·bmax (the
//    ℓ2 sensitivity of b under (4), true of every b); output argmin_{x∈P} f(x; b̃)
//    (post-processing, Thm 14). Secure: the lattice ℓ2-Laplace of clamp(b, −C, C) (SEC.PWA).
//  - M_S (§4.2, Theorem 17, PWA.MS): x̂ + w_S with x̂ = x_opt projected onto the public bounding
//    box of P (PRIV.PWA.C: any two x̂ are within its ℓ2 diameter Δ, whatever the LP's rounding
//    does with large |b_i|), w_S ~ ℓ2-Laplace with scale Δ/ε. The paper's density
//    exp(−ε‖w‖/(√d Δ)) carries an extra √d that Theorem 9 does not need (errata PWA-E4); it is
//    available as noise_rule::paper (then ε is over-delivered by √d).
// The plan's ledger is the accounting::ledger that pwa::run accounts before the draw
// (ARCH.BUDGET): the scale is raised by a few ulps while the certified ε exceeds the target.
// Nothing here evaluates f on the private data: the objective of an output is the caller's
// (non-private) business.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "dpref/accounting/accountant.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/noise_mode.hpp"
#include "dpref/pwa/calibration.hpp"
#include "dpref/pwa/secure.hpp"
#include "dpref/pwa/solve.hpp"

namespace dpref::pwa {

/// Noise scale of M_S: Theorem 9 (Δ/ε, default) or the paper's §4.2 density (√d·Δ/ε).
/// errata PWA-E4: the paper's √d is unnecessary; theorem9 is the default.
enum class noise_rule { theorem9, paper };
DPREF_ENUM_NAMES(noise_rule, theorem9, paper)

/// The calibration of one ℓ2-Laplace release of M_P or M_S, fixed before any draw: Δ, the
/// scale and the one-event ledger (all public); `lattice` in secure mode.
template <real_scalar Real>
struct laplace_plan {
  Real sensitivity{};  ///< Δ
  Real scale{};        ///< ℓ2-Laplace scale b (idealised) or t 2^g (secure)
  accounting::ledger<Real> ledger;
  std::optional<mechanisms::snapped_vector_laplace_params> lattice;  ///< secure mode only
};

/// Plan of one release of a `dimension`-vector with ℓ2 sensitivity Δ: idealised, scale
/// √root·Δ/ε raised by ulps while the ledger's ε exceeds ε (root = d is M_S's printed rule: the
/// ledger then certifies ε/√d); secure, the lattice ℓ2-Laplace for the target ε/√root with the
/// public clamp C (SEC.PWA). The lower-level engine of both mechanisms: Δ is the caller's claim
/// (tests pass a wrong Δ for their negative controls).
/// @throws std::domain_error for Δ ≤ 0 or ε ≤ 0; std::logic_error for secure at a precision
///   other than double
template <real_scalar Real>
laplace_plan<Real> plan_vector_laplace(const Real& delta, const Real& epsilon, long long dimension,
                                       long long root, noise_mode release, const Real& clamp,
                                       const std::string& label) {
  using std::sqrt;
  constexpr const char* fn = "dpref::pwa::plan_vector_laplace";
  require_positive(fn, "sensitivity", delta);
  require_positive(fn, "epsilon", epsilon);
  laplace_plan<Real> p;
  p.sensitivity = delta;
  if (release == noise_mode::secure) {
    if constexpr (std::is_same_v<Real, double>) {
      const double target = root == 1 ? epsilon : epsilon / std::sqrt(static_cast<double>(root));
      const secure_vector_plan sp =
          calibrate_secure_vector_laplace(delta, target, dimension, clamp, label);
      p.scale = sp.scale();
      p.ledger = sp.ledger;
      p.lattice = sp.release;
      return p;
    } else {
      throw std::logic_error("dpref::pwa: release = secure at a precision other than double");
    }
  }
  p.scale = accounting::laplace_scale(delta, epsilon);
  if (root != 1) {
    accounting::certifier<Real> c;
    p.scale = c.up(c.in(p.scale) * sqrt(c.in(Real(root))));
  }
  p.ledger = detail::calibrate_scale(
      p.scale, epsilon,
      [&](const Real& sc) {
        accounting::ledger<Real> l;
        l.record(accounting::make_event<Real>(accounting::vector_laplace_mechanism<Real>{delta, sc},
                                              1, label));
        return l;
      },
      "dpref::pwa::plan_vector_laplace");
  return p;
}

/// Certified upper bound of the ℓ2 sensitivity √m·bmax of b under pwa (4).
/// @spec PWA.MP PRIV.PWA.BMAX
template <real_scalar Real>
Real data_sensitivity(const piecewise_affine<Real>& prob) {
  using std::sqrt;
  accounting::certifier<Real> c;
  return c.up(sqrt(c.in(Real(prob.pieces()))) * c.in(prob.bmax()));
}

/// Plan of M_P (Theorem 16): Δ = √m·bmax; secure: clamp C = release_clamp.
/// @spec PWA.MP SEC.PWA
template <real_scalar Real>
laplace_plan<Real> plan_perturb_data(const piecewise_affine<Real>& prob, const Real& epsilon,
                                     noise_mode release = noise_mode::idealised,
                                     const Real& clamp = Real(1000)) {
  return plan_vector_laplace<Real>(
      data_sensitivity(prob), epsilon, prob.pieces(), 1, release, clamp,
      release == noise_mode::secure
          ? "pwa M_P (Theorem 16, secure): lattice ℓ2-Laplace of clamp(b, −C, C), Δ = √m·bmax "
            "+ √m 2^g (rounding); the LP solve is post-processing"
          : "pwa M_P (Theorem 16): b + w_P, Δ = √m·bmax; the LP solve is post-processing");
}

/// Plan of M_S (§4.2): Δ = diam P (diameter_bound), or `sensitivity` when > 0 (a lower-level
/// override for negative controls); the lattice clamp of secure mode is the box c.
/// @spec PWA.MS SEC.PWA
template <real_scalar Real>
laplace_plan<Real> plan_perturb_solution(const piecewise_affine<Real>& prob, const Real& epsilon,
                                         noise_rule rule = noise_rule::theorem9,
                                         noise_mode release = noise_mode::idealised,
                                         const Real& sensitivity = Real(0)) {
  const Real delta = sensitivity > Real(0) ? sensitivity : diameter_bound(prob.polytope());
  const bool secure = release == noise_mode::secure;
  return plan_vector_laplace<Real>(
      delta, epsilon, prob.dimension(), rule == noise_rule::paper ? prob.dimension() : 1, release,
      prob.polytope().box,
      secure ? "pwa M_S (§4.2, secure): lattice ℓ2-Laplace of x_opt projected onto the bounding "
               "box of P, Δ = diam P + √d 2^g (rounding)"
      : rule == noise_rule::paper
          ? "pwa M_S (§4.2) with the printed scale √d·Δ/ε (errata PWA-E4): Δ = diam P"
          : "pwa M_S (§4.2, Theorem 9 scale Δ/ε, errata PWA-E4): Δ = diam P");
}

/// M_P's released data b̃ (Theorem 16): b + w_P (idealised) or the lattice release of
/// clamp(b, −C, C) (secure, plan.lattice). @spec PWA.MP SEC.PWA
template <real_scalar Real>
vector<Real> noisy_data(philox_stream& s, const piecewise_affine<Real>& prob,
                        const laplace_plan<Real>& plan) {
  if (plan.lattice) {
    if constexpr (std::is_same_v<Real, double>)
      return mechanisms::snapped_vector_laplace(s, prob.b(), *plan.lattice);
  }
  return mechanisms::vector_laplace_mechanism<Real>(s, prob.b(), plan.scale);
}

/// M_S's statistic before the noise: x_opt projected onto the public bounding box of P, whose
/// ℓ2 diameter is Δ (the identity on an x_opt ∈ P; PRIV.PWA.C).
/// @spec PWA.MS PRIV.PWA.C
template <real_scalar Real>
vector<Real> solution_statistic(const piecewise_affine<Real>& prob, const bounding_box<Real>& box) {
  return box.project(solve(prob).x);
}

/// M_S's release: solution_statistic + w_S (idealised) or its lattice release (secure); with
/// `project_to_box` clamped into the box [−c, c]^d afterwards (post-processing, P public).
/// @spec PWA.MS SEC.PWA
template <real_scalar Real>
vector<Real> release_perturb_solution(philox_stream& s, const piecewise_affine<Real>& prob,
                                      const laplace_plan<Real>& plan, const bounding_box<Real>& box,
                                      bool project_to_box) {
  const vector<Real> stat = solution_statistic(prob, box);
  vector<Real> x;
  if (plan.lattice) {
    if constexpr (std::is_same_v<Real, double>)
      x = mechanisms::snapped_vector_laplace(s, stat, *plan.lattice);
  } else {
    x = mechanisms::vector_laplace_mechanism<Real>(s, stat, plan.scale);
  }
  if (project_to_box) {
    const Real c = prob.polytope().box;
    for (Eigen::Index j = 0; j < x.size(); ++j) x[j] = x[j] < -c ? Real(-c) : (x[j] > c ? c : x[j]);
  }
  return x;
}

/// Output of pwa's Laplace-type mechanisms called directly (the study, tests).
template <real_scalar Real>
struct mechanism_result {
  vector<Real> x;  ///< the private output
  Real scale = Real(0);
  Real sensitivity = Real(0);
  accounting::ledger<Real> ledger;  ///< the plan's ledger (one event)
};

/// M_P of pwa Theorem 16 (idealised): plan_perturb_data, then x = argmin f(·; b̃) over P.
/// @throws std::domain_error for ε ≤ 0
/// @spec PWA.MP
template <real_scalar Real>
mechanism_result<Real> perturb_data(philox_stream& s, const piecewise_affine<Real>& prob,
                                    const Real& epsilon) {
  require_positive("dpref::pwa::perturb_data", "epsilon", epsilon);
  const laplace_plan<Real> plan = plan_perturb_data(prob, epsilon);
  return {solve(prob.with_b(noisy_data(s, prob, plan))).x, plan.scale, plan.sensitivity,
          plan.ledger};
}

struct solution_perturbation_options {
  noise_rule rule = noise_rule::theorem9;
  /// Clamp the output into the box (post-processing; a deviation from the paper, which outputs
  /// x_opt + w_S even outside P). Only for P without extra rows.
  bool project_to_box = false;
};

/// M_S of pwa §4.2 (idealised): plan_perturb_solution, then release_perturb_solution.
/// @param sensitivity_override Δ to use instead of diameter_bound(P) (> 0; tests' negative
///   controls)
/// @throws std::domain_error for ε ≤ 0; std::invalid_argument for project_to_box with G rows
/// @spec PWA.MS
template <real_scalar Real>
mechanism_result<Real> perturb_solution(philox_stream& s, const piecewise_affine<Real>& prob,
                                        const Real& epsilon,
                                        const solution_perturbation_options& opt = {},
                                        const Real& sensitivity_override = Real(0)) {
  constexpr const char* fn = "dpref::pwa::perturb_solution";
  require_positive(fn, "epsilon", epsilon);
  if (opt.project_to_box && prob.polytope().has_extra_rows())
    fail_argument(fn, "project_to_box", "false when P has rows Gx <= h", "true");
  const laplace_plan<Real> plan =
      plan_perturb_solution(prob, epsilon, opt.rule, noise_mode::idealised, sensitivity_override);
  const bounding_box<Real> box(prob.polytope());
  return {release_perturb_solution(s, prob, plan, box, opt.project_to_box), plan.scale,
          plan.sensitivity, plan.ledger};
}

}  // namespace dpref::pwa

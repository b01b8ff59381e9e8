// The two Laplace-type mechanisms of pwa §4 (spec/pwa.md):
//  - M_P (Theorem 16, PWA.MP): b̃ = b + w_P, w_P ~ ℓ2-Laplace with scale Δ/ε, Δ = √m·bmax (the
//    ℓ2 sensitivity of b under (4)); output argmin_{x∈P} f(x; b̃) (post-processing, Thm 14).
//  - M_S (§4.2, Theorem 17, PWA.MS): x_opt + w_S, w_S ~ ℓ2-Laplace with scale Δ/ε, Δ ≥ diam(P)
//    (an upper bound of the ℓ2 sensitivity of x_opt; 2√d·c for the box). The paper's density
//    exp(−ε‖w‖/(√d Δ)) carries an extra √d that Theorem 9 does not need (errata pwa,
//    "Theorem 17"); it is available as noise_rule::paper (then ε is over-delivered by √d).
// Both record their privacy event in a privacy_ledger; the reported objective f(x) uses the true
// data and is for evaluation only (it is not private).
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>

#include "dpref/accounting/laplace.hpp"
#include "dpref/accounting/ledger.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/pwa/solve.hpp"

namespace dpref::pwa {

/// Output of a pwa mechanism.
template <real_scalar Real>
struct mechanism_result {
  vector<Real> x;            ///< the private output
  Real objective = Real(0);  ///< f(x) on the true data (evaluation only, not private)
  Real scale = Real(0);      ///< noise scale b of the ℓ2-Laplace noise
  Real sensitivity = Real(0);
  accounting::privacy_ledger<Real> ledger;
};

/// Certified upper bound of the ℓ2 sensitivity √m·bmax of b under pwa (4).
/// @spec PWA.MP
template <real_scalar Real>
Real data_sensitivity(const piecewise_affine<Real>& prob) {
  using std::sqrt;
  accounting::certifier<Real> c;
  return c.up(sqrt(c.in(Real(prob.pieces()))) * c.in(prob.bmax()));
}

/// M_P of pwa Theorem 16: solve the problem with b̃ = b + w_P.
/// @param s bit stream @param prob the problem @param epsilon ε > 0
/// @return x = argmin f(·; b̃) over P, its true objective, scale, Δ and the ledger
/// @throws std::domain_error for ε ≤ 0
/// @spec PWA.MP
template <real_scalar Real>
mechanism_result<Real> perturb_data(philox_stream& s, const piecewise_affine<Real>& prob,
                                    const Real& epsilon) {
  require_positive("dpref::pwa::perturb_data", "epsilon", epsilon);
  mechanism_result<Real> res;
  res.sensitivity = data_sensitivity(prob);
  res.scale = accounting::laplace_scale(res.sensitivity, epsilon);
  accounting::privacy_event<Real> ev;
  ev.kind = "pwa.M_P.vector_laplace";
  ev.params = {{"sensitivity", res.sensitivity}, {"scale", res.scale}};
  ev.privacy = accounting::vector_laplace_privacy(res.sensitivity, res.scale);
  res.ledger.record(std::move(ev));
  const vector<Real> b_noisy = mechanisms::vector_laplace_mechanism<Real>(s, prob.b(), res.scale);
  const auto sol = solve(prob.with_b(b_noisy));  // post-processing (Theorem 14)
  res.x = sol.x;
  res.objective = prob.value(res.x);
  return res;
}

/// Noise scale of M_S: Theorem 9 (Δ/ε, default) or the paper's §4.2 density (√d·Δ/ε).
/// errata PWA-E4: the paper's √d is unnecessary; theorem9 is the default.
enum class noise_rule { theorem9, paper };
constexpr auto enum_names(noise_rule) {
  return std::array{std::pair{noise_rule::theorem9, std::string_view("theorem9")},
                    std::pair{noise_rule::paper, std::string_view("paper")}};
}

struct solution_perturbation_options {
  noise_rule rule = noise_rule::theorem9;
  /// Clamp the output into the box (post-processing; a deviation from the paper, which outputs
  /// x_opt + w_S even outside P). Only for P without extra rows.
  bool project_to_box = false;
};

/// M_S of pwa §4.2: x_opt + w_S with Δ = diameter_bound(P).
/// @param s bit stream @param prob the problem @param epsilon ε > 0 @param opt rule, projection
/// @param sensitivity_override Δ to use instead of diameter_bound(P) (> 0; tests' negative
///   controls and callers with a tighter public bound)
/// @throws std::domain_error for ε ≤ 0; std::invalid_argument for project_to_box with G rows
/// @spec PWA.MS
template <real_scalar Real>
mechanism_result<Real> perturb_solution(philox_stream& s, const piecewise_affine<Real>& prob,
                                        const Real& epsilon,
                                        const solution_perturbation_options& opt = {},
                                        const Real& sensitivity_override = Real(0)) {
  using std::sqrt;
  constexpr const char* fn = "dpref::pwa::perturb_solution";
  require_positive(fn, "epsilon", epsilon);
  if (opt.project_to_box && prob.polytope().has_extra_rows())
    fail_argument(fn, "project_to_box", "false when P has rows Gx <= h", "true");
  mechanism_result<Real> res;
  res.sensitivity =
      sensitivity_override > Real(0) ? sensitivity_override : diameter_bound(prob.polytope());
  res.scale = accounting::laplace_scale(res.sensitivity, epsilon);
  if (opt.rule == noise_rule::paper) {
    accounting::certifier<Real> c;
    res.scale = c.up(c.in(res.scale) * sqrt(c.in(Real(prob.dimension()))));
  }
  accounting::privacy_event<Real> ev;
  ev.kind = "pwa.M_S.vector_laplace";
  ev.params = {{"sensitivity", res.sensitivity}, {"scale", res.scale}};
  ev.privacy = accounting::vector_laplace_privacy(res.sensitivity, res.scale);
  res.ledger.record(std::move(ev));
  const auto sol = solve(prob);
  res.x = mechanisms::vector_laplace_mechanism<Real>(s, sol.x, res.scale);
  if (opt.project_to_box) {
    const Real c = prob.polytope().box;
    for (Eigen::Index j = 0; j < res.x.size(); ++j)
      res.x[j] = res.x[j] < -c ? Real(-c) : (res.x[j] > c ? c : res.x[j]);
  }
  res.objective = prob.value(res.x);
  return res;
}

}  // namespace dpref::pwa

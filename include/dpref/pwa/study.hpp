// The experiments of pwa §5 (Figures 1–3) as library functions (spec/pwa.md PWA.STUDY):
// i.i.d. N(0, 1) data (a_i, b_i), box P = [−c, c]^d, ε = 0.1, runs per point, mean objective
// with 2σ error bars (σ = standard error of the mean), the true optimum for comparison.
// Mechanisms: M_P (Theorem 16), M_S (§4.2, Theorem 9 scale), the private subgradient method
// (Algorithms 1–2, k = 100) and, when include/dpref/pwa/exponential_mechanism.hpp is
// present, the exact M_E (Theorem 19; its exact rejection sampler).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/enum_names.hpp"
#include "dpref/params.hpp"
#include "dpref/pwa/bounds.hpp"
#include "dpref/pwa/laplace_mechanisms.hpp"
#include "dpref/pwa/private_subgradient.hpp"
#include "dpref/pwa/problem.hpp"
#include "dpref/pwa/solve.hpp"
#include "dpref/random/gaussian.hpp"

#if __has_include("dpref/pwa/exponential_mechanism.hpp")
#include "dpref/pwa/exponential_mechanism.hpp"
#define DPREF_PWA_STUDY_HAS_ME 1
#else
#define DPREF_PWA_STUDY_HAS_ME 0
#endif

namespace dpref::pwa {

/// Whether the study includes M_E (the exponential-mechanism sampler header is present).
inline constexpr bool study_has_exponential_mechanism = DPREF_PWA_STUDY_HAS_ME != 0;

/// Constant step α = R/(G√k) minimising the first term of Theorem 24, (R² + G²kα²)/(2kα), from
/// public quantities only (R = diam P, G = max‖a_i‖).
template <real_scalar Real>
Real theorem24_step(const piecewise_affine<Real>& prob, long long k) {
  using std::sqrt;
  const Real G = bounds::lipschitz(prob);
  const Real R = diameter_bound(prob.polytope());
  return G > Real(0) ? Real(R / (G * sqrt(Real(k)))) : R;
}

/// Mean and 2σ of a sample of objective values.
struct study_stat {
  double mean = 0, two_sigma = 0;  ///< two_sigma = 2·(sample std)/√runs
  double suboptimality = 0;        ///< mean − f_opt
  long long runs = 0;
};

inline study_stat summarize(const std::vector<double>& v, double fopt) {
  study_stat s;
  s.runs = static_cast<long long>(v.size());
  double sum = 0, sq = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  for (double x : v) sq += (x - s.mean) * (x - s.mean);
  const double var = v.size() > 1 ? sq / static_cast<double>(v.size() - 1) : 0.0;
  s.two_sigma = 2 * std::sqrt(var / static_cast<double>(v.size()));
  s.suboptimality = s.mean - fopt;
  return s;
}

/// The constant step of Algorithm 2 in the study: given, or Theorem 24's R/(G√k).
enum class study_step_rule { constant, theorem24 };
DPREF_ENUM_NAMES(study_step_rule, constant, theorem24)

/// The settings of every study point (defaults: pwa §5.1).
struct study_options {
  double epsilon = 0.1;        ///< pwa §5.1
  long long runs = 1000;       ///< pwa §5.1
  long long iterations = 100;  ///< k of Algorithm 2 (pwa §5.1)
  bool project = false;        ///< box projection in Algorithm 2 (deviation; default off)
  /// pwa §5 does not state its steps; the constant 0.01 (a total path kα = 1) reproduces its
  /// qualitative findings, while the step R/(G√k) of Theorem 24 does not (spec/pwa.md PWA.STUDY).
  study_step_rule step_rule = study_step_rule::constant;
  double step = 0.01;       ///< α of step_rule constant, finite and > 0
  bool exponential = true;  ///< include M_E if available
  std::uint64_t seed = 20261121;

  template <class V>
  void fields(V&& v) {
    v("epsilon", epsilon, "privacy budget ε of every mechanism, in [1e-9, 1e6] (pwa: 0.1)");
    v("runs", runs, "runs per point, in [2, 1e6] (pwa: 1000)");
    v("iterations", iterations, "k of Algorithm 2, in [1, 1e7] (pwa: 100)");
    v("project", project, "box projection in Algorithm 2 (a deviation from the paper)");
    v("step_rule", step_rule,
      "constant (α = step) or theorem24 (R/(G√k), minimising Theorem 24's first term)");
    v("step", step, "constant step α of Algorithm 2, finite and > 0");
    v("exponential", exponential, "include M_E (exact rejection sampler)");
    v("seed", seed, "noise seed");
  }
  template <class A>
  void applicability(A&& a) const {
    a("step", step_rule == study_step_rule::constant, "applies only to step_rule constant");
  }
  /// Every count and value checked before any work.
  /// @throws invalid_parameter "pwa::study.<field> must be ..., got ..."
  void validate() const {
    const param_checker c("pwa::study");
    c.at_least<long long>("runs", runs, 2, 1000000);
    c.at_least<long long>("iterations", iterations, 1, 10000000);
    c.in_closed("epsilon", epsilon, 1e-9, 1e6, "finite and in [1e-9, 1e6]");
    c.positive("step", step);
  }
  /// α of Algorithm 2 with k iterations on `prob`.
  [[nodiscard]] double step_for(const piecewise_affine<double>& prob, long long k) const {
    return step_rule == study_step_rule::constant ? step : theorem24_step(prob, k);
  }
};

/// One study point: every mechanism `runs` times on one instance.
struct study_point {
  double fopt = 0;
  study_stat mp, ms, sub, me, regular;
  bool has_me = false;
  double thm17 = 0, thm24 = 0;  ///< bounds on E[f] − f_opt (Theorem 24: on the best iterate)
};

/// Runs the mechanisms on `prob` (double). Run r of mechanism j reads
/// philox_stream(seed, 1000·j + point_id, r).
/// @spec PWA.STUDY
inline study_point run_study_point(const piecewise_affine<double>& prob, const study_options& o,
                                   std::uint64_t point_id) {
  study_point pt;
  pt.fopt = solve(prob).value;
  std::vector<double> mp, ms, sub, me;
  subgradient_params<double> sp;
  sp.epsilon = o.epsilon;
  sp.iterations = o.iterations;
  sp.rule = step_rule::constant;
  sp.step = o.step_for(prob, o.iterations);
  sp.projection = o.project ? projection_mode::box : projection_mode::none;
  sp.trace = false;
  // the plans of M_P and M_S (public: computed once) and their releases, as pwa::run makes them
  const laplace_plan<double> mp_plan = plan_perturb_data(prob, o.epsilon),
                             ms_plan = plan_perturb_solution(prob, o.epsilon);
  const bounding_box<double> box(prob.polytope());
  for (long long r = 0; r < o.runs; ++r) {
    const auto ur = static_cast<std::uint64_t>(r);
    philox_stream s1(o.seed, 1000 + point_id, ur), s2(o.seed, 2000 + point_id, ur),
        s3(o.seed, 3000 + point_id, ur);
    // the study evaluates f on the true data (non-private evaluation of the mechanisms)
    mp.push_back(prob.value(solve(prob.with_b(noisy_data(s1, prob, mp_plan))).x));
    ms.push_back(prob.value(release_perturb_solution(s2, prob, ms_plan, box, false)));
    sub.push_back(private_subgradient(s3, prob, sp).objective);
  }
#if DPREF_PWA_STUDY_HAS_ME
  if (o.exponential) {
    me_config<double> cfg;
    // certified lower bound g(λ, μ) ≤ f_opt, lowered by its own rounding margin: exact law,
    // high acceptance
    const double lb = solve(prob).lower_bound;
    cfg.f_lower = lb - 1e-12 * (1 + std::abs(lb));
    const exponential_mechanism<double> mech(prob, o.epsilon, cfg);
    for (long long r = 0; r < o.runs; ++r) {
      philox_stream s4(o.seed, 4000 + point_id, static_cast<std::uint64_t>(r));
      me.push_back(prob.value(mech.draw(s4, me_method::rejection)));
    }
    pt.me = summarize(me, pt.fopt);
    pt.has_me = true;
  }
#endif
  pt.mp = summarize(mp, pt.fopt);
  pt.ms = summarize(ms, pt.fopt);
  pt.sub = summarize(sub, pt.fopt);
  const double G = bounds::lipschitz(prob), R = diameter_bound(prob.polytope());
  pt.thm17 = bounds::thm17(G, prob.dimension(), R, o.epsilon);
  pt.thm24 = bounds::thm24(R, G, sp.step * static_cast<double>(o.iterations),
                           sp.step * sp.step * static_cast<double>(o.iterations), prob.bmax(),
                           prob.pieces(), o.epsilon, o.iterations);
  return pt;
}

}  // namespace dpref::pwa

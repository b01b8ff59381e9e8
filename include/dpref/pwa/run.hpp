// The one entry point of the pwa paper (spec/architecture.md ARCH.RUN, spec/pwa.md PWA.RUN):
//   result<Real> run(const problem<Real>&, const params<Real>&, const philox_stream&)
// runs the mechanism named by params.algorithm on problem (3) of pwa. Every private algorithm has
// a fixed plan: its ledger is built and accounted first (plan_privacy, ARCH.BUDGET), the noise
// scale raised by a few ulps while the certified guarantee would exceed ε, and only then is any
// noise drawn. The mechanism reads a copy of `stream` sequentially (the k selections of
// Algorithm 2 in order; the ℓ2-Laplace vector of M_P / M_S; the proposals of M_E).
// `problem_spec<Real>` (pwa/problem.hpp) is the public description of the instance (a
// generated Gaussian instance of pwa §5.1 or an instance file), `config<Real>` the complete
// configuration of `dpref pwa run`. Every private run lists in privacy.enforced how each public
// constant its ledger relies on holds for the data processed (spec/privacy_bounds.md, pwa
// section; pwa/enforced.hpp), and computes functions of the private b outside its release (the
// objective, the optimum, the trace, M_E's proposal counts) only when params.diagnostics is set
// (PRIV.RELEASE).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/io/json.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/pwa/bounds.hpp"
#include "dpref/pwa/enforced.hpp"
#include "dpref/pwa/exponential_mechanism.hpp"
#include "dpref/pwa/exponential_mechanism_lp.hpp"
#include "dpref/pwa/params.hpp"
#include "dpref/pwa/problem.hpp"
#include "dpref/pwa/result.hpp"
#include "dpref/pwa/secure.hpp"
#include "dpref/pwa/study.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/run/config.hpp"
#include "dpref/run/report.hpp"

namespace dpref::pwa {

namespace detail {

/// The checks of `params` that need the problem (after p.validate(): each check runs once per
/// run, in run() or in run_json()).
/// @throws invalid_parameter naming the field
template <real_scalar Real>
void validate_against(const problem<Real>& prob, const params<Real>& p) {
  const param_checker c("pwa::params");
  const bool rows = prob.polytope().has_extra_rows();
  c.require(p.projection == projection_mode::none || !rows, "projection",
            "none when P has rows Gx <= h (the Euclidean projection onto a general polytope "
            "needs a QP; errata PWA-E2)",
            std::string("box"));
  if (p.start) {
    c.require(static_cast<long long>(p.start->size()) == prob.dimension(), "start",
              "of size d = " + std::to_string(prob.dimension()), p.start->size());
    const vector<Real> x =
        Eigen::Map<const vector<Real>>(p.start->data(), static_cast<Eigen::Index>(p.start->size()));
    c.require(prob.polytope().contains(x), "start", "a point of P", std::string("outside P"));
  }
  c.require(p.algorithm != algorithm_kind::exponential || p.sampler != sampler_kind::inverse_cdf ||
                prob.dimension() == 1,
            "sampler", "rejection or envelope when d > 1 (inverse_cdf: d = 1)",
            std::string("inverse_cdf"));
}

template <real_scalar Real>
subgradient_params<Real> subgradient_settings(const problem<Real>& prob, const params<Real>& p) {
  subgradient_params<Real> sp;
  sp.epsilon = p.epsilon;
  sp.iterations = p.iterations;
  sp.step = p.step ? *p.step : theorem24_step(prob, p.iterations);
  sp.rule = p.step_rule;
  sp.projection = p.projection;  // PWA-E2: post-processing of the private selections
  if (p.start)
    sp.x1 =
        Eigen::Map<const vector<Real>>(p.start->data(), static_cast<Eigen::Index>(p.start->size()));
  sp.trace = p.trace;
  sp.evaluate = p.diagnostics || !is_private(p.algorithm);  // PRIV.RELEASE
  return sp;
}

/// T ≥ |fl(a_iᵀx)| at every iterate of Algorithm 2 (secure mode, PRIV.PWA.BMAX): ‖x^(i)‖₂ ≤
/// ‖x^(1)‖₂ + kαG (α_i ≤ α; each step moves by α_i‖a_{i*}‖ ≤ α_i G), or √d·c with the box
/// projection (every iterate in the box); dot_magnitude_bound's factor 2 covers the rounding of
/// the iterates. Public: A, x^(1), k, α, c.
inline double subgradient_dot_bound(const problem<double>& prob,
                                    const subgradient_params<double>& sp) {
  using std::sqrt;
  accounting::certifier<double> c;
  const double G = bounds::lipschitz(prob);
  const double start = sp.x1.size() == 0 ? 0.0 : sp.x1.norm();
  const double X =
      sp.projection == projection_mode::box
          ? c.up(sqrt(c.in(static_cast<double>(prob.dimension()))) * c.in(prob.polytope().box))
          : c.up(c.in(start) + c.in(static_cast<double>(sp.iterations)) * c.in(sp.step) * c.in(G));
  return dot_magnitude_bound(G, X);
}

/// T ≥ |fl(a_iᵀx)| on the box [−c, c]^d where M_E evaluates f: ‖x‖₂ ≤ √d·c (PRIV.PWA.BMAX).
inline double box_dot_bound(const problem<double>& prob) {
  using std::sqrt;
  accounting::certifier<double> c;
  const double X =
      c.up(sqrt(c.in(static_cast<double>(prob.dimension()))) * c.in(prob.polytope().box));
  return dot_magnitude_bound(bounds::lipschitz(prob), X);
}

template <real_scalar Real>
void take_subgradient(result<Real>& r, subgradient_result<Real>&& s,
                      const subgradient_params<Real>& sp) {
  r.x = std::move(s.x);
  r.iterations = sp.iterations;
  r.step = sp.step;
  if (sp.evaluate) {  // PRIV.RELEASE: computed only when asked (or non-private)
    r.diagnostics.objective = s.objective;
    r.diagnostics.best_iterate_objective = s.best_objective;  // errata PWA-E3: not the output
    r.diagnostics.objective_trace = std::move(s.objective_trace);
  }
  for (const Eigen::Index i : s.selected) r.selected.push_back(static_cast<long long>(i));
}

/// One Laplace release (M_P or M_S) planned by `plan`: its privacy (checked against `request`
/// before any draw), sensitivity and scale; one iteration.
template <real_scalar Real>
void take_laplace_plan(result<Real>& r, const laplace_plan<Real>& plan,
                       const privacy_budget_request<Real>& request, const char* who) {
  r.privacy = plan_privacy(plan.ledger, request, who);
  r.sensitivity = plan.sensitivity;
  r.noise_scale = plan.scale;
  r.iterations = 1;
}

}  // namespace detail

namespace detail {

/// The body of run() on parameters that passed p.validate() and validate_against(prob, p).
template <real_scalar Real>
result<Real> run_validated(const problem<Real>& prob, const params<Real>& p,
                           const philox_stream& stream) {
  philox_stream s = stream;
  result<Real> r;
  r.algorithm = p.algorithm;
  const privacy_budget_request<Real> request{p.epsilon, Real(0), false};
  const bool secure = p.release == noise_mode::secure;
  // PRIV.RELEASE: functions of the private b outside the release only when asked
  const bool diag = p.diagnostics || !is_private(p.algorithm);
  const Real G = bounds::lipschitz(prob);
  const Real R = diameter_bound(prob.polytope());
  switch (p.algorithm) {
    case algorithm_kind::private_subgradient: {
      // Algorithm 1 with Δu = bmax (Lemma 18): scale 2Δu/(ε/k), k events composed (Thm 15).
      // Secure: b clamped to [−C, C], Δu of the utilities computed in double (PRIV.PWA.BMAX)
      const auto sp = detail::subgradient_settings(prob, p);
      problem<Real> q = prob;
      if (secure) {
        if constexpr (std::is_same_v<Real, double>)
          q = secure_utility_problem(prob, p.release_clamp,
                                     detail::subgradient_dot_bound(prob, sp));
      }
      const subgradient_plan<Real> plan = plan_private_subgradient(
          q.bmax(), sp,
          secure ? "pwa Algorithm 1 (sign per errata PWA-E1), one selection per step of "
                   "Algorithm 2: P(i) ∝ exp(u_i/s), Δu = bmax + rounding of the double "
                   "utilities of clamp(b, −C, C) (Lemma 18, PRIV.PWA.BMAX)"
                 : "pwa Algorithm 1 (sign per errata PWA-E1), one selection per step of "
                   "Algorithm 2: P(i) ∝ exp(u_i/s), Δu = bmax (Lemma 18)");
      r.privacy = plan_privacy(plan.ledger, request, "pwa::run (private_subgradient)");
      r.sensitivity = q.bmax();
      r.noise_scale = plan.scale;
      auto res = private_subgradient(s, q, sp, plan);
      const Real steps = res.step_sum, steps_sq = res.step_sq_sum;
      detail::take_subgradient(r, std::move(res), sp);
      r.bound_theorem24_best_iterate =
          bounds::thm24(R, G, steps, steps_sq, q.bmax(), prob.pieces(), p.epsilon, p.iterations);
      break;
    }
    case algorithm_kind::regular_subgradient: {
      const auto sp = detail::subgradient_settings(prob, p);
      r.privacy = non_private<Real>();
      detail::take_subgradient(r, regular_subgradient(prob, sp), sp);
      break;
    }
    case algorithm_kind::perturb_data: {
      // M_P, Theorem 16: b̃ = b + w_P, ‖w_P‖ ~ ℓ2-Laplace of scale Δ/ε, Δ = √m·bmax; secure:
      // the lattice ℓ2-Laplace of clamp(b, −C, C) (SEC.PWA)
      const laplace_plan<Real> plan =
          plan_perturb_data(prob, p.epsilon, p.release, p.release_clamp);
      detail::take_laplace_plan(r, plan, request, "pwa::run (perturb_data)");
      r.x = solve(prob.with_b(noisy_data(s, prob, plan))).x;  // post-processing (Theorem 14)
      break;
    }
    case algorithm_kind::perturb_solution: {
      // M_S, §4.2: x̂ + w_S, x̂ = x_opt projected onto the bounding box of P, Δ = its diameter
      // (PRIV.PWA.C). Theorem 9 needs scale Δ/ε; the paper's density has √d·Δ/ε (errata
      // PWA-E4), which the ledger accounts as ε/√d. Secure: the lattice release (SEC.PWA)
      const laplace_plan<Real> plan =
          plan_perturb_solution(prob, p.epsilon, p.noise_rule, p.release);
      detail::take_laplace_plan(r, plan, request, "pwa::run (perturb_solution)");
      r.x = release_perturb_solution(s, prob, plan, bounding_box<Real>(prob.polytope()),
                                     p.projection == projection_mode::box);
      r.bound_theorem17 = bounds::thm17(G, prob.dimension(), R, p.epsilon, p.noise_rule);
      break;
    }
    case algorithm_kind::exponential: {
      // M_E, Theorem 19: density ∝ exp(−ε′ f/(2Δu)) sampled exactly; ε′ <= ε lowered by a few
      // ulps while 2Δu/scale, rounded up, exceeds ε. Δu = bmax; secure: b clamped to [−C, C],
      // Δu of f computed in double on the box (PRIV.PWA.BMAX)
      problem<Real> q = prob;
      if (secure) {
        if constexpr (std::is_same_v<Real, double>)
          q = secure_utility_problem(prob, p.release_clamp, detail::box_dot_bound(prob));
      }
      me_config<Real> cfg;
      cfg.max_attempts = p.max_attempts;
      Real eps_used = p.epsilon;
      std::optional<exponential_mechanism<Real>> me;
      accounting::ledger<Real> plan;
      for (int attempt = 0;; ++attempt) {
        me.emplace(make_exponential_mechanism_lp(q, eps_used, cfg));
        plan = accounting::ledger<Real>{};
        plan.record(me->event(
            1, secure ? "pwa M_E (Theorem 19): one exact sample of exp(−f/s), Δu = bmax + "
                        "rounding of f computed in double on clamp(b, −C, C) (Lemma 18, "
                        "PRIV.PWA.BMAX)"
                      : "pwa M_E (Theorem 19): one exact sample of exp(−f/s), Δu = bmax (Lemma "
                        "18)"));
        if (!(plan.total().epsilon > p.epsilon) || attempt >= 47) break;
        accounting::certifier<Real> c;
        eps_used = c.down(c.in(eps_used) /
                          (accounting::work_real(1) +
                           c.in(machine_epsilon<Real>()) * accounting::work_real(4LL << attempt)));
      }
      r.privacy = plan_privacy(std::move(plan), request, "pwa::run (exponential)");
      r.sensitivity = q.bmax();
      r.noise_scale = me->scale();
      me_counts counts;
      const me_method m = p.sampler == sampler_kind::rejection  ? me_method::rejection
                          : p.sampler == sampler_kind::envelope ? me_method::envelope
                                                                : me_method::inverse_cdf;
      try {
        r.x = me->draw(s, m, diag ? &counts : nullptr);
      } catch (const sampling_limit_exceeded&) {  // nothing released: a parameter to raise
        param_checker("pwa::params")
            .fail("max_attempts",
                  "large enough for the M_E sampler to accept a proposal (none of " +
                      std::to_string(p.max_attempts) +
                      " was accepted; raise max_attempts or use another sampler)",
                  p.max_attempts);
      }
      if (diag) r.diagnostics.sampler_counts = counts;
      r.iterations = 1;
      break;
    }
    case algorithm_kind::optimum: {
      r.privacy = non_private<Real>();
      const auto sol = solve(prob);
      r.x = sol.x;
      r.iterations = sol.iterations;
      r.status = status::converged;
      r.message = "the epigraph LP reached an optimal basis (certified by its dual)";
      break;
    }
  }
  if (p.algorithm != algorithm_kind::optimum) {
    r.status = status::completed;
    r.message = p.algorithm == algorithm_kind::private_subgradient ||
                        p.algorithm == algorithm_kind::regular_subgradient
                    ? "all k steps ran"
                    : "the mechanism released its output";
  }
  if (r.privacy.is_private) {
    r.privacy.noise = p.release;
    r.privacy.enforced = enforced_bounds(prob, p);  // PRIV.BOUNDS
  }
  if (!diag) return r;  // PRIV.RELEASE: nothing below is covered by the guarantee
  if (!r.diagnostics.objective) r.diagnostics.objective = prob.value(r.x);
  if (p.optimum || p.algorithm == algorithm_kind::optimum) {
    auto sol = solve(prob);
    r.diagnostics.optimum_gap = verify_certificate(prob, sol.x, sol.certificate).gap;
    r.diagnostics.suboptimality = Real(*r.diagnostics.objective - sol.value);
    r.diagnostics.optimum = std::move(sol);
  }
  return r;
}

}  // namespace detail

/// Runs params.algorithm on `prob` (see the file comment): validates the parameters (alone,
/// then against the problem) once, then runs.
/// @throws invalid_parameter naming the parameter; accounting::budget_exceeded before anything
/// is released if the certified guarantee would exceed params.epsilon (never after calibration)
/// @spec PWA.RUN ARCH.RUN ARCH.BUDGET
template <real_scalar Real>
result<Real> run(const problem<Real>& prob, const params<Real>& p, const philox_stream& stream) {
  p.validate();
  detail::validate_against(prob, p);
  return detail::run_validated(prob, p, stream);
}

/// The `--params` document of `dpref pwa run` and the "config" of its result (ARCH.RUN).
template <real_scalar Real>
using config = run_config<problem_spec<Real>, pwa::params<Real>, 0>;

}  // namespace dpref::pwa

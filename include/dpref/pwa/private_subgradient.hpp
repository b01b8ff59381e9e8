// The private subgradient method of pwa §4.4 (spec/pwa.md PWA.ALG1, PWA.ALG2, PWA.SELECT):
//  Algorithm 1: i* ~ P(i) ∝ exp(+ε u_i / (2 bmax)), u_i = a_iᵀx + b_i (the paper prints a minus
//    sign; errata pwa "Algorithm 1, sign"), output a_{i*};
//  Algorithm 2: x^(i+1) = x^(i) − α_i g^(i) for i = 1..k with ε/k per step, output x^(k+1).
// Optional (a deviation from the paper, documented in spec/pwa.md PWA.ALG2.PROJECT): project
// every iterate onto P; P is public, so this is post-processing of the private selections.
//
// Selection (PWA.SELECT) is exact in distribution at every precision and stable at any scale
// of ε·u: the weights w_i = exp(−γ_i), γ_i = (u_max − u_i)/scale ≥ 0, are evaluated in Real
// (w = 1 at the maximiser: no overflow), candidates are proposed uniformly with the exact
// integer sampler and accepted with probability w_i by the exact Bernoulli sampler, so the law
// is exactly w_i/Σw_j (the rejection sampler of mechanisms::exponential_mechanism_scaled,
// MECH.EXPONENTIAL.EXACT). Where w_i underflows to 0 in Real, the acceptance is instead the
// exact Bernoulli(exp(−γ_i)) of Canonne–Kamath–Steinke on the exact binary value of γ_i
// (secure::bernoulli_exp with big integers), so no candidate gets probability 0 and the
// likelihood ratio stays bounded. Only the stream's uniform bits are used: a double run and an
// mp50 run with the same seed select the same indices unless a weight's rounding decides.
#pragma once

#include <array>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/mechanisms/exponential.hpp"
#include "dpref/pwa/calibration.hpp"
#include "dpref/pwa/solve.hpp"
#include "dpref/random/bernoulli.hpp"
#include "dpref/random/secure/bernoulli_exp.hpp"
#include "dpref/random/secure/uniform_int.hpp"

namespace dpref::pwa {

/// Exact binary value of a finite g ≥ 0 as n / d with big integers (d a power of two).
template <real_scalar Real>
std::pair<bmp::cpp_int, bmp::cpp_int> dyadic_value(const Real& g) {
  using std::frexp;
  using std::ldexp;
  int e = 0;
  const Real mant = frexp(g, &e);  // g = mant · 2^e, mant ∈ [1/2, 1)
  const int p = binary_digits<Real>();
  Real M = ldexp(mant, p);  // integer < 2^p, exact
  bmp::cpp_int n = 0;
  // peel 32-bit chunks from the top (exact in any Real with p >= 32)
  const int chunks = (p + 31) / 32;
  for (int k = chunks - 1; k >= 0; --k) {
    using std::floor;
    const Real hi = floor(ldexp(M, -32 * k));
    n = (n << 32) + bmp::cpp_int(static_cast<std::uint32_t>(static_cast<unsigned long long>(hi)));
    M -= ldexp(hi, 32 * k);
  }
  const int shift = e - p;
  bmp::cpp_int d = 1;
  if (shift >= 0)
    n <<= shift;
  else
    d <<= -shift;
  return {n, d};
}

/// The law of the selection: p_i = w_i / Σ_j w_j with w_i = exp((u_i − u_max)/scale), evaluated
/// exactly as the sampler does (log-sum-exp form: no overflow; an underflowing w_i is ~0 here).
/// @spec PWA.SELECT
template <real_scalar Real>
vector<Real> selection_probabilities(const vector<Real>& u, const Real& scale) {
  using std::exp;
  require_positive("dpref::pwa::selection_probabilities", "scale", scale);
  if (u.size() == 0) fail_argument("dpref::pwa::selection_probabilities", "u.size()", ">= 1", 0);
  const Real umax = u.maxCoeff();
  vector<Real> w(u.size());
  Real sum(0);
  for (Eigen::Index i = 0; i < u.size(); ++i) {
    w[i] = exp((u[i] - umax) / scale);
    sum += w[i];
  }
  return w / sum;
}

/// Draws i with probability ∝ exp((u_i − u_max)/scale) exactly (see the header comment).
/// @param s bit stream @param u utilities (finite) @param scale > 0 (2 bmax / ε_step)
/// @throws std::domain_error for empty or non-finite u or scale ≤ 0
/// @spec PWA.SELECT
template <real_scalar Real>
Eigen::Index select_index(philox_stream& s, const vector<Real>& u, const Real& scale) {
  using std::exp;
  constexpr const char* fn = "dpref::pwa::select_index";
  if (u.size() == 0) fail_domain(fn, "u.size()", ">= 1", 0);
  require_positive(fn, "scale", scale);
  for (Eigen::Index i = 0; i < u.size(); ++i) require_finite(fn, "u", u[i]);
  const Real umax = u.maxCoeff();
  bool underflow = false;
  for (Eigen::Index i = 0; i < u.size() && !underflow; ++i)
    underflow = !(exp((u[i] - umax) / scale) > Real(0));
  if (!underflow)  // the exact rejection sampler of MECH.EXPONENTIAL.EXACT
    return static_cast<Eigen::Index>(mechanisms::exponential_mechanism_scaled<Real>(
        s, std::span<const Real>(u.data(), static_cast<std::size_t>(u.size())), scale));
  // same proposal/acceptance scheme; exact exp(−γ) acceptance where exp underflows
  const auto m = static_cast<std::int64_t>(u.size());
  for (;;) {
    // measurement: Algorithm 1's selection at the plan's scale (the plan's event charges it)
    const auto i = static_cast<Eigen::Index>(secure::uniform_int<std::int64_t>(s, m));
    const Real g = (umax - u[i]) / scale;
    const Real w = exp(-g);
    if (w > Real(0)) {
      if (bernoulli<Real>(s, w)) return i;  // measurement: (the same selection)
    } else {
      const auto [num, den] = dyadic_value(g);
      if (secure::bernoulli_exp<bmp::cpp_int>(s, num, den)) return i;  // measurement: (same)
    }
  }
}

/// u_i = a_iᵀx + b_i as Algorithm 1 evaluates them: the product fl(A x) first (the same for
/// neighbouring b: A and x are public), then + b (the order secure mode's rounding bound
/// assumes, pwa/secure.hpp). @spec PWA.SELECT PRIV.PWA.BMAX
template <real_scalar Real>
void selection_utilities(const piecewise_affine<Real>& prob, const vector<Real>& x,
                         vector<Real>& u) {
  u.noalias() = prob.A() * x;
  u += prob.b();
}

/// Step sizes α_i of Algorithm 2.
enum class step_rule {
  constant,      ///< α_i = α
  inverse_sqrt,  ///< α_i = α/√i
};
DPREF_ENUM_NAMES(step_rule, constant, inverse_sqrt)

enum class projection_mode {
  none,  ///< pwa Algorithm 2 as printed: iterates may leave P
  box,   ///< clamp every iterate into [−c, c]^d (P without extra rows only; errata PWA-E2)
};
DPREF_ENUM_NAMES(projection_mode, none, box)

template <real_scalar Real>
struct subgradient_params {
  Real epsilon = Real(1) / 10;  ///< total ε (ε/k per step); ignored by the regular method
  long long iterations = 100;   ///< k
  Real step = Real(1) / 10;     ///< α
  step_rule rule = step_rule::inverse_sqrt;
  projection_mode projection = projection_mode::none;
  vector<Real> x1;  ///< x^(1) ∈ P; empty: 0 (in the box; must satisfy Gx ≤ h with rows)
  bool trace = true;
  /// Evaluate f(x^(i)) on the data (objective, best_objective, the trace): non-private
  /// evaluation. pwa::run sets it only when the caller asked for diagnostics (PRIV.RELEASE).
  bool evaluate = true;
  /// Multiplier of the calibrated utility scale (plan_private_subgradient). 1 is the private
  /// mechanism; tests set 1/2 for the negative control "ε u / bmax" (2ε per step), whose ledger
  /// then records the halved scale.
  Real scale_factor = Real(1);
};

template <real_scalar Real>
struct subgradient_result {
  vector<Real> x;                     ///< x^(k+1), the output of Algorithm 2
  Real objective = Real(0);           ///< f(x^(k+1)) on the true data (evaluation only)
  Real best_objective = Real(0);      ///< min_{i≤k} f(x^(i)) (Theorem 24's quantity; NOT private)
  std::vector<Real> objective_trace;  ///< f(x^(i)), i = 1..k+1 (if params.trace)
  std::vector<Eigen::Index> selected;              ///< i* of every step
  Real step_sum = Real(0), step_sq_sum = Real(0);  ///< Σα_i, Σα_i²
  accounting::ledger<Real> ledger;  ///< the plan's ledger (private_subgradient; empty otherwise)
};

namespace detail {

template <real_scalar Real>
Real step_size(const subgradient_params<Real>& p, long long i) {
  using std::sqrt;
  return p.rule == step_rule::constant ? p.step : Real(p.step / sqrt(Real(i)));
}

template <real_scalar Real, class Select>
subgradient_result<Real> run_subgradient(const piecewise_affine<Real>& prob,
                                         const subgradient_params<Real>& p, Select&& select,
                                         const char* fn) {
  if (p.iterations < 1) fail_domain(fn, "iterations", ">= 1", p.iterations);
  require_positive(fn, "step", p.step);
  const auto& P = prob.polytope();
  if (p.projection == projection_mode::box && P.has_extra_rows())
    fail_argument(fn, "projection", "none when P has rows Gx <= h (not implemented)", "box");
  subgradient_result<Real> res;
  vector<Real> x = p.x1.size() == 0 ? vector<Real>(vector<Real>::Zero(prob.dimension())) : p.x1;
  if (x.size() != prob.dimension()) fail_argument(fn, "x1.size()", "== d", x.size());
  if (!P.contains(x)) fail_domain(fn, "x1", "a point of P", "outside P");
  res.selected.reserve(static_cast<std::size_t>(p.iterations));
  const bool record_trace = p.evaluate && p.trace;
  Real fx(0);
  if (p.evaluate) {
    fx = prob.value(x);
    res.best_objective = fx;
  }
  if (record_trace) res.objective_trace.push_back(fx);
  vector<Real> u(prob.pieces());
  for (long long i = 1; i <= p.iterations; ++i) {
    selection_utilities(prob, x, u);
    const Eigen::Index sel = select(u, i);  // Algorithm 1
    res.selected.push_back(sel);
    const Real a = step_size(p, i);
    res.step_sum += a;
    res.step_sq_sum += a * a;
    x -= a * prob.A().row(sel).transpose();  // Algorithm 2 step 2(b)
    if (p.projection == projection_mode::box)
      for (Eigen::Index j = 0; j < x.size(); ++j)
        x[j] = x[j] < -P.box ? Real(-P.box) : (x[j] > P.box ? P.box : x[j]);
    if (!p.evaluate) continue;
    fx = prob.value(x);
    if (i < p.iterations && fx < res.best_objective) res.best_objective = fx;  // i+1 ≤ k
    if (record_trace) res.objective_trace.push_back(fx);
  }
  res.x = x;
  res.objective = fx;
  return res;
}

}  // namespace detail

/// The calibration of Algorithm 2, fixed before any draw: the utility scale s of every
/// selection P(i) ∝ exp(u_i/s) and the ledger of the k selections (public).
template <real_scalar Real>
struct subgradient_plan {
  Real scale{};
  accounting::ledger<Real> ledger;  ///< k exponential-mechanism events of Δu (Theorem 15)
};

/// Plan of Algorithm 2 with k = p.iterations selections of utility sensitivity Δu (bmax, Lemma
/// 18) for a total ε = p.epsilon: s = 2Δu·k/ε rounded up, raised by ulps while the certified ε
/// of the k events exceeds ε; then multiplied by p.scale_factor (1 for the mechanism), the
/// ledger recording the scale actually used.
/// @param label the events' label (where in the algorithm; the secure run names its clamp)
/// @throws std::domain_error for ε ≤ 0, Δu ≤ 0, scale_factor ≤ 0 or k < 1
/// @spec PWA.ALG1 PWA.ALG2 ARCH.BUDGET
template <real_scalar Real>
subgradient_plan<Real> plan_private_subgradient(const Real& utility_sensitivity,
                                                const subgradient_params<Real>& p,
                                                const std::string& label) {
  constexpr const char* fn = "dpref::pwa::plan_private_subgradient";
  require_positive(fn, "epsilon", p.epsilon);
  require_positive(fn, "utility_sensitivity", utility_sensitivity);
  require_positive(fn, "scale_factor", p.scale_factor);
  if (p.iterations < 1) fail_domain(fn, "iterations", ">= 1", p.iterations);
  const auto ledger_at = [&](const Real& sc) {
    accounting::ledger<Real> l;
    l.record(accounting::make_event<Real>(
        accounting::exponential_mechanism<Real>{utility_sensitivity, sc, false}, p.iterations,
        label));
    return l;
  };
  subgradient_plan<Real> plan;
  accounting::certifier<Real> c;
  plan.scale = c.up(accounting::work_real(2) * c.in(utility_sensitivity)*c.in(Real(p.iterations)) /
                    c.in(p.epsilon));
  plan.ledger = detail::calibrate_scale(plan.scale, p.epsilon, ledger_at, fn);
  if (p.scale_factor != Real(1)) {
    plan.scale = Real(plan.scale * p.scale_factor);
    plan.ledger = ledger_at(plan.scale);
  }
  return plan;
}

/// pwa Algorithm 2 with Algorithm 1 (sign per errata), output x^(k+1), at a fixed plan: every
/// selection draws at plan.scale; the result carries plan.ledger. The one implementation of the
/// release, used by pwa::run, the study and the audits.
/// @param s bit stream of the run, read sequentially by the k selections
/// @throws std::domain_error / std::invalid_argument for invalid parameters
/// @spec PWA.ALG2
template <real_scalar Real>
subgradient_result<Real> private_subgradient(philox_stream& s, const piecewise_affine<Real>& prob,
                                             const subgradient_params<Real>& p,
                                             const subgradient_plan<Real>& plan) {
  auto res = detail::run_subgradient(
      prob, p,
      [&](const vector<Real>& u, long long) { return select_index<Real>(s, u, plan.scale); },
      "dpref::pwa::private_subgradient");
  res.ledger = plan.ledger;
  return res;
}

/// Plan (Δu = prob.bmax(), Lemma 18) and run of Algorithm 2 (see above).
/// @spec PWA.ALG2
template <real_scalar Real>
subgradient_result<Real> private_subgradient(philox_stream& s, const piecewise_affine<Real>& prob,
                                             const subgradient_params<Real>& p) {
  return private_subgradient(
      s, prob, p,
      plan_private_subgradient(prob.bmax(), p,
                               "pwa Algorithm 1 (sign per errata PWA-E1), one selection per step "
                               "of Algorithm 2: P(i) ∝ exp(u_i/s), Δu = bmax (Lemma 18)"));
}

/// The regular (non-private) subgradient method: g^(i) = a_k with k the active piece (pwa (12)).
/// Not private; used for pwa Figure 1 and as a reference.
/// @spec PWA.SUBGRADIENT
template <real_scalar Real>
subgradient_result<Real> regular_subgradient(const piecewise_affine<Real>& prob,
                                             const subgradient_params<Real>& p) {
  return detail::run_subgradient(
      prob, p,
      [](const vector<Real>& u, long long) {
        Eigen::Index i = 0;
        u.maxCoeff(&i);
        return i;
      },
      "dpref::pwa::regular_subgradient");
}

}  // namespace dpref::pwa

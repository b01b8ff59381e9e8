// NOISYBTLS (linesearch Algorithm 1), Laplace and Gaussian versions, exactly as printed:
//   3: ε1 = ε_BT/2, ε2 = ε_BT/4            [Gaussian: σ1² = 3/(2ρ), σ2² = 3/ρ]
//   4: T̂ = λ, λ ~ Lap(Δ_q/ε1)               [λ ~ N(0, Δ_q²σ1²)]
//   5: η ← η0
//   6: for i = 1..max_it
//   7:   q_i = f(w; D) − αη‖g‖² − f(w − ηg; D)
//   8:   q̂_i = q_i + ν_i, ν_i ~ Lap(Δ_q/ε2) [ν_i ~ N(0, Δ_q²σ2²)]
//   9–10: if q̂_i >= T̂: output η
//  11:   η ← βη
//  12: output 0   (or β^max_it·η0, the §5.7 option `fallback_min_step`)
// It is the AboveThreshold mechanism of mechanisms/above_threshold.hpp with threshold T = 0 and
// the scales of Theorem 1 (b1 = 2Δ/ε_BT, b2 = 4Δ/ε_BT) or step 3; the query callable receives
// the candidate η. Privacy (Theorems 1–3, errata LS-E1): ε_BT-DP (Laplace); RDP by the proven
// bound of accounting/svt.hpp, or the paper's (4)/(5) by name.
// Intelligent backtracking (§4.2): a list Ω of selected step sizes; every τ iterations
// η0 ← min(ς·max Ω, η0_initial) and Ω ← ∅ (see step_memory for the choice of the cap).
// spec/linesearch.md LS.ALG1, LS.IBT.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/event.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/above_threshold.hpp"
#include "dpref/mechanisms/secure/snapped_above_threshold.hpp"
#include "dpref/params.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref::linesearch {

/// Noise family of NOISYBTLS.
enum class btls_noise { laplace, gaussian };
DPREF_ENUM_NAMES(btls_noise, laplace, gaussian)

/// Hyper-parameters of Algorithm 1 (defaults of linesearch §5.4; max_it is not given in the
/// paper, dpref uses 20: β^20 = 0.0115 covers two decades of step sizes).
template <real_scalar Real>
struct btls_params {
  Real alpha = Real(1) / 2;  ///< Armijo α ∈ (0, 1)
  Real beta = Real(4) / 5;   ///< backtracking factor β ∈ (0, 1)
  long max_it = 20;          ///< maximum number of queries >= 1
  btls_noise noise = btls_noise::laplace;
  bool fallback_min_step = false;  ///< return β^max_it·η0 instead of 0 (linesearch §5.7)

  template <class V>
  void fields(V&& v) {
    v("alpha", alpha, "Armijo α in (0, 1)");
    v("beta", beta, "backtracking factor β in (0, 1)");
    v("max_it", max_it, "queries per call in [1, 1000]");
    v("noise", noise, "laplace or gaussian");
    v("fallback_min_step", fallback_min_step, "return β^max_it·η0 instead of 0 (§5.7)");
  }
  /// @throws invalid_parameter "linesearch::btls_params.<field> must be ..., got ..."
  void validate() const {
    const param_checker c("linesearch::btls_params");
    c.unit_open("alpha", alpha);
    c.unit_open("beta", beta);
    c.at_least<long>("max_it", max_it, 1, 1000);
  }
};

/// Output of one NOISYBTLS call.
template <real_scalar Real>
struct btls_outcome {
  Real eta = Real(0);       ///< selected η, 0 on failure (or β^max_it·η0 with the fallback)
  bool found = false;       ///< a TOP answer was produced (steps 9–10)
  std::size_t queries = 0;  ///< queries evaluated (1..max_it)
};

/// Noise scales (threshold, query) of Algorithm 1 steps 3–4, 8, rounded UP (a larger scale only
/// strengthens the guarantee, ACC.CERT.UP): Laplace (Δ/ε1, Δ/ε2) = (2Δ/ε_BT, 4Δ/ε_BT) (Theorem 1,
/// Lemma 5); Gaussian standard deviations (Δσ1, Δσ2), σ1² = 3/(2ρ), σ2² = 3/ρ (step 3).
/// @param budget ε_BT (Laplace) or ρ (Gaussian) > 0 @param sensitivity Δ_q > 0
/// @spec LS.ALG1
template <real_scalar Real>
std::pair<Real, Real> btls_scales(btls_noise noise, const Real& budget, const Real& sensitivity) {
  require_positive("dpref::linesearch::btls_scales", "budget", budget);
  require_positive("dpref::linesearch::btls_scales", "sensitivity", sensitivity);
  accounting::certifier<Real> c;
  const accounting::work_real d = c.in(sensitivity), b = c.in(budget);
  using std::sqrt;
  if (noise == btls_noise::laplace) return {c.up(2 * d / b), c.up(4 * d / b)};
  return {c.up(d * sqrt(3 / (2 * b))), c.up(d * sqrt(3 / b))};
}

/// The ledger event of one NOISYBTLS call: the sparse-vector mechanism with the scales of
/// btls_scales, the query sensitivity Δ_q = C_obj (Theorem 1 with objective clipping, LS-E2),
/// at most max_it queries and the PROVEN bound (errata LS-E1: the ledger is always sound).
/// @spec LS.ALG1 LS.LEDGER
template <real_scalar Real>
accounting::sparse_vector_mechanism<Real> btls_event(btls_noise noise, const Real& budget,
                                                     const Real& sensitivity, long max_it) {
  const auto [b1, b2] = btls_scales(noise, budget, sensitivity);
  accounting::sparse_vector_mechanism<Real> m;
  m.noise = noise == btls_noise::laplace ? accounting::svt_noise::laplace
                                         : accounting::svt_noise::gaussian;
  m.sensitivity = sensitivity;
  m.threshold_scale = b1;
  m.query_scale = b2;
  m.max_queries = max_it;
  m.bound = accounting::svt_bound::proven;
  return m;
}

/// The query of Algorithm 1 line 7 with objective clipping (Theorem 1, errata LS-E2):
///   q(η) = Σ_B f̄(w) − η·armijo − Σ_B f̄(w − ηg),   f̄ = min(f, C_obj) ∈ [0, C_obj],
/// on a line evaluator (problems::line_evaluator, mlp_line_evaluator: clipped_sum(η, C_obj));
/// armijo = α‖g̃‖² (× m̄ with armijo_mean_scaling) is a function of the released gradient. One
/// example adds f̄(w) − f̄(w − ηg) ∈ [−C_obj, C_obj] to every query: C_obj is the sensitivity of
/// the call's sparse-vector event, whatever the data (PRIV.LINESEARCH.C_OBJ).
/// @spec LS.ALG1 PRIV.LINESEARCH.C_OBJ
template <class Line, real_scalar Real>
class armijo_query {
 public:
  armijo_query(const Line& line, const Real& armijo, const Real& C_obj)
      : line_(line), armijo_(armijo), C_obj_(C_obj), f0_(line.clipped_sum(Real(0), C_obj)) {}
  [[nodiscard]] Real operator()(const Real& eta) const {
    return Real(f0_ - eta * armijo_ - line_.clipped_sum(eta, C_obj_));
  }

 private:
  const Line& line_;
  Real armijo_, C_obj_, f0_;
};

namespace detail {
/// Steps 9–12: η on a TOP answer, else 0 (or β^max_it·η0 with the §5.7 fallback).
template <real_scalar Real>
btls_outcome<Real> btls_outcome_of(bool found, const Real& eta, std::size_t queries,
                                   const btls_params<Real>& cfg) {
  btls_outcome<Real> out;
  out.queries = queries;
  if (found) {
    out.found = true;
    out.eta = eta;  // step 10
  } else if (cfg.fallback_min_step) {
    out.eta = cfg.beta * eta;  // β^max_it η0 (§5.7)
  }
  return out;
}
}  // namespace detail

/// Algorithm 1 on a query callable q(η) = f(w; D) − αη‖g‖² − f(w − ηg; D) (step 7), evaluated
/// lazily for η = η0, βη0, β²η0, …, with the noise of the ledger event `m` (its threshold and
/// query scales and noise family: what is drawn is what is charged).
/// @param s bit stream (one draw for T̂ and one per evaluated query)
/// @param query callable Real η -> Real q(η) @param eta0 η0 > 0
/// @param m the sparse-vector event of this call (btls_event) @param cfg α, β, max_it, fallback
/// @throws std::domain_error / invalid_parameter for invalid arguments
/// @spec LS.ALG1
template <real_scalar Real, class Query>
btls_outcome<Real> noisy_btls(philox_stream& s, Query&& query, const Real& eta0,
                              const accounting::sparse_vector_mechanism<Real>& m,
                              const btls_params<Real>& cfg) {
  cfg.validate();
  require_positive("dpref::linesearch::noisy_btls", "eta0", eta0);
  if (m.max_queries != cfg.max_it)
    fail_domain("dpref::linesearch::noisy_btls", "event.max_queries", "== max_it", m.max_queries);
  Real eta = eta0;
  std::size_t evaluated = 0;
  const auto q_at = [&](std::size_t i) {
    if (i > 0) eta = cfg.beta * eta;  // step 11 (η of query i is β^i η0)
    evaluated = i + 1;
    return query(eta);
  };
  // the sparse-vector measurement of the charged event draws T̂ and the ν_i (ARCH.MEASUREMENTS)
  const auto r = mechanisms::sparse_vector<Real>(m).run(s, q_at, Real(0));
  return detail::btls_outcome_of(r.found, eta, evaluated, cfg);
}

/// Algorithm 1 released on the lattice (SEC.LINESEARCH, SEC.SVT): the query of line 7 on a line
/// evaluator, Σ_B (f̄(w) − f̄(w − ηg)) − η·armijo with f̄ = min(f, m.record_bound), is built
/// record by record, and mechanisms::snapped_above_threshold rounds every record's term to the
/// grid, clamps it to the event's per-record bound and compares in exact integers against the
/// discrete Laplace threshold (T = 0). The armijo term is public (a function of the released
/// gradient). Laplace noise only (the lattice Gaussian SVT is not implemented).
/// @param s bit stream (one draw for T̂ and one per evaluated query) @param line a line
///   evaluator with for_each_clipped @param m the lattice event's parameters (charged by the
///   caller from the same value) @param cfg α, β, max_it (== m.max_queries), fallback
/// @throws std::domain_error / invalid_parameter for invalid arguments
/// @spec LS.ALG1 SEC.LINESEARCH SEC.SVT
template <class Line>
btls_outcome<double> noisy_btls_lattice(philox_stream& s, const Line& line, double armijo,
                                        double eta0,
                                        const mechanisms::snapped_above_threshold_params& m,
                                        const btls_params<double>& cfg) {
  constexpr const char* fn = "dpref::linesearch::noisy_btls_lattice";
  cfg.validate();
  m.validate();
  require_positive(fn, "eta0", eta0);
  require_finite(fn, "armijo", armijo);
  if (m.max_queries != cfg.max_it)
    fail_domain(fn, "params.max_queries", "== max_it", m.max_queries);
  if (cfg.noise != btls_noise::laplace)
    fail_domain(fn, "cfg.noise", "laplace (the lattice release is a discrete Laplace SVT)",
                std::string("gaussian"));
  std::vector<double> f0;  // f̄(w) per record, once per line
  line.for_each_clipped(0.0, m.record_bound, [&](const double& f) { f0.push_back(f); });
  double eta = eta0;
  std::size_t evaluated = 0;
  const auto query = [&](std::size_t i, std::vector<double>& terms) {
    if (i > 0) eta = cfg.beta * eta;  // step 11
    evaluated = i + 1;
    std::size_t r = 0;
    line.for_each_clipped(eta, m.record_bound,
                          [&](const double& f) { terms.push_back(f0[r++] - f); });
    return -eta * armijo;  // the public part of line 7
  };
  const auto r = mechanisms::snapped_above_threshold(s, query, m);
  return detail::btls_outcome_of(r.found, eta, evaluated, cfg);
}

/// Algorithm 1 with the budget ε_BT (Laplace) or ρ_BT (Gaussian) and the query sensitivity
/// Δ_q (Theorem 1): noisy_btls with btls_event(cfg.noise, budget, sensitivity, cfg.max_it).
/// @spec LS.ALG1
template <real_scalar Real, class Query>
btls_outcome<Real> noisy_btls(philox_stream& s, Query&& query, const Real& eta0, const Real& budget,
                              const Real& sensitivity, const btls_params<Real>& cfg) {
  cfg.validate();
  return noisy_btls(s, std::forward<Query>(query), eta0,
                    btls_event(cfg.noise, budget, sensitivity, cfg.max_it), cfg);
}

/// Intelligent backtracking (linesearch §4.2): Ω collects the selected step sizes; after every
/// τ iterations η0 ← min(ς·max Ω, η0_init) and Ω ← ∅ (Ω empty: η0 unchanged). dpref caps by the
/// INITIAL η0 (as the DP-AGD code the paper builds on caps by its initial maximum step): with the
/// current η0 the printed rule could only ever decrease η0.
/// @spec LS.IBT
template <real_scalar Real>
class step_memory {
 public:
  /// @param eta0 initial η0 > 0 @param tau τ >= 1 @param varsigma ς > 1
  step_memory(const Real& eta0, long long tau, const Real& varsigma)
      : init_(eta0), eta0_(eta0), tau_(tau), varsigma_(varsigma) {
    require_positive("dpref::linesearch::step_memory", "eta0", eta0);
    if (tau < 1) fail_domain("dpref::linesearch::step_memory", "tau", ">= 1", tau);
    if (!(varsigma > Real(1)))
      fail_domain("dpref::linesearch::step_memory", "varsigma", "> 1", varsigma);
  }
  [[nodiscard]] const Real& eta0() const { return eta0_; }
  /// Records the outcome of one iteration (η > 0: a selected step size).
  void end_iteration(const Real& eta) {
    if (eta > Real(0)) omega_.push_back(eta);
    if (++count_ % tau_ != 0 || omega_.empty()) return;
    const Real m = varsigma_ * *std::max_element(omega_.begin(), omega_.end());
    eta0_ = m < init_ ? m : init_;
    omega_.clear();
  }

 private:
  Real init_, eta0_;
  long long tau_;
  Real varsigma_;
  long long count_ = 0;
  std::vector<Real> omega_;
};

}  // namespace dpref::linesearch

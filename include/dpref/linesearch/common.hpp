// Shared pieces of the linesearch algorithms: hyper-parameters (defaults of linesearch §5.4),
// run result, Poisson sampling of a mini-batch (Lemma 4's sampling: each example independently
// with probability q), the noisy clipped gradient (Algorithm 2 lines 5–6), ANGLEBETWEEN and a
// ledger that merges identical calls into one event with a count.
//
// Normalisation: Algorithm 2 line 6 divides by |B|; |B| is data-dependent under add/remove
// adjacency and is not covered by the Gaussian-mechanism argument, so dpref divides by the
// PUBLIC expected batch size m̄ = q·n (as Abadi et al.'s lot size). The query is Algorithm 1
// line 7 as printed with the clipped SUM objective of Theorem 1 (f̄ = min(f, C_obj), LS-E2:
// Δ_q = C_obj): q(η) = Σ_B f̄(w) − αη‖g̃‖² − Σ_B f̄(w − ηg̃); params.armijo_mean_scaling
// multiplies the Armijo term by m̄ (the sum form of the mean condition (2)).
// The algorithms are generic over the problem (concept linesearch_problem): problems::linear_erm
// (with its fast line_evaluator) and problems::mlp_classifier (linesearch §5.7, with
// mlp_line_evaluator); make_line(P, B, w, g) is found by ordinary or argument-dependent lookup.
// spec/linesearch.md LS.PARAMS, LS.ALG2, LS.MLP.
#pragma once

#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/math/constants/constants.hpp>

#include "dpref/accounting/ledger.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/error.hpp"
#include "dpref/linesearch/noisy_btls.hpp"
#include "dpref/problems/erm.hpp"
#include "dpref/random/bernoulli.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref::linesearch {

/// The line evaluator of a linear ERM problem (y xᵀw, y xᵀg once, O(|B|) per η).
/// @spec LS.ERM
template <real_scalar Real>
problems::line_evaluator<Real> make_line(const problems::linear_erm<Real>& P,
                                         std::span<const Eigen::Index> batch, const vector<Real>& w,
                                         const vector<Real>& g) {
  return problems::line_evaluator<Real>(P, batch, w, g);
}

/// What DP-BLSGD and DP-SGD need from a problem: n, the parameter dimension, the clipped
/// gradient sum Σ_B clip(∇f_i(w), C) (Algorithm 2 line 5), F(w) for the trace, and a line
/// evaluator make_line(P, B, w, g) with g_squared() = ‖g‖² and clipped_sum(η, C_obj) =
/// Σ_B min(f_i(w − ηg), C_obj) (Algorithm 1 line 7). @spec LS.MLP
template <class P, class Real>
concept linesearch_problem = real_scalar<Real> &&
    requires(const P& p, const vector<Real>& w, std::span<const Eigen::Index> batch, const Real& c,
             vector<Real>& out) {
  { p.size() } -> std::convertible_to<Eigen::Index>;
  { p.dimension() } -> std::convertible_to<Eigen::Index>;
  p.clipped_gradient_sum(w, batch, c, out);
  { p.value(w) } -> std::convertible_to<Real>;
  { make_line(p, batch, w, w).g_squared() } -> std::convertible_to<Real>;
  { make_line(p, batch, w, w).clipped_sum(c, c) } -> std::convertible_to<Real>;
};

/// Observer called after every update with (iterations so far, w) (e.g. evaluation
/// checkpoints of §5.7); it must not read the private data.
template <real_scalar Real>
using update_observer = std::function<void(long long, const vector<Real>&)>;

/// Budget allocation strategy of CHEB (linesearch §5.5, Figure 1e).
enum class budget_strategy {
  adaptive,  ///< "adap": Algorithm 3 as printed (angle test (8))
  must,      ///< "must": always increase ρ_grad and the line-search budget
  none       ///< "no": never increase (the second gradient is still averaged in)
};

/// How a failed line search enlarges the budget.
enum class budget_increase {
  cheb,    ///< Algorithm 3 (DP-BLSGD)
  gradavg  ///< DP-AGD's GradAvg (DP-BLGD): ρ_grad ← (1+ξ)ρ_grad, a fresh gradient with the extra
           ///< budget averaged with weights ρ_old/ρ_new, and the line-search budget ← (1+ξ)·
};

/// Hyper-parameters (defaults: linesearch §5.4 for convex models).
template <real_scalar Real>
struct params {
  Real eps = Real(1) / 5;             ///< target ε of (ε, δ)-DP
  Real delta = Real(1) / 100000000;   ///< δ = 1e-8
  int max_order = 500;                ///< RDP orders 2..max_order (§4.3)
  Real q = Real(1) / 10;              ///< Poisson sampling ratio (1: full batch)
  Real C_grad = Real(3);              ///< gradient clipping threshold (6)
  Real C_obj = Real(1);               ///< objective clipping threshold (Theorem 1, LS-E2)
  Real xi = Real(3) / 10;             ///< budget increase rate ξ
  btls_settings<Real> btls{};         ///< α = 0.5, β = 0.8, max_it = 20, Laplace
  long tau = 10;                      ///< intelligent backtracking period τ
  Real varsigma = Real(6) / 5;        ///< ς
  Real phi_max = Real(11) / 10;       ///< φ_max of (8)
  Real phi_min = Real(1) / 2;         ///< φ_min of (8)
  Real psi = Real(4) / 5;             ///< ψ of (7)
  Real zeta = Real(1) / 20;           ///< ζ of (9) (DP-BLSGD-AC)
  Real eps_iter_divisor = Real(100);  ///< ε_iter = ε/100 = ε/(2·50) (§5.4)
  Real eta0 = Real(1);                ///< initial step size η0 (not given in the paper; public)
  budget_strategy strategy = budget_strategy::adaptive;
  budget_increase increase = budget_increase::cheb;
  bool adaptive_clipping = false;                                   ///< DP-BLSGD-AC (9)
  accounting::svt_bound svt_bound = accounting::svt_bound::proven;  ///< LS-E1
  long long max_iterations = 1000000;                               ///< public safety cap on t
  bool trace = false;  ///< record F(w_t) after every update
  /// Armijo term of the query: false (default) = Algorithm 1 line 7 as printed, αη‖g̃‖² against
  /// the SUM f(w; B) = Σ_B f̄; true = αη·m̄·‖g̃‖², the sum form of the mean condition (2).
  bool armijo_mean_scaling = false;
  /// Initial ρ_grad; 0 (default) = ε_iter²/2 (§5.4). §5.7 uses 90% of ρ_iter.
  Real rho_grad0 = Real(0);
  /// Initial line-search budget (ε_BT or ρ_BT); 0 (default) = ε_iter (Laplace) or ε_iter²/2
  /// (Gaussian). §5.7 uses 10% of ρ_iter with the Gaussian NOISYBTLS.
  Real ls_budget0 = Real(0);
  /// Data-independent start w_0; empty (default) = 0. §5.7 uses a random initialisation.
  vector<Real> w0{};
  /// Called after every update (empty: none).
  update_observer<Real> observer{};

  /// @throws std::domain_error naming the invalid field
  void validate() const {
    constexpr const char* fn = "dpref::linesearch::params";
    require_positive(fn, "eps", eps);
    if (!(delta > Real(0)) || !(delta < Real(1))) fail_domain(fn, "delta", "in (0, 1)", delta);
    if (max_order < 2) fail_domain(fn, "max_order", ">= 2", max_order);
    if (!(q > Real(0)) || q > Real(1)) fail_domain(fn, "q", "in (0, 1]", q);
    require_positive(fn, "C_grad", C_grad);
    require_positive(fn, "C_obj", C_obj);
    require_positive(fn, "xi", xi);
    btls.validate();
    if (tau < 1) fail_domain(fn, "tau", ">= 1", tau);
    if (!(varsigma > Real(1))) fail_domain(fn, "varsigma", "> 1", varsigma);
    if (!(phi_max > Real(1))) fail_domain(fn, "phi_max", "> 1", phi_max);
    if (!(phi_min > Real(0)) || !(phi_min < Real(1)))
      fail_domain(fn, "phi_min", "in (0, 1)", phi_min);
    if (!(psi > Real(0)) || !(psi < Real(1))) fail_domain(fn, "psi", "in (0, 1)", psi);
    if (!(zeta >= Real(0)) || !(zeta < Real(1))) fail_domain(fn, "zeta", "in [0, 1)", zeta);
    require_positive(fn, "eps_iter_divisor", eps_iter_divisor);
    require_positive(fn, "eta0", eta0);
    if (max_iterations < 1) fail_domain(fn, "max_iterations", ">= 1", max_iterations);
    require_nonnegative(fn, "rho_grad0", rho_grad0);
    require_nonnegative(fn, "ls_budget0", ls_budget0);
    for (Eigen::Index j = 0; j < w0.size(); ++j) require_finite(fn, "w0[j]", w0[j]);
  }
};

/// Why a run stopped.
enum class run_status {
  budget_exhausted,  ///< no order could pay the next call (§4.3)
  iteration_cap,     ///< params.max_iterations reached
  completed          ///< a fixed-length / closed-form algorithm finished
};

/// Counts of mechanism calls.
struct call_counts {
  long long iterations = 0, updates = 0, gradients = 0, line_searches = 0, cheb = 0,
            objective_queries = 0;
};

/// Result of a run.
template <real_scalar Real>
struct result {
  vector<Real> w;
  run_status status = run_status::completed;
  call_counts calls;
  std::vector<Real> steps;                  ///< selected η per update
  std::vector<Real> trace;                  ///< F(w) after each update (params.trace)
  accounting::privacy_ledger<Real> ledger;  ///< every mechanism call (merged by kind+params)
  accounting::rdp_curve<Real> spent;        ///< composed RDP of the run
  accounting::approx_dp<Real> guarantee{};  ///< certified (ε, δ) of `spent` (Balle 2020)
  Real final_rho_grad = Real(0), final_ls_budget = Real(0), final_C_grad = Real(0);
};

/// Poisson sample of {0..n−1} with rate q (one exact Bernoulli(q) draw per example; q = 1 takes
/// every example without drawing). @spec LS.ALG2
template <real_scalar Real>
void poisson_batch(philox_stream& s, Eigen::Index n, const Real& q,
                   std::vector<Eigen::Index>& out) {
  out.clear();
  for (Eigen::Index i = 0; i < n; ++i)
    if (bernoulli<Real>(s, q)) out.push_back(i);
}

/// g̃ = (Σ_{i∈B} clip(∇f_i(w), C) + γ)/m̄, γ ~ N(0, (C²/(2ρ)) I) (Algorithm 2 lines 5–6;
/// Algorithm 3 lines 3–4), m̄ the public normaliser. @spec LS.ALG2
template <real_scalar Real, linesearch_problem<Real> Problem>
void noisy_gradient(philox_stream& s, const Problem& P, std::span<const Eigen::Index> batch,
                    const vector<Real>& w, const Real& C, const Real& rho, const Real& normaliser,
                    vector<Real>& out) {
  using std::sqrt;
  P.clipped_gradient_sum(w, batch, C, out);
  const Real sigma = C / sqrt(Real(2) * rho);
  for (Eigen::Index j = 0; j < out.size(); ++j) out[j] += gaussian<Real>(s, sigma);
  out /= normaliser;
}

/// ANGLEBETWEEN(a, b) in radians ∈ [0, π]; π/2 if either vector is 0. @spec LS.EQ7
template <real_scalar Real>
Real angle_between(const vector<Real>& a, const vector<Real>& b) {
  using std::acos;
  using std::sqrt;
  const Real na = a.squaredNorm(), nb = b.squaredNorm();
  if (!(na > Real(0)) || !(nb > Real(0))) return boost::math::constants::half_pi<Real>();
  Real c = a.dot(b) / sqrt(na * nb);
  if (c > Real(1)) c = Real(1);
  if (c < Real(-1)) c = Real(-1);
  return acos(c);
}

/// Ledger builder merging calls with identical kind and parameters into one event with a
/// count (RDP composition is commutative). @spec LS.ALG2
template <real_scalar Real>
class merged_ledger {
 public:
  /// @param discriminator distinguishes calls with equal parameters but different costs (the
  /// sequence of calls on the same sample under joint amplification)
  void add(const std::string& kind, std::vector<std::pair<std::string, Real>> prm,
           const accounting::rdp_curve<Real>& cost, const std::string& discriminator = {}) {
    std::string key = kind;
    key.push_back('#');
    key.append(discriminator);
    for (const auto& [k, v] : prm) {
      key.push_back('|');
      key.append(k);
      key.push_back('=');
      key.append(::dpref::detail::to_text(v));
    }
    const auto it = index_.find(key);
    if (it != index_.end()) {
      ++events_[it->second].count;
      return;
    }
    index_.emplace(key, events_.size());
    events_.push_back({kind, std::move(prm), cost, 1});
  }
  [[nodiscard]] accounting::privacy_ledger<Real> build() const {
    accounting::privacy_ledger<Real> l;
    for (const auto& e : events_) l.record(e);
    return l;
  }

 private:
  std::map<std::string, std::size_t> index_;
  std::vector<accounting::privacy_event<Real>> events_;
};

}  // namespace dpref::linesearch

// ev Algorithm 3: projected stochastic gradient descent with polynomial-decay averaging
// (Shamir–Zhang), x^(k+1) = Π_X(x^(k) − α_k ĝ_k), x̂^(k+1) = (1 − θ_k) x̂^(k) + θ_k x^(k+1),
// α_k = c/√k, θ_k = (η+1)/(η+k). Proposition 14: E f(x̂^(K+1)) − f* = O(η(ρ²/c + cĜ²)/√K).
// spec/ev.md EV.ALG3, EV.PROP14.
#pragma once

#include <concepts>
#include <vector>

#include "dpref/ev/common.hpp"
#include "dpref/random/philox_stream.hpp"

namespace dpref::ev {

/// A stochastic problem for Algorithm 3: f, an unbiased stochastic (sub)gradient and Π_X.
template <class P, class Real>
concept stochastic_problem = requires(const P& p, const vector<Real>& x, vector<Real>& out,
                                      philox_stream& s) {
  { p.dimension() } -> std::convertible_to<Eigen::Index>;
  { p.value(x) } -> std::convertible_to<Real>;
  p.stochastic_gradient(x, s, out);  // E[out] ∈ ∂f(x)
  p.project(x, out);                 // out = Π_X(x)
};

/// Parameters of Algorithm 3.
template <real_scalar Real>
struct projected_sgd_params {
  long long iterations = 100;  ///< K >= 1
  Real step = Real(1);         ///< c > 0, α_k = c/√k
  Real eta = Real(1);          ///< η >= 1
  vector<Real> initial;        ///< x^(1) (empty: 0)
  bool trace = false;          ///< record f(x̂^(k)) (noise-free value, for tests)
};

/// Result of Algorithm 3.
template <real_scalar Real>
struct sgd_result {
  vector<Real> final_point;                 ///< x^(K+1)
  vector<Real> averaged_point;              ///< x̂^(K+1), the output
  std::vector<Real> averaged_trace;         ///< f(x̂^(k)), k = 1..K+1 (if params.trace)
  accounting::privacy_ledger<Real> ledger;  ///< empty: Algorithm 3 itself spends nothing
  run_status status = run_status::completed;
  long long iterations = 0;
};

/// Runs ev Algorithm 3 on `prob`, drawing the stochastic gradients from `stream`.
/// @throws std::domain_error naming the parameter (K < 1, c not > 0, η < 1),
/// std::invalid_argument for an initial point of the wrong size
/// @spec EV.ALG3
template <real_scalar Real, class Problem>
requires stochastic_problem<Problem, Real> sgd_result<Real> run(
    const Problem& prob, const projected_sgd_params<Real>& params, philox_stream& stream) {
  constexpr const char* fn = "dpref::ev::run (Algorithm 3)";
  if (params.iterations < 1) fail_domain(fn, "params.iterations", ">= 1", params.iterations);
  require_positive(fn, "params.step", params.step);
  if (!is_finite_value(params.eta) || params.eta < Real(1))
    fail_domain(fn, "params.eta", "finite and >= 1", params.eta);
  const Eigen::Index dim = prob.dimension();
  vector<Real> x = vector<Real>::Zero(dim);
  if (params.initial.size() != 0) {
    if (params.initial.size() != dim)
      fail_argument(fn, "params.initial", "empty or of the problem's dimension",
                    params.initial.size());
    x = params.initial;
  }
  vector<Real> x_hat = x, g(dim), y(dim);
  sgd_result<Real> res;
  if (params.trace) res.averaged_trace.push_back(prob.value(x_hat));
  using std::sqrt;
  for (long long k = 1; k <= params.iterations; ++k) {
    prob.stochastic_gradient(x, stream, g);  // step 1
    const Real alpha = params.step / sqrt(Real(k));
    y = x - alpha * g;
    prob.project(y, x);  // step 2
    const Real theta = (params.eta + Real(1)) / (params.eta + Real(k));
    x_hat = (Real(1) - theta) * x_hat + theta * x;
    if (params.trace) res.averaged_trace.push_back(prob.value(x_hat));
  }
  res.final_point = std::move(x);
  res.averaged_point = std::move(x_hat);
  res.iterations = params.iterations;
  return res;
}

}  // namespace dpref::ev

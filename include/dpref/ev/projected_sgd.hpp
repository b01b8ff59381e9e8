// ev Algorithm 3: projected stochastic gradient descent with polynomial-decay averaging
// (Shamir–Zhang), x^(k+1) = Π_X(x^(k) − α_k ĝ_k), x̂^(k+1) = (1 − θ_k) x̂^(k) + θ_k x^(k+1),
// α_k = c/√k, θ_k = (η+1)/(η+k). Proposition 14: E f(x̂^(K+1)) − f* = O(η(ρ²/c + cĜ²)/√K).
// Two forms: generic over a `stochastic_problem` (the analysis of ev §V), and on the EV problem
// with the broadcast ĝ_k = p^(k) + N(0, σ²I) (Algorithm 2 is this with ℓ2-Laplace noise). Both
// are non-private ("private": false): σ is not calibrated. spec/ev.md EV.ALG3, EV.PROP14.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpref/ev/common.hpp"
#include "dpref/ev/iterations.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/run/report.hpp"

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

/// Result of Algorithm 3 on a stochastic_problem (ARCH.RESULT; not private).
template <real_scalar Real>
struct sgd_result : run_report<Real> {
  vector<Real> final_point;                ///< x^(K+1)
  vector<Real> averaged_point;             ///< x̂^(K+1), the output
  std::optional<std::vector<Real>> trace;  ///< f(x̂^(k)), k = 1..K+1 (if params.trace)
};

/// ev Algorithm 3 on a stochastic_problem (the documented variant of the run contract):
/// params.algorithm must be projected_sgd; x^(1) = 0 (start zero) or params.start_vector
/// (public_vector); the stochastic gradients are drawn from a copy of `stream`, in order.
/// @throws invalid_parameter naming the field (K, c, η, algorithm, start, start_vector)
/// @spec EV.ALG3
template <real_scalar Real, class Problem>
requires stochastic_problem<Problem, Real> sgd_result<Real> run(const Problem& prob,
                                                                const params<Real>& params,
                                                                const philox_stream& stream) {
  params.validate();
  const param_checker c("ev::params");
  c.require(params.algorithm == algorithm_kind::projected_sgd, "algorithm",
            "projected_sgd for a stochastic_problem", std::string("another algorithm"));
  c.require(params.start != start_kind::projected_zero, "start",
            "zero or public_vector for a stochastic_problem", std::string("projected_zero"));
  const Eigen::Index dim = prob.dimension();
  vector<Real> x = vector<Real>::Zero(dim);
  if (params.start == start_kind::public_vector) {
    c.require(static_cast<Eigen::Index>(params.start_vector.size()) == dim, "start_vector",
              "of the problem's dimension " + std::to_string(dim), params.start_vector.size());
    for (Eigen::Index i = 0; i < dim; ++i) x[i] = params.start_vector[static_cast<std::size_t>(i)];
  }
  philox_stream s = stream;
  vector<Real> x_hat = x, g(dim), y(dim);
  sgd_result<Real> res;
  res.privacy = non_private<Real>();
  if (params.trace) res.trace.emplace(1, prob.value(x_hat));
  using std::sqrt;
  for (long long k = 1; k <= params.iterations; ++k) {
    prob.stochastic_gradient(x, s, g);  // step 1
    const Real alpha = params.step / sqrt(Real(k));
    y = x - alpha * g;
    prob.project(y, x);  // step 2
    const Real theta = detail::averaging_weight(params.eta, k);
    x_hat = (Real(1) - theta) * x_hat + theta * x;
    if (res.trace) res.trace->push_back(prob.value(x_hat));
  }
  res.final_point = std::move(x);
  res.averaged_point = std::move(x_hat);
  res.iterations = params.iterations;
  res.status = status::completed;
  res.message = "ran K = " + std::to_string(params.iterations) + " iterations (ev Algorithm 3)";
  return res;
}

namespace detail {

/// ĝ_k − p^(k) of Algorithm 3 on the EV problem: N(0, σ²I_T) drawn from substream k of the
/// stream (0 when σ = 0).
/// @spec EV.ALG3.NOISE
template <real_scalar Real>
vector<Real> sgd_gradient_noise(const philox_stream& stream, long long k, Eigen::Index horizon,
                                const Real& sigma) {
  vector<Real> w = vector<Real>::Zero(horizon);
  if (!(sigma > Real(0))) return w;
  philox_stream sk = stream.substream(static_cast<std::uint64_t>(k));
  // not privacy noise: Algorithm 3 is non-private (σ is not calibrated, no ledger event); the
  // noise models the stochastic gradient oracle of Proposition 14
  for (Eigen::Index i = 0; i < horizon; ++i) w[i] = gaussian<Real>(sk, sigma);
  return w;
}

/// ev Algorithm 3 on the EV problem, with every user's stochastic gradient the broadcast
/// ĝ_k = p^(k) + N(0, σ²I) (σ = params.gradient_noise); `params` validated by the caller.
/// @spec EV.ALG3
template <real_scalar Real>
result<Real> run_algorithm3(const problem<Real>& prob, const params<Real>& params,
                            const philox_stream& stream, const progress_fn& progress,
                            const parallel::communicator& comm = parallel::serial()) {
  result<Real> res;
  res.algorithm = algorithm_kind::projected_sgd;
  res.privacy = non_private<Real>();
  res.noise_scale = params.gradient_noise;
  iterate(
      prob, params, true, {"Algorithm 3", "ĝ_k", " (ev Algorithm 3, non-private)"},
      [&](long long k, const vector<Real>&, vector<Real>& g) {
        g += sgd_gradient_noise<Real>(stream, k, prob.horizon(), params.gradient_noise);
      },
      progress, comm, res);
  return res;
}

}  // namespace detail

}  // namespace dpref::ev

// ev Algorithm 1: distributed projected gradient descent with a fixed number of iterations,
// r_i^(k+1) = Π_{C_i}(r_i^(k) − α_k p^(k)), p^(k) = ∇U(Σ_i r_i^(k)) (ev (3)). Non-private.
// spec/ev.md EV.ALG1.
#pragma once

#include "dpref/ev/common.hpp"

namespace dpref::ev {

/// Parameters of Algorithm 1.
template <real_scalar Real>
struct projected_gradient_params {
  long long iterations = 100;  ///< K >= 1
  Real step = Real(1);         ///< c: α_k = c (constant_step) or c/√k
  bool constant_step = true;
  initial_point<Real> initial{};  ///< any start (Algorithm 1 is not private)
  bool trace = true;
  int threads = 1;  ///< >= 1; results are bit-identical for any value (EV.THREADS)
};

/// Runs ev Algorithm 1. The stream is unused (deterministic algorithm); it keeps the
/// run(problem, params, stream) shape of every dpref algorithm.
/// @throws std::domain_error naming the parameter (iterations < 1, step not finite and > 0),
/// std::invalid_argument for a public start of the wrong size
/// @spec EV.ALG1
template <real_scalar Real>
run_result<Real> run(const charging_problem<Real>& prob,
                     const projected_gradient_params<Real>& params, philox_stream& /*stream*/) {
  constexpr const char* fn = "dpref::ev::run (Algorithm 1)";
  if (params.iterations < 1) fail_domain(fn, "params.iterations", ">= 1", params.iterations);
  require_positive(fn, "params.step", params.step);
  if (params.threads < 1) fail_domain(fn, "params.threads", ">= 1", params.threads);
  const long long K = params.iterations;
  const Eigen::Index t = prob.horizon();
  detail::iteration_state<Real> st(prob, detail::initial_schedules(fn, prob, params.initial));
  run_result<Real> res;
  res.released.resize(t, K);
  res.gradients.resize(t, K);
  vector<Real> p(t);
  if (params.trace) res.objective_trace.push_back(prob.value(st.load));
  for (long long k = 1; k <= K; ++k) {
    prob.gradient(st.load, p);  // ev Algorithm 1, step 1
    res.gradients.col(k - 1) = p;
    res.released.col(k - 1) = p;
    // ev Algorithm 1, step 2 (3); θ = 1 keeps r̂ = r
    st.step(prob, p, detail::step_size(params.step, k, params.constant_step), Real(1),
            params.threads);
    if (params.trace) res.objective_trace.push_back(prob.value(st.load));
  }
  if (params.trace) res.averaged_trace = res.objective_trace;
  detail::finish(res, st, prob, K);
  return res;
}

}  // namespace dpref::ev

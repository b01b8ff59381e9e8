// ev Algorithm 1: distributed projected gradient descent with a fixed number of iterations,
// r_i^(k+1) = Π_{C_i}(r_i^(k) − α_k p^(k)), p^(k) = ∇U(Σ_i r_i^(k)) (ev (3)). Non-private: the
// report says "private": false. spec/ev.md EV.ALG1.
#pragma once

#include <string>

#include "dpref/ev/common.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/run/report.hpp"

namespace dpref::ev::detail {

/// ev Algorithm 1 (deterministic: the stream is not used); `params` validated by the caller.
/// α_k = c (constant_step) or c/√k; any start, including the data-dependent Π_{C_i}(0).
/// @spec EV.ALG1
template <real_scalar Real>
result<Real> run_algorithm1(const problem<Real>& prob, const params<Real>& params,
                            const progress_fn& progress,
                            const parallel::communicator& comm = parallel::serial()) {
  const long long K = params.iterations;
  const Eigen::Index t = prob.horizon();
  iteration_state<Real> st(prob, initial_schedules(prob, params.start, params.start_vector), comm);
  result<Real> res;
  res.algorithm = algorithm_kind::projected_gradient;
  res.privacy = non_private<Real>();
  res.released.resize(t, K);
  res.gradients.resize(t, K);
  vector<Real> p(t);
  if (params.trace) res.trace.emplace();
  const auto record = [&] {
    if (res.trace) res.trace->objective.push_back(prob.value(st.load));
  };
  record();
  progress_meter meter(progress);
  for (long long k = 1; k <= K; ++k) {
    prob.gradient(st.load, p);  // ev Algorithm 1, step 1
    res.gradients.col(k - 1) = p;
    res.released.col(k - 1) = p;
    res.iterations = k;
    const Real alpha = step_size(params.step, k, params.constant_step);
    if (!step_is_finite(p, alpha)) {
      res.status = status::diverged;
      res.message = "α_k p^(k) is not finite (or above 1e300) at k = " + std::to_string(k) +
                    "; the schedules of iteration k are returned";
      res.released.conservativeResize(t, k);
      res.gradients.conservativeResize(t, k);
      break;
    }
    // ev Algorithm 1, step 2 (3); θ = 1 keeps r̂ = r
    st.step(prob, p, alpha, Real(1), params.threads, comm);
    record();
    meter.report(
        [&] { return "ev Algorithm 1: iteration " + std::to_string(k) + "/" + std::to_string(K); });
  }
  if (res.trace) res.trace->averaged = res.trace->objective;
  finish(res, st, prob, comm);
  if (res.status != status::diverged) {
    res.status = status::completed;
    res.message = "ran K = " + std::to_string(K) + " iterations (ev Algorithm 1, non-private)";
  }
  return res;
}

}  // namespace dpref::ev::detail

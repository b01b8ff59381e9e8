// The iteration shared by ev Algorithms 1, 2 and 3 (ev (3), §IV): for k = 1..K
//   p^(k) = ∇U(Σ_i r_i^(k))                     (every rank: the load is identical)
//   broadcast b^(k) = p^(k) (Alg. 1), p^(k) + w_k (Alg. 2), p^(k) + N(0, σ²I) (Alg. 3), formed on
//                   the coordinator (rank 0) and shared exactly (DIST.EV)
//   r_i^(k+1) = Π_{C_i}(r_i^(k) − α_k b^(k)),  r̂_i^(k+1) = (1 − θ_k) r̂_i^(k) + θ_k r_i^(k+1)
// with a diverged status (and the schedules of iteration k) when α_k b^(k) is not finite.
// spec/ev.md EV.ALG1, EV.ALG2, EV.ALG3.
#pragma once

#include <string>
#include <utility>

#include "dpref/ev/common.hpp"
#include "dpref/run/report.hpp"

namespace dpref::ev::detail {

/// What tells the algorithms apart in their messages.
struct iteration_labels {
  const char* algorithm;  ///< "Algorithm 2"
  const char* broadcast;  ///< the broadcast's symbol: "p̂^(k)"
  const char* completed;  ///< after "ran K = <K> iterations": " (ev Algorithm 2); ..."
};

/// Runs the iteration into `res` (whose algorithm and privacy the caller set). broadcast(k, p, b)
/// turns b (equal to p = p^(k) on entry) into the broadcast b^(k) on rank 0. `averaged` false: θ_k
/// = 1 (Algorithm 1, r̂ = r; the trace's averaged objective is its objective).
template <real_scalar Real, class Broadcast>
void iterate(const problem<Real>& prob, const params<Real>& params, bool averaged,
             const iteration_labels& labels, Broadcast&& broadcast, const progress_fn& progress,
             const parallel::communicator& comm, result<Real>& res) {
  const long long K = params.iterations;
  const Eigen::Index t = prob.horizon();
  iteration_state<Real> st(prob, initial_schedules(prob, params.start, params.start_vector), comm);
  res.released.resize(t, K);
  res.gradients.resize(t, K);
  vector<Real> p(t), b(t);
  if (params.trace) res.trace.emplace();
  const auto record = [&] {
    if (!res.trace) return;
    res.trace->objective.push_back(prob.value(st.load));
    if (averaged) res.trace->averaged.push_back(prob.value(st.load_hat));
  };
  record();
  progress_meter meter(progress);
  for (long long k = 1; k <= K; ++k) {
    prob.gradient(st.load, p);
    b = p;
    if (comm.is_root()) broadcast(k, std::as_const(p), b);
    parallel::share_from(comm, b);
    res.gradients.col(k - 1) = p;
    res.released.col(k - 1) = b;
    res.iterations = k;
    const Real alpha = step_size(params.step, k, !averaged && params.constant_step);
    if (!step_is_finite(b, alpha)) {
      res.status = status::diverged;
      res.message = std::string("α_k ") + labels.broadcast +
                    " is not finite (or above 1e300) at k = " + std::to_string(k) +
                    "; the schedules of iteration k are returned";
      res.released.conservativeResize(t, k);
      res.gradients.conservativeResize(t, k);
      break;
    }
    const Real theta = averaged ? averaging_weight(params.eta, k) : Real(1);
    st.step(prob, b, alpha, theta, params.threads, comm);
    record();
    meter.report([&] {
      return std::string("ev ") + labels.algorithm + ": iteration " + std::to_string(k) + "/" +
             std::to_string(K);
    });
  }
  if (res.trace && !averaged) res.trace->averaged = res.trace->objective;
  finish(res, st, prob, comm);
  if (res.status == status::diverged) return;
  res.status = status::completed;
  res.message = "ran K = " + std::to_string(K) + " iterations" + labels.completed;
}

}  // namespace dpref::ev::detail

// ev Algorithm 1: distributed projected gradient descent with a fixed number of iterations,
// r_i^(k+1) = Π_{C_i}(r_i^(k) − α_k p^(k)), p^(k) = ∇U(Σ_i r_i^(k)) (ev (3)). Non-private: the
// report says "private": false. spec/ev.md EV.ALG1.
#pragma once

#include <string>

#include "dpref/ev/common.hpp"
#include "dpref/ev/iterations.hpp"
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
  result<Real> res;
  res.algorithm = algorithm_kind::projected_gradient;
  res.privacy = non_private<Real>();
  iterate(
      prob, params, false, {"Algorithm 1", "p^(k)", " (ev Algorithm 1, non-private)"},
      [](long long, const vector<Real>&, vector<Real>&) {}, progress, comm, res);
  return res;
}

}  // namespace dpref::ev::detail

// DP-NAG, accel (4.1): z_t = (1 + β)x_t − βx_{t−1}, x_{t+1} = z_t − α(∇F_{B_t}(z_t) + η_t),
// β = (1 − √(μα))/(1 + √(μα)) (Theorem 4.1), uniform split of Proposition 3.1.
#pragma once

#include "dpref/accel/common.hpp"

namespace dpref::accel::dp_nag {

/// @param p params; requires μα <= 1; beta overrides the default momentum
/// @spec ACCEL.NAG
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
result<Real> run(const Problem& problem, const params<Real>& p, const philox_stream& stream) {
  return detail::run_constant_momentum(algorithm_kind::nag, detail::method::nesterov, true, problem,
                                       p, stream);
}

}  // namespace dpref::accel::dp_nag

// DP-SHB: x_{t+1} = x_t − α(∇F_{B_t}(x_t) + η_t) + β(x_t − x_{t−1}), accel (3.1), x_{−1} = x_0,
// Laplace scale of Proposition 3.1 (uniform split).
// The "smoothing" form (3.6)–(3.7), x_{t+1} = x_t − α/(1 − β) ū_t with
// ū_t = βū_{t−1} + (1 − β)g̃_t, ū_0 = (1 − β)g̃_0, is exactly (3.1): by induction
// α/(1 − β) ū_t = αg̃_t + β·α/(1 − β) ū_{t−1} = αg̃_t + β(x_{t−1} − x_t), which is (3.1) with
// x_{−1} = x_0 (spec/accel.md ACCEL.SHB; tested by the smoothing-form run).
#pragma once

#include "dpref/accel/common.hpp"

namespace dpref::accel::dp_shb {

/// @param p params; beta defaults to (1 − √(μα))/(1 + √(μα)) (accel §5), must be in [0, 1)
/// @spec ACCEL.SHB
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
result<Real> run(const Problem& problem, const params<Real>& p, const philox_stream& stream) {
  return detail::run_constant_momentum(algorithm_kind::shb, detail::method::heavy_ball, false,
                                       problem, p, stream);
}

}  // namespace dpref::accel::dp_shb

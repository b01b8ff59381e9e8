// DP-SHB: x_{t+1} = x_t − α(∇F_{B_t}(x_t) + η_t) + β(x_t − x_{t−1}), accel (3.1), x_{−1} = x_0,
// Laplace scale of Proposition 3.1 (uniform split).
// The "smoothing" form (3.6)–(3.7), x_{t+1} = x_t − α/(1 − β) ū_t with
// ū_t = βū_{t−1} + (1 − β)g̃_t, ū_0 = (1 − β)g̃_0, is exactly (3.1): by induction
// α/(1 − β) ū_t = αg̃_t + β·α/(1 − β) ū_{t−1} = αg̃_t + β(x_{t−1} − x_t), which is (3.1) with
// x_{−1} = x_0 (spec/accel.md ACCEL.SHB; tested by the smoothing-form run).
#pragma once

#include "dpref/algorithms/accel/common.hpp"

namespace dpref::accel::dp_shb {

/// @param p params; beta defaults to (1 − √(μα))/(1 + √(μα)) (accel §5), must be in [0, 1)
/// @spec ACCEL.SHB
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
result<Real> run(const Problem& problem, const params<Real>& p, const philox_stream& stream) {
  constexpr const char* fn = "accel::dp_shb::run";
  const long long m = detail::validate_common(fn, problem, p);
  const Real a = detail::resolve_alpha(problem, p);
  const Real be = p.beta ? *p.beta : detail::nesterov_beta(fn, problem.strong_convexity(), a);
  if (!(be >= Real(0) && be < Real(1))) fail_domain(fn, "params.beta", "in [0, 1)", be);
  detail::plan<Real> pl;
  pl.kind = detail::method::heavy_ball;
  pl.alpha.assign(static_cast<std::size_t>(p.T), a);
  pl.beta.assign(static_cast<std::size_t>(p.T), be);
  pl.restart.assign(static_cast<std::size_t>(p.T), 0);
  result<Real> r;
  r.alpha = a;
  r.beta = be;
  detail::uniform_noise(p, problem.l1_sensitivity(), problem.size(), m, p.T, pl, r);
  return detail::execute(problem, p, m, pl, std::move(r), stream);
}

}  // namespace dpref::accel::dp_shb

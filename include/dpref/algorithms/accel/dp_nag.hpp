// DP-NAG, accel (4.1): z_t = (1 + β)x_t − βx_{t−1}, x_{t+1} = z_t − α(∇F_{B_t}(z_t) + η_t),
// β = (1 − √(μα))/(1 + √(μα)) (Theorem 4.1), uniform split of Proposition 3.1.
#pragma once

#include "dpref/algorithms/accel/common.hpp"

namespace dpref::accel::dp_nag {

/// @param p params; requires μα <= 1; beta overrides the default momentum
/// @spec ACCEL.NAG
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
result<Real> run(const Problem& problem, const params<Real>& p, const philox_stream& stream) {
  constexpr const char* fn = "accel::dp_nag::run";
  const long long m = detail::validate_common(fn, problem, p);
  const Real a = detail::resolve_alpha(problem, p);
  const Real nb = detail::nesterov_beta(fn, problem.strong_convexity(), a);
  const Real be = p.beta ? *p.beta : nb;
  if (!(be >= Real(0) && be < Real(1))) fail_domain(fn, "params.beta", "in [0, 1)", be);
  detail::plan<Real> pl;
  pl.kind = detail::method::nesterov;
  pl.alpha.assign(static_cast<std::size_t>(p.T), a);
  pl.beta.assign(static_cast<std::size_t>(p.T), be);
  pl.restart.assign(static_cast<std::size_t>(p.T), 0);
  result<Real> r;
  r.alpha = a;
  r.beta = be;
  detail::uniform_noise(p, problem.l1_sensitivity(), problem.size(), m, p.T, pl, r);
  return detail::execute(problem, p, m, pl, std::move(r), stream);
}

}  // namespace dpref::accel::dp_nag

// DP-GD: x_{t+1} = x_t − α(∇F_{B_t}(x_t) + η_t), accel (2.4) with (2.7)–(2.8), uniform budget
// split of Proposition 3.1.
#pragma once

#include "dpref/accel/common.hpp"

namespace dpref::accel::dp_gd {

/// @param problem objective (logistic_regression, quadratic, …) @param p params (T, m, eps,
/// alpha or c, x0, noise) @param stream caller's (seed, stream); step t reads substream t
/// @return result @throws invalid_parameter naming the field; accounting::budget_exceeded (nothing
/// released)
/// @spec ACCEL.GD
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
result<Real> run(const Problem& problem, const params<Real>& p, const philox_stream& stream) {
  const long long m = detail::validate_common(problem, p);
  detail::plan<Real> pl;
  pl.kind = detail::method::gd;
  const Real a = detail::resolve_alpha(problem, p);
  pl.alpha.assign(static_cast<std::size_t>(p.iterations), a);
  pl.beta.assign(static_cast<std::size_t>(p.iterations), Real(0));
  pl.restart.assign(static_cast<std::size_t>(p.iterations), 0);
  result<Real> r;
  r.algorithm = algorithm_kind::gd;
  r.alpha = a;
  r.smoothness = detail::public_L(problem, p);
  detail::uniform_noise(p, problem.l1_sensitivity(), problem.size(), m, p.iterations, pl, r,
                        static_cast<long long>(problem.dimension()));
  return detail::execute(problem, p, m, pl, std::move(r), stream);
}

}  // namespace dpref::accel::dp_gd

// DP-MASG: multistage NAG (Aybat et al. 2019) with stages (4.7), noise (2.8) with the uniform
// split of Proposition 3.1. Stage k runs NAG (4.1) with α^(k) and
// β^(k) = (1 − √(μα^(k)))/(1 + √(μα^(k))) (accel §5); each stage k >= 2 restarts the momentum
// from the last iterate of the previous stage (x_{−1} = x_0 of the stage), as in MASG.
#pragma once

#include "dpref/accel/common.hpp"
#include "dpref/accel/masg_schedule.hpp"

namespace dpref::accel {
namespace detail {
template <class Problem, real_scalar Real>
masg_schedule<Real> masg_plan(const Problem& problem, const params<Real>& p, long long T,
                              plan<Real>& pl) {
  const Real mu = problem.strong_convexity(), L = detail::public_L(problem, p);
  // α^(1) = c/L: c = params.c, or params.alpha·L when α is given.
  if (!(mu <= L))
    param_checker("accel::params").fail("L", ">= mu = " + ::dpref::detail::to_text(mu), L);
  const Real c = p.alpha ? *p.alpha * L : p.c;
  if (!(c <= Real(1)))
    param_checker("accel::params")
        .fail(p.alpha ? "alpha" : "c", "such that alpha <= 1/L (accel (4.7))",
              p.alpha ? *p.alpha : p.c);
  masg_schedule<Real> s = make_masg_schedule(T, mu, L, p.masg_p, p.masg_n1.value_or(0), c);
  pl.kind = method::nesterov;
  pl.alpha.resize(static_cast<std::size_t>(T));
  pl.beta.resize(static_cast<std::size_t>(T));
  pl.restart.assign(static_cast<std::size_t>(T), 0);
  for (long long t = 0; t < T; ++t) {
    const long long k = s.stage_of[static_cast<std::size_t>(t)];
    const Real a = s.stage_step[static_cast<std::size_t>(k - 1)];
    pl.alpha[static_cast<std::size_t>(t)] = a;
    pl.beta[static_cast<std::size_t>(t)] = nesterov_beta(mu, a);
    if (t > 0 && s.stage_of[static_cast<std::size_t>(t - 1)] != k)
      pl.restart[static_cast<std::size_t>(t)] = 1;
  }
  return s;
}
}  // namespace detail

namespace dp_masg {
/// @param p params (alpha or c gives α^(1); masg_p, masg_n1) @spec ACCEL.MASG
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
result<Real> run(const Problem& problem, const params<Real>& p, const philox_stream& stream) {
  const long long m = detail::validate_common(problem, p);
  detail::plan<Real> pl;
  detail::masg_plan(problem, p, p.iterations, pl);
  result<Real> r;
  r.algorithm = algorithm_kind::masg;
  r.smoothness = detail::public_L(problem, p);
  r.alpha = pl.alpha.front();
  r.beta = pl.beta.front();
  detail::uniform_noise(p, problem.l1_sensitivity(), problem.size(), m, p.iterations, pl, r,
                        static_cast<long long>(problem.dimension()));
  return detail::execute(problem, p, m, pl, std::move(r), stream);
}
}  // namespace dp_masg

}  // namespace dpref::accel

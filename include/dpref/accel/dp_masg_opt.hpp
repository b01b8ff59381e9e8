// DP-MASG-opt: DP-MASG with the budget split of Proposition 4.2 for the weights a_{T,t} of
// Theorem 4.3 (4.8); with params.E0 set, T′ ≤ T minimises the optimal-split bound over the
// schedule's prefixes (accel §5). m < n as in DP-NAG-opt (Remark 4.2).
#pragma once

#include "dpref/accel/bounds_masg.hpp"
#include "dpref/accel/dp_masg.hpp"

namespace dpref::accel::dp_masg_opt {

/// @spec ACCEL.MASGOPT
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
result<Real> run(const Problem& problem, const params<Real>& p, const philox_stream& stream) {
  const long long m = detail::validate_common(problem, p);
  const Real mu = problem.strong_convexity(), L = detail::public_L(problem, p);
  const Real S1 = problem.l1_sensitivity();
  long long T = p.iterations;
  detail::plan<Real> pl;
  masg_schedule<Real> s = detail::masg_plan(problem, p, T, pl);
  if (p.E0 && p.noise == noise_mode::calibrated) {
    T = bounds::masg_choose_T(s, p.iterations, *p.E0, mu, L, problem.dimension(), S1,
                              problem.size(), p.epsilon)
            .first;
    pl.alpha.resize(static_cast<std::size_t>(T));
    pl.beta.resize(static_cast<std::size_t>(T));
    pl.restart.resize(static_cast<std::size_t>(T));
  }
  const auto w = bounds::masg_weights(s, T, mu, L);
  result<Real> r;
  r.algorithm = algorithm_kind::masg_opt;
  r.smoothness = L;
  r.alpha = pl.alpha.front();
  r.beta = pl.beta.front();
  detail::optimised_noise(p, S1, problem.size(), m, w.a, pl, r,
                          static_cast<long long>(problem.dimension()));
  return detail::execute(problem, p, m, pl, std::move(r), stream);
}

}  // namespace dpref::accel::dp_masg_opt

// DP-NAG-opt: DP-NAG (4.1) with the budget split of Proposition 4.2,
//   b_t = S₁ Σ_j a_{T,j}^{1/3} / (a_{T,t}^{1/3} n ε)   (4.5), a_{T,t} = (1 − √(μα))^{T−t} α(1 +
//   αL),
// and, when params.E0 is set, T′ ≤ T minimising the bound (4.6) (Remark 4.1; accel §5 uses
// E0 = 10; the paper's (4.3)/(4.6), not the authors' code's weights: errata ACC-E6). For m < n
// (Remark 4.2) the same ε_t split is used and b_t solves (3.3) for ε_t, so the ledger still sums to
// ε. a_{T,t} increases with t (errata ACC-E5), so b_t decreases.
#pragma once

#include "dpref/accel/common.hpp"

namespace dpref::accel::dp_nag_opt {

/// @param p params; requires αL <= 1 (Theorem 4.1) @spec ACCEL.NAGOPT
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
result<Real> run(const Problem& problem, const params<Real>& p, const philox_stream& stream) {
  const long long m = detail::validate_common(problem, p);
  const Real a = detail::resolve_alpha(problem, p);
  const Real mu = problem.strong_convexity(), L = detail::public_L(problem, p);
  // αL <= 1 (Theorem 4.1), checked on c when α = c/L (c/L·L may round above 1).
  if (p.alpha ? a * L > Real(1) : p.c > Real(1))
    param_checker("accel::params")
        .fail(p.alpha ? "alpha" : "c", "such that alpha <= 1/L (Theorem 4.1)", p.alpha ? a : p.c);
  const Real be = detail::nesterov_beta(mu, a);
  const Real S1 = problem.l1_sensitivity();
  long long T = p.iterations;
  if (p.E0 && p.noise == noise_mode::calibrated)
    T = remark41_choose_T(*p.E0, mu, a, L, problem.dimension(), S1, problem.size(), p.epsilon,
                          p.iterations)
            .T;
  detail::plan<Real> pl;
  pl.kind = detail::method::nesterov;
  pl.alpha.assign(static_cast<std::size_t>(T), a);
  pl.beta.assign(static_cast<std::size_t>(T), be);
  pl.restart.assign(static_cast<std::size_t>(T), 0);
  result<Real> r;
  r.algorithm = algorithm_kind::nag_opt;
  r.smoothness = L;
  r.alpha = a;
  r.beta = be;
  detail::optimised_noise(p, S1, problem.size(), m, nag_weights(T, mu, a, L), pl, r,
                          static_cast<long long>(problem.dimension()));
  return detail::execute(problem, p, m, pl, std::move(r), stream);
}

}  // namespace dpref::accel::dp_nag_opt

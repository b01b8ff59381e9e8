// M_E's rejection sampler with f_lo from the exact LP (pwa::solve, spec/pwa.md PWA.SOLVE): the
// dual certificate's bound g(λ, μ) ≤ f_opt minus the rounding slack of evaluating it, the
// tightest f_lo, hence the highest acceptance exp(−(f − f_lo)/scale) of the exact rejection
// sampler. spec/pwa_sampler.md PWA.ME.REJECTION.
//
// f_lo depends on the private b, but it only changes how many proposals are drawn, never the law
// of the accepted sample (any f_lo ≤ min_P f gives the exact density): the released x keeps
// Theorem 19's ε; the running time and attempt counts are not covered (as for every sampler).
#pragma once

#include "dpref/pwa/exponential_mechanism.hpp"
#include "dpref/pwa/solve.hpp"

namespace dpref::pwa {

/// f_lo = g(λ, μ) − slack ≤ min_P f from the LP's dual certificate: for x ∈ P,
/// f(x) ≥ Σλ_i(a_iᵀx + b_i) + μᵀ(Gx − h) ≥ λᵀb − μᵀh − c‖Aᵀλ + Gᵀμ‖₁ (weak duality); the slack
/// covers the rounding of that evaluation (64 (m + d + k) ulps of its terms).
/// @throws whatever pwa::solve throws (empty P, simplex limit) @spec PWA.ME.REJECTION
template <real_scalar Real>
Real lp_lower_bound(const piecewise_affine<Real>& F) {
  const auto sol = solve(F);
  using std::abs;
  const auto& P = F.polytope();
  Real rows(0);
  for (Eigen::Index k = 0; k < P.G.rows(); ++k) {
    Real r = abs(P.h[k]);
    for (Eigen::Index j = 0; j < P.G.cols(); ++j) r += P.box * abs(P.G(k, j));
    rows += sol.certificate.mu[k] * r;
  }
  const Real slack = detail::combination_slack(F) +
                     Real(64) * Real(F.pieces() + F.dimension() + static_cast<int>(P.G.rows())) *
                         machine_epsilon<Real>() * rows;
  return sol.lower_bound - slack;
}

/// The exponential mechanism with cfg.f_lower = lp_lower_bound(F).
/// @spec PWA.ME.REJECTION
template <real_scalar Real>
exponential_mechanism<Real> make_exponential_mechanism_lp(const piecewise_affine<Real>& F,
                                                          const Real& epsilon,
                                                          me_config<Real> cfg = {}) {
  cfg.f_lower = lp_lower_bound(F);
  return exponential_mechanism<Real>(F, epsilon, std::move(cfg));
}

}  // namespace dpref::pwa

// How each public constant of a private pwa run holds for the data it processes (spec/
// privacy_bounds.md PRIV.BOUNDS, pwa section): the privacy.enforced list of pwa::run.
//   bmax           derived: under the adjacency (4), max_i |b_i − b′_i| ≤ bmax, every utility
//                  a_iᵀx + b_i moves by at most bmax (Lemma 18) and b by at most √m·bmax in ℓ2
//                  (Theorem 16), for every b: bmax is the privacy unit, not a bound on |b_i|, so
//                  no record can violate it. Secure Algorithm 2 / M_E: the ledger's Δu adds the
//                  rounding of the utilities computed in double (pwa/secure.hpp).
//   c (M_S)        clip: Δ = diam P is the ℓ2 diameter of the public bounding box of P; x_opt is
//                  projected onto it before the noise (the LP's x_opt leaves P by its rounding
//                  when |b_i| is large: 0.15 at |b_i| ≈ 2^49).
//   release_clamp  clip (secure M_P, Algorithm 2, M_E): every b_i is clamped to [−C, C].
#pragma once

#include <string>
#include <vector>

#include "dpref/pwa/params.hpp"
#include "dpref/pwa/problem.hpp"
#include "dpref/run/report.hpp"

namespace dpref::pwa {

/// The enforced public constants of a private run of `p.algorithm` on `prob` (empty for the
/// non-private algorithms). @spec PRIV.BOUNDS PRIV.PWA.BMAX PRIV.PWA.C PRIV.PWA.RELEASE_CLAMP
template <real_scalar Real>
std::vector<enforced_bound<Real>> enforced_bounds(const piecewise_affine<Real>& prob,
                                                  const params<Real>& p) {
  std::vector<enforced_bound<Real>> out;
  if (!is_private(p.algorithm)) return out;
  const bool secure = p.release == noise_mode::secure;
  const bool utilities = p.algorithm == algorithm_kind::private_subgradient ||
                         p.algorithm == algorithm_kind::exponential;
  if (p.algorithm == algorithm_kind::perturb_solution) {
    out.push_back({"c", prob.polytope().box, enforcement::clip,
                   "Δ = diam P is the ℓ2 diameter of the public bounding box of P (2√d·c for the "
                   "box [−c, c]^d); x_opt is projected onto that box before the noise, so any two "
                   "released statistics are within Δ in ℓ2 whatever the LP's rounding (the "
                   "identity on x_opt ∈ P)"});
    return out;
  }
  if (p.algorithm == algorithm_kind::perturb_data)
    out.push_back({"bmax", prob.bmax(), enforcement::derived,
                   "Δ = √m·bmax is the ℓ2 sensitivity of b under the adjacency (4) "
                   "max_i |b_i − b′_i| <= bmax (Theorem 16), true of every b: bmax is the privacy "
                   "unit, not a bound on |b_i|, so no record can violate it"});
  else if (!secure)
    out.push_back({"bmax", prob.bmax(), enforcement::derived,
                   "Δu = bmax: under the adjacency (4) every utility a_iᵀx + b_i (A and x "
                   "public) moves by at most bmax (Lemma 18), true of every b: bmax is the privacy "
                   "unit, not a bound on |b_i|, so no record can violate it"});
  else
    out.push_back({"bmax", prob.bmax(), enforcement::derived,
                   "Δu = bmax + (d + 1)·2^−52·(T + C): the utilities fl(fl(a_iᵀx) + b_i) computed "
                   "in double move by at most bmax under the adjacency (4) (Lemma 18) plus their "
                   "rounding, bounded with the public T >= |a_iᵀx| and the clamp C, for every b"});
  if (secure)
    out.push_back({"release_clamp", p.release_clamp, enforcement::clip,
                   utilities
                       ? "every b_i is clamped to [−C, C] before the utilities are computed "
                         "(coordinatewise: C bounds their rounding, not a sensitivity; clamping is "
                         "1-Lipschitz, so neighbours stay neighbours under (4))"
                       : "every b_i is clamped to [−C, C] before the lattice release "
                         "(coordinatewise: C bounds the lattice's range, not a sensitivity; "
                         "clamping is 1-Lipschitz per coordinate, so Δ = √m·bmax still bounds the "
                         "ℓ2 distance)"});
  return out;
}

}  // namespace dpref::pwa

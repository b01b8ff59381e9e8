// Secure mode of the pwa mechanisms (spec/pwa.md SEC.PWA; spec/secure_release.md SEC.MODE,
// SEC.VLAPLACE). M_P and M_S release the lattice ℓ2-Laplace instead of x + w in floating point:
//   M_P (Theorem 16): b̃ = 2^g (round(clamp(b, −C, C)/2^g) + round(W)), Δ = √m·bmax, d = m,
//       C = params.release_clamp (PUBLIC: a caller-given bound on |b_i|; (4) bounds only the
//       differences b − b′, so no bound on b itself is public in the paper);
//   M_S (§4.2): x̃ = 2^g (round(clamp(x_opt, −c, c)/2^g) + round(W)), Δ = diam P, d = d,
//       C = c, the public box (x_opt ∈ P ⊂ [−c, c]^d: the clamp is the identity on x_opt).
// Clamping is 1-Lipschitz, so Δ bounds the clamped query's sensitivity; the calibration meets ε
// (ε/√d for M_S's noise_rule paper, errata PWA-E4) for the INFLATED Δ + √d 2^g
// (SEC.ACC.VLAPLACE): ε_rel = (Δ + √d 2^g)/(2^g t) with t the smallest integer meeting the
// target; the target is lowered by a few ulps while the accountant's total exceeds it.
// Algorithm 2 (private_subgradient) and M_E with the rejection sampler release no floating-point
// noise sum: Algorithm 2 releases indices drawn by the exact integer / Bernoulli samplers (the
// iterates are post-processing), and the rejection sampler's output is a proposal on a
// data-independent grid (uniform on the box) accepted by an exact Bernoulli. Their utilities
// u_i = a_iᵀx + b_i are computed in double, and the rounding of fl(fl(a_iᵀx) + b_i) is absolute
// (2^−53 |u_i|), not relative to bmax: with bmax below the resolution of |u_i| two neighbours'
// computed utilities differ by far more than bmax (b_1 = 2^−53 − 2^−106 vs 2^−53 + 2^−105 at
// a_1ᵀx = 1: 2^−52 = 2^51·bmax for bmax = 2^−103). In secure mode they therefore run on
// clamp(b, −C, C) (C = release_clamp) with the computed-utility sensitivity
// Δu = bmax + (d + 1)·2^−52·(T + C) (+ the subnormal spacing) in the ledger, T a public bound on
// |fl(a_iᵀx)| (PRIV.PWA.BMAX, PRIV.PWA.RELEASE_CLAMP). The weights exp(−γ) are still evaluated
// in double: a relative rounding of 2^−52 in the exponent, not in the ledger (spec/pwa.md
// SEC.PWA).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include "dpref/accounting/accountant.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "dpref/pwa/problem.hpp"

namespace dpref::pwa {

/// Grid precision s of the lattice rule (SEC.LATTICE.RULE).
inline constexpr int secure_grid_precision = 20;

/// One lattice ℓ2-Laplace release and its plan ledger. @spec SEC.PWA
struct secure_vector_plan {
  mechanisms::snapped_vector_laplace_params release;
  accounting::ledger<double> ledger;
  /// Scale t 2^g in x units.
  [[nodiscard]] double scale() const {
    return std::ldexp(static_cast<double>(release.grid_scale()), release.grid_exponent);
  }
};

/// Calibrates one lattice ℓ2-Laplace release of a d-vector with ℓ2 sensitivity Δ (certified)
/// and public clamp C so that the ledger's certified ε is <= `target` (see the file comment).
/// @throws std::domain_error / invalid_parameter for invalid arguments; std::logic_error if no
///   target certifies (never observed)
/// @spec SEC.PWA
inline secure_vector_plan calibrate_secure_vector_laplace(double sensitivity, double target,
                                                          long long dimension, double clamp,
                                                          const std::string& label) {
  secure_vector_plan p;
  for (int attempt = 0; attempt < 48; ++attempt) {
    const double shrink = attempt == 0 ? 1.0 : 1.0 - std::ldexp(1.0, attempt - 50);
    p.release = mechanisms::snapped_vector_laplace_for(sensitivity, target * shrink, dimension,
                                                       clamp, secure_grid_precision);
    p.ledger = accounting::ledger<double>{};
    p.ledger.record(p.release.event<double>(1, label));
    if (!(p.ledger.total().epsilon > target)) return p;
  }
  throw std::logic_error("dpref::pwa::calibrate_secure_vector_laplace: no scale certifies epsilon");
}

/// b clamped to [−C, C] coordinatewise (the magnitude bound of secure mode; clamping is
/// 1-Lipschitz per coordinate, so neighbours under (4) stay neighbours).
/// @spec PRIV.PWA.RELEASE_CLAMP
inline vector<double> clamp_data(const vector<double>& b, double C) {
  vector<double> out = b;
  for (Eigen::Index i = 0; i < out.size(); ++i)
    out[i] = out[i] < -C ? -C : (out[i] > C ? C : out[i]);
  return out;
}

/// T = 2·G·X ≥ |fl(a_iᵀx)| for every i and every x with ‖x‖₂ ≤ X (G = max‖a_i‖₂; the factor
/// 2 covers the rounding of the dot product, of G and of X), rounded up. @spec PRIV.PWA.BMAX
inline double dot_magnitude_bound(double G, double X) {
  accounting::certifier<double> c;
  return c.up(accounting::work_real(2) * c.in(G)*c.in(X));
}

/// The sensitivity of the utilities u_i = fl(fl(a_iᵀx) + b_i) computed in double between
/// neighbours under (4) with |b_i| ≤ C and |fl(a_iᵀx)| ≤ T (the same t_i = fl(a_iᵀx) for both:
/// A and x are public): bmax + (d + 1)·2^−52·(T + C) + (d + 1)·2^−1073, rounded up. Each of
/// the at most d + 1 roundings of a sum that involves b_i errs by ≤ 2^−53 of its magnitude
/// (≤ T + C: T has a factor 2 of slack over ‖a_i‖‖x‖) or by half the subnormal spacing, once per
/// neighbour (a GEMV that accumulates b_i into the dot product has d + 1 such roundings, one
/// addition after it has 1).
/// @spec PRIV.PWA.BMAX SEC.PWA
inline double secure_utility_sensitivity(double bmax, double T, double C, int d) {
  accounting::certifier<double> c;
  using accounting::work_real;
  const work_real n = work_real(d + 1);
  const work_real rounding = n * c.in(0x1p-52) * (c.in(T) + c.in(C)) + n * c.in(0x1p-1073);
  return c.up(c.in(bmax) + rounding);
}

/// The problem the secure exponential mechanisms (Algorithm 2, M_E) run on: b clamped to
/// [−C, C] and bmax replaced by secure_utility_sensitivity(bmax, T, C, d), the Δu the ledger
/// records (T: dot_magnitude_bound over the points where the utilities are evaluated).
/// @spec PRIV.PWA.BMAX PRIV.PWA.RELEASE_CLAMP SEC.PWA
inline piecewise_affine<double> secure_utility_problem(const piecewise_affine<double>& prob,
                                                       double C, double T) {
  return piecewise_affine<double>(prob.A(), clamp_data(prob.b(), C), prob.polytope(),
                                  secure_utility_sensitivity(prob.bmax(), T, C, prob.dimension()));
}

}  // namespace dpref::pwa

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
// data-independent grid (uniform on the box) accepted by an exact Bernoulli; both run unchanged
// in secure mode (the weights exp(−γ) are evaluated in double: a relative rounding of 2^−52 in
// the exponent, not in the ledger — spec/pwa.md SEC.PWA).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include "dpref/accounting/accountant.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"

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

}  // namespace dpref::pwa

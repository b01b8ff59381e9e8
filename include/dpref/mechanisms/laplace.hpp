// Scalar Laplace mechanism M(x) = x + Lap(b) (accel Theorem A.1: ε = Δ1/b; spec/mechanisms.md
// MECH.LAPLACE). The noise is the reference inversion sampler dpref::laplace<Real>.
//
// Floating point: the released value x + Lap(b) is rounded; its low-order bits depend on x
// (Mironov 2012), so the double release is NOT ε-DP against an adversary who reads every bit
// (the auditor's low-order-bit events expose it, AUDIT.MECH.LAPLACE.FPBITS). Use
// dpref::secure::snapped_laplace when the raw bits are published.
//
// laplace_noise is the mechanism as a measurement (spec/architecture.md ARCH.MEASUREMENTS): one
// object holds the ℓ1 sensitivity and the scale b, draws Lap(b) per coordinate and returns the
// ledger event laplace{Δ1, b} from the same two members.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "dpref/accounting/event.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/measurement.hpp"
#include "dpref/random/fast.hpp"
#include "dpref/random/laplace.hpp"

namespace dpref::mechanisms {

/// x + Lap(scale) with the reference sampler.
/// @param s bit stream @param value query value x (finite) @param scale b > 0 (b = Δ1/ε)
/// @return the noisy value @throws std::domain_error for non-finite x or b <= 0
/// @spec MECH.LAPLACE
template <real_scalar Real>
Real laplace_mechanism(philox_stream& s, const Real& value, const Real& scale) {
  require_finite("dpref::mechanisms::laplace_mechanism", "value", value);
  require_positive("dpref::mechanisms::laplace_mechanism", "scale", scale);
  return value + laplace<Real>(s, scale);
}

/// x + Lap(scale) with the fast double sampler dpref::fast::laplace (one word per draw).
/// @throws std::domain_error for non-finite x or b <= 0
/// @spec MECH.LAPLACE
inline double laplace_mechanism_fast(philox_stream& s, double value, double scale) {
  require_finite("dpref::mechanisms::laplace_mechanism_fast", "value", value);
  return value + fast::laplace(s, scale);
}

/// The scalar/coordinate-wise Laplace mechanism as a measurement: Lap(b) per coordinate on a
/// query of ℓ1 sensitivity Δ1, and its ledger event laplace{Δ1, b} from the same members.
/// @spec MECH.LAPLACE ARCH.MEASUREMENTS
template <real_scalar Real>
struct laplace_noise : measurement<laplace_noise<Real>, Real> {
  Real sensitivity{};  ///< ℓ1 sensitivity Δ1 of the query the noise is added to
  Real scale{};        ///< Laplace scale b

  laplace_noise() = default;
  laplace_noise(const Real& l1_sensitivity, const Real& b)
      : sensitivity(l1_sensitivity), scale(b) {}
  /// The measurement of a ledger's laplace event (the same Δ1 and b).
  explicit laplace_noise(const accounting::laplace_mechanism<Real>& m)
      : sensitivity(m.sensitivity), scale(m.scale) {}

  /// The accounting kind of this noise: laplace{Δ1, b}.
  [[nodiscard]] accounting::laplace_mechanism<Real> mechanism() const {
    return {sensitivity, scale};
  }
  /// One Lap(b) draw (reference inversion sampler). @throws std::domain_error if b <= 0
  [[nodiscard]] Real draw(philox_stream& s) const { return laplace<Real>(s, scale); }
  /// v_j += Lap(b) for j = 0..size−1, in order (one draw per coordinate).
  template <class Vec>
  void add_to(philox_stream& s, Vec&& v) const {
    for (Eigen::Index j = 0; j < v.size(); ++j) v[j] += laplace<Real>(s, scale);
  }
};

}  // namespace dpref::mechanisms

// Scalar Laplace mechanism M(x) = x + Lap(b) (accel Theorem A.1: ε = Δ1/b; spec/mechanisms.md
// MECH.LAPLACE). The noise is the reference inversion sampler dpref::laplace<Real>.
//
// Floating point: the released value x + Lap(b) is rounded; its low-order bits depend on x
// (Mironov 2012), so the double release is NOT ε-DP against an adversary who reads every bit
// (the auditor's low-order-bit events expose it, AUDIT.MECH.LAPLACE.FPBITS). Use
// dpref::secure::snapped_laplace when the raw bits are published.
#pragma once

#include "dpref/error.hpp"
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

}  // namespace dpref::mechanisms

// Gaussian mechanism M(x) = x + N(0, σ²) (spec/mechanisms.md MECH.GAUSSIAN); its (ε, δ) is the
// exact Balle–Wang curve (dpref::accounting::analytic_gaussian_delta).
#pragma once

#include "dpref/error.hpp"
#include "dpref/random/gaussian.hpp"

namespace dpref::mechanisms {

/// x + N(0, sigma^2) with the reference inversion sampler.
/// @param s bit stream @param value x (finite) @param sigma σ > 0
/// @return the noisy value @throws std::domain_error for non-finite x or σ <= 0
/// @spec MECH.GAUSSIAN
template <real_scalar Real>
Real gaussian_mechanism(philox_stream& s, const Real& value, const Real& sigma) {
  require_finite("dpref::mechanisms::gaussian_mechanism", "value", value);
  require_positive("dpref::mechanisms::gaussian_mechanism", "sigma", sigma);
  return value + gaussian<Real>(s, sigma);
}

}  // namespace dpref::mechanisms

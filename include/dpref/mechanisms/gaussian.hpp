// Gaussian mechanism M(x) = x + N(0, σ²) (spec/mechanisms.md MECH.GAUSSIAN); its (ε, δ) is the
// exact Balle–Wang curve (dpref::accounting::analytic_gaussian_delta).
//
// gaussian_noise is the mechanism as a measurement (spec/architecture.md ARCH.MEASUREMENTS): one
// object holds the ℓ2 sensitivity and σ, draws the noise with σ and returns the ledger event of
// exactly that noise from the same two members, so what is drawn is what is charged.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "dpref/accounting/event.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/measurement.hpp"
#include "dpref/random/fast.hpp"
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

/// The Gaussian mechanism as a measurement: N(0, σ²) noise per coordinate on a query of ℓ2
/// sensitivity Δ2, and its ledger event gaussian{Δ2, σ} built from the same members.
/// @spec MECH.GAUSSIAN ARCH.MEASUREMENTS
template <real_scalar Real>
struct gaussian_noise : measurement<gaussian_noise<Real>, Real> {
  Real sensitivity{};  ///< ℓ2 sensitivity Δ2 of the query the noise is added to
  Real sigma{};        ///< noise standard deviation σ

  gaussian_noise() = default;
  gaussian_noise(const Real& l2_sensitivity, const Real& sd)
      : sensitivity(l2_sensitivity), sigma(sd) {}
  /// The measurement of a ledger's gaussian event (the same Δ2 and σ).
  explicit gaussian_noise(const accounting::gaussian_mechanism<Real>& m)
      : sensitivity(m.sensitivity), sigma(m.sigma) {}

  /// The accounting kind of this noise: gaussian{Δ2, σ}.
  [[nodiscard]] accounting::gaussian_mechanism<Real> mechanism() const {
    return {sensitivity, sigma};
  }
  /// One N(0, σ²) draw (reference inversion sampler). @throws std::domain_error if σ <= 0
  [[nodiscard]] Real draw(philox_stream& s) const { return gaussian<Real>(s, sigma); }
  /// v_j += N(0, σ²) for j = 0..size−1, in order (one draw per coordinate).
  template <class Vec>
  void add_to(philox_stream& s, Vec&& v) const {
    for (Eigen::Index j = 0; j < v.size(); ++j) v[j] += gaussian<Real>(s, sigma);
  }
  /// v_j += N(0, σ²) with the fast double sampler dpref::fast::gaussian (double only).
  template <class Vec>
  void add_to_fast(philox_stream& s, Vec&& v) const requires std::is_same_v<Real, double> {
    for (Eigen::Index j = 0; j < v.size(); ++j) v[j] += fast::gaussian(s, sigma);
  }
};

}  // namespace dpref::mechanisms

// ℓ2 (vector) Laplace mechanism M(x) = x + w, density of w ∝ exp(−‖w‖₂/b)
// (pwa Theorem 9, ev Proposition 11: ε = Δ2/b; spec/mechanisms.md MECH.VLAPLACE).
//
// vector_laplace_noise is the mechanism as a measurement (spec/architecture.md
// ARCH.MEASUREMENTS): one object holds the ℓ2 sensitivity and the scale b, draws w and returns
// the ledger event vector_laplace{Δ2, b} from the same two members.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "dpref/accounting/event.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/measurement.hpp"
#include "dpref/random/vector_laplace.hpp"

namespace dpref::mechanisms {

/// x + w with w ~ ℓ2-Laplace(b) in R^d, d = x.size().
/// @param s bit stream @param value x (non-empty, finite entries) @param scale b > 0 (b = Δ2/ε)
/// @return the noisy vector @throws std::domain_error for empty/non-finite x or b <= 0
/// @spec MECH.VLAPLACE
template <real_scalar Real>
vector<Real> vector_laplace_mechanism(philox_stream& s, const vector<Real>& value,
                                      const Real& scale) {
  constexpr const char* fn = "dpref::mechanisms::vector_laplace_mechanism";
  if (value.size() == 0) fail_domain(fn, "value.size()", ">= 1", value.size());
  for (Eigen::Index i = 0; i < value.size(); ++i) require_finite(fn, "value[i]", value[i]);
  require_positive(fn, "scale", scale);
  vector<Real> w = vector_laplace<Real>(s, static_cast<std::size_t>(value.size()), scale);
  w += value;
  return w;
}

/// The ℓ2 (vector) Laplace mechanism as a measurement: w with density ∝ exp(−‖w‖₂/b) on a
/// query of ℓ2 sensitivity Δ2, and its ledger event vector_laplace{Δ2, b} from the same members.
/// @spec MECH.VLAPLACE ARCH.MEASUREMENTS
template <real_scalar Real>
struct vector_laplace_noise : measurement<vector_laplace_noise<Real>, Real> {
  Real sensitivity{};  ///< ℓ2 sensitivity Δ2 of the query the noise is added to
  Real scale{};        ///< scale b of the density ∝ exp(−‖w‖₂/b)

  vector_laplace_noise() = default;
  vector_laplace_noise(const Real& l2_sensitivity, const Real& b)
      : sensitivity(l2_sensitivity), scale(b) {}
  /// The measurement of a ledger's vector_laplace event (the same Δ2 and b).
  explicit vector_laplace_noise(const accounting::vector_laplace_mechanism<Real>& m)
      : sensitivity(m.sensitivity), scale(m.scale) {}

  /// The accounting kind of this noise: vector_laplace{Δ2, b}.
  [[nodiscard]] accounting::vector_laplace_mechanism<Real> mechanism() const {
    return {sensitivity, scale};
  }
  /// One noise vector w in R^d (dpref::vector_laplace: Gamma(d, b) radius, uniform direction).
  /// @throws std::domain_error if d == 0 or b <= 0
  [[nodiscard]] vector<Real> draw(philox_stream& s, std::size_t d) const {
    return vector_laplace<Real>(s, d, scale);
  }
};

}  // namespace dpref::mechanisms

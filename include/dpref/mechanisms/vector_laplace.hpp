// ℓ2 (vector) Laplace mechanism M(x) = x + w, density of w ∝ exp(−‖w‖₂/b)
// (pwa Theorem 9, ev Proposition 11: ε = Δ2/b; spec/mechanisms.md MECH.VLAPLACE).
#pragma once

#include "dpref/error.hpp"
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

}  // namespace dpref::mechanisms

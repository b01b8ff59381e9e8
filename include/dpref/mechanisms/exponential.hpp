// Discrete exponential mechanism over m candidates (pwa Algorithm 1 with the sign of errata
// PWA-E1: P(i) ∝ exp(+ε u_i / (2Δu)); pwa Theorem 10; spec/mechanisms.md MECH.EXPONENTIAL,
// MECH.EXPONENTIAL.EXACT).
//
// Exact sampling: the weights w_i = exp((u_i − u_max)/scale) ∈ (0, 1] are evaluated in Real
// (w = 1 exactly at the maximiser), then candidates are proposed uniformly with the exact
// integer sampler dpref::secure::uniform_int and accepted with the exact Bernoulli sampler
// dpref::bernoulli(s, w_i). The output law is then EXACTLY w_i / Σ_j w_j for the evaluated
// weights (no rounding of a CDF, unlike inversion on a rounded cumulative sum, and unlike
// Gumbel-max, whose floating-point argmax is not exactly the softmax law). Each w_i carries a
// relative error of a few ulps of Real, so the privacy loss exceeds the ideal one by at most a
// few ulps. Expected proposals: m / Σ w_i <= m.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "dpref/error.hpp"
#include "dpref/random/bernoulli.hpp"
#include "dpref/random/secure/uniform_int.hpp"

namespace dpref::mechanisms {

/// Samples i with probability exactly ∝ exp((u_i − u_max)/scale) as evaluated in Real.
/// @param s bit stream @param utilities u_1..u_m (m >= 1, finite) @param scale > 0
/// @return the index of the chosen candidate
/// @throws std::domain_error for empty/non-finite utilities, scale <= 0, or a weight that
///   underflows to 0 in Real (the likelihood ratio would be unbounded)
/// @spec MECH.EXPONENTIAL.EXACT
template <real_scalar Real>
std::size_t exponential_mechanism_scaled(philox_stream& s, std::span<const Real> utilities,
                                         const Real& scale) {
  constexpr const char* fn = "dpref::mechanisms::exponential_mechanism";
  if (utilities.empty()) fail_domain(fn, "utilities.size()", ">= 1", utilities.size());
  require_positive(fn, "scale", scale);
  Real umax = utilities[0];
  for (const Real& u : utilities) {
    require_finite(fn, "utilities[i]", u);
    if (u > umax) umax = u;
  }
  using std::exp;
  const auto weight = [&](std::size_t i) { return Real(exp((utilities[i] - umax) / scale)); };
  for (std::size_t i = 0; i < utilities.size(); ++i)
    if (!(weight(i) > Real(0)))
      fail_domain(fn, "(u_max - u_i) / scale", "small enough that exp(-(u_max - u_i)/scale) > 0",
                  (umax - utilities[i]) / scale);
  const auto m = static_cast<std::int64_t>(utilities.size());
  for (;;) {
    const auto i = static_cast<std::size_t>(secure::uniform_int<std::int64_t>(s, m));
    if (bernoulli<Real>(s, weight(i))) return i;
  }
}

/// The ε-DP exponential mechanism P(i) ∝ exp(ε u_i / (2Δu)) (pwa Algorithm 1, sign per PWA-E1).
/// @param s bit stream @param utilities u(D, i) @param epsilon ε > 0 @param sensitivity Δu > 0
/// @return the index of the chosen candidate @throws std::domain_error for invalid input
/// @spec MECH.EXPONENTIAL
template <real_scalar Real>
std::size_t exponential_mechanism(philox_stream& s, std::span<const Real> utilities,
                                  const Real& epsilon, const Real& sensitivity) {
  require_positive("dpref::mechanisms::exponential_mechanism", "epsilon", epsilon);
  require_positive("dpref::mechanisms::exponential_mechanism", "sensitivity", sensitivity);
  return exponential_mechanism_scaled<Real>(s, utilities, Real(2) * sensitivity / epsilon);
}

}  // namespace dpref::mechanisms

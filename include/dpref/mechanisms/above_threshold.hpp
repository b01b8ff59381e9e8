// AboveThreshold (sparse vector with one TOP answer) in the shape of linesearch Algorithm 1:
// noisy threshold T̂ = T + λ (step 4), noisy queries q̂_i = q_i + ν_i (step 8), output the index
// of the first i with q̂_i >= T̂ (steps 9–10) or "fail" after max_it queries (step 12).
// Laplace version: λ ~ Lap(b1), ν_i ~ Lap(b2); linesearch Lemma 5 / Theorem 1 take
// b1 = Δ/ε1 = 2Δ/ε, b2 = Δ/ε2 = 4Δ/ε (ε-DP). Gaussian version: λ ~ N(0, s1²), ν_i ~ N(0, s2²)
// with s1 = Δσ1, s2 = Δσ2 (σ1² = 3/(2ρ), σ2² = 3/ρ in step 3). spec/mechanisms.md MECH.SVT.
//
// sparse_vector is the mechanism as a measurement (spec/architecture.md ARCH.MEASUREMENTS): one
// object holds the noise family, Δ, the two scales and the query bound, runs AboveThreshold with
// them and returns the ledger event sparse_vector{...} from the same members.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "dpref/accounting/event.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/measurement.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/laplace.hpp"

namespace dpref::mechanisms {

/// Noise family of AboveThreshold.
enum class svt_noise { laplace, gaussian };

/// Output of AboveThreshold: the 0-based index of the first TOP answer, or found == false.
struct above_threshold_result {
  bool found = false;
  std::size_t index = 0;
};

/// AboveThreshold on adaptively evaluated queries q(i), i = 0 .. max_it − 1.
/// @param s bit stream @param query callable i -> Real (evaluated lazily, in order)
/// @param max_it number of queries >= 1 @param threshold public T (finite)
/// @param noise Laplace or Gaussian @param threshold_scale b1 (Laplace) or standard deviation
///   of λ (Gaussian), > 0 @param query_scale b2 or standard deviation of ν_i, > 0
/// @return the first TOP index or "fail" @throws std::domain_error for invalid parameters
/// @spec MECH.SVT
template <real_scalar Real, class Query>
above_threshold_result above_threshold(philox_stream& s, Query&& query, std::size_t max_it,
                                       const Real& threshold, svt_noise noise,
                                       const Real& threshold_scale, const Real& query_scale) {
  constexpr const char* fn = "dpref::mechanisms::above_threshold";
  if (max_it < 1) fail_domain(fn, "max_it", ">= 1", max_it);
  require_finite(fn, "threshold", threshold);
  require_positive(fn, "threshold_scale", threshold_scale);
  require_positive(fn, "query_scale", query_scale);
  const auto draw = [&](const Real& scale) {
    return noise == svt_noise::laplace ? laplace<Real>(s, scale) : gaussian<Real>(s, scale);
  };
  const Real noisy_threshold = threshold + draw(threshold_scale);  // step 4
  for (std::size_t i = 0; i < max_it; ++i) {
    const Real q = query(i);  // step 7
    require_finite(fn, "query(i)", q);
    if (q + draw(query_scale) >= noisy_threshold) return {true, i};  // steps 8-10
  }
  return {false, 0};  // step 12
}

/// AboveThreshold on precomputed query values (max_it = queries.size()).
/// @spec MECH.SVT
template <real_scalar Real>
above_threshold_result above_threshold(philox_stream& s, std::span<const Real> queries,
                                       const Real& threshold, svt_noise noise,
                                       const Real& threshold_scale, const Real& query_scale) {
  return above_threshold<Real>(
      s, [&](std::size_t i) { return queries[i]; }, queries.size(), threshold, noise,
      threshold_scale, query_scale);
}

/// Laplace scales (b1, b2) = (2Δ/ε, 4Δ/ε) of linesearch Theorem 1 (ε1 = ε/2, ε2 = ε/4).
/// @throws std::domain_error for invalid Δ or ε @spec MECH.SVT
template <real_scalar Real>
std::pair<Real, Real> above_threshold_laplace_scales(const Real& sensitivity, const Real& epsilon) {
  require_positive("dpref::mechanisms::above_threshold_laplace_scales", "sensitivity", sensitivity);
  require_positive("dpref::mechanisms::above_threshold_laplace_scales", "epsilon", epsilon);
  return {Real(2) * sensitivity / epsilon, Real(4) * sensitivity / epsilon};
}

/// Gaussian standard deviations (Δσ1, Δσ2) with σ1² = 3/(2ρ), σ2² = 3/ρ (linesearch Alg. 1 step 3).
/// @throws std::domain_error for invalid Δ or ρ @spec MECH.SVT
template <real_scalar Real>
std::pair<Real, Real> above_threshold_gaussian_scales(const Real& sensitivity, const Real& rho) {
  require_positive("dpref::mechanisms::above_threshold_gaussian_scales", "sensitivity",
                   sensitivity);
  require_positive("dpref::mechanisms::above_threshold_gaussian_scales", "rho", rho);
  using std::sqrt;
  return {sensitivity * sqrt(Real(3) / (Real(2) * rho)), sensitivity * sqrt(Real(3) / rho)};
}

/// AboveThreshold as a measurement: the noise family, query sensitivity Δ, threshold and query
/// scales and the query bound k, run by `run` and charged by `event` from the same members.
/// @spec MECH.SVT ARCH.MEASUREMENTS
template <real_scalar Real>
struct sparse_vector : measurement<sparse_vector<Real>, Real> {
  svt_noise noise = svt_noise::laplace;
  Real sensitivity{};      ///< query sensitivity Δ
  Real threshold_scale{};  ///< b1 (Laplace) or the standard deviation of λ (Gaussian)
  Real query_scale{};      ///< b2 or the standard deviation of ν_i
  long long max_queries = 1;
  accounting::svt_bound bound = accounting::svt_bound::proven;

  sparse_vector() = default;
  /// The measurement of a ledger's sparse_vector event (the same members).
  explicit sparse_vector(const accounting::sparse_vector_mechanism<Real>& m)
      : noise(m.noise == accounting::svt_noise::laplace ? svt_noise::laplace : svt_noise::gaussian),
        sensitivity(m.sensitivity),
        threshold_scale(m.threshold_scale),
        query_scale(m.query_scale),
        max_queries(m.max_queries),
        bound(m.bound) {}

  /// The accounting kind of this mechanism: sparse_vector{noise, Δ, b1, b2, k, bound}.
  [[nodiscard]] accounting::sparse_vector_mechanism<Real> mechanism() const {
    accounting::sparse_vector_mechanism<Real> m;
    m.noise = noise == svt_noise::laplace ? accounting::svt_noise::laplace
                                          : accounting::svt_noise::gaussian;
    m.sensitivity = sensitivity;
    m.threshold_scale = threshold_scale;
    m.query_scale = query_scale;
    m.max_queries = max_queries;
    m.bound = bound;
    return m;
  }
  /// AboveThreshold on the lazily evaluated queries q(0..max_queries−1) against `threshold`.
  /// @throws std::domain_error for invalid parameters
  template <class Query>
  above_threshold_result run(philox_stream& s, Query&& query, const Real& threshold) const {
    if (max_queries < 1)
      fail_domain("dpref::mechanisms::sparse_vector::run", "max_queries", ">= 1", max_queries);
    return above_threshold<Real>(s, std::forward<Query>(query),
                                 static_cast<std::size_t>(max_queries), threshold, noise,
                                 threshold_scale, query_scale);
  }
};

}  // namespace dpref::mechanisms

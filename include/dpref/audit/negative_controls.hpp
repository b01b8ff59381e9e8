// Deliberately broken mechanisms that the audits must flag (spec/audit.md AUDIT.NEG.*). They
// are library code so that the CLI (`dpref audit`) can demonstrate them; never use them for
// privacy.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "dpref/error.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/philox_stream.hpp"

namespace dpref::audit {

/// The textbook floating-point Laplace sampler attacked by Mironov (2012): u uniform on the
/// 53-bit grid of [−1/2, 1/2), Y = x − b·sgn(u)·ln(1 − 2|u|), all in double. The set of doubles
/// it can output depends on x (e.g. near 0, x = 1 gives multiples of 2^-53 by Sterbenz while
/// x = 0 gives full-precision values), so its low-order bits leak x.
/// @throws std::domain_error for non-finite x or b <= 0 @spec AUDIT.NEG.TEXTBOOK
inline double textbook_laplace(philox_stream& s, double x, double b) {
  require_finite("dpref::audit::textbook_laplace", "x", x);
  require_positive("dpref::audit::textbook_laplace", "b", b);
  const double u = static_cast<double>(s() >> 11) * 0x1.0p-53 - 0.5;
  const double sgn = u < 0 ? -1.0 : 1.0;
  return x - b * sgn * std::log(1.0 - 2.0 * std::fabs(u));
}

/// Sparse-vector variants (Lyu, Su, Li, "Understanding the Sparse Vector Technique for
/// Differential Privacy", PVLDB 2017). All use ε1 = ε2 = ε/2 unless stated, cutoff c.
enum class svt_variant {
  /// Lyu–Su–Li Alg. 1 (private): ρ ~ Lap(Δ/ε1), ν_i ~ Lap(2cΔ/ε2).
  standard,
  /// NOT private: no threshold noise (ρ = 0), ν_i ~ Lap(2cΔ/ε2); every BOTTOM answer leaks.
  no_threshold_noise,
  /// NOT private: no query noise (ν_i = 0), ρ ~ Lap(Δ/ε1) (Lyu–Su–Li Alg. 5, Stoddard et al.).
  no_query_noise,
  /// NOT private: ν_i ~ Lap(Δ/ε2), neither scaled with c nor with the factor 2 (as in Lyu–Su–Li
  /// Alg. 4, Lee–Clifton 2014, with ε1 = ε/4, ε2 = 3ε/4).
  unscaled_query_noise,
  /// NOT private: releases q_i + ν_i with each TOP answer (Lyu–Su–Li Alg. 3, Roth 2011).
  release_noisy_value,
};

/// Transcript of a sparse-vector run: bit i of `answers` is set iff query i was answered TOP
/// (the run stops after c TOP answers, so the mask determines the whole transcript), and the
/// last released noisy value (release_noisy_value only; 0 otherwise).
struct svt_transcript {
  std::uint32_t answers = 0;
  double value = 0;
};

/// Runs a sparse-vector variant on precomputed query values (at most 32 queries).
/// @param s bit stream @param queries q_1..q_k @param threshold public T @param sensitivity Δ
/// @param epsilon claimed ε @param cutoff c >= 1 @param variant which algorithm
/// @throws std::domain_error for invalid parameters @spec AUDIT.NEG.SVT
inline svt_transcript sparse_vector(philox_stream& s, std::span<const double> queries,
                                    double threshold, double sensitivity, double epsilon,
                                    std::size_t cutoff, svt_variant variant) {
  constexpr const char* fn = "dpref::audit::sparse_vector";
  if (queries.empty() || queries.size() > 32)
    fail_domain(fn, "queries.size()", "in [1, 32]", queries.size());
  require_finite(fn, "threshold", threshold);
  require_positive(fn, "sensitivity", sensitivity);
  require_positive(fn, "epsilon", epsilon);
  if (cutoff < 1) fail_domain(fn, "cutoff", ">= 1", cutoff);
  const double c = static_cast<double>(cutoff);
  double eps1 = epsilon / 2, eps2 = epsilon / 2;
  if (variant == svt_variant::unscaled_query_noise) eps1 = epsilon / 4, eps2 = 3 * epsilon / 4;
  double rho = 0;
  if (variant != svt_variant::no_threshold_noise) rho = laplace<double>(s, sensitivity / eps1);
  const double nu_scale = variant == svt_variant::unscaled_query_noise ? sensitivity / eps2
                                                                       : 2 * c * sensitivity / eps2;
  svt_transcript t;
  std::size_t tops = 0;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const double nu = variant == svt_variant::no_query_noise ? 0.0 : laplace<double>(s, nu_scale);
    const double noisy = queries[i] + nu;
    if (noisy >= threshold + rho) {
      t.answers |= std::uint32_t{1} << i;
      if (variant == svt_variant::release_noisy_value) t.value = noisy;
      if (++tops == cutoff) break;
    }
  }
  return t;
}

}  // namespace dpref::audit

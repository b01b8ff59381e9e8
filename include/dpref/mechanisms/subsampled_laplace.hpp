// Subsampled Laplace mean (accel §3, Proposition 3.1 building block; spec/mechanisms.md
// MECH.SUBSAMPLED_LAPLACE): draw a uniformly random subset S of m of the n records without
// replacement, release (1/m) Σ_{i∈S} x_i + Lap(b). With records in an interval of length S1
// (replace-one adjacency) the mean has sensitivity S1/m, so ε0 = S1/(m b) on the subsample and
// ε = ln(1 + (m/n)(e^{ε0} − 1)) overall (accel Theorem A.3, Balle et al. 2018).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "dpref/error.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/secure/uniform_int.hpp"

namespace dpref::mechanisms {

/// Subsampled Laplace mean. The subset is drawn by selection sampling (Knuth, Algorithm S)
/// with exact rational Bernoulli trials, so every m-subset has probability exactly 1/C(n, m).
/// @param s bit stream @param data the n records (finite) @param m subsample size, 1 <= m <= n
/// @param scale Laplace scale b > 0 @return the noisy subsample mean
/// @throws std::domain_error for invalid m, scale or records
/// @spec MECH.SUBSAMPLED_LAPLACE
template <real_scalar Real>
Real subsampled_mean_laplace(philox_stream& s, std::span<const Real> data, std::size_t m,
                             const Real& scale) {
  constexpr const char* fn = "dpref::mechanisms::subsampled_mean_laplace";
  const std::size_t n = data.size();
  if (m < 1 || m > n) fail_domain(fn, "m", "in [1, data.size()]", m);
  require_positive(fn, "scale", scale);
  Real sum(0);
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < n && chosen < m; ++i) {
    require_finite(fn, "data[i]", data[i]);
    const auto need = static_cast<std::int64_t>(m - chosen);
    const auto left = static_cast<std::int64_t>(n - i);
    if (secure::bernoulli_rational<std::int64_t>(s, need, left)) {
      sum += data[i];
      ++chosen;
    }
  }
  return sum / Real(static_cast<long>(m)) + laplace<Real>(s, scale);
}

}  // namespace dpref::mechanisms

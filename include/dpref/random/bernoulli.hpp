// Exact Bernoulli(p): compares the infinite binary expansion of a uniform draw with the exact
// binary expansion of p, lane by lane, stopping at the first differing word.
// P[true] = p exactly for every p representable in Real. spec/random.md RAND.BERN.EXACT.
#pragma once

#include <cmath>
#include <cstdint>

#include "dpref/error.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref {

/// One Bernoulli(p) variate, p in [0, 1]; exact (no rounding of p).
/// @throws std::domain_error if p is NaN or outside [0, 1].
/// @spec RAND.BERN.EXACT
template <real_scalar Real>
bool bernoulli(philox_stream& s, const Real& p) {
  require_in_closed("dpref::bernoulli", "p", p, Real(0), Real(1), "in [0, 1]");
  if (p == Real(1)) return true;
  const stream_draw draw = s.next_draw();
  using std::floor;
  using std::ldexp;
  Real rest = p;  // remaining binary expansion of p, in [0, 1)
  for (unsigned lane = 0;; ++lane) {
    if (rest == Real(0)) return false;  // U >= p almost surely once p's bits are exhausted
    const Real scaled = ldexp(rest, 64);
    const Real chunk_real = floor(scaled);  // exact: next 64 bits of p
    rest = scaled - chunk_real;             // exact
    // chunk < 2^64: convert through two 32-bit halves (exact in any Real with p >= 32 bits)
    const Real hi_real = floor(ldexp(chunk_real, -32));
    const Real lo_real = chunk_real - ldexp(hi_real, 32);
    const std::uint64_t chunk =
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi_real)) << 32) |
        static_cast<std::uint32_t>(lo_real);
    const std::uint64_t w = draw.word(lane);
    if (w != chunk) return w < chunk;
  }
}

}  // namespace dpref

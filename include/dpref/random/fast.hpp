// Fast double-only variants of the inversion samplers: one 64-bit word per draw and double
// arithmetic. Same distributions as the reference samplers up to double rounding, but the
// sample is NOT the rounding of the 50-digit sample of the same draw (it agrees in ~80% of
// draws instead of >= 99.9%). Use the reference samplers for oracle work.
// spec/random.md RAND.FAST.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "dpref/error.hpp"
#include "dpref/random/detail/normal_quantile_table.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::fast {

namespace detail {
/// -log(U), U = (K + 1/2) 2^-B from the bits after `skip` (truncated to 53 bits): one
/// logarithm, no data-dependent branch. Small magnitudes have absolute resolution 2^-53 (as in
/// numpy), unlike the reference samplers' folded uniform.
inline double standard_exponential(const stream_draw& draw, unsigned skip) {
  return -std::log(dpref::detail::unit_from_bits<double>(draw, 1, skip, false));
}

/// x with the sign bit replaced by `negative` (branch-free).
inline double with_sign(double x, bool negative) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) |
                               (static_cast<std::uint64_t>(negative) << 63));
}
}  // namespace detail

/// Exponential(rate), double arithmetic. @spec RAND.FAST
inline double exponential(philox_stream& s, double rate) {
  require_positive("dpref::fast::exponential", "rate", rate);
  return detail::standard_exponential(s.next_draw(), 0) / rate;
}

/// Laplace(0, b), double arithmetic. @spec RAND.FAST
inline double laplace(philox_stream& s, double b) {
  require_positive("dpref::fast::laplace", "b", b);
  const stream_draw draw = s.next_draw();
  return detail::with_sign(b * detail::standard_exponential(draw, 1), draw_bit(draw, 0));
}

/// N(0, sigma^2) by inversion: sign from the first bit, |X| = sigma sqrt(2) erfc_inv(W) with W
/// uniform from the other 63 bits (the reference sampler's transform), evaluated by the
/// start-up polynomial table of detail/normal_quantile_table.hpp. @spec RAND.FAST
inline double gaussian(philox_stream& s, double sigma) {
  require_positive("dpref::fast::gaussian", "sigma", sigma);
  const stream_draw draw = s.next_draw();
  const double w = dpref::detail::unit_from_bits<double>(draw, 1, 1, false);
  return detail::with_sign(sigma * detail::normal_quantile_upper(0.5 * w), draw_bit(draw, 0));
}

}  // namespace dpref::fast

// Fast double-only variants of the inversion samplers: one 64-bit word per draw and double
// arithmetic. Same distributions as the reference samplers up to double rounding, but the
// sample is NOT the rounding of the 50-digit sample of the same draw (it agrees in ~80% of
// draws instead of >= 99.9%). Use the reference samplers for oracle work.
// spec/random.md RAND.FAST.
#pragma once

#include <boost/math/special_functions/erf.hpp>
#include <cmath>

#include "dpref/error.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::fast {

namespace detail {
inline double standard_exponential(const stream_draw& draw, unsigned skip) {
  const auto f = folded_uniform<double>(draw, 1, skip);
  return f.upper ? -std::log1p(-f.t) : -std::log(f.t);
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
  const double x = b * detail::standard_exponential(draw, 1);
  return draw_bit(draw, 0) ? -x : x;
}

/// N(0, sigma^2) by inversion (Boost erfc_inv / erf_inv in double). @spec RAND.FAST
inline double gaussian(philox_stream& s, double sigma) {
  require_positive("dpref::fast::gaussian", "sigma", sigma);
  const stream_draw draw = s.next_draw();
  const auto f = folded_uniform<double>(draw, 1, 1);
  const double z = 1.4142135623730950488 * (f.upper ? boost::math::erf_inv(f.t) : boost::math::erfc_inv(f.t));
  return sigma * (draw_bit(draw, 0) ? -z : z);
}

}  // namespace dpref::fast

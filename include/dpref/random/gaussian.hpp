// Gaussian(0, sigma^2) by inversion: |X| = sigma sqrt(2) erfc_inv(W), W uniform on (0,1), with
// erfc_inv(1 - t) = erf_inv(t) on the upper half; sign from the first bit.
// spec/random.md RAND.GAUSS.INV.
#pragma once

#include <boost/math/constants/constants.hpp>

#include "dpref/error.hpp"
#include "dpref/random/evaluation.hpp"
#include "dpref/random/math.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref {

namespace detail {
template <real_scalar Eval>
Eval standard_gaussian(const stream_draw& draw, unsigned lanes) {
  const bool negative = draw_bit(draw, 0);
  const auto f = folded_uniform<Eval>(draw, lanes, 1);
  const Eval z = boost::math::constants::root_two<Eval>() *
                 (f.upper ? math::erf_inv(f.t) : math::erfc_inv(f.t));
  return negative ? Eval(-z) : z;
}
}  // namespace detail

/// One N(0, sigma^2) variate by inversion of the normal CDF.
/// @throws std::domain_error if sigma is not finite and > 0.
/// @spec RAND.GAUSS.INV
template <real_scalar Real>
Real gaussian(philox_stream& s, const Real& sigma) {
  require_positive("dpref::gaussian", "sigma", sigma);
  using Eval = detail::evaluation_t<Real>;
  const Eval z = detail::standard_gaussian<Eval>(s.next_draw(), detail::inversion_lanes<Real>());
  return static_cast<Real>(static_cast<Eval>(sigma) * z);
}

}  // namespace dpref

// Laplace(b) by inversion: X = sign * b * E, the sign being the first bit of the draw, which
// is exactly F^-1(U) for F the Laplace CDF. spec/random.md RAND.LAPLACE.INV.
#pragma once

#include "dpref/random/exponential.hpp"

namespace dpref {

/// One Laplace(0, b) variate (density exp(-|x|/b) / (2b)).
/// @throws std::domain_error if b is not finite and > 0.
/// @spec RAND.LAPLACE.INV
template <real_scalar Real>
Real laplace(philox_stream& s, const Real& b) {
  require_positive("dpref::laplace", "b", b);
  using Eval = detail::evaluation_t<Real>;
  const stream_draw draw = s.next_draw();
  const bool negative = draw_bit(draw, 0);
  if constexpr (std::is_same_v<Real, double>) {
    // double-double product b * E, rounded once
    const detail::dd e = detail::standard_exponential_dd(draw, 1);
    const detail::dd p = detail::two_prod(b, e.hi);
    const double x = p.hi + (p.lo + b * e.lo);
    return negative ? -x : x;
  }
  const Eval e = detail::standard_exponential<Eval>(draw, detail::inversion_lanes<Real>(), 1);
  const Eval x = static_cast<Eval>(b) * e;
  return static_cast<Real>(negative ? -x : x);
}

}  // namespace dpref

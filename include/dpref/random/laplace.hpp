// Laplace(b) by inversion: X = sign * b * E, the sign being the first bit of the draw, which
// is exactly F^-1(U) for F the Laplace CDF. spec/random.md RAND.LAPLACE.INV.
#pragma once

#include "dpref/random/exponential.hpp"

namespace dpref {

namespace detail {
/// The double Laplace(0, b) sample of a draw with lane words (w0, w1): the sign is the first
/// bit, the magnitude the double-double product b·E rounded once (shared by laplace<double> and
/// the batch kernel of random/batch.hpp, so both give the same bits).
inline double laplace_dd_words(std::uint64_t w0, std::uint64_t w1, double b,
                               const log_table& tab = double_double_log_table()) {
  const bool negative = (w0 >> 63) != 0;
  const dd e = standard_exponential_dd_words(w0, w1, 1, tab);
  const dd p = two_prod(b, e.hi);
  const double x = p.hi + (p.lo + b * e.lo);
  return negative ? -x : x;
}
}  // namespace detail

/// One Laplace(0, b) variate (density exp(-|x|/b) / (2b)).
/// @throws std::domain_error if b is not finite and > 0.
/// @spec RAND.LAPLACE.INV
template <real_scalar Real>
Real laplace(philox_stream& s, const Real& b) {
  require_positive("dpref::laplace", "b", b);
  using Eval = detail::evaluation_t<Real>;
  const stream_draw draw = s.next_draw();
  if constexpr (std::is_same_v<Real, double>) {
    // double-double product b * E, rounded once
    return detail::laplace_dd_words(draw.word(0), draw.word(1), b);
  }
  const bool negative = draw_bit(draw, 0);
  const Eval e = detail::standard_exponential<Eval>(draw, detail::inversion_lanes<Real>(), 1);
  const Eval x = static_cast<Eval>(b) * e;
  return static_cast<Real>(negative ? -x : x);
}

}  // namespace dpref

// Exponential(rate) by inversion: E = -log(U) / rate. spec/random.md RAND.EXP.INV.
#pragma once

#include <type_traits>
#include "dpref/error.hpp"
#include "dpref/random/detail/double_double_log.hpp"
#include "dpref/random/evaluation.hpp"
#include "dpref/random/math.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref {

namespace detail {
/// Standard exponential from one draw, `skip` leading bits already used by the caller.
/// E = -log(t) for U = t <= 1/2 and E = -log1p(-t) for U = 1 - t: both branches keep full
/// relative precision (RAND.UNIFORM.HALF).
template <real_scalar Eval>
Eval standard_exponential(const stream_draw& draw, unsigned lanes, unsigned skip) {
  const auto f = folded_uniform<Eval>(draw, lanes, skip);
  return f.upper ? -math::log1p(Eval(-f.t)) : -math::log(f.t);
}
}  // namespace detail

namespace detail {
/// The double Exponential(rate) sample of a draw with lane words (w0, w1): the double-double
/// quotient E / rate rounded once (shared by exponential<double> and random/batch.hpp).
inline double exponential_dd_words(std::uint64_t w0, std::uint64_t w1, double rate,
                                   const log_table& tab = double_double_log_table()) {
  const dd e = standard_exponential_dd_words(w0, w1, 0, tab);
  const double q = e.hi / rate;
  const double rem = std::fma(-q, rate, e.hi) + e.lo;
  return q + rem / rate;
}
}  // namespace detail

/// One Exponential(rate) variate (density rate * exp(-rate x), x > 0).
/// @throws std::domain_error if rate is not finite and > 0.
/// @spec RAND.EXP.INV
template <real_scalar Real>
Real exponential(philox_stream& s, const Real& rate) {
  require_positive("dpref::exponential", "rate", rate);
  if constexpr (std::is_same_v<Real, double>) {
    // double-double quotient E / rate, rounded once
    const stream_draw draw = s.next_draw();
    return detail::exponential_dd_words(draw.word(0), draw.word(1), rate);
  }
  using Eval = detail::evaluation_t<Real>;
  const Eval e =
      detail::standard_exponential<Eval>(s.next_draw(), detail::inversion_lanes<Real>(), 0);
  return static_cast<Real>(e / static_cast<Eval>(rate));
}

}  // namespace dpref

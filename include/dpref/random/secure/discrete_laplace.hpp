// Exact discrete Laplace sampler: Canonne, Kamath, Steinke 2020, Algorithm 2.
// spec/random_secure.md RAND.SECURE.DLAPLACE. Integer-only (RAND.SECURE.NOFLOAT).
#pragma once

#include <cstdint>

#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/bernoulli_exp.hpp"
#include "dpref/random/secure/integer.hpp"
#include "dpref/random/secure/uniform_int.hpp"

namespace dpref::secure {

namespace detail {

/// Discrete Laplace with scale t = t_num / t_den, no validation.
/// In CKS notation the scale is t/s with t = t_num, s = t_den:
///   U ~ Uniform{0..t_num-1}, accept U w.p. exp(-U/t_num);
///   V ~ Geometric: count successes of Bernoulli(exp(-1)) before the first failure;
///   X = U + t_num V is Geometric(1 - exp(-1/t_num)); Y = floor(X / t_den) is
///   Geometric(1 - exp(-t_den/t_num)); a fair sign B, rejecting (B = 1, Y = 0) so zero is
///   not counted twice; return (1 - 2B) Y.
template <class Int>
Int discrete_laplace_unchecked(philox_stream& s, const Int& t_num, const Int& t_den) {
  constexpr const char* fn = "dpref::secure::discrete_laplace";
  const Int zero = lit<Int>(0);
  const Int one = lit<Int>(1);
  const Int two = lit<Int>(2);
  for (;;) {
    const Int u = uniform_int_unchecked(s, t_num);
    if (!bernoulli_exp_unchecked(s, u, t_num)) continue;
    Int v = zero;
    while (bernoulli_exp_unit(s, one, one)) v = add_checked(v, one, fn, "geometric count V");
    const Int x = add_checked(u, mul_checked(t_num, v, fn, "t_num * V"), fn, "U + t_num * V");
    const Int y = x / t_den;
    const bool b = bernoulli_rational_unchecked(s, one, two);
    if (b && y == zero) continue;
    return b ? Int(zero - y) : y;
  }
}

}  // namespace detail

/// Exact discrete Laplace: P(X = x) = (1 - e^{-1/t}) / (1 + e^{-1/t}) * e^{-|x|/t} on the
/// integers, with rational scale t = t_num / t_den. CKS 2020 Algorithm 2.
/// @spec RAND.SECURE.DLAPLACE
/// @spec RAND.SECURE.NOFLOAT
/// @param t_num numerator of the scale, > 0.  @param t_den denominator of the scale, > 0.
/// @throws std::domain_error if t_num <= 0 or t_den <= 0.
/// @throws std::overflow_error (naming the function) if U + t_num V exceeds Int; for
///   Int = int64 this needs V > 2^63 / t_num - 1, an event of probability exp(-(2^63/t_num - 1)).
template <secure_int Int = std::int64_t>
Int discrete_laplace(philox_stream& s, const Int& t_num, const Int& t_den) {
  constexpr const char* fn = "dpref::secure::discrete_laplace";
  if (t_num <= detail::lit<Int>(0))
    detail::fail_int_domain(fn, "t_num (scale numerator)", "> 0", t_num);
  if (t_den <= detail::lit<Int>(0))
    detail::fail_int_domain(fn, "t_den (scale denominator)", "> 0", t_den);
  return detail::discrete_laplace_unchecked(s, t_num, t_den);
}

}  // namespace dpref::secure

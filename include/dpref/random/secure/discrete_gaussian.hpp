// Exact discrete Gaussian sampler: Canonne, Kamath, Steinke 2020, Algorithm 3.
// spec/random_secure.md RAND.SECURE.DGAUSS. Integer-only (RAND.SECURE.NOFLOAT).
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/bernoulli_exp.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"
#include "dpref/random/secure/integer.hpp"

namespace dpref::secure {

/// Exact discrete Gaussian: P(X = x) proportional to exp(-x^2 / (2 sigma^2)) on the integers,
/// sigma^2 = var_num / var_den. CKS 2020 Algorithm 3, in exact integer arithmetic:
///   t = floor(sigma) + 1 = isqrt(floor(var_num / var_den)) + 1;
///   repeat Y ~ discrete Laplace(t), accept with Bernoulli(exp(-gamma)) where
///   gamma = (|Y| - sigma^2/t)^2 / (2 sigma^2) = (|Y| b t - a)^2 / (2 a b t^2)
///   with sigma^2 = a / b reduced to lowest terms.
/// @spec RAND.SECURE.DGAUSS
/// @spec RAND.SECURE.NOFLOAT
/// @param var_num numerator of sigma^2, > 0.  @param var_den denominator of sigma^2, > 0.
/// @throws std::domain_error if var_num <= 0 or var_den <= 0.
/// For built-in Int, an acceptance ratio that does not fit Int (2 a b t^2, or (|Y| b t - a)^2
/// for a far-tail |Y|) is recomputed exactly in boost::multiprecision::cpp_int, so the law is
/// exact for every parameter. For other bounded Int the function then throws
/// std::overflow_error naming itself; use an unbounded Int (e.g. cpp_int) instead.
template <secure_int Int = std::int64_t>
Int discrete_gaussian(philox_stream& s, const Int& var_num, const Int& var_den) {
  constexpr const char* fn = "dpref::secure::discrete_gaussian";
  using detail::lit;
  using detail::mul_fits;
  const Int zero = lit<Int>(0);
  const Int one = lit<Int>(1);
  if (var_num <= zero)
    detail::fail_int_domain(fn, "var_num (numerator of sigma^2)", "> 0", var_num);
  if (var_den <= zero)
    detail::fail_int_domain(fn, "var_den (denominator of sigma^2)", "> 0", var_den);
  const Int g = detail::gcd(var_num, var_den);
  const Int a = var_num / g;
  const Int b = var_den / g;
  const Int t = detail::isqrt(Int(a / b)) + one;  // isqrt(q) + 1 <= q, no overflow
  // den = 2 a b t^2 in Int when it fits; otherwise every acceptance uses the wide path.
  const Int two_a = detail::add_fits(a, a) ? Int(a + a) : a;
  const bool narrow = detail::add_fits(a, a) && mul_fits(b, t) && mul_fits(two_a, Int(b * t)) &&
                      mul_fits(Int(two_a * (b * t)), t);
  const Int bt = narrow ? Int(b * t) : one;
  const Int den = narrow ? Int(two_a * bt * t) : one;
  for (;;) {
    const Int y = detail::discrete_laplace_unchecked(s, t, one);
    const Int ay = detail::abs_value(y);
    if (narrow && mul_fits(ay, bt)) {
      const Int diff = detail::abs_value(Int(ay * bt - a));
      if (mul_fits(diff, diff)) {
        if (detail::bernoulli_exp_unchecked(s, Int(diff * diff), den)) return y;
        continue;
      }
    }
    // Rare: the exact acceptance ratio does not fit Int. Redo it in unbounded integers.
    if constexpr (std::is_integral_v<Int>) {
      using wide = boost::multiprecision::cpp_int;
      const wide wa(a), wb(b), wt(t), wy(ay);
      const wide wdiff = wy * wb * wt - wa;
      if (detail::bernoulli_exp_unchecked(s, wide(wdiff * wdiff), wide(2 * wa * wb * wt * wt)))
        return y;
    } else {
      detail::fail_overflow(fn, "(|Y| b t - a)^2 or 2 a b t^2 (use an unbounded Int)");
    }
  }
}

}  // namespace dpref::secure

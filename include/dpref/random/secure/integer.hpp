// Integer-only helpers shared by the secure samplers (spec/random_secure.md, RAND.SECURE.NOFLOAT).
// Nothing in this header (or in uniform_int, bernoulli_exp, discrete_laplace,
// discrete_gaussian) performs a floating-point operation: every quantity is an integer of type
// Int or a rational written as a numerator/denominator pair of Int.
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "dpref/error.hpp"

namespace dpref::secure {

/// An exact signed integer type usable by the secure samplers: construction from int64,
/// + - * / % and comparisons, and a std::numeric_limits specialisation (is_bounded decides
/// whether the samplers check for overflow against max()). Floating point is never needed.
template <class Int>
concept secure_int = std::numeric_limits<Int>::is_specialized &&
    std::numeric_limits<Int>::is_integer && std::numeric_limits<Int>::is_signed &&
    requires(Int a, Int b) {
  Int(std::int64_t{0});
  { a + b } -> std::convertible_to<Int>;
  { a - b } -> std::convertible_to<Int>;
  { a* b } -> std::convertible_to<Int>;
  { a / b } -> std::convertible_to<Int>;
  { a % b } -> std::convertible_to<Int>;
} && std::totally_ordered<Int>;

namespace detail {

template <class Int>
Int lit(std::int64_t v) {
  return Int(v);
}

/// Printable form of an Int for error messages ("<unprintable>" if Int has no operator<<).
template <class Int>
std::string show(const Int& v) {
  if constexpr (requires(std::ostream & os, const Int& x) { os << x; }) {
    return dpref::detail::to_text(v);
  } else {
    return "<unprintable integer>";
  }
}

template <class Int>
[[noreturn]] void fail_int_domain(std::string_view fn, std::string_view param,
                                  std::string_view condition, const Int& v) {
  fail_domain(fn, param, condition, show(v));
}

[[noreturn]] inline void fail_overflow(std::string_view fn, std::string_view what) {
  std::string msg;
  msg.append(fn).append(": integer overflow computing ").append(what);
  throw std::overflow_error(msg);
}

/// a * b for a, b >= 0; throws std::overflow_error naming `fn` if the product exceeds Int.
template <class Int>
Int mul_checked(const Int& a, const Int& b, std::string_view fn, std::string_view what) {
  if constexpr (std::numeric_limits<Int>::is_bounded) {
    if (b != lit<Int>(0) && a > std::numeric_limits<Int>::max() / b) fail_overflow(fn, what);
  }
  return a * b;
}

/// a + b for a, b >= 0; throws std::overflow_error naming `fn` on overflow.
template <class Int>
Int add_checked(const Int& a, const Int& b, std::string_view fn, std::string_view what) {
  if constexpr (std::numeric_limits<Int>::is_bounded) {
    if (a > std::numeric_limits<Int>::max() - b) fail_overflow(fn, what);
  }
  return a + b;
}

/// true iff a + b (a, b >= 0) is representable in Int.
template <class Int>
bool add_fits(const Int& a, const Int& b) {
  if constexpr (std::numeric_limits<Int>::is_bounded) {
    return a <= std::numeric_limits<Int>::max() - b;
  } else {
    return true;
  }
}

/// true iff a * b (a, b >= 0) is representable in Int.
template <class Int>
bool mul_fits(const Int& a, const Int& b) {
  if constexpr (std::numeric_limits<Int>::is_bounded) {
    return b == lit<Int>(0) || a <= std::numeric_limits<Int>::max() / b;
  } else {
    return true;
  }
}

template <class Int>
Int abs_value(const Int& a) {
  return a < lit<Int>(0) ? lit<Int>(0) - a : a;
}

/// Greatest common divisor of a, b >= 0 (Euclid).
template <class Int>
Int gcd(Int a, Int b) {
  while (b != lit<Int>(0)) {
    Int r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/// floor(sqrt(q)) for q >= 0 by integer Newton iteration (no intermediate exceeds q).
template <class Int>
Int isqrt(const Int& q) {
  const Int two = lit<Int>(2);
  if (q < two) return q;
  Int x = q;
  Int y = q / two + q % two;  // ceil(q / 2)
  while (y < x) {
    x = y;
    const Int r = q / x;
    y = x / two + r / two + (x % two + r % two) / two;  // floor((x + q/x) / 2)
  }
  return x;
}

}  // namespace detail
}  // namespace dpref::secure

// Exact uniform integers and exact rational Bernoulli trials from stream bits
// (spec/random_secure.md RAND.SECURE.UNIFORM_INT, RAND.SECURE.BERN_RATIONAL). Integer-only.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/integer.hpp"

namespace dpref::secure {

namespace detail {

/// Number of bits of v >= 0 (0 for v == 0).
template <class Int>
int bit_length(Int v) {
  if constexpr (std::is_integral_v<Int>) {
    return static_cast<int>(std::bit_width(static_cast<std::make_unsigned_t<Int>>(v)));
  } else {
    int bits = 0;
    const Int two = lit<Int>(2);
    while (v != lit<Int>(0)) {
      v = v / two;
      ++bits;
    }
    return bits;
  }
}

/// Uniform on [0, m), m >= 1, without validation. Draws `bits = bit_length(m - 1)` bits as the
/// leading bits of stream words (at most 62 bits per word) and rejects values >= m, so every
/// value has probability exactly 1/m (no modulo bias). Expected attempts < 2.
template <class Int>
Int uniform_int_unchecked(philox_stream& s, const Int& m) {
  const Int one = lit<Int>(1);
  if (m == one) return lit<Int>(0);
  const int bits = bit_length(Int(m - one));
  if constexpr (std::is_integral_v<Int> && sizeof(Int) <= 8) {
    // Fast path: bits <= 63, one word per attempt.
    for (;;) {
      const Int c = static_cast<Int>(s() >> (64 - bits));
      if (c < m) return c;
    }
  } else {
    // Generic path: chunks of at most 62 bits; every partial value is < 2^bits <= 2 m.
    // For bits <= 62 this consumes the same words as the fast path.
    for (;;) {
      Int c = lit<Int>(0);
      int left = bits;
      while (left > 0) {
        const int take = left < 62 ? left : 62;
        const std::uint64_t chunk = s() >> (64 - take);
        c = c * lit<Int>(std::int64_t{1} << take) + lit<Int>(static_cast<std::int64_t>(chunk));
        left -= take;
      }
      if (c < m) return c;
    }
  }
}

/// Bernoulli(n / d) for 0 <= n <= d, d > 0, without validation.
template <class Int>
bool bernoulli_rational_unchecked(philox_stream& s, const Int& n, const Int& d) {
  if (n == lit<Int>(0)) return false;
  if (n == d) return true;
  return uniform_int_unchecked(s, d) < n;
}

}  // namespace detail

/// Exact uniform integer on {0, 1, ..., m - 1} by rejection sampling from stream bits.
/// @spec RAND.SECURE.UNIFORM_INT
/// @spec RAND.SECURE.NOFLOAT
/// @param s bit stream; each attempt reads one draw (one more per 62 bits beyond the first).
/// @param m number of outcomes, m >= 1 (m == 1 returns 0 without reading the stream).
/// @throws std::domain_error if m < 1.
template <secure_int Int = std::int64_t>
Int uniform_int(philox_stream& s, const Int& m) {
  if (m < detail::lit<Int>(1))
    detail::fail_int_domain("dpref::secure::uniform_int", "m", ">= 1", m);
  return detail::uniform_int_unchecked(s, m);
}

/// Exact Bernoulli(n / d): returns uniform_int(d) < n (no reads when n == 0 or n == d).
/// @spec RAND.SECURE.BERN_RATIONAL
/// @spec RAND.SECURE.NOFLOAT
/// @param n numerator, 0 <= n <= d.  @param d denominator, d > 0.
/// @throws std::domain_error if d <= 0, n < 0 or n > d.
template <secure_int Int = std::int64_t>
bool bernoulli_rational(philox_stream& s, const Int& n, const Int& d) {
  constexpr const char* fn = "dpref::secure::bernoulli_rational";
  if (d <= detail::lit<Int>(0)) detail::fail_int_domain(fn, "d", "> 0", d);
  if (n < detail::lit<Int>(0) || n > d) detail::fail_int_domain(fn, "n", "in [0, d]", n);
  return detail::bernoulli_rational_unchecked(s, n, d);
}

}  // namespace dpref::secure

// Uniform variates on the open unit interval built exactly from stream bits.
// spec/random.md: RAND.UNIFORM.OPEN, RAND.UNIFORM.BITS, RAND.UNIFORM.HALF.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "dpref/error.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref {

/// Lanes (64-bit words) one draw of Real reads: floor(p/64) + 1, i.e. at least p + 1 bits
/// (double 1, long double 2, mp50 3).
template <real_scalar Real>
unsigned lanes_for() {
  return static_cast<unsigned>(binary_digits<Real>() / 64 + 1);
}

namespace detail {

/// Value (R + 1/2) * 2^-B of the B-bit integer R formed by the bits of `draw` after the first
/// `skip` bits of lane 0 (B = 64*lanes - skip), XOR-ed with `flip` (all ones or zero),
/// truncated toward zero to the precision p of Real. Exact: no rounding happens in Real.
/// Fast path of unit_from_bits for at most two lanes and p <= 64 (double, long double):
/// the same value computed with 128-bit integer arithmetic.
/// The words w0 (lane 0) and w1 (lane 1, read only when lanes == 2) are those of the draw.
template <real_scalar Real>
Real unit_from_two_words(std::uint64_t w0, std::uint64_t w1, unsigned lanes, unsigned skip,
                         bool flip) {
  __extension__ using u128 = unsigned __int128;  // GCC/Clang extension, fine under -pedantic
  const int p = binary_digits<Real>();
  const std::uint64_t flip_mask = flip ? ~std::uint64_t{0} : std::uint64_t{0};
  const unsigned total_bits = 64 * lanes - skip;  // B
  u128 r = w0 ^ flip_mask;
  if (lanes == 2) r = (r << 64) | (w1 ^ flip_mask);
  if (total_bits < 128) r &= (u128{1} << total_bits) - 1;  // drop the skipped leading bits
  // value = (2r + 1) * 2^-(B+1); the (B+1)-bit odd integer m = 2r + 1 may need 129 bits.
  const int hi_len = r == 0 ? 0
                            : 128 - (static_cast<std::uint64_t>(r >> 64) != 0
                                         ? std::countl_zero(static_cast<std::uint64_t>(r >> 64))
                                         : 64 + std::countl_zero(static_cast<std::uint64_t>(r)));
  const int len = hi_len + 1;  // bit length of m = 2r + 1
  // keep the top p bits of m (truncation toward zero), as an integer < 2^64
  std::uint64_t top;
  int shift;  // m_truncated = top * 2^shift
  if (len <= p) {
    top = static_cast<std::uint64_t>((r << 1) | 1);  // len <= 64 here since p <= 64
    shift = 0;
  } else {
    shift = len - p;  // >= 1: the half bit is dropped; top = floor(m / 2^shift) = r >> (shift-1)
    top = static_cast<std::uint64_t>(r >> (shift - 1));
  }
  // 2^e with e in [-130, 0]: a normal double, built from its bits (exact, no libm call)
  const int e = shift - static_cast<int>(total_bits) - 1;
  const double scale = std::bit_cast<double>(static_cast<std::uint64_t>(1023 + e) << 52);
  return static_cast<Real>(top) * static_cast<Real>(scale);
}

template <real_scalar Real>
Real unit_from_two_lanes(const stream_draw& draw, unsigned lanes, unsigned skip, bool flip) {
  return unit_from_two_words<Real>(draw.word(0), lanes == 2 ? draw.word(1) : 0, lanes, skip, flip);
}

/// uniform01<double> of a draw whose lane-0 word is w0 (one lane, RAND.UNIFORM.BITS).
inline double unit_from_word(std::uint64_t w0) {
  return unit_from_two_words<double>(w0, 0, 1, 0, false);
}

template <real_scalar Real>
Real unit_from_bits(const stream_draw& draw, unsigned lanes, unsigned skip, bool flip) {
  using std::ldexp;
  const int p = binary_digits<Real>();
  if constexpr (std::is_floating_point_v<Real>) {
    if (lanes <= 2 && p <= 64) return unit_from_two_lanes<Real>(draw, lanes, skip, flip);
  }
  const std::uint64_t flip_mask = flip ? ~std::uint64_t{0} : std::uint64_t{0};
  // Bits are numbered by their weight 2^-k, k = 1 .. B, then the extra half-bit at k = B + 1.
  // Find the first set bit (position of the leading one).
  int leading_k = -1;  // weight exponent of the leading one
  const unsigned total_bits = 64 * lanes - skip;
  for (unsigned lane = 0; lane < lanes && leading_k < 0; ++lane) {
    std::uint64_t w = draw.word(lane) ^ flip_mask;
    unsigned valid = 64;
    if (lane == 0) {
      w = skip >= 64 ? 0 : (w << skip);  // drop used bits; they become trailing zeros
      valid = 64 - skip;
    }
    const std::uint64_t active = valid == 64 ? w : (w & (~std::uint64_t{0} << (64 - valid)));
    if (active != 0) {
      const int lz = std::countl_zero(active);
      const int base = lane == 0 ? 0 : static_cast<int>(64 * lane - skip);
      leading_k = base + lz + 1;
    }
  }
  if (leading_k < 0) leading_k = static_cast<int>(total_bits) + 1;  // only the half bit is set
  // Keep bits k in [leading_k, leading_k + p - 1]; bits beyond are dropped (truncation).
  const int last_k = leading_k + p - 1;
  Real value(0);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    std::uint64_t w = draw.word(lane) ^ flip_mask;
    int first_k;  // weight exponent of the most significant bit of w after shifting
    if (lane == 0) {
      w = skip >= 64 ? 0 : (w << skip);
      first_k = 1;
      if (skip > 0) w &= ~std::uint64_t{0} << skip;  // the shifted-in zeros are not bits of R
    } else {
      first_k = static_cast<int>(64 * lane - skip) + 1;
    }
    // bit i of w (from the top, i = 0..63) has weight 2^-(first_k + i)
    const int drop_below = last_k - first_k + 1;  // keep top drop_below bits of w
    if (drop_below <= 0) break;
    if (drop_below < 64) w &= ~std::uint64_t{0} << (64 - drop_below);
    if (w != 0) {
      // split into two 32-bit halves so that conversion to Real is exact for any p >= 32
      const std::uint64_t hi = w >> 32, lo = w & 0xffffffffu;
      if (hi) value += ldexp(Real(static_cast<std::uint32_t>(hi)), -(first_k + 31));
      if (lo) value += ldexp(Real(static_cast<std::uint32_t>(lo)), -(first_k + 63));
    }
  }
  const int half_k = static_cast<int>(total_bits) + 1;
  if (half_k <= last_k) value += ldexp(Real(1), -half_k);
  return value;
}

}  // namespace detail

/// Uniform on the open interval (0, 1): U = (K + 1/2) 2^-B from the B = 64*lanes bits of one
/// draw, truncated toward zero to Real's precision (never 0, never 1). Every significand bit is
/// random whenever U >= 2^-(B - p). The leading 64 bits are the same at every precision
/// (RAND.STREAM.ALIGN).
template <real_scalar Real>
Real uniform01(const stream_draw& draw, unsigned lanes = lanes_for<Real>()) {
  return detail::unit_from_bits<Real>(draw, lanes, 0, false);
}

template <real_scalar Real>
Real uniform01(philox_stream& s) {
  return uniform01<Real>(s.next_draw());
}

/// The folded uniform of inversion samplers: the first `skip` bits of the draw are taken by the
/// caller (e.g. a sign), the next bit chooses the half, and the rest give t in (0, 1/2] with
/// full relative precision such that U = t (upper == false) or U = 1 - t (upper == true) is
/// uniform on (0, 1). Inverting F(1 - t) through the complement keeps every tail accurate.
template <real_scalar Real>
struct folded_unit {
  Real t;
  bool upper;
};

template <real_scalar Real>
folded_unit<Real> folded_uniform(const stream_draw& draw, unsigned lanes, unsigned skip) {
  const std::uint64_t w0 = draw.word(0);
  const bool upper = ((w0 << skip) >> 63) != 0;
  // t = (R + 1/2) 2^-B' with R the remaining bits (complemented in the upper half).
  // unit_from_bits sees skip+1 dropped bits, so its value is (R + 1/2) 2^-(B-skip-1) = 2t.
  Real twice_t = detail::unit_from_bits<Real>(draw, lanes, skip + 1, upper);
  using std::ldexp;
  return {ldexp(twice_t, -1), upper};
}

/// Bit `index` (0 = most significant) of lane 0 of a draw.
inline bool draw_bit(const stream_draw& draw, unsigned index) {
  return ((draw.word(0) << index) >> 63) != 0;
}

}  // namespace dpref

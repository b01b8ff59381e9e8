// Logarithms in double-double arithmetic for the reference double samplers: -log(t) and
// -log1p(-t) of a 106-bit dyadic t in (0, 1/2], with relative error below 2^-66, then rounded
// once. This makes the double Laplace/exponential sample the correctly rounded value of the
// exact transform of the draw in all but ~2^-12 of cases (RAND.PRECISION.AGREE) at a fraction of
// the cost of long double logl (~40 ns). Table of log(1 + i/128) computed once with MPFR.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref::detail {

struct dd {
  double hi, lo;
};

inline dd two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

inline dd two_prod(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

/// log(1 + i/128) for i = 0..128 as double-double, and ln 2 split so that k * hi is exact.
struct log_table {
  std::array<dd, 129> log_c;
  dd ln2;
};

inline const log_table& double_double_log_table() {
  static const log_table table = [] {
    log_table t{};
    using R = bmp::number<bmp::mpfr_float_backend<60>, bmp::et_off>;
    for (int i = 0; i <= 128; ++i) {
      const R v = log(R(128 + i) / 128);
      const double hi = static_cast<double>(v);
      t.log_c[static_cast<std::size_t>(i)] = {hi, static_cast<double>(R(v - hi))};
    }
    const R l2 = log(R(2));
    const double hi =
        std::ldexp(std::floor(std::ldexp(static_cast<double>(l2), 40)), -40);  // 40 bits
    t.ln2 = {hi, static_cast<double>(R(l2 - hi))};
    // The table may be built in a worker thread: release MPFR's thread-local constant caches
    // (log 2) now, or LeakSanitizer reports them when that thread exits.
    mpfr_free_cache();
    return t;
  }();
  return table;
}

/// 2^e for a normal exponent e in [-1022, 1023], built from its bits (exact, no libm call).
inline double pow2(int e) {
  return std::bit_cast<double>(static_cast<std::uint64_t>(1023 + e) << 52);
}

/// log(x) for a normal x = hi + lo in [2^-1000, 1), |lo| <= ulp(hi); absolute error < 2^-75.
/// `tab` is double_double_log_table() (a parameter so that batch loops look it up once).
inline dd log_dd(double hi, double lo, const log_table& tab = double_double_log_table()) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(hi);
  const int k = static_cast<int>((bits >> 52) & 0x7ff) - 1023;  // hi = m 2^k
  const double m = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | (1023ULL << 52));
  const int i = static_cast<int>((bits >> 45) & 127);  // top 7 fraction bits of m
  const double c = 1 + i / 128.0;
  const double d = m - c;             // exact (Sterbenz)
  const double d_lo = lo * pow2(-k);  // exact scaling
  // r = (d + d_lo) / c as double-double
  const double r_hi = d / c;
  const double rem = std::fma(-r_hi, c, d);  // exact remainder
  const double r_lo = (rem + d_lo) / c;
  // log1p(r) = r + q, q = -r^2/2 + r^3/3 - ... (|r| < 2^-7; terms to r^11 in double)
  const double r = r_hi;
  const double q =
      r * r *
      (-0.5 +
       r * (1.0 / 3 +
            r * (-0.25 +
                 r * (0.2 +
                      r * (-1.0 / 6 +
                           r * (1.0 / 7 +
                                r * (-0.125 + r * (1.0 / 9 + r * (-0.1 + r * (1.0 / 11))))))))));
  // sum k ln2 + log(c) + r_hi + (small terms)
  const dd& lc = tab.log_c[static_cast<std::size_t>(i)];
  const double kd = static_cast<double>(k);
  dd s = two_sum(kd * tab.ln2.hi, lc.hi);  // k * ln2.hi exact (40-bit constant, |k| < 2^11)
  const dd s2 = two_sum(s.hi, r_hi);
  // log1p(r_hi + r_lo) = log1p(r_hi) + r_lo / (1 + r_hi) + O(r_lo^2); r_lo ~ 2^-52 carries
  // the low word of x, so its first-order term is needed in full
  const double small = s.lo + s2.lo + kd * tab.ln2.lo + lc.lo + r_lo / (1 + r_hi) + q;
  return two_sum(s2.hi, small);
}

/// -log1p(-t) for t = hi + lo in (0, 1/2]; relative error < 2^-66.
inline dd neg_log1p_neg_dd(double hi, double lo, const log_table& tab = double_double_log_table()) {
  if (hi < 0x1p-7) {
    // t + t^2/2 + t^3/3 + ...: the t^2/2 term in double-double, the rest in double
    const dd t2 = two_prod(hi, hi);
    const double t = hi;
    const double tail =
        t * t * t *
        (1.0 / 3 +
         t * (0.25 +
              t * (0.2 + t * (1.0 / 6 + t * (1.0 / 7 + t * (0.125 + t * (1.0 / 9 + t * 0.1)))))));
    const dd s = two_sum(hi, 0.5 * t2.hi);
    return two_sum(s.hi, s.lo + lo + 0.5 * t2.lo + hi * lo + tail);  // (hi+lo)^2/2 cross term
  }
  // u = 1 - t as double-double (exact), then -log(u)
  const dd u = two_sum(1.0, -hi);
  const dd un = two_sum(u.hi, u.lo - lo);
  const dd l = log_dd(un.hi, un.lo, tab);
  return {-l.hi, -l.lo};
}

/// The folded uniform of two lanes as a double-double: t = (R + 1/2) 2^-B in (0, 1/2] with the
/// same bits as folded_uniform<Real>(draw, 2, skip), truncated to 106 bits.
struct folded_dd {
  double hi, lo;
  bool upper;
};

/// The same from the two lane words (w0, w1) of a draw (batch kernels, random/batch.hpp).
inline folded_dd folded_uniform_dd_words(std::uint64_t w0, std::uint64_t w1, unsigned skip) {
  __extension__ using u128 = unsigned __int128;  // GCC/Clang extension, fine under -pedantic
  const bool upper = ((w0 << skip) >> 63) != 0;
  const std::uint64_t flip = upper ? ~std::uint64_t{0} : 0;
  const unsigned bits = 128 - skip - 1;  // B: bits of R after the skipped and the fold bit
  u128 r = (static_cast<u128>(w0 ^ flip) << 64) | (w1 ^ flip);
  r &= (u128{1} << bits) - 1;
  // m = 2R + 1 has B + 1 <= 128 bits; t = m 2^-(B + 2) (the fold bit halves the unit interval)
  const u128 m = (r << 1) | 1;
  const std::uint64_t mh = static_cast<std::uint64_t>(m >> 64), ml = static_cast<std::uint64_t>(m);
  const int len = mh ? 128 - std::countl_zero(mh) : 64 - std::countl_zero(ml);
  // top 53 bits and next 53 bits, truncated
  const int shift_hi = len - 53;
  const u128 top = shift_hi > 0 ? m >> shift_hi : m << -shift_hi;
  const u128 rest_bits = shift_hi > 0 ? m & ((u128{1} << shift_hi) - 1) : 0;
  const int shift_lo = shift_hi - 53;
  const u128 next = shift_lo > 0 ? rest_bits >> shift_lo : rest_bits << -shift_lo;
  const int e = -static_cast<int>(bits) - 2;
  // top < 2^53 and next < 2^53 convert exactly; the scales are normal powers of two
  const double hi = static_cast<double>(static_cast<std::uint64_t>(top)) * pow2(shift_hi + e);
  const double lo = static_cast<double>(static_cast<std::uint64_t>(next)) * pow2(shift_lo + e);
  return {hi, lo, upper};
}

inline folded_dd folded_uniform_dd(const stream_draw& draw, unsigned skip) {
  return folded_uniform_dd_words(draw.word(0), draw.word(1), skip);
}

/// Standard exponential -log(U) of the lane words (w0, w1) of a draw (bits after `skip`), as
/// double-double.
inline dd standard_exponential_dd_words(std::uint64_t w0, std::uint64_t w1, unsigned skip,
                                        const log_table& tab = double_double_log_table()) {
  const folded_dd f = folded_uniform_dd_words(w0, w1, skip);
  if (f.upper) return neg_log1p_neg_dd(f.hi, f.lo, tab);
  const dd l = log_dd(f.hi, f.lo, tab);
  return {-l.hi, -l.lo};
}

/// Standard exponential -log(U) of the draw (bits after `skip`), as double-double.
inline dd standard_exponential_dd(const stream_draw& draw, unsigned skip) {
  return standard_exponential_dd_words(draw.word(0), draw.word(1), skip);
}

}  // namespace dpref::detail

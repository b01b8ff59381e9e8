// A branch-free double exp (and ln(1 + y) on [0, 1]) written with GCC/Clang vector extensions,
// so it is vectorised at any optimisation level (2 lanes with SSE2, 4 with AVX, 8 with AVX-512),
// for the double path of the logistic gradient and loss (issue 6 performance target).
// Multiprecision scalars never use it: they keep their exact exp.
//
// Method (Cody–Waite reduction, no table):
//   k = round(x/ln2) (the 0x1.8p52 shift trick), r = (x − k·ln2_hi) − k·ln2_lo with the fdlibm
//   split of ln2 (ln2_hi has 21 trailing zero bits, so k·ln2_hi is exact for |k| < 2^21 and the
//   subtraction is exact by Sterbenz), |r| ≤ ln2/2 + 2^-40;
//   e^r by its degree-13 Taylor polynomial (truncation ≤ 0.35^14/14! · e^{0.35} < 6.1e-18
//   relative, 0.03 ulp; coefficients 1/j! rounded to double) as 1 + (r + r²Q(r)), Q by Estrin;
//   2^k built in the exponent field: the bits of kk + 1023 + 0x1.8p52 shifted left by 52
//   (64-bit integer shift, SSE2 psllq). Near the ends of the range k is moved by ±54 into the
//   normal range and the result multiplied by 2^∓54 afterwards, so subnormal results are rounded
//   once and overflow happens exactly where the true value exceeds DBL_MAX.
// Special values by final selects: x > 709.79 → +inf, x < −746 → +0, NaN → NaN.
// Accuracy: measured ≤ 1.02 ulp against MPFR on a 2^21-point sweep of [−745, 709.78] (with and
// without FMA contraction); the documented and tested bound is 2 ulp (ACCEL.FASTEXP).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

namespace dpref::problems::fastmath {

/// Lanes of the explicit vector type (GCC/Clang vector extensions): the widest the target has.
#if defined(__AVX512F__)
inline constexpr std::size_t lanes = 8;
#elif defined(__AVX__)
inline constexpr std::size_t lanes = 4;
#else
inline constexpr std::size_t lanes = 2;
#endif
using vdouble = double __attribute__((vector_size(lanes * sizeof(double))));
using vint64 = std::int64_t __attribute__((vector_size(lanes * sizeof(double))));
using vuint64 = std::uint64_t __attribute__((vector_size(lanes * sizeof(double))));

/// v in every lane (a compile-time vector constant: a memory operand, not a per-use broadcast).
template <std::size_t... I>
constexpr vdouble splat_lanes(double v, std::index_sequence<I...>) noexcept {
  return vdouble{((void)I, v)...};
}
constexpr vdouble splat(double v) noexcept {
  return splat_lanes(v, std::make_index_sequence<lanes>{});
}

/// e^x on every lane: ≤ 2 ulp for normal results, correct special values; branch-free (the
/// selects are vector blends). With NonPositive = true the caller guarantees x <= 0 or NaN on
/// every lane and the overflow-side selects are skipped. @spec ACCEL.FASTEXP
template <bool NonPositive = false>
inline vdouble exp(vdouble x) noexcept {
  constexpr vdouble inv_ln2 = splat(0x1.71547652b82fep0);
  constexpr vdouble shift = splat(0x1.8p52);
  constexpr vdouble ln2_hi = splat(6.93147180369123816490e-01);  // fdlibm: 0x3fe62e42fee00000
  constexpr vdouble ln2_lo = splat(1.90821492927058770002e-10);  // fdlibm: 0x3dea39ef35793c76
  const vdouble zero = {};
  // Clamp so that k stays a small integer for huge or infinite x (the final selects fix the
  // result); NaN passes through the arithmetic.
  vdouble xc = x;
  if constexpr (!NonPositive) xc = x > 746.0 ? splat(746.0) : x;
  xc = xc < -746.0 ? splat(-746.0) : xc;
  const vdouble kd = (xc * inv_ln2 + shift) - shift;  // round(x/ln2), |kd| <= 1077
  const vdouble r = (xc - kd * ln2_hi) - kd * ln2_lo;
  // e^r = 1 + (r + r²·Q(r)), Q the degree-11 Taylor polynomial of (e^r − 1 − r)/r², coefficients
  // 1/j! (j = 2..13), evaluated by Estrin's scheme (dependency depth 4 instead of 11; the
  // final 1 + (r + r²Q) keeps the rounding of Q's small terms far below an ulp of the result).
  const vdouble r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const vdouble q01 = splat(0.5) + r * (splat(1.0 / 6.0));                           // 1/2!, 1/3!
  const vdouble q23 = splat(1.0 / 24.0) + r * (splat(1.0 / 120.0));                  // 1/4!, 1/5!
  const vdouble q45 = splat(1.0 / 720.0) + r * (splat(1.0 / 5040.0));                // 1/6!, 1/7!
  const vdouble q67 = splat(1.0 / 40320.0) + r * (splat(1.0 / 362880.0));            // 1/8!, 1/9!
  const vdouble q89 = splat(1.0 / 3628800.0) + r * (splat(1.0 / 39916800.0));        // 1/10!, 1/11!
  const vdouble q1011 = splat(1.0 / 479001600.0) + r * (splat(1.0 / 6227020800.0));  // 1/12!, 1/13!
  const vdouble Q = (q01 + r2 * q23) + r4 * (q45 + r2 * q67) + r8 * (q89 + r2 * q1011);
  const vdouble p = splat(1.0) + (r + r2 * Q);
  const vint64 low = kd < -1020.0;
  vdouble kk = low ? kd + splat(54.0) : kd;
  vdouble post = low ? splat(0x1p-54) : splat(1.0);
  if constexpr (!NonPositive) {
    const vint64 high = kd > 1020.0;
    kk = high ? kd - splat(54.0) : kk;
    post = high ? splat(0x1p54) : post;
  }
  // 2^kk: the low bits of kk + 1023 + 0x1.8p52 hold kk + 1023 in [1, 2046]; shifting them to the
  // exponent field drops the shift's own bits.
  const vuint64 bits = std::bit_cast<vuint64>(kk + (shift + splat(1023.0))) << 52;
  vdouble y = p * std::bit_cast<vdouble>(bits) * post;
  if constexpr (!NonPositive) y = x > 709.79 ? splat(std::numeric_limits<double>::infinity()) : y;
  y = x < -746.0 ? zero : y;
  return y;
}

/// e^x for one double: the lane computation of exp(vdouble), so scalar and array results are
/// identical bit for bit. @spec ACCEL.FASTEXP
inline double exp(double x) noexcept {
  vdouble v = {};
  v[0] = x;
  return exp<false>(v)[0];
}

namespace detail {
inline vdouble load(const double* p) noexcept {
  vdouble v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(double* p, vdouble v) noexcept { std::memcpy(p, &v, sizeof v); }
/// The first k <= lanes values of p, the other lanes set to pad.
inline vdouble load(const double* p, std::size_t k, double pad = 0.0) noexcept {
  if (k == lanes) return load(p);
  vdouble v{};
  for (std::size_t j = 0; j < lanes; ++j) v[j] = j < k ? p[j] : pad;
  return v;
}
/// Stores the first k <= lanes lanes of v.
inline void store(double* p, vdouble v, std::size_t k) noexcept {
  std::memcpy(p, &v, k * sizeof(double));
}
/// Applies f lane-wise to [0, n): full vectors, then the tail padded with zeros.
template <class F>
inline void for_each_vector(std::size_t n, F&& f) {
  const std::size_t full = n - n % lanes;
  for (std::size_t i = 0; i < full; i += lanes) f(i, lanes);
  if (full < n) f(full, n - full);
}
}  // namespace detail

/// out[i] = e^{in[i]} for i < n (in == out allowed).
inline void exp_array(const double* in, double* out, std::size_t n) noexcept {
  detail::for_each_vector(n, [&](std::size_t i, std::size_t k) {
    detail::store(out + i, exp<false>(detail::load(in + i, k)), k);
  });
}

/// Logistic-loss weights w_i = −z_i/(1 + e^{z_i r_i}) (the derivative of ln(1 + e^{−z r}) in r),
/// computed as −z·e/(1 + e) for z r > 0 and −z/(1 + e) otherwise with e = e^{−|z r|} ∈ (0, 1],
/// so nothing overflows and every weight has a small relative error (the exp, the addition, the
/// division and the product: ≤ 4 ulp). z_i ∈ {−1, 1}. w may coincide with r.
inline void logistic_weights(const double* z, const double* r, double* w, std::size_t n) noexcept {
  detail::for_each_vector(n, [&](std::size_t i, std::size_t k) {
    const vdouble zv = detail::load(z + i, k), t = zv * detail::load(r + i, k);
    const vint64 pos = t > 0.0;
    const vdouble e = exp<true>(pos ? -t : t);
    const vdouble num = pos ? e : vdouble{} + 1.0;
    detail::store(w + i, -zv * (num / (1.0 + e)), k);
  });
}

/// ln(1 + y) on every lane for y ∈ [0, 1] (what softplus needs: y = e^{−|t|}); NaN propagates.
/// fdlibm's scheme with Taylor coefficients: u = 1 + y rounded and c = (y − (u − 1))/u its
/// first-order correction; u = 2^k m with m ∈ [√½, √2] (k ∈ {0, 1}), f = m − 1 (exact),
/// s = f/(2 + f), ln m = f − f²/2 + s(f²/2 + R(s²)), R(z) = Σ_{j=1..11} 2z^j/(2j + 1)
/// (|s| ≤ 0.1716: truncation < 1e-19 relative); result k·ln2_hi + (ln m + (k·ln2_lo + c)).
/// ≤ 2 ulp (ACCEL.FASTEXP). @spec ACCEL.FASTEXP
inline vdouble log1p_unit(vdouble y) noexcept {
  constexpr vdouble ln2_hi = splat(6.93147180369123816490e-01);
  constexpr vdouble ln2_lo = splat(1.90821492927058770002e-10);
  const vdouble one = splat(1.0);
  const vdouble u = one + y;
  const vdouble c = (y - (u - one)) / u;
  const vint64 big = u > splat(0x1.6a09e667f3bcdp0);  // √2
  const vdouble m = big ? u * splat(0.5) : u;
  const vdouble k = big ? one : splat(0.0);
  const vdouble f = m - one;
  const vdouble s = f / (splat(2.0) + f);
  const vdouble z = s * s, z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
  // R(z) = Σ_{j=1..11} 2 z^j/(2j + 1), Estrin.
  const vdouble a12 = splat(2.0 / 3) + z * splat(2.0 / 5);
  const vdouble a34 = splat(2.0 / 7) + z * splat(2.0 / 9);
  const vdouble a56 = splat(2.0 / 11) + z * splat(2.0 / 13);
  const vdouble a78 = splat(2.0 / 15) + z * splat(2.0 / 17);
  const vdouble a910 = splat(2.0 / 19) + z * splat(2.0 / 21);
  const vdouble R =
      z * ((a12 + z2 * a34) + z4 * (a56 + z2 * a78) + z8 * (a910 + z2 * splat(2.0 / 23)));
  const vdouble hfsq = splat(0.5) * f * f;
  return k * ln2_hi + (f - (hfsq - (s * (hfsq + R) + (k * ln2_lo + c))));
}

/// Σ_i softplus(−z_i r_i) = Σ ln(1 + e^{−z_i r_i}) (the logistic loss of accel (5.1)), with
/// softplus(t) = max(t, 0) + ln(1 + e^{−|t|}) lane-wise; lanes summed separately, then added.
inline double logistic_loss_sum(const double* z, const double* r, std::size_t n) noexcept {
  vdouble acc{};
  detail::for_each_vector(n, [&](std::size_t i, std::size_t k) {
    // Padding lanes: z = 1, r = 800, softplus(−800) = 0 exactly.
    const vdouble t = -(detail::load(z + i, k, 1.0) * detail::load(r + i, k, 800.0));
    const vint64 pos = t > 0.0;
    const vdouble e = exp<true>(pos ? -t : t);
    acc += (pos ? t : vdouble{}) + log1p_unit(e);
  });
  double total = 0;
  for (std::size_t j = 0; j < lanes; ++j) total += acc[j];
  return total;
}

}  // namespace dpref::problems::fastmath

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

/// 2^(j/128) for j = 0..127 as pairs (hi, lo): hi the double nearest, lo the double nearest the
/// remainder (generated with MPFR at 200 bits, round to nearest).
// clang-format off
inline constexpr double exp2_table[256] = {
    0x1p+0, 0x0p+0, 0x1.0163da9fb3335p+0, 0x1.b61299ab8cdb7p-54,
    0x1.02c9a3e778061p+0, -0x1.19083535b085dp-56, 0x1.04315e86e7f85p+0, -0x1.0a31c1977c96ep-54,
    0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55, 0x1.0706b29ddf6dep+0, -0x1.c91dfe2b13c27p-55,
    0x1.0874518759bc8p+0, 0x1.186be4bb284ffp-57, 0x1.09e3ecac6f383p+0, 0x1.1487818316136p-54,
    0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54, 0x1.0cc922b7247f7p+0, 0x1.01edc16e24f71p-54,
    0x1.0e3ec32d3d1a2p+0, 0x1.03a1727c57b53p-59, 0x1.0fb66affed31bp+0, -0x1.b9bedc44ebd7bp-57,
    0x1.11301d0125b51p+0, -0x1.6c51039449b3ap-54, 0x1.12abdc06c31ccp+0, -0x1.1b514b36ca5c7p-58,
    0x1.1429aaea92dep+0, -0x1.32fbf9af1369ep-54, 0x1.15a98c8a58e51p+0, 0x1.2406ab9eeab0ap-55,
    0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55, 0x1.18af9388c8deap+0, -0x1.11023d1970f6cp-54,
    0x1.1a35beb6fcb75p+0, 0x1.e5b4c7b4968e4p-55, 0x1.1bbe084045cd4p+0, -0x1.95386352ef607p-54,
    0x1.1d4873168b9aap+0, 0x1.e016e00a2643cp-54, 0x1.1ed5022fcd91dp+0, -0x1.1df98027bb78cp-54,
    0x1.2063b88628cd6p+0, 0x1.dc775814a8495p-55, 0x1.21f49917ddc96p+0, 0x1.2a97e9494a5eep-55,
    0x1.2387a6e756238p+0, 0x1.9b07eb6c70573p-54, 0x1.251ce4fb2a63fp+0, 0x1.ac155bef4f4a4p-55,
    0x1.26b4565e27cddp+0, 0x1.2bd339940e9d9p-55, 0x1.284dfe1f56381p+0, -0x1.a4c3a8c3f0d7ep-54,
    0x1.29e9df51fdee1p+0, 0x1.612e8afad1255p-55, 0x1.2b87fd0dad99p+0, -0x1.10adcd6381aa4p-59,
    0x1.2d285a6e4030bp+0, 0x1.0024754db41d5p-54, 0x1.2ecafa93e2f56p+0, 0x1.1ca0f45d52383p-56,
    0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55, 0x1.32170fc4cd831p+0, 0x1.a9ce78e18047cp-55,
    0x1.33c08b26416ffp+0, 0x1.32721843659a6p-54, 0x1.356c55f929ff1p+0, -0x1.b5cee5c4e4628p-55,
    0x1.371a7373aa9cbp+0, -0x1.63aeabf42eae2p-54, 0x1.38cae6d05d866p+0, -0x1.e958d3c9904bdp-54,
    0x1.3a7db34e59ff7p+0, -0x1.5e436d661f5e3p-56, 0x1.3c32dc313a8e5p+0, -0x1.efff8375d29c3p-54,
    0x1.3dea64c123422p+0, 0x1.ada0911f09ebcp-55, 0x1.3fa4504ac801cp+0, -0x1.7d023f956f9f3p-54,
    0x1.4160a21f72e2ap+0, -0x1.ef3691c309278p-58, 0x1.431f5d950a897p+0, -0x1.1c7dde35f7999p-55,
    0x1.44e086061892dp+0, 0x1.89b7a04ef80dp-59, 0x1.46a41ed1d0057p+0, 0x1.c944bd1648a76p-54,
    0x1.486a2b5c13cdp+0, 0x1.3c1a3b69062fp-56, 0x1.4a32af0d7d3dep+0, 0x1.9cb62f3d1be56p-54,
    0x1.4bfdad5362a27p+0, 0x1.d4397afec42e2p-56, 0x1.4dcb299fddd0dp+0, 0x1.8ecdbbc6a7833p-54,
    0x1.4f9b2769d2ca7p+0, -0x1.4b309d25957e3p-54, 0x1.516daa2cf6642p+0, -0x1.f768569bd93efp-55,
    0x1.5342b569d4f82p+0, -0x1.07abe1db13cadp-55, 0x1.551a4ca5d920fp+0, -0x1.d689cefede59bp-55,
    0x1.56f4736b527dap+0, 0x1.9bb2c011d93adp-54, 0x1.58d12d497c7fdp+0, 0x1.295e15b9a1de8p-55,
    0x1.5ab07dd485429p+0, 0x1.6324c054647adp-54, 0x1.5c9268a5946b7p+0, 0x1.c4b1b816986a2p-60,
    0x1.5e76f15ad2148p+0, 0x1.ba6f93080e65ep-54, 0x1.605e1b976dc09p+0, -0x1.3e2429b56de47p-54,
    0x1.6247eb03a5585p+0, -0x1.383c17e40b497p-54, 0x1.6434634ccc32p+0, -0x1.c483c759d8933p-55,
    0x1.6623882552225p+0, -0x1.bb60987591c34p-54, 0x1.68155d44ca973p+0, 0x1.038ae44f73e65p-57,
    0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54, 0x1.6c012750bdabfp+0, -0x1.2895667ff0b0dp-56,
    0x1.6dfb23c651a2fp+0, -0x1.bbe3a683c88abp-57, 0x1.6ff7df9519484p+0, -0x1.83c0f25860ef6p-55,
    0x1.71f75e8ec5f74p+0, -0x1.16e4786887a99p-55, 0x1.73f9a48a58174p+0, -0x1.0a8d96c65d53cp-54,
    0x1.75feb564267c9p+0, -0x1.0245957316dd3p-54, 0x1.780694fde5d3fp+0, 0x1.866b80a02162dp-54,
    0x1.7a11473eb0187p+0, -0x1.41577ee04992fp-55, 0x1.7c1ed0130c132p+0, 0x1.f124cd1164dd6p-54,
    0x1.7e2f336cf4e62p+0, 0x1.05d02ba15797ep-56, 0x1.80427543e1a12p+0, -0x1.27c86626d972bp-54,
    0x1.82589994cce13p+0, -0x1.d4c1dd41532d8p-54, 0x1.8471a4623c7adp+0, -0x1.8d684a341cdfbp-55,
    0x1.868d99b4492edp+0, -0x1.fc6f89bd4f6bap-54, 0x1.88ac7d98a6699p+0, 0x1.994c2f37cb53ap-54,
    0x1.8ace5422aa0dbp+0, 0x1.6e9f156864b27p-54, 0x1.8cf3216b5448cp+0, -0x1.0d55e32e9e3aap-56,
    0x1.8f1ae99157736p+0, 0x1.5cc13a2e3976cp-55, 0x1.9145b0b91ffc6p+0, -0x1.dd6792e582524p-54,
    0x1.93737b0cdc5e5p+0, -0x1.75fc781b57ebcp-57, 0x1.95a44cbc8520fp+0, -0x1.64b7c96a5f039p-56,
    0x1.97d829fde4e5p+0, -0x1.d185b7c1b85d1p-54, 0x1.9a0f170ca07bap+0, -0x1.173bd91cee632p-54,
    0x1.9c49182a3f09p+0, 0x1.c7c46b071f2bep-56, 0x1.9e86319e32323p+0, 0x1.824ca78e64c6ep-56,
    0x1.a0c667b5de565p+0, -0x1.359495d1cd533p-54, 0x1.a309bec4a2d33p+0, 0x1.6305c7ddc36abp-54,
    0x1.a5503b23e255dp+0, -0x1.d2f6edb8d41e1p-54, 0x1.a799e1330b358p+0, 0x1.bcb7ecac563c7p-54,
    0x1.a9e6b5579fdbfp+0, 0x1.0fac90ef7fd31p-54, 0x1.ac36bbfd3f37ap+0, -0x1.f9234cae76cdp-55,
    0x1.ae89f995ad3adp+0, 0x1.7a1cd345dcc81p-54, 0x1.b0e07298db666p+0, -0x1.bdef54c80e425p-54,
    0x1.b33a2b84f15fbp+0, -0x1.2805e3084d708p-57, 0x1.b59728de5593ap+0, -0x1.c71dfbbba6de3p-54,
    0x1.b7f76f2fb5e47p+0, -0x1.5584f7e54ac3bp-56, 0x1.ba5b030a1064ap+0, -0x1.efcd30e54292ep-54,
    0x1.bcc1e904bc1d2p+0, 0x1.23dd07a2d9e84p-55, 0x1.bf2c25bd71e09p+0, -0x1.efdca3f6b9c73p-54,
    0x1.c199bdd85529cp+0, 0x1.11065895048ddp-55, 0x1.c40ab5fffd07ap+0, 0x1.b4537e083c60ap-54,
    0x1.c67f12e57d14bp+0, 0x1.2884dff483cadp-54, 0x1.c8f6d9406e7b5p+0, 0x1.1acbc48805c44p-56,
    0x1.cb720dcef9069p+0, 0x1.503cbd1e949dbp-56, 0x1.cdf0b555dc3fap+0, -0x1.dd83b53829d72p-55,
    0x1.d072d4a07897cp+0, -0x1.cbc3743797a9cp-54, 0x1.d2f87080d89f2p+0, -0x1.d487b719d8578p-54,
    0x1.d5818dcfba487p+0, 0x1.2ed02d75b3707p-55, 0x1.d80e316c98398p+0, -0x1.11ec18beddfe8p-54,
    0x1.da9e603db3285p+0, 0x1.c2300696db532p-54, 0x1.dd321f301b46p+0, 0x1.2da5778f018c3p-54,
    0x1.dfc97337b9b5fp+0, -0x1.1a5cd4f184b5cp-54, 0x1.e264614f5a129p+0, -0x1.7b627817a1496p-54,
    0x1.e502ee78b3ff6p+0, 0x1.39e8980a9cc8fp-55, 0x1.e7a51fbc74c83p+0, 0x1.2d522ca0c8de2p-54,
    0x1.ea4afa2a490dap+0, -0x1.e9c23179c2893p-54, 0x1.ecf482d8e67f1p+0, -0x1.c93f3b411ad8cp-54,
    0x1.efa1bee615a27p+0, 0x1.dc7f486a4b6bp-54, 0x1.f252b376bba97p+0, 0x1.3a1a5bf0d8e43p-54,
    0x1.f50765b6e454p+0, 0x1.9d3e12dd8a18bp-54, 0x1.f7bfdad9cbe14p+0, -0x1.dbb12d006350ap-54,
    0x1.fa7c1819e90d8p+0, 0x1.74853f3a5931ep-55, 0x1.fd3c22b8f71f1p+0, 0x1.2eb74966579e7p-57,
};
// clang-format on

/// e^x for x ∈ [−708, 0] on every lane (the caller guarantees the range; NaN propagates), a
/// cheaper kernel than exp() for the logistic weights: k = round(128x/ln2), r = x − k·ln2/128
/// (fdlibm split of ln2 scaled by 2^-7: k·ln2_hi/128 is exact for |k| < 2^21, and the
/// subtraction is exact by Sterbenz), |r| ≤ ln2/256 + 2^-40; e^x = 2^⌊k/128⌋ · 2^(j/128) · e^r
/// with j = k mod 128 from exp2_table (hi + lo) and e^r − 1 by its degree-5 Taylor polynomial
/// (truncation ≤ 0.0028^6/6! < 7e-19, 0.006 ulp): result = 2^m·(hi + (hi·p + lo)), one final
/// rounding plus tiny terms, ≤ 1 ulp (x ≥ −708 keeps 2^m·2^(j/128)e^r normal). @spec ACCEL.FASTEXP
inline vdouble exp_neg_normal(vdouble x) noexcept {
  constexpr vdouble inv_ln2_128 = splat(0x1.71547652b82fep7);  // 128/ln2
  constexpr vdouble shift = splat(0x1.8p52);
  constexpr vdouble ln2_hi_128 = splat(6.93147180369123816490e-01 / 128);
  constexpr vdouble ln2_lo_128 = splat(1.90821492927058770002e-10 / 128);
  const vdouble ks = x * inv_ln2_128 + shift;  // k + 1.5·2^52: k in the low mantissa bits
  const vdouble kd = ks - shift;
  const vdouble r = (x - kd * ln2_hi_128) - kd * ln2_lo_128;
  // k + 1023·128 >= 0 (x >= −708): its low 7 bits are j, the rest m + 1023 (biased exponent).
  const vint64 kb = std::bit_cast<vint64>(ks) -
                    (std::bit_cast<std::int64_t>(0x1.8p52) - std::int64_t{1023 * 128});
  const vuint64 scale_bits = (std::bit_cast<vuint64>(kb) >> 7) << 52;
  vdouble hi{}, lo{};
  for (std::size_t l = 0; l < lanes; ++l) {
    const auto j = static_cast<std::size_t>(kb[l] & 127);
    hi[l] = exp2_table[2 * j];
    lo[l] = exp2_table[2 * j + 1];
  }
  const vdouble r2 = r * r;
  const vdouble q = (splat(0.5) + r * splat(1.0 / 6.0)) +
                    r2 * (splat(1.0 / 24.0) + r * splat(1.0 / 120.0));  // 1/2!, …, 1/5!
  const vdouble p = r + r2 * q;                                         // e^r − 1
  return std::bit_cast<vdouble>(scale_bits) * (hi + (hi * p + lo));
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
/// Whether any lane of a comparison result is set (one movmskpd with SSE2).
inline bool any(vint64 m) noexcept {
#if defined(__SSE2__) && !defined(__AVX__)
  return __builtin_ia32_movmskpd(std::bit_cast<vdouble>(m)) != 0;
#else
  bool a = false;
  for (std::size_t l = 0; l < lanes; ++l) a |= m[l] != 0;
  return a;
#endif
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
/// division and the product: ≤ 4 ulp). z_i ∈ {−1, 1}. w may coincide with r. With 2 lanes (SSE2)
/// e comes from the table exp exp_neg_normal (about half the work of exp() there), a vector with
/// a lane below −708 from exp<true>; with 4+ lanes from exp<true> (as fast, and no lookups).
inline void logistic_weights(const double* z, const double* r, double* w, std::size_t n) noexcept {
  constexpr vuint64 sign = vuint64{} + 0x8000000000000000u;
  detail::for_each_vector(n, [&](std::size_t i, std::size_t k) {
    const vdouble zv = detail::load(z + i, k), t = zv * detail::load(r + i, k);
    const vint64 pos = t > 0.0;
    const vdouble na = std::bit_cast<vdouble>(std::bit_cast<vuint64>(t) | sign);  // −|t|
    vdouble e;
    if constexpr (lanes == 2) {
      if (detail::any(na < -708.0))
        e = exp<true>(na);
      else
        e = exp_neg_normal(na);
    } else {
      e = exp<true>(na);
    }
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

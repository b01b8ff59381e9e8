// AVX-512 kernel of the batch Laplace / exponential samplers (random/batch.hpp): eight draws
// at a time, the SAME floating-point operations in the same order as the scalar path
// (detail::folded_uniform_dd_words, log_dd, laplace_dd_words, exponential_dd_words) written
// with intrinsics (separate multiplies and adds, std::fma as vfmadd), so every lane gives the
// scalar result bit for bit. Lanes the vector path does not cover — the leading 64 bits of the
// folded uniform all zero (probability 2^-63) and upper-half draws with t < 2^-7, which take
// the series branch of neg_log1p_neg_dd (probability 2^-7) — are recomputed by the scalar
// function. Compiled with a function-level target attribute and called only after a run-time
// CPU check (batch::detail::has_avx512), so the library needs no -mavx512 flag.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DPREF_BATCH_AVX512 1

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "dpref/random/detail/double_double_log.hpp"
#include "dpref/random/exponential.hpp"
#include "dpref/random/laplace.hpp"

// GCC 12's AVX-512 intrinsics expand _mm512_undefined_*() into self-initialised variables and
// warn about them once inlined with a target attribute (GCC PR 105593, fixed in GCC 13).
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace dpref::batch::detail {

#define DPREF_AVX512_TARGET __attribute__((target("avx512f,avx512dq,avx512cd,fma")))

/// Whether the CPU runs the AVX-512 kernel (F, DQ, CD).
inline bool has_avx512() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                          __builtin_cpu_supports("avx512cd");
  return yes;
}

// Arithmetic through the explicit-rounding builtins: the compiler cannot fuse them into FMAs
// (GCC contracts plain _mm512_mul_pd + _mm512_add_pd under -ffp-contract=fast), so the
// operations stay exactly those of the scalar code whatever the flags of the includer.
#define DPREF_RN (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
DPREF_AVX512_TARGET inline __m512d vadd(__m512d a, __m512d b) {
  return _mm512_add_round_pd(a, b, DPREF_RN);
}
DPREF_AVX512_TARGET inline __m512d vsub(__m512d a, __m512d b) {
  return _mm512_sub_round_pd(a, b, DPREF_RN);
}
DPREF_AVX512_TARGET inline __m512d vmul(__m512d a, __m512d b) {
  return _mm512_mul_round_pd(a, b, DPREF_RN);
}
DPREF_AVX512_TARGET inline __m512d vdiv(__m512d a, __m512d b) {
  return _mm512_div_round_pd(a, b, DPREF_RN);
}
DPREF_AVX512_TARGET inline __m512d vfma(__m512d a, __m512d b, __m512d c) {
  return _mm512_fmadd_round_pd(a, b, c, DPREF_RN);
}
#undef DPREF_RN

struct v8dd {
  __m512d hi, lo;
};

DPREF_AVX512_TARGET inline v8dd v_two_sum(__m512d a, __m512d b) {
  const __m512d s = vadd(a, b);
  const __m512d bb = vsub(s, a);
  const __m512d err = vadd(vsub(a, vsub(s, bb)), vsub(b, bb));
  return {s, err};
}

/// -x exactly as the scalar unary minus (sign bit flipped; -0 for +0).
DPREF_AVX512_TARGET inline __m512d v_neg(__m512d x) {
  return _mm512_xor_pd(x, _mm512_set1_pd(-0.0));
}

/// 2^e for int64 lanes e in the normal range (exact).
DPREF_AVX512_TARGET inline __m512d v_pow2(__m512i e) {
  return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_add_epi64(e, _mm512_set1_epi64(1023)), 52));
}

/// log_dd of eight lanes (hi, lo); `tab` as in log_dd.
DPREF_AVX512_TARGET inline v8dd v_log_dd(__m512d hi, __m512d lo,
                                         const dpref::detail::log_table& tab) {
  const __m512i bits = _mm512_castpd_si512(hi);
  const __m512i k =
      _mm512_sub_epi64(_mm512_and_si512(_mm512_srli_epi64(bits, 52), _mm512_set1_epi64(0x7ff)),
                       _mm512_set1_epi64(1023));
  const __m512d m = _mm512_castsi512_pd(
      _mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi64(0x000fffffffffffffLL)),
                      _mm512_set1_epi64(1023LL << 52)));
  const __m512i i = _mm512_and_si512(_mm512_srli_epi64(bits, 45), _mm512_set1_epi64(127));
  const __m512d c = vadd(_mm512_set1_pd(1), vdiv(_mm512_cvtepi64_pd(i), _mm512_set1_pd(128.0)));
  const __m512d d = vsub(m, c);
  const __m512d d_lo = vmul(lo, v_pow2(_mm512_sub_epi64(_mm512_setzero_si512(), k)));
  const __m512d r_hi = vdiv(d, c);
  const __m512d rem = vfma(v_neg(r_hi), c, d);
  const __m512d r_lo = vdiv(vadd(rem, d_lo), c);
  const __m512d r = r_hi;
  // q = r*r*(-0.5 + r*(1/3 + r*(-0.25 + ... + r*(1/11)))), innermost first
  __m512d p = vmul(r, _mm512_set1_pd(1.0 / 11));
  p = vmul(r, vadd(_mm512_set1_pd(-0.1), p));
  p = vmul(r, vadd(_mm512_set1_pd(1.0 / 9), p));
  p = vmul(r, vadd(_mm512_set1_pd(-0.125), p));
  p = vmul(r, vadd(_mm512_set1_pd(1.0 / 7), p));
  p = vmul(r, vadd(_mm512_set1_pd(-1.0 / 6), p));
  p = vmul(r, vadd(_mm512_set1_pd(0.2), p));
  p = vmul(r, vadd(_mm512_set1_pd(-0.25), p));
  p = vmul(r, vadd(_mm512_set1_pd(1.0 / 3), p));
  p = vadd(_mm512_set1_pd(-0.5), p);
  const __m512d q = vmul(vmul(r, r), p);
  // table entries log(1 + i/128) (hi, lo interleaved)
  const double* base = &tab.log_c[0].hi;
  const __m512i idx = _mm512_slli_epi64(i, 1);
  const __m512d lc_hi = _mm512_i64gather_pd(idx, base, 8);
  const __m512d lc_lo = _mm512_i64gather_pd(_mm512_add_epi64(idx, _mm512_set1_epi64(1)), base, 8);
  const __m512d kd = _mm512_cvtepi64_pd(k);
  const v8dd s = v_two_sum(vmul(kd, _mm512_set1_pd(tab.ln2.hi)), lc_hi);
  const v8dd s2 = v_two_sum(s.hi, r_hi);
  __m512d small = vadd(s.lo, s2.lo);
  small = vadd(small, vmul(kd, _mm512_set1_pd(tab.ln2.lo)));
  small = vadd(small, lc_lo);
  small = vadd(small, vdiv(r_lo, vadd(_mm512_set1_pd(1), r_hi)));
  small = vadd(small, q);
  return v_two_sum(s2.hi, small);
}

/// Standard exponential of eight draws (lane words w0, w1; `skip` leading bits used by the
/// caller) as double-double; `fallback` marks the lanes the scalar path must recompute.
DPREF_AVX512_TARGET inline v8dd v_standard_exponential(__m512i w0, __m512i w1, unsigned skip,
                                                       const dpref::detail::log_table& tab,
                                                       __mmask8& fallback) {
  const __m512i one = _mm512_set1_epi64(1);
  // upper half <=> bit `skip` (from the top) of w0; flip = all ones there
  // (variable-count shifts: GCC 12's immediate forms warn -Wuninitialized for a runtime count)
  const __m512i flip =
      _mm512_srav_epi64(_mm512_sllv_epi64(w0, _mm512_set1_epi64(skip)), _mm512_set1_epi64(63));
  const __mmask8 upper = _mm512_test_epi64_mask(flip, flip);
  // r = bits after skip + 1, as (rh, rl); m = 2 r + 1 = (mh, ml)
  const __m512i hi_mask =
      _mm512_set1_epi64(static_cast<long long>((std::uint64_t{1} << (63 - skip)) - 1));
  const __m512i rh = _mm512_and_si512(_mm512_xor_si512(w0, flip), hi_mask);
  const __m512i rl = _mm512_xor_si512(w1, flip);
  const __m512i mh = _mm512_or_si512(_mm512_slli_epi64(rh, 1), _mm512_srli_epi64(rl, 63));
  const __m512i ml = _mm512_or_si512(_mm512_slli_epi64(rl, 1), one);
  fallback = _mm512_testn_epi64_mask(mh, mh);  // leading word zero: scalar path
  // normalise m (leading one at bit 127): top = the 53 leading bits, next = the following 53
  const __m512i lz = _mm512_lzcnt_epi64(mh);  // in [0, 63] on the vector lanes
  const __m512i nh =
      _mm512_or_si512(_mm512_sllv_epi64(mh, lz),
                      _mm512_srlv_epi64(ml, _mm512_sub_epi64(_mm512_set1_epi64(64), lz)));
  const __m512i nl = _mm512_sllv_epi64(ml, lz);
  const __m512i top = _mm512_srli_epi64(nh, 11);
  const __m512i next =
      _mm512_or_si512(_mm512_slli_epi64(_mm512_and_si512(nh, _mm512_set1_epi64(0x7ff)), 42),
                      _mm512_srli_epi64(nl, 22));
  // t = top 2^(shift_hi + e) + next 2^(shift_lo + e), shift_hi = 75 - lz, shift_lo = 22 - lz,
  // e = -(127 - skip) - 2
  const long long e = -static_cast<long long>(127 - skip) - 2;
  const __m512d t_hi =
      vmul(_mm512_cvtepi64_pd(top), v_pow2(_mm512_sub_epi64(_mm512_set1_epi64(75 + e), lz)));
  const __m512d t_lo =
      vmul(_mm512_cvtepi64_pd(next), v_pow2(_mm512_sub_epi64(_mm512_set1_epi64(22 + e), lz)));
  // upper half: U = 1 - t, -log1p(-t) = -log(1 - t) with 1 - t as double-double (t >= 2^-7)
  const v8dd u = v_two_sum(_mm512_set1_pd(1.0), v_neg(t_hi));
  const v8dd un = v_two_sum(u.hi, vsub(u.lo, t_lo));
  const __mmask8 small_t = _mm512_cmp_pd_mask(t_hi, _mm512_set1_pd(0x1p-7), _CMP_LT_OQ);
  fallback = static_cast<__mmask8>(fallback | (upper & small_t));
  const __m512d x_hi = _mm512_mask_blend_pd(upper, t_hi, un.hi);
  const __m512d x_lo = _mm512_mask_blend_pd(upper, t_lo, un.lo);
  const v8dd l = v_log_dd(x_hi, x_lo, tab);
  return {v_neg(l.hi), v_neg(l.lo)};
}

/// out[j] = laplace_dd_words(w0[j], w1[j], b) for j < n.
DPREF_AVX512_TARGET inline void laplace_avx512(const std::uint64_t* w0, const std::uint64_t* w1,
                                               std::size_t n, double b, double* out,
                                               const dpref::detail::log_table& tab) {
  std::size_t j = 0;
  const __m512d vb = _mm512_set1_pd(b);
  const __m512i sign = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << 63));
  for (; j + 8 <= n; j += 8) {
    const __m512i a = _mm512_loadu_si512(w0 + j);
    const __m512i c = _mm512_loadu_si512(w1 + j);
    __mmask8 fb;
    const v8dd e = v_standard_exponential(a, c, 1, tab, fb);
    // two_prod(b, e.hi), then p.hi + (p.lo + b e.lo)
    const __m512d p_hi = vmul(vb, e.hi);
    const __m512d p_lo = vfma(vb, e.hi, v_neg(p_hi));
    const __m512d x = vadd(p_hi, vadd(p_lo, vmul(vb, e.lo)));
    // negative ? -x : x
    const __m512d neg = v_neg(x);
    const __mmask8 negative = _mm512_test_epi64_mask(a, sign);
    _mm512_storeu_pd(out + j, _mm512_mask_blend_pd(negative, x, neg));
    for (unsigned k = 0; fb != 0; ++k, fb = static_cast<__mmask8>(fb >> 1))
      if (fb & 1) out[j + k] = dpref::detail::laplace_dd_words(w0[j + k], w1[j + k], b, tab);
  }
  for (; j < n; ++j) out[j] = dpref::detail::laplace_dd_words(w0[j], w1[j], b, tab);
}

/// out[j] = exponential_dd_words(w0[j], w1[j], rate) for j < n.
DPREF_AVX512_TARGET inline void exponential_avx512(const std::uint64_t* w0, const std::uint64_t* w1,
                                                   std::size_t n, double rate, double* out,
                                                   const dpref::detail::log_table& tab) {
  std::size_t j = 0;
  const __m512d vr = _mm512_set1_pd(rate);
  for (; j + 8 <= n; j += 8) {
    const __m512i a = _mm512_loadu_si512(w0 + j);
    const __m512i c = _mm512_loadu_si512(w1 + j);
    __mmask8 fb;
    const v8dd e = v_standard_exponential(a, c, 0, tab, fb);
    // q = e.hi / rate; rem = fma(-q, rate, e.hi) + e.lo; q + rem / rate
    const __m512d q = vdiv(e.hi, vr);
    const __m512d rem = vadd(vfma(v_neg(q), vr, e.hi), e.lo);
    _mm512_storeu_pd(out + j, vadd(q, vdiv(rem, vr)));
    for (unsigned k = 0; fb != 0; ++k, fb = static_cast<__mmask8>(fb >> 1))
      if (fb & 1) out[j + k] = dpref::detail::exponential_dd_words(w0[j + k], w1[j + k], rate, tab);
  }
  for (; j < n; ++j) out[j] = dpref::detail::exponential_dd_words(w0[j], w1[j], rate, tab);
}

#undef DPREF_AVX512_TARGET

}  // namespace dpref::batch::detail

#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif

// AVX2 and AVX-512 kernels of the ziggurat batch samplers (random/ziggurat_batch.hpp):
// Philox-4x64-10 lane-0 words of 4 (AVX2) or 8 (AVX-512) consecutive blocks at once, and the word →
// sample transforms of random/ziggurat.hpp eight or four draws at a time. Everything is integer
// arithmetic or one exact integer → double conversion followed by the same multiplications as
// the scalar code, so each lane gives the scalar value bit for bit; draws not accepted at once
// (probability 0.8% Gaussian, 1.2% exponential) are recomputed by the scalar word
// function. Compiled with function-level target attributes and called only after a run-time
// CPU check, so the library needs no -mavx flag (spec/random.md RAND.ZIGGURAT.BATCH).
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DPREF_ZIGGURAT_SIMD 1

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "dpref/random/ziggurat.hpp"

#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace dpref::ziggurat::simd {

#define DPREF_Z2_TARGET __attribute__((target("avx2")))
#define DPREF_Z5_TARGET __attribute__((target("avx512f,avx512dq")))

inline bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
inline bool has_avx512() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return yes;
}

// Philox-4x64 constants (Salmon et al. 2011; Random123's PHILOX_M4x64_*, PHILOX_W64_*).
inline constexpr std::uint64_t kM0 = 0xD2E7470EE14C6C93ull, kM1 = 0xCA5A826395121157ull;
inline constexpr std::uint64_t kW0 = 0x9E3779B97F4A7C15ull, kW1 = 0xBB67AE8584CAA73Bull;
__extension__ typedef unsigned __int128 u128;  // the scalar products of rounds 1 and 2

// ---------------------------------------------------------------------------------- AVX2 ----

/// hi and lo of the 128-bit products a·m (m = mh·2^32 + ml, both 32-bit, broadcast): with
/// t = a_lo·m_hi + ⌊a_lo·m_lo / 2^32⌋ (no overflow) and u = a_hi·m_lo + (t mod 2^32),
/// hi = a_hi·m_hi + ⌊t/2^32⌋ + ⌊u/2^32⌋ and lo = (u mod 2^32)·2^32 + (a_lo·m_lo mod 2^32).
DPREF_Z2_TARGET inline void mulhilo4(__m256i a, __m256i ml, __m256i mh, __m256i& hi, __m256i& lo) {
  const __m256i mask = _mm256_set1_epi64x(0xffffffffll);
  const __m256i ah = _mm256_srli_epi64(a, 32);
  const __m256i ll = _mm256_mul_epu32(a, ml), lh = _mm256_mul_epu32(a, mh);
  const __m256i hl = _mm256_mul_epu32(ah, ml), hh = _mm256_mul_epu32(ah, mh);
  const __m256i t = _mm256_add_epi64(lh, _mm256_srli_epi64(ll, 32));
  const __m256i u = _mm256_add_epi64(hl, _mm256_and_si256(t, mask));
  hi = _mm256_add_epi64(_mm256_add_epi64(hh, _mm256_srli_epi64(t, 32)), _mm256_srli_epi64(u, 32));
  lo = _mm256_or_si256(_mm256_slli_epi64(u, 32), _mm256_and_si256(ll, mask));
}

/// Lane-0 words of the blocks b0 .. b0 + 4G - 1 of (seed, stream, substream) in position order:
/// out[4 j + k] = word k of block b0 + j. G independent groups of 4 blocks hide the latency of
/// the multiplications.
template <int G = 1>
DPREF_Z2_TARGET inline void philox4_avx2(std::uint64_t seed, std::uint64_t stream,
                                         std::uint64_t substream, std::uint64_t b0,
                                         std::uint64_t* out) {
  const __m256i m0l = _mm256_set1_epi64x(static_cast<long long>(kM0 & 0xffffffffu));
  const __m256i m0h = _mm256_set1_epi64x(static_cast<long long>(kM0 >> 32));
  const __m256i m1l = _mm256_set1_epi64x(static_cast<long long>(kM1 & 0xffffffffu));
  const __m256i m1h = _mm256_set1_epi64x(static_cast<long long>(kM1 >> 32));
  // Rounds 1 and 2: the counter words other than c0 are the same in every lane (lane 0,
  // substream, 0), so half of their products are scalars (the same arithmetic, exactly).
  std::uint64_t k0 = seed, k1 = stream;
  const u128 p1 = static_cast<u128>(kM1) * substream;
  const std::uint64_t c0 = static_cast<std::uint64_t>(p1 >> 64) ^ k0;  // x0 after round 1
  const std::uint64_t c1 = static_cast<std::uint64_t>(p1);             // x1 after round 1
  k0 += kW0;
  k1 += kW1;
  const u128 p0 = static_cast<u128>(kM0) * c0;  // round 2, M0·x0
  const __m256i hi0s = _mm256_set1_epi64x(static_cast<long long>(p0 >> 64));
  const __m256i lo0s = _mm256_set1_epi64x(static_cast<long long>(static_cast<std::uint64_t>(p0)));
  __m256i x0[G], x1[G], x2[G], x3[G];
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
    const __m256i ctr = _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(b0 + 4 * g)),
                                         _mm256_set_epi64x(3, 2, 1, 0));
    __m256i hi, lo;
    mulhilo4(ctr, m0l, m0h, hi, lo);  // round 1, M0·x0
    x2[g] = _mm256_xor_si256(hi, _mm256_set1_epi64x(static_cast<long long>(stream)));
    x3[g] = lo;
    __m256i h1, l1;  // round 2, M1·x2
    mulhilo4(x2[g], m1l, m1h, h1, l1);
    x0[g] = _mm256_xor_si256(_mm256_xor_si256(h1, _mm256_set1_epi64x(static_cast<long long>(c1))),
                             _mm256_set1_epi64x(static_cast<long long>(k0)));
    x1[g] = l1;
    x2[g] = _mm256_xor_si256(_mm256_xor_si256(hi0s, x3[g]),
                             _mm256_set1_epi64x(static_cast<long long>(k1)));
    x3[g] = lo0s;
  }
  k0 += kW0;
  k1 += kW1;
  for (int r = 2; r < 10; ++r) {
    const __m256i kv0 = _mm256_set1_epi64x(static_cast<long long>(k0));
    const __m256i kv1 = _mm256_set1_epi64x(static_cast<long long>(k1));
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) {
      __m256i hi0, lo0, hi1, lo1;
      mulhilo4(x0[g], m0l, m0h, hi0, lo0);
      mulhilo4(x2[g], m1l, m1h, hi1, lo1);
      x0[g] = _mm256_xor_si256(_mm256_xor_si256(hi1, x1[g]), kv0);
      x2[g] = _mm256_xor_si256(_mm256_xor_si256(hi0, x3[g]), kv1);
      x1[g] = lo1;
      x3[g] = lo0;
    }
    k0 += kW0;
    k1 += kW1;
  }
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {  // 4x4 transpose: row j = block b0 + 4g + j
    const __m256i a = _mm256_unpacklo_epi64(x0[g], x1[g]), b = _mm256_unpackhi_epi64(x0[g], x1[g]);
    const __m256i c = _mm256_unpacklo_epi64(x2[g], x3[g]), d = _mm256_unpackhi_epi64(x2[g], x3[g]);
    auto* o = reinterpret_cast<__m256i*>(out + 16 * g);
    _mm256_storeu_si256(o + 0, _mm256_permute2x128_si256(a, c, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(b, d, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(a, c, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(b, d, 0x31));
  }
}

/// Exact conversion of integers < 2^52 to double.
DPREF_Z2_TARGET inline __m256d u52_to_double4(__m256i u) {
  const __m256i magic = _mm256_set1_epi64x(0x4330000000000000ll);
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(u, magic)), _mm256_set1_pd(0x1p52));
}

enum class transform { gaussian, exponential, laplace, uniform };

/// out[j] = transform of words w[j] (j < m, m a multiple of 4) times `scale`; lanes not
/// accepted at once are marked in `todo` (bit j).
template <transform T>
DPREF_Z2_TARGET inline void transform_avx2(const std::uint64_t* w, std::size_t m, double scale,
                                           double* out, std::uint8_t* todo) {
  const table& t = T == transform::gaussian ? normal_table() : exponential_table();
  const __m256d s = _mm256_set1_pd(scale);
  const __m256i byte = _mm256_set1_epi64x(static_cast<long long>(kLayerMask));
  const __m256i signbit = _mm256_set1_epi64x(static_cast<long long>(1ull << 63));
  for (std::size_t j = 0; j < m; j += 4) {
    const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + j));
    const __m256i u = _mm256_srli_epi64(wv, 12);
    if constexpr (T == transform::uniform) {
      const __m256i magic = _mm256_set1_epi64x(0x4330000000000000ll);
      const __m256d v = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(u, magic)),
                                      _mm256_set1_pd(0x1p52 - 0.5));
      _mm256_storeu_pd(out + j, _mm256_mul_pd(v, _mm256_set1_pd(0x1p-52)));
      todo[j / 4] = 0;
    } else {
      const __m256i i = _mm256_and_si256(wv, byte);
      const __m256i k =
          _mm256_i64gather_epi64(reinterpret_cast<const long long*>(t.k.data()), i, 8);
      const __m256d wt = _mm256_i64gather_pd(t.w.data(), i, 8);
      __m256d x = _mm256_mul_pd(u52_to_double4(u), wt);
      if constexpr (T != transform::exponential)
        x = _mm256_or_pd(x, _mm256_castsi256_pd(
                                _mm256_and_si256(_mm256_slli_epi64(wv, 63 - kLayerBits), signbit)));
      x = _mm256_mul_pd(x, s);
      _mm256_storeu_pd(out + j, x);
      todo[j / 4] = static_cast<std::uint8_t>(
          ~_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(k, u))) & 0xf);
    }
  }
}

// ------------------------------------------------------------------------------- AVX-512 ----

DPREF_Z5_TARGET inline void mulhilo8(__m512i a, __m512i m, __m512i ml, __m512i mh, __m512i& hi,
                                     __m512i& lo) {  // as mulhilo4
  const __m512i mask = _mm512_set1_epi64(0xffffffffll);
  const __m512i ah = _mm512_srli_epi64(a, 32);
  const __m512i ll = _mm512_mul_epu32(a, ml), lh = _mm512_mul_epu32(a, mh);
  const __m512i hl = _mm512_mul_epu32(ah, ml), hh = _mm512_mul_epu32(ah, mh);
  const __m512i t = _mm512_add_epi64(lh, _mm512_srli_epi64(ll, 32));
  const __m512i u = _mm512_add_epi64(hl, _mm512_and_si512(t, mask));
  hi = _mm512_add_epi64(_mm512_add_epi64(hh, _mm512_srli_epi64(t, 32)), _mm512_srli_epi64(u, 32));
  lo = _mm512_mullo_epi64(a, m);
}

/// Lane-0 words of the blocks b0 .. b0 + 8G - 1 in position order (out[4 j + k]); G
/// independent groups of 8 blocks.
template <int G = 1>
DPREF_Z5_TARGET inline void philox8_avx512(std::uint64_t seed, std::uint64_t stream,
                                           std::uint64_t substream, std::uint64_t b0,
                                           std::uint64_t* out) {
  const __m512i m0 = _mm512_set1_epi64(static_cast<long long>(kM0));
  const __m512i m1 = _mm512_set1_epi64(static_cast<long long>(kM1));
  const __m512i m0l = _mm512_set1_epi64(static_cast<long long>(kM0 & 0xffffffffu));
  const __m512i m0h = _mm512_set1_epi64(static_cast<long long>(kM0 >> 32));
  const __m512i m1l = _mm512_set1_epi64(static_cast<long long>(kM1 & 0xffffffffu));
  const __m512i m1h = _mm512_set1_epi64(static_cast<long long>(kM1 >> 32));
  // Rounds 1 and 2: the counter words other than c0 are the same in every lane (lane 0,
  // substream, 0), so half of their products are scalars (the same arithmetic, exactly).
  std::uint64_t k0 = seed, k1 = stream;
  const u128 p1 = static_cast<u128>(kM1) * substream;
  const std::uint64_t c0 = static_cast<std::uint64_t>(p1 >> 64) ^ k0;  // x0 after round 1
  const std::uint64_t c1 = static_cast<std::uint64_t>(p1);             // x1 after round 1
  k0 += kW0;
  k1 += kW1;
  const u128 p0 = static_cast<u128>(kM0) * c0;  // round 2, M0·x0
  const __m512i hi0s = _mm512_set1_epi64(static_cast<long long>(p0 >> 64));
  const __m512i lo0s = _mm512_set1_epi64(static_cast<long long>(static_cast<std::uint64_t>(p0)));
  __m512i x0[G], x1[G], x2[G], x3[G];
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
    const __m512i ctr = _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(b0 + 8 * g)),
                                         _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    __m512i hi, lo;
    mulhilo8(ctr, m0, m0l, m0h, hi, lo);  // round 1, M0·x0
    x2[g] =
        _mm512_xor_si512(hi, _mm512_set1_epi64(static_cast<long long>(stream)));  // hi0 ^ 0 ^ k1
    x3[g] = lo;
    // round 2
    __m512i h1, l1;
    mulhilo8(x2[g], m1, m1l, m1h, h1, l1);
    x0[g] = _mm512_ternarylogic_epi64(h1, _mm512_set1_epi64(static_cast<long long>(c1)),
                                      _mm512_set1_epi64(static_cast<long long>(k0)), 0x96);
    x1[g] = l1;
    x2[g] =
        _mm512_ternarylogic_epi64(hi0s, x3[g], _mm512_set1_epi64(static_cast<long long>(k1)), 0x96);
    x3[g] = lo0s;
  }
  k0 += kW0;
  k1 += kW1;
  for (int r = 2; r < 10; ++r) {
    const __m512i kv0 = _mm512_set1_epi64(static_cast<long long>(k0));
    const __m512i kv1 = _mm512_set1_epi64(static_cast<long long>(k1));
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) {
      __m512i hi0, lo0, hi1, lo1;
      mulhilo8(x0[g], m0, m0l, m0h, hi0, lo0);
      mulhilo8(x2[g], m1, m1l, m1h, hi1, lo1);
      x0[g] = _mm512_ternarylogic_epi64(hi1, x1[g], kv0, 0x96);
      x2[g] = _mm512_ternarylogic_epi64(hi0, x3[g], kv1, 0x96);
      x1[g] = lo1;
      x3[g] = lo0;
    }
    k0 += kW0;
    k1 += kW1;
  }
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
    const __m512i a = _mm512_unpacklo_epi64(x0[g], x1[g]), b = _mm512_unpackhi_epi64(x0[g], x1[g]);
    const __m512i c = _mm512_unpacklo_epi64(x2[g], x3[g]), d = _mm512_unpackhi_epi64(x2[g], x3[g]);
    const __m512i ac0 = _mm512_shuffle_i64x2(a, c, 0x44), bd0 = _mm512_shuffle_i64x2(b, d, 0x44);
    const __m512i ac1 = _mm512_shuffle_i64x2(a, c, 0xEE), bd1 = _mm512_shuffle_i64x2(b, d, 0xEE);
    std::uint64_t* o = out + 32 * g;
    _mm512_storeu_si512(o + 0, _mm512_shuffle_i64x2(ac0, bd0, 0x88));
    _mm512_storeu_si512(o + 8, _mm512_shuffle_i64x2(ac0, bd0, 0xDD));
    _mm512_storeu_si512(o + 16, _mm512_shuffle_i64x2(ac1, bd1, 0x88));
    _mm512_storeu_si512(o + 24, _mm512_shuffle_i64x2(ac1, bd1, 0xDD));
  }
}

/// As transform_avx2, eight draws at a time (m a multiple of 8; todo bit per lane).
template <transform T>
DPREF_Z5_TARGET inline void transform_avx512(const std::uint64_t* w, std::size_t m, double scale,
                                             double* out, std::uint8_t* todo) {
  const table& t = T == transform::gaussian ? normal_table() : exponential_table();
  const __m512d s = _mm512_set1_pd(scale);
  const __m512i byte = _mm512_set1_epi64(static_cast<long long>(kLayerMask));
  const __m512i signbit = _mm512_set1_epi64(static_cast<long long>(1ull << 63));
  for (std::size_t j = 0; j < m; j += 8) {
    const __m512i wv = _mm512_loadu_si512(w + j);
    const __m512i u = _mm512_srli_epi64(wv, 12);
    const __m512d ud = _mm512_cvtepu64_pd(u);  // exact: u < 2^52
    if constexpr (T == transform::uniform) {
      _mm512_storeu_pd(
          out + j, _mm512_mul_pd(_mm512_add_pd(ud, _mm512_set1_pd(0.5)), _mm512_set1_pd(0x1p-52)));
      todo[j / 8] = 0;
    } else {
      const __m512i i = _mm512_and_si512(wv, byte);
      const __m512i k = _mm512_i64gather_epi64(i, t.k.data(), 8);
      const __m512d wt = _mm512_i64gather_pd(i, t.w.data(), 8);
      __m512d x = _mm512_mul_pd(ud, wt);
      if constexpr (T != transform::exponential)
        x = _mm512_castsi512_pd(_mm512_ternarylogic_epi64(_mm512_castpd_si512(x),
                                                          _mm512_slli_epi64(wv, 63 - kLayerBits),
                                                          signbit, 0xF8));  // x | (w<<55 & s)
      x = _mm512_mul_pd(x, s);
      _mm512_storeu_pd(out + j, x);
      todo[j / 8] = static_cast<std::uint8_t>(~_mm512_cmplt_epu64_mask(u, k));
    }
  }
}

}  // namespace dpref::ziggurat::simd

#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif

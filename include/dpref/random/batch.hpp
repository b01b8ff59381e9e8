// Batch kernels: n consecutive draws of a stream written straight into a buffer, bit for bit
// the values of the scalar reference samplers at the same stream positions (spec/random.md
// RAND.BATCH). They generate the Philox blocks of a run of positions together (lane 0 and
// lane 1, four positions per block) and then apply the same word -> sample functions as the
// scalar samplers (detail::laplace_dd_words, detail::exponential_dd_words, ...), so the
// floating-point operations are identical; only the bookkeeping of stream_draw is skipped.
// Used by the Python package (python/dpref, `dpref.sample`) and available to any caller.
#pragma once

#include <Random123/philox.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>

#include "dpref/error.hpp"
#include "dpref/random/detail/batch_avx512.hpp"
#include "dpref/random/detail/double_double_log.hpp"
#include "dpref/random/exponential.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::batch {

/// Positions per inner chunk of the batch kernels (a multiple of 4: whole Philox blocks).
inline constexpr std::size_t chunk_positions = 512;

/// Words of lane `lane` of the Philox blocks first_block .. first_block + blocks - 1 of the
/// stream (seed, stream, substream): out[4 j + k] = word k of block first_block + j, i.e. the
/// lane-`lane` word of position 4 (first_block + j) + k (RAND.STREAM.ADDRESS).
inline void philox_lane_words(std::uint64_t seed, std::uint64_t stream, std::uint64_t substream,
                              unsigned lane, std::uint64_t first_block, std::size_t blocks,
                              std::uint64_t* out) {
  using philox = r123::Philox4x64;
  const philox::key_type key = {{seed, stream}};
  const philox gen{};
  // Two independent blocks per iteration: the multiplications of both rounds overlap.
  std::size_t j = 0;
  for (; j + 1 < blocks; j += 2) {
    const philox::ctr_type c0 = {{first_block + j, lane, substream, 0}};
    const philox::ctr_type c1 = {{first_block + j + 1, lane, substream, 0}};
    const philox::ctr_type r0 = gen(c0, key);
    const philox::ctr_type r1 = gen(c1, key);
    for (unsigned k = 0; k < 4; ++k) {
      out[4 * j + k] = r0.v[k];
      out[4 * j + 4 + k] = r1.v[k];
    }
  }
  if (j < blocks) {
    const philox::ctr_type c0 = {{first_block + j, lane, substream, 0}};
    const philox::ctr_type r0 = gen(c0, key);
    for (unsigned k = 0; k < 4; ++k) out[4 * j + k] = r0.v[k];
  }
}

/// Which implementation the batch kernels use (the values are the same bits for all).
enum class kernel {
  automatic,  ///< AVX-512 when the CPU has it (F, DQ, CD), portable otherwise
  portable,   ///< the scalar word -> sample functions in a loop
  avx512      ///< the AVX-512 kernel (std::runtime_error if this CPU or build lacks it)
};

/// Whether this build and CPU can run kernel::avx512.
inline bool avx512_available() {
#ifdef DPREF_BATCH_AVX512
  return detail::has_avx512();
#else
  return false;
#endif
}

namespace detail {

/// Reserves n positions of s (as n next_draw() calls would) and returns the first.
/// @throws std::overflow_error as philox_stream when the 2^64 positions would be exhausted
inline std::uint64_t reserve(philox_stream& s, std::size_t n) {
  const std::uint64_t p0 = s.position();
  if (static_cast<std::uint64_t>(n) > std::numeric_limits<std::uint64_t>::max() - p0)
    throw std::overflow_error("dpref::philox_stream: position exhausted (2^64 draws)");
  s.seek(p0 + n);
  return p0;
}

inline bool use_avx512(kernel k) {
  if (k == kernel::portable) return false;
  if (k == kernel::avx512 && !avx512_available())
    throw std::runtime_error("dpref::batch: kernel::avx512 is not available on this CPU/build");
  return avx512_available();
}

/// Calls f(w0, w1, m) for consecutive runs of the draws p0 .. p0 + n - 1: w0[j] (and w1[j]
/// when `lanes` is 2) are the lane words of the j-th draw of the run, m its length.
template <unsigned lanes, class F>
void for_each_run(const philox_stream& s, std::uint64_t p0, std::size_t n, F&& f) {
  static_assert(lanes == 1 || lanes == 2);
  alignas(64) std::array<std::uint64_t, chunk_positions + 4> w0{}, w1{};
  std::size_t i = 0;
  std::uint64_t pos = p0;
  while (i < n) {
    const std::uint64_t block = pos >> 2;
    const auto slot = static_cast<std::size_t>(pos & 3u);
    const std::size_t m = std::min(n - i, chunk_positions - slot);
    const std::size_t blocks = (slot + m + 3) / 4;
    philox_lane_words(s.seed(), s.stream_id(), s.substream_id(), 0, block, blocks, w0.data());
    if constexpr (lanes == 2)
      philox_lane_words(s.seed(), s.stream_id(), s.substream_id(), 1, block, blocks, w1.data());
    f(i, w0.data() + slot, w1.data() + slot, m);
    i += m;
    pos += m;
  }
}

}  // namespace detail

/// out[i] = dpref::laplace<double>(s, b) for i = 0..n-1, bit for bit (s advances by n).
/// @throws std::domain_error (the scalar sampler's message) if b is not finite and > 0
/// @spec RAND.BATCH
inline void laplace(philox_stream& s, double b, std::span<double> out,
                    kernel k = kernel::automatic) {
  require_positive("dpref::laplace", "b", b);
  const bool vec = detail::use_avx512(k);
  const std::uint64_t p0 = detail::reserve(s, out.size());
  const dpref::detail::log_table& tab = dpref::detail::double_double_log_table();
  double* o = out.data();
  detail::for_each_run<2>(
      s, p0, out.size(),
      [&](std::size_t i, const std::uint64_t* w0, const std::uint64_t* w1, std::size_t m) {
#ifdef DPREF_BATCH_AVX512
        if (vec) return detail::laplace_avx512(w0, w1, m, b, o + i, tab);
#endif
        for (std::size_t j = 0; j < m; ++j)
          o[i + j] = dpref::detail::laplace_dd_words(w0[j], w1[j], b, tab);
      });
  (void)vec;
}

/// out[i] = dpref::exponential<double>(s, rate), bit for bit (s advances by n).
/// @spec RAND.BATCH
inline void exponential(philox_stream& s, double rate, std::span<double> out,
                        kernel k = kernel::automatic) {
  require_positive("dpref::exponential", "rate", rate);
  const bool vec = detail::use_avx512(k);
  const std::uint64_t p0 = detail::reserve(s, out.size());
  const dpref::detail::log_table& tab = dpref::detail::double_double_log_table();
  double* o = out.data();
  detail::for_each_run<2>(
      s, p0, out.size(),
      [&](std::size_t i, const std::uint64_t* w0, const std::uint64_t* w1, std::size_t m) {
#ifdef DPREF_BATCH_AVX512
        if (vec) return detail::exponential_avx512(w0, w1, m, rate, o + i, tab);
#endif
        for (std::size_t j = 0; j < m; ++j)
          o[i + j] = dpref::detail::exponential_dd_words(w0[j], w1[j], rate, tab);
      });
  (void)vec;
}

/// out[i] = dpref::uniform01<double>(s), bit for bit (s advances by n).
/// @spec RAND.BATCH
inline void uniform01(philox_stream& s, std::span<double> out) {
  const std::uint64_t p0 = detail::reserve(s, out.size());
  double* o = out.data();
  detail::for_each_run<1>(
      s, p0, out.size(),
      [&](std::size_t i, const std::uint64_t* w0, const std::uint64_t*, std::size_t m) {
        for (std::size_t j = 0; j < m; ++j) o[i + j] = dpref::detail::unit_from_word(w0[j]);
      });
}

}  // namespace dpref::batch

// Batch ziggurat samplers (spec/random.md RAND.ZIGGURAT.BATCH): n consecutive draws of a stream
// written into a buffer, bit for bit the values of the scalar ziggurat:: samplers at the same
// positions (one lane-0 word per draw; rejected draws read more lanes of their own position), on
// 1 or more threads (the positions are split into contiguous ranges: the values do not depend
// on the thread count). Kernels: portable (scalar Philox, scalar transform), AVX2 (Philox of 4
// blocks and the transform of 4 draws per instruction) and AVX-512 (8), chosen at run time.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/random/batch.hpp"
#include "dpref/random/detail/ziggurat_simd.hpp"
#include "dpref/random/ziggurat.hpp"

namespace dpref::ziggurat {

/// Which implementation fills the buffer (all give the same values).
enum class kernel {
  automatic,  ///< AVX-512 (F, DQ) if the CPU has it, else AVX2, else portable
  portable,
  avx2,    ///< std::runtime_error if this CPU or build lacks it
  avx512,  ///< likewise
};

/// The kernel `automatic` resolves to on this machine: "avx512", "avx2" or "portable".
inline std::string kernel_name(kernel k = kernel::automatic);

/// How a batch is filled.
struct batch_options {
  kernel k = kernel::automatic;
  unsigned threads = 1;  ///< 0: std::thread::hardware_concurrency(); ranges of >= 2^16 draws
};

namespace detail {

inline kernel resolve(kernel k) {
#ifdef DPREF_ZIGGURAT_SIMD
  const bool a5 = simd::has_avx512(), a2 = simd::has_avx2();
#else
  const bool a5 = false, a2 = false;
#endif
  if (k == kernel::automatic) return a5 ? kernel::avx512 : a2 ? kernel::avx2 : kernel::portable;
  if ((k == kernel::avx512 && !a5) || (k == kernel::avx2 && !a2))
    throw std::runtime_error("dpref::ziggurat: the requested kernel is not available on this CPU");
  return k;
}

using simd_transform = std::uint8_t;  // 0 gaussian, 1 exponential, 2 laplace, 3 uniform

inline constexpr std::size_t chunk = 1024;  // positions per chunk (a multiple of 32)

/// Fills out[0 .. n) with the draws at positions p0 .. p0 + n - 1 of s (s is not advanced).
template <int T>
void fill_range(const philox_stream& s, std::uint64_t p0, double scale, double* out, std::size_t n,
                kernel k) {
  alignas(64) std::array<std::uint64_t, chunk + 128> w{};
  std::array<std::uint8_t, chunk / 4 + 8> todo{};
  const auto word_fn = [&](std::uint64_t pos, std::uint64_t word) {
    if constexpr (T == 0) return scale * standard_normal_word(s, pos, word);
    if constexpr (T == 1) return standard_exponential_word(s, pos, word) * scale;
    if constexpr (T == 2) return scale * standard_laplace_word(s, pos, word);
    if constexpr (T == 3) return open_unit(word);
  };
  std::size_t i = 0;
  std::uint64_t pos = p0;
  while (i < n) {
    const std::uint64_t block = pos >> 2;
    const auto slot = static_cast<std::size_t>(pos & 3u);
    const std::size_t m = std::min(n - i, chunk - slot);
    const std::size_t blocks = (slot + m + 3) / 4;
    const std::uint64_t* wp = w.data() + slot;
    double* o = out + i;
#ifdef DPREF_ZIGGURAT_SIMD
    if (k == kernel::avx512 || k == kernel::avx2) {
      const bool wide = k == kernel::avx512;
      const std::size_t per = wide ? 8 : 4;                // lanes = blocks per Philox group
      for (std::size_t b = 0; b < blocks; b += 4 * per) {  // 4 independent groups per call
        if (wide)
          simd::philox8_avx512<4>(s.seed(), s.stream_id(), s.substream_id(), block + b,
                                  w.data() + 4 * b);
        else
          simd::philox4_avx2<4>(s.seed(), s.stream_id(), s.substream_id(), block + b,
                                w.data() + 4 * b);
      }
      const std::size_t vec = m - m % per;  // whole vectors of draws (per = lanes)
      constexpr auto tf = T == 0   ? simd::transform::gaussian
                          : T == 1 ? simd::transform::exponential
                          : T == 2 ? simd::transform::laplace
                                   : simd::transform::uniform;
      if (wide)
        simd::transform_avx512<tf>(wp, vec, scale, o, todo.data());
      else
        simd::transform_avx2<tf>(wp, vec, scale, o, todo.data());
      if constexpr (T != 3) {
        for (std::size_t g = 0; g < vec / per; ++g)
          if (todo[g])
            for (std::size_t l = 0; l < per; ++l)
              if (todo[g] >> l & 1u) o[g * per + l] = word_fn(pos + g * per + l, wp[g * per + l]);
      }
      for (std::size_t j = vec; j < m; ++j) o[j] = word_fn(pos + j, wp[j]);
      i += m;
      pos += m;
      continue;
    }
#endif
    (void)k;
    batch::philox_lane_words(s.seed(), s.stream_id(), s.substream_id(), 0, block, blocks, w.data());
    for (std::size_t j = 0; j < m; ++j) o[j] = word_fn(pos + j, wp[j]);
    i += m;
    pos += m;
  }
}

template <int T>
void fill(philox_stream& s, double scale, std::span<double> out, const batch_options& opt) {
  const kernel k = resolve(opt.k);
  const std::uint64_t p0 = batch::detail::reserve(s, out.size());
  const std::size_t n = out.size();
  unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  threads =
      static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, n >> 16)));
  if (threads <= 1) return fill_range<T>(s, p0, scale, out.data(), n, k);
  std::vector<std::thread> pool;
  const std::size_t per = (n + threads - 1) / threads;
  for (unsigned t = 1; t < threads; ++t) {
    const std::size_t a = std::min(n, t * per), b = std::min(n, a + per);
    pool.emplace_back([&, a, b] { fill_range<T>(s, p0 + a, scale, out.data() + a, b - a, k); });
  }
  fill_range<T>(s, p0, scale, out.data(), std::min(n, per), k);
  for (auto& th : pool) th.join();
}

}  // namespace detail

inline std::string kernel_name(kernel k) {
  switch (detail::resolve(k)) {
    case kernel::avx512:
      return "avx512";
    case kernel::avx2:
      return "avx2";
    default:
      return "portable";
  }
}

/// out[i] = ziggurat::gaussian(s, sigma) for i = 0 .. n-1, bit for bit (s advances by n).
/// @spec RAND.ZIGGURAT.BATCH
inline void gaussian(philox_stream& s, double sigma, std::span<double> out,
                     const batch_options& opt = {}) {
  require_positive("dpref::ziggurat::gaussian", "sigma", sigma);
  detail::fill<0>(s, sigma, out, opt);
}

/// out[i] = ziggurat::exponential(s, rate), bit for bit. @spec RAND.ZIGGURAT.BATCH
inline void exponential(philox_stream& s, double rate, std::span<double> out,
                        const batch_options& opt = {}) {
  require_positive("dpref::ziggurat::exponential", "rate", rate);
  detail::fill<1>(s, 1 / rate, out, opt);
}

/// out[i] = ziggurat::laplace(s, b), bit for bit. @spec RAND.ZIGGURAT.BATCH
inline void laplace(philox_stream& s, double b, std::span<double> out,
                    const batch_options& opt = {}) {
  require_positive("dpref::ziggurat::laplace", "b", b);
  detail::fill<2>(s, b, out, opt);
}

/// out[i] = ziggurat::uniform01(s), bit for bit. @spec RAND.ZIGGURAT.BATCH
inline void uniform01(philox_stream& s, std::span<double> out, const batch_options& opt = {}) {
  detail::fill<3>(s, 1.0, out, opt);
}

}  // namespace dpref::ziggurat

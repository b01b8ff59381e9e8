// Ziggurat samplers: the fast double path of dpref.sample (spec/random.md RAND.ZIGGURAT). One
// Philox lane-0 word per draw in the common case (the same stream positions as the reference
// samplers: draw i of a run is position p0 + i), extra words of the same position (lanes 1, 2,
// ...) only when a draw is rejected, so the scalar functions here and the batch kernels of
// random/ziggurat_batch.hpp give the same values bit for bit at every position.
//
// Word layout (w = the lane-0 word): layer i = w & 511, sign = bit 9 (Gaussian, Laplace),
// u = w >> 12 (52 bits). A layer-i draw is accepted at once when u < k[i]; its value is
// x = u · (x_i 2^-52) (one double multiplication, exact integer conversion). Otherwise the slow
// path (wedge test or tail) runs on the next lanes of the same position. The tables are
// computed at first use from the layer recurrence of Marsaglia & Tsang (2000) with 512 layers of
// equal area v = r f(r) + ∫_r^∞ f, r found by bisection until the layers close at f(0) to
// rounding.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include <Random123/philox.h>

#include <stdexcept>

#include "dpref/error.hpp"
#include "dpref/random/philox_stream.hpp"

namespace dpref::ziggurat {

inline constexpr unsigned kLayerBits = 9;                 ///< layer = the low 9 bits of the word
inline constexpr unsigned kLayers = 1u << kLayerBits;     ///< 512 layers
inline constexpr std::uint64_t kLayerMask = kLayers - 1;  ///< w & kLayerMask = the layer
// the sign is bit kLayerBits; u = w >> 12 (bits 10 and 11 are not used)

/// One ziggurat: 512 layers of a decreasing density f on [0, ∞).
struct table {
  std::array<double, kLayers + 1> x{};     ///< edges x[0] = v/f(r) > x[1] = r > … > x[512] = 0
  std::array<double, kLayers + 1> f{};     ///< f(x[i]) (f[0] = f(r): the base strip's height)
  std::array<std::uint64_t, kLayers> k{};  ///< accept at once iff u < k[i] = ⌊2^52 x[i+1]/x[i]⌋
  std::array<double, kLayers> w{};         ///< x[i] 2^-52: the value is u·w[i]
  double r = 0, v = 0;                     ///< start of the tail, area of a layer
  double closure = 0;  ///< |f(x[511]) + v/x[511] − f(0)|: how well the layers close
};

namespace detail {

/// The layer edges above r for layer area v = r f(r) + tail(r); returns how far the last
/// layer's top misses f(0) (0 for the exact r; > 0 when r is too small).
template <class F, class Finv, class Tail>
double close_layers(double r, F f, Finv finv, Tail tail, std::array<double, kLayers + 1>& x,
                    double& v) {
  v = r * f(r) + tail(r);
  x[0] = v / f(r);
  x[1] = r;
  for (unsigned i = 1; i + 1 < kLayers; ++i) {
    const double y = f(x[i]) + v / x[i];
    if (!(y < f(0.0))) return y - f(0.0) + 1;  // overshoot: r too small
    x[i + 1] = finv(y);
  }
  return f(x[kLayers - 1]) + v / x[kLayers - 1] - f(0.0);
}

/// Builds the layers of f (layer i >= 1 is [0, x_i] × [f(x_i), f(x_{i+1})], all of area v):
/// r is found by bisection in [lo, hi] so that the layers close at f(0) to rounding.
template <class F, class Finv, class Tail>
table make_table(double lo, double hi, F f, Finv finv, Tail tail) {
  table t;
  double v = 0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    (close_layers(mid, f, finv, tail, t.x, v) > 0 ? lo : hi) = mid;
  }
  t.r = hi;
  t.closure = std::fabs(close_layers(t.r, f, finv, tail, t.x, t.v));
  t.x[kLayers] = 0;
  t.f[0] = f(t.r);
  for (unsigned i = 1; i <= kLayers; ++i) t.f[i] = f(t.x[i]);
  for (unsigned i = 0; i < kLayers; ++i) {
    t.k[i] = static_cast<std::uint64_t>(std::ldexp(t.x[i + 1] / t.x[i], 52));
    t.w[i] = std::ldexp(t.x[i], -52);
  }
  return t;
}

}  // namespace detail

/// The Gaussian ziggurat (f(x) = exp(−x²/2); r ≈ 3.852).
inline const table& normal_table() {
  static const table t = detail::make_table(
      3.0, 5.0, [](double x) { return std::exp(-0.5 * x * x); },
      [](double y) { return std::sqrt(-2 * std::log(y)); },
      [](double r) { return 1.2533141373155003 * std::erfc(r / 1.4142135623730951); });
  return t;
}

/// The exponential ziggurat (f(x) = exp(−x); r ≈ 8.70).
inline const table& exponential_table() {
  static const table t = detail::make_table(
      6.0, 11.0, [](double x) { return std::exp(-x); }, [](double y) { return -std::log(y); },
      [](double r) { return std::exp(-r); });
  return t;
}

/// Uniform on (0, 1) from the top 52 bits of w: (⌊w/2^12⌋ + 1/2) 2^-52 (exact).
inline double open_unit(std::uint64_t w) { return (static_cast<double>(w >> 12) + 0.5) * 0x1p-52; }

/// Lane words of one position, read in order (lane 1, 2, …) by the slow paths.
class lane_reader {
 public:
  lane_reader(const philox_stream& s, std::uint64_t pos)
      : key_{{s.seed(), s.stream_id()}}, sub_(s.substream_id()), pos_(pos) {}
  std::uint64_t next() {  // the lane word of RAND.STREAM.ADDRESS, without a stream's cache
    if (lane_ == 0xffffffffu)
      throw std::overflow_error("dpref::ziggurat: 2^32 rejections of one draw");
    const r123::Philox4x64::ctr_type c = {{pos_ >> 2, ++lane_, sub_, 0}};
    return r123::Philox4x64{}(c, key_).v[pos_ & 3u];
  }

 private:
  r123::Philox4x64::key_type key_;
  std::uint64_t sub_, pos_;
  std::uint64_t lane_ = 0;
};

namespace detail {

inline double with_sign(double x, std::uint64_t w) {  // sign = bit kLayerBits of w
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) |
                               ((w << (63 - kLayerBits)) & (1ull << 63)));
}

/// |Gaussian| of a draw whose lane-0 word w was not accepted at once (w: the word of the
/// current attempt; further words from `more`).
inline double normal_slow(std::uint64_t w, lane_reader& more, const table& t) {
  for (;;) {
    const unsigned i = static_cast<unsigned>(w & kLayerMask);
    const std::uint64_t u = w >> 12;
    if (u < t.k[i]) return with_sign(static_cast<double>(u) * t.w[i], w);
    if (i == 0) {  // tail beyond r (Marsaglia 1964): x = −log U1 / r, accept if −2 log U2 > x²
      for (;;) {
        const double x = -std::log(open_unit(more.next())) / t.r;
        const double y = -std::log(open_unit(more.next()));
        if (2 * y > x * x) return with_sign(t.r + x, w);
      }
    }
    const double z = static_cast<double>(u) * t.w[i];
    const double y = t.f[i] + open_unit(more.next()) * (t.f[i + 1] - t.f[i]);
    if (y < std::exp(-0.5 * z * z)) return with_sign(z, w);
    w = more.next();
  }
}

/// Exponential(1) of a draw not accepted at once (as normal_slow; no sign).
inline double exponential_slow(std::uint64_t w, lane_reader& more, const table& t) {
  for (;;) {
    const unsigned i = static_cast<unsigned>(w & kLayerMask);
    const std::uint64_t u = w >> 12;
    if (u < t.k[i]) return static_cast<double>(u) * t.w[i];
    if (i == 0) return t.r - std::log(open_unit(more.next()));  // memoryless tail
    const double z = static_cast<double>(u) * t.w[i];
    const double y = t.f[i] + open_unit(more.next()) * (t.f[i + 1] - t.f[i]);
    if (y < std::exp(-z)) return z;
    w = more.next();
  }
}

}  // namespace detail

/// Standard Gaussian of position `pos` of s given its lane-0 word (the word → sample function
/// shared by the scalar sampler and the batch kernels' fallback lanes).
inline double standard_normal_word(const philox_stream& s, std::uint64_t pos, std::uint64_t w) {
  const table& t = normal_table();
  const unsigned i = static_cast<unsigned>(w & kLayerMask);
  const std::uint64_t u = w >> 12;
  if (u < t.k[i]) return detail::with_sign(static_cast<double>(u) * t.w[i], w);
  lane_reader more(s, pos);
  return detail::normal_slow(w, more, t);
}

/// Standard exponential of position `pos` given its lane-0 word.
inline double standard_exponential_word(const philox_stream& s, std::uint64_t pos,
                                        std::uint64_t w) {
  const table& t = exponential_table();
  const unsigned i = static_cast<unsigned>(w & kLayerMask);
  const std::uint64_t u = w >> 12;
  if (u < t.k[i]) return static_cast<double>(u) * t.w[i];
  lane_reader more(s, pos);
  return detail::exponential_slow(w, more, t);
}

/// Standard Laplace of position `pos` given its lane-0 word: sign bit 9, magnitude the
/// exponential ziggurat of the same word (the exponential's layer and u ignore bit 9).
inline double standard_laplace_word(const philox_stream& s, std::uint64_t pos, std::uint64_t w) {
  return detail::with_sign(standard_exponential_word(s, pos, w), w);
}

/// N(0, σ²) = σ·Z, Z the standard ziggurat Gaussian. @spec RAND.ZIGGURAT
inline double gaussian(philox_stream& s, double sigma) {
  require_positive("dpref::ziggurat::gaussian", "sigma", sigma);
  const std::uint64_t pos = s.position();
  const std::uint64_t w = s();
  return sigma * standard_normal_word(s, pos, w);
}

/// Exponential(rate) = E·(1/rate) (the reciprocal rounded once). @spec RAND.ZIGGURAT
inline double exponential(philox_stream& s, double rate) {
  require_positive("dpref::ziggurat::exponential", "rate", rate);
  const std::uint64_t pos = s.position();
  const std::uint64_t w = s();
  return standard_exponential_word(s, pos, w) * (1 / rate);
}

/// Laplace(0, b) = b·(±E). @spec RAND.ZIGGURAT
inline double laplace(philox_stream& s, double b) {
  require_positive("dpref::ziggurat::laplace", "b", b);
  const std::uint64_t pos = s.position();
  const std::uint64_t w = s();
  return b * standard_laplace_word(s, pos, w);
}

/// Uniform on (0, 1): open_unit of the lane-0 word. @spec RAND.ZIGGURAT
inline double uniform01(philox_stream& s) { return open_unit(s()); }

}  // namespace dpref::ziggurat

// Noise of the lattice l2-Laplace release (spec/secure_release.md SEC.VLAPLACE.SAMPLER): the
// integer vector Z = round(W), W in R^d with density proportional to exp(-||W||_2 / t), drawn
// EXACTLY (no floating-point error in its law).
//
// W is the Gaussian scale mixture W = t sqrt(2 Gamma) G with Gamma ~ Gamma((d + 1)/2, 1) and G ~
// N(0, I_d) (the mixing integral over V = 2 t^2 Gamma is a modified Bessel function of order
// 1/2: integral V^(-d/2) e^(-|w|^2 / 2V) V^((d-1)/2) e^(-V / 2t^2) dV is proportional to
// e^(-|w| / t)). Gamma is a sum of (d + 1)/2 exact exponentials (d odd) or of d/2 exact
// exponentials plus G_0^2 / 2 (d even); the normals are exact (lazy_real.hpp). Each coordinate
// of W is bracketed from the drawn words of its variates, in double interval arithmetic with
// outward rounding (nextafter after every operation, valid in round-to-nearest) or, when that
// interval meets a rounding boundary, in exact integer arithmetic (cpp_int) with more words,
// until the cell round(W_i) = floor(|W_i| + 1/2) sgn(W_i) is decided. Ties have probability 0.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cfenv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/integer.hpp"
#include "dpref/random/secure/lazy_real.hpp"

namespace dpref::secure {

/// Largest grid scale t of the lattice l2-Laplace (so that t is an exact double).
inline constexpr std::int64_t l2_laplace_max_scale = std::int64_t{1} << 52;

namespace detail {

inline double down(double v) { return std::nextafter(v, -std::numeric_limits<double>::infinity()); }
inline double up(double v) { return std::nextafter(v, std::numeric_limits<double>::infinity()); }

/// Bounds [lo, hi] of the magnitude integer + fraction of r from its first word (drawn if
/// needed); false if the integer part is too large for the double path.
inline bool magnitude_bounds(philox_stream& s, lazy_real& r, double& lo, double& hi) {
  if (r.integer >= (std::uint64_t{1} << 50)) return false;
  const double a = static_cast<double>(r.fraction.word(s, 0));  // rounded to nearest
  const double f_lo = a == 0.0 ? 0.0 : down(a) * 0x1p-64;       // <= word / 2^64
  const double f_hi = up(up(a) + 1.0) * 0x1p-64;                // >= (word + 1) / 2^64
  const auto n = static_cast<double>(r.integer);                // exact
  lo = r.integer == 0 ? f_lo : down(n + f_lo);
  hi = up(n + f_hi);
  return true;
}

/// Exact bracket at P = 64 w bits: lo = integer 2^P + first w words (hi = lo + 1).
inline boost::multiprecision::cpp_int magnitude_floor(philox_stream& s, lazy_real& r,
                                                      std::size_t w) {
  using boost::multiprecision::cpp_int;
  cpp_int v(r.integer);
  for (std::size_t i = 0; i < w; ++i) {
    v <<= 64;
    v += cpp_int(r.fraction.word(s, i));
  }
  return v;
}

/// The variates of one l2-Laplace draw and the decision of its cells.
class l2_laplace_draw {
 public:
  l2_laplace_draw(philox_stream& s, std::size_t d, std::int64_t t) : s_(s), d_(d), t_(t) {
    const std::size_t m = (d + 1) / 2;  // exponentials: (d + 1)/2 (d odd) or d/2 (d even)
    e_.reserve(m);
    for (std::size_t i = 0; i < m; ++i) e_.push_back(exact_exponential(s));
    if (d % 2 == 0) g0_ = exact_normal(s);
    g_.reserve(d);
    for (std::size_t j = 0; j < d; ++j) g_.push_back(exact_normal(s));
  }

  /// Double approximation of W (first words only): tests of the mixture law, never a release.
  std::vector<double> approx() {
    double gamma = 0;
    for (auto& e : e_) gamma += e.approx(s_);
    if (d_ % 2 == 0) {
      const double g0 = g0_.approx(s_);
      gamma += g0 * g0 / 2;
    }
    const double scale = static_cast<double>(t_) * std::sqrt(2 * gamma);
    std::vector<double> w(d_);
    for (std::size_t j = 0; j < d_; ++j) w[j] = scale * g_[j].approx(s_);
    return w;
  }

  /// Decides every cell; force_exact skips the double path (tests).
  std::vector<std::int64_t> cells(bool force_exact) {
    std::vector<std::int64_t> z(d_, 0);
    std::vector<char> done(d_, 0);
    std::size_t left = d_;
    if (!force_exact && std::fegetround() == FE_TONEAREST) left -= fast_path(z, done);
    for (std::size_t w = 2; left > 0; ++w) left -= exact_path(z, done, w);
    return z;
  }

 private:
  /// Double interval arithmetic with outward rounding; returns the number of cells decided.
  std::size_t fast_path(std::vector<std::int64_t>& z, std::vector<char>& done) {
    double sum_lo = 0, sum_hi = 0;
    for (auto& e : e_) {
      double lo, hi;
      if (!magnitude_bounds(s_, e, lo, hi)) return 0;
      sum_lo = down(sum_lo + lo);
      sum_hi = up(sum_hi + hi);
    }
    double two_lo = 2 * sum_lo, two_hi = 2 * sum_hi;  // exact (power of two)
    if (d_ % 2 == 0) {
      double lo, hi;
      if (!magnitude_bounds(s_, g0_, lo, hi)) return 0;
      two_lo = down(two_lo + down(lo * lo));
      two_hi = up(two_hi + up(hi * hi));
    }
    if (two_lo < 0) two_lo = 0;
    const auto t = static_cast<double>(t_);  // exact: t <= 2^52
    const double ts_lo = down(t * down(std::sqrt(two_lo)));
    const double ts_hi = up(t * up(std::sqrt(two_hi)));
    std::size_t decided = 0;
    for (std::size_t j = 0; j < d_; ++j) {
      double lo, hi;
      if (!magnitude_bounds(s_, g_[j], lo, hi)) continue;
      const double w_lo = down(ts_lo * lo);
      const double w_hi = up(ts_hi * hi);
      if (!(w_hi < 0x1p50)) continue;
      const double c_lo = std::floor(down(w_lo + 0.5));
      const double c_hi = std::floor(up(w_hi + 0.5));
      if (c_lo != c_hi) continue;
      const auto c = static_cast<std::int64_t>(c_lo);
      z[j] = g_[j].negative ? -c : c;
      done[j] = 1;
      ++decided;
    }
    return decided;
  }

  /// Exact brackets at P = 64 w bits; returns the number of cells newly decided.
  std::size_t exact_path(std::vector<std::int64_t>& z, std::vector<char>& done, std::size_t w) {
    using boost::multiprecision::cpp_int;
    const unsigned p = static_cast<unsigned>(64 * w);
    cpp_int sum_lo = 0, sum_hi = 0;  // scale 2^P
    for (auto& e : e_) {
      const cpp_int lo = magnitude_floor(s_, e, w);
      sum_lo += lo;
      sum_hi += lo + 1;
    }
    cpp_int two_lo = (2 * sum_lo) << p;  // 2 Gamma at scale 2^(2P)
    cpp_int two_hi = (2 * sum_hi) << p;
    if (d_ % 2 == 0) {
      const cpp_int lo = magnitude_floor(s_, g0_, w);
      two_lo += lo * lo;
      two_hi += (lo + 1) * (lo + 1);
    }
    const cpp_int s_lo = boost::multiprecision::sqrt(two_lo);  // floor: sqrt(2 Gamma) 2^P
    cpp_int s_hi = boost::multiprecision::sqrt(two_hi);
    if (s_hi * s_hi < two_hi) ++s_hi;  // ceil
    const cpp_int ts_lo = cpp_int(t_) * s_lo;
    const cpp_int ts_hi = cpp_int(t_) * s_hi;
    const cpp_int half = cpp_int(1) << (2 * p - 1);
    const cpp_int limit = cpp_int(1) << 62;
    std::size_t decided = 0;
    for (std::size_t j = 0; j < d_; ++j) {
      if (done[j]) continue;
      const cpp_int g_lo = magnitude_floor(s_, g_[j], w);
      const cpp_int c_lo = (ts_lo * g_lo + half) >> (2 * p);  // |W_j| 2^(2P) bracket
      const cpp_int c_hi = (ts_hi * (g_lo + 1) + half) >> (2 * p);
      if (c_lo != c_hi) continue;
      if (c_lo > limit) fail_overflow("dpref::secure::l2_laplace_lattice", "|Z_j| > 2^62");
      const auto c = static_cast<std::int64_t>(c_lo);
      z[j] = g_[j].negative ? -c : c;
      done[j] = 1;
      ++decided;
    }
    return decided;
  }

  philox_stream& s_;
  std::size_t d_;
  std::int64_t t_;
  std::vector<lazy_real> e_;
  lazy_real g0_;
  std::vector<lazy_real> g_;
};

}  // namespace detail

/// Z = round(W) in Z^d with W of density proportional to exp(-||W||_2 / t) (t = grid_scale,
/// in grid steps): the noise of the lattice l2-Laplace, drawn exactly (see the header
/// comment). E||W||_2 = d t.
/// @param s bit stream @param d dimension >= 1 @param grid_scale t in [1, 2^52]
/// @throws std::domain_error for d = 0 or t out of range; std::overflow_error (naming the
///   function) if some |Z_j| > 2^62, an event of probability below exp(-2^61 / (d t)).
/// @spec SEC.VLAPLACE.SAMPLER
inline std::vector<std::int64_t> l2_laplace_lattice(philox_stream& s, std::size_t d,
                                                    std::int64_t grid_scale) {
  constexpr const char* fn = "dpref::secure::l2_laplace_lattice";
  if (d == 0) fail_domain(fn, "d", ">= 1", d);
  if (grid_scale < 1 || grid_scale > l2_laplace_max_scale)
    fail_domain(fn, "grid_scale", "in [1, 2^52]", grid_scale);
  detail::l2_laplace_draw draw(s, d, grid_scale);
  return draw.cells(false);
}

namespace detail {
/// The same draw with the double path disabled (every cell decided exactly): tests check that
/// both paths decide the same cells.
inline std::vector<std::int64_t> l2_laplace_lattice_exact_path(philox_stream& s, std::size_t d,
                                                               std::int64_t grid_scale) {
  l2_laplace_draw draw(s, d, grid_scale);
  return draw.cells(true);
}
/// Double approximation of the continuous W of one draw (tests of the mixture law only).
inline std::vector<double> l2_laplace_continuous_approx(philox_stream& s, std::size_t d,
                                                        std::int64_t grid_scale) {
  l2_laplace_draw draw(s, d, grid_scale);
  return draw.approx();
}
}  // namespace detail

}  // namespace dpref::secure

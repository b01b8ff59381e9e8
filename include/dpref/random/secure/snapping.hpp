// Lattice ("snapping") wrapper around the exact integer samplers, in the spirit of Mironov,
// "On Significance of the Least Significant Bits for Differential Privacy" (CCS 2012):
// release 2^k * (round_half_even(x / 2^k) + Z) with Z an exact discrete noise sample, so the
// released double is an exact lattice point and carries no floating-point artefacts of the
// noise. spec/random_secure.md RAND.SECURE.SNAP.
//
// SENSITIVITY: rounding x to the grid 2^k Z moves it by at most 2^(k-1). For neighbouring
// inputs x, x' with |x - x'| <= Delta the rounded values therefore differ by at most
// Delta + 2^(k-1) + 2^(k-1) = Delta + 2^k (and by an integer number of grid steps, i.e. at most
// floor(Delta / 2^k) + 1 steps). The CALLER must account for sensitivity Delta + 2^k (not
// Delta) when converting the noise scale into a privacy guarantee. The noise scales used here
// are rounded UP to the grid (never down), so noise is never smaller than requested.
//
// All floating-point steps are exact: ldexp by a power of two with the result checked by the
// inverse ldexp, floor and comparisons of doubles with |value| <= 2^52, and integer-to-double
// conversion of integers with |value| <= 2^52. Anything that would not be exact throws.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <utility>

#include "dpref/error.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/discrete_gaussian.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"

namespace dpref::secure {

/// Grid exponents accepted by the snapping functions: k in [snap_k_min, snap_k_max].
inline constexpr int snap_k_min = -1022;
inline constexpr int snap_k_max = 1023;
/// Largest |x / 2^k| and |round(x / 2^k) + Z| accepted: below 2^52 the fractional part of a
/// double is exact, so rounding and the integer <-> double conversions are exact.
inline constexpr std::int64_t snap_limit = std::int64_t{1} << 52;
/// Bounds on the rational sigma^2 / 2^(2k) handed to discrete_gaussian by snapped_gaussian.
inline constexpr std::int64_t snap_gauss_num_cap = std::int64_t{1} << 26;
inline constexpr int snap_gauss_den_log2_cap = 20;

/// A rational num / den of int64 (den > 0).
struct rational64 {
  std::int64_t num;
  std::int64_t den;
};

namespace detail {

inline void check_k(std::string_view fn, int k) {
  if (k < snap_k_min || k > snap_k_max) fail_domain(fn, "k", "in [-1022, 1023]", k);
}

/// round-half-to-even of |y| <= 2^52, exactly, independent of the FP rounding mode.
inline std::int64_t round_half_even_exact(double y) {
  const double f = std::floor(y);
  const double frac = y - f;  // exact: y and floor(y) share the binade grid
  auto n = static_cast<std::int64_t>(f);
  if (frac > 0.5 || (frac == 0.5 && n % 2 != 0)) ++n;
  return n;
}

template <class Sampler>
double snap_impl(std::string_view fn, philox_stream& s, double x, int k, Sampler&& sampler) {
  if (!std::isfinite(x)) fail_domain(fn, "x", "finite", x);
  check_k(fn, k);
  const double y = std::ldexp(x, -k);
  if (!std::isfinite(y) || std::ldexp(y, k) != x)
    fail_domain(fn, "x", "such that x / 2^k is exact (no overflow or underflow)", x);
  if (std::fabs(y) > static_cast<double>(snap_limit))
    fail_domain(fn, "x", "such that |x / 2^k| <= 2^52", x);
  const std::int64_t n = round_half_even_exact(y);
  const std::int64_t z = sampler(s);
  if (z > snap_limit || z < -snap_limit) fail_domain(fn, "noise Z (grid units)", "|Z| <= 2^52", z);
  const std::int64_t sum = n + z;
  if (sum > snap_limit || sum < -snap_limit)
    fail_domain(fn, "result / 2^k", "|round(x / 2^k) + Z| <= 2^52", sum);
  const auto grid_units = static_cast<double>(sum);  // exact: |sum| <= 2^52
  const double r = std::ldexp(grid_units, k);
  if (!std::isfinite(r) || std::ldexp(r, -k) != grid_units)
    fail_domain(fn, "result", "representable exactly as a double", sum);
  return r;
}

}  // namespace detail

/// Generic snapping: 2^k * (round_half_even(x / 2^k) + sampler(s)), computed exactly.
/// @spec RAND.SECURE.SNAP
/// @param x finite input with x / 2^k exact and |x / 2^k| <= 2^52.
/// @param k grid exponent in [-1022, 1023]; the grid is 2^k Z.
/// @param sampler callable philox_stream& -> std::int64_t (noise in grid units).
/// @throws std::domain_error if x is NaN/infinite/out of range, k is out of range, or the result
///   is not exactly representable (|round(x / 2^k) + Z| > 2^52 or overflow).
/// Privacy: the caller must use sensitivity Delta + 2^k (see the header comment).
template <class Sampler>
double snap(philox_stream& s, double x, int k, Sampler&& sampler) {
  return detail::snap_impl("dpref::secure::snap", s, x, k, std::forward<Sampler>(sampler));
}

/// Integer discrete-Laplace scale on the grid: max(1, ceil(b / 2^k)), i.e. b rounded UP.
/// @spec RAND.SECURE.SNAP
/// @throws std::domain_error if b is not finite and > 0, k is out of range, or b / 2^k > 2^52.
inline std::int64_t laplace_grid_scale(double scale_b, int k) {
  constexpr std::string_view fn = "dpref::secure::laplace_grid_scale";
  require_positive(fn, "scale_b", scale_b);
  detail::check_k(fn, k);
  const double q = std::ldexp(scale_b, -k);  // may underflow: then the true value is < 1
  if (!std::isfinite(q) || q > static_cast<double>(snap_limit))
    fail_domain(fn, "scale_b", "such that scale_b / 2^k <= 2^52", scale_b);
  const double c = std::ceil(q);
  return c < 1.0 ? 1 : static_cast<std::int64_t>(c);
}

/// sigma^2 / 2^(2k) as a rational num / 2^j rounded UP (never down): the exact value
/// m^2 2^(2e - 2k) (sigma = m 2^e, m odd) if it fits, else ceil at the finest j <= 20 with
/// num <= 2^26. Relative rounding error <= 1 / num. Result in lowest terms.
/// @spec RAND.SECURE.SNAP
/// @throws std::domain_error if sigma is not finite and > 0, k is out of range, or
///   (sigma / 2^k)^2 > 2^26 (choose a coarser grid, larger k).
inline rational64 gaussian_grid_variance(double sigma, int k) {
  constexpr std::string_view fn = "dpref::secure::gaussian_grid_variance";
  using boost::multiprecision::cpp_int;
  require_positive(fn, "sigma", sigma);
  detail::check_k(fn, k);
  int e = 0;
  const double f = std::frexp(sigma, &e);                  // sigma = f 2^e, f in [1/2, 1)
  auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));  // exact integer < 2^53
  e -= 53;
  while (m % 2 == 0) {
    m /= 2;
    ++e;
  }
  const cpp_int big_n = cpp_int(m) * cpp_int(m);
  const long long shift = 2LL * e - 2LL * k;  // sigma^2 / 4^k = big_n * 2^shift exactly
  const cpp_int cap = cpp_int(snap_gauss_num_cap);
  if (shift >= 0) {
    if (shift > 64 || (big_n << static_cast<unsigned>(shift)) > cap)
      fail_domain(fn, "sigma", "such that (sigma / 2^k)^2 <= 2^26", sigma);
    return {static_cast<std::int64_t>(big_n << static_cast<unsigned>(shift)), 1};
  }
  const long long total = -shift;  // value = big_n / 2^total
  long long j = total < snap_gauss_den_log2_cap ? total : snap_gauss_den_log2_cap;
  for (;; --j) {
    const auto drop = static_cast<unsigned>(total - j);
    const cpp_int one_drop = cpp_int(1) << drop;
    cpp_int num = (big_n + one_drop - 1) >> drop;  // ceil(big_n / 2^drop)
    if (num <= cap) {
      while (j > 0 && (num & 1) == 0) {
        num >>= 1;
        --j;
      }
      return {static_cast<std::int64_t>(num), std::int64_t{1} << j};
    }
    if (j == 0) fail_domain(fn, "sigma", "such that (sigma / 2^k)^2 <= 2^26", sigma);
  }
}

/// Snapped discrete Laplace: 2^k (round_half_even(x / 2^k) + Z), Z ~ discrete Laplace with
/// integer scale laplace_grid_scale(scale_b, k) = ceil(scale_b / 2^k) >= 1 (as the rational
/// t / 1), so the noise scale in x units is >= scale_b.
/// @spec RAND.SECURE.SNAP
/// Privacy: eps = (Delta + 2^k) / (2^k ceil(scale_b / 2^k)) for an input of sensitivity Delta.
/// @throws std::domain_error on non-finite x, scale_b <= 0, k out of range, or out-of-range
///   magnitudes (see snap and laplace_grid_scale).
inline double snapped_laplace(philox_stream& s, double x, double scale_b, int k) {
  constexpr std::string_view fn = "dpref::secure::snapped_laplace";
  if (!std::isfinite(x)) fail_domain(fn, "x", "finite", x);
  const std::int64_t t = laplace_grid_scale(scale_b, k);
  return detail::snap_impl(
      fn, s, x, k, [t](philox_stream& st) { return discrete_laplace<std::int64_t>(st, t, 1); });
}

/// Snapped discrete Gaussian: 2^k (round_half_even(x / 2^k) + Z), Z ~ discrete Gaussian with
/// variance gaussian_grid_variance(sigma, k) >= sigma^2 / 2^(2k) (rounded up, exact rational).
/// @spec RAND.SECURE.SNAP
/// Privacy: rho-zCDP with rho = (Delta + 2^k)^2 / (2 sigma^2) for an input of sensitivity Delta.
/// @throws std::domain_error on non-finite x, sigma <= 0, k out of range, or out-of-range
///   magnitudes (see snap and gaussian_grid_variance).
inline double snapped_gaussian(philox_stream& s, double x, double sigma, int k) {
  constexpr std::string_view fn = "dpref::secure::snapped_gaussian";
  if (!std::isfinite(x)) fail_domain(fn, "x", "finite", x);
  const rational64 v = gaussian_grid_variance(sigma, k);
  return detail::snap_impl(fn, s, x, k, [v](philox_stream& st) {
    return discrete_gaussian<std::int64_t>(st, v.num, v.den);
  });
}

}  // namespace dpref::secure

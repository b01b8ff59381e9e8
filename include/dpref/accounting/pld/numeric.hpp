// Numerical ground rules of the PLD accountant (spec/accounting_pld.md, ACC.PLD.CERT).
//
// The PLD fast path works in double (masses, FFT) and x87 long double (discretisation, queries).
// Nothing here changes the floating-point environment: every bound is an explicit error term.
// Error model (a-priori, stated in the spec):
//   * long double operations round to nearest with unit roundoff u_L = 2^-64;
//   * every libm long double function used (expl, expm1l, logl, log1pl, erfcl, sqrtl, sinl,
//     cosl) returns a result within relative error kLibm = 2^-56 of the exact value (glibc
//     documents a few ulps, i.e. about 2^-62; the assumption leaves a factor 2^6);
//   * a closed form evaluated by a chain of at most 16 such operations therefore has relative
//     error at most kRel = 2^-52 (used for every "directly evaluated" value).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace dpref::accounting::pld::detail {

using ld = long double;

inline constexpr ld kUL = 0x1p-64L;    ///< unit roundoff of long double
inline constexpr ld kLibm = 0x1p-56L;  ///< assumed relative accuracy of one libm call
inline constexpr ld kRel = 0x1p-52L;   ///< relative accuracy of a short closed-form chain
inline constexpr double kU = 0x1p-53;  ///< unit roundoff of double
inline constexpr ld kInf = std::numeric_limits<ld>::infinity();

/// A value with an absolute error bound: |v - exact| <= e.
struct val {
  ld v = 0;
  ld e = 0;
  [[nodiscard]] ld lo() const { return v - e; }
  [[nodiscard]] ld hi() const { return v + e; }
};

/// Sum/difference of bounded values (adds one rounding of the result).
inline val operator+(const val& a, const val& b) {
  const ld s = a.v + b.v;
  return {s, a.e + b.e + kUL * std::fabs(s)};
}
inline val operator-(const val& a, const val& b) {
  const ld s = a.v - b.v;
  return {s, a.e + b.e + kUL * std::fabs(s)};
}
/// Product of a bounded value by an exact-within-relative-r factor f (f >= 0).
inline val scale(const val& a, ld f, ld r) {
  const ld s = a.v * f;
  return {s, a.e * f * (1 + r) + std::fabs(s) * (r + kUL)};
}

/// Smallest double >= x (x finite or +inf).
inline double round_up(ld x) {
  double d = static_cast<double>(x);
  if (static_cast<ld>(d) < x) d = std::nextafter(d, std::numeric_limits<double>::infinity());
  return d;
}
/// Largest double <= x.
inline double round_down(ld x) {
  double d = static_cast<double>(x);
  if (static_cast<ld>(d) > x) d = std::nextafter(d, -std::numeric_limits<double>::infinity());
  return d;
}
/// A long double <= j h (exact real product), and one >= j h.
inline ld node_down(std::int64_t j, double h) {
  const ld p = static_cast<ld>(j) * static_cast<ld>(h);
  return std::nextafter(p, -kInf);
}
inline ld node_up(std::int64_t j, double h) {
  const ld p = static_cast<ld>(j) * static_cast<ld>(h);
  return std::nextafter(p, kInf);
}

/// Standard normal upper tail Φc(x) = erfc(x/√2)/2 and lower tail Φ(x).
inline ld norm_sf(ld x) { return 0.5L * std::erfc(x * 0.70710678118654752440084436210484903928L); }
inline ld norm_cdf(ld x) { return norm_sf(-x); }
/// Standard normal density.
inline ld norm_pdf(ld x) {
  return 0.39894228040143267793994605993438186848L * std::exp(-0.5L * x * x);
}

}  // namespace dpref::accounting::pld::detail

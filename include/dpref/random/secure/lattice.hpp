// The 2^k lattice of the secure releases (spec/secure_release.md SEC.LATTICE.CLAMP,
// SEC.LATTICE.ROUND, SEC.LATTICE.RULE): clamping to the public bound, exact rounding to the
// grid, the saturated exact release n 2^k, and the rule that picks k.
//
// A secure release of a real query x in R^d is 2^k (n + Z) with n_i = round_half_even(c(x_i) /
// 2^k), c the clamp to [-C, C], and Z integer noise. This header does the deterministic part;
// the noise comes from the exact integer samplers. Every step is exact (no rounding error) and
// NO step throws on a value derived from the data: out-of-range inputs are clamped (a public,
// 1-Lipschitz map, so sensitivities do not grow), the sum n + Z is saturated at +-2^53 (a
// post-processing of the integer vector n + Z). Only NaN inputs (which break the sensitivity
// contract of every mechanism) and invalid PUBLIC parameters are refused.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

#include "dpref/error.hpp"
#include "dpref/random/secure/snapping.hpp"

namespace dpref::secure {

/// Grid exponents of the lattice releases: every n 2^k with |n| <= 2^53 is an exact double.
inline constexpr int lattice_k_min = -1022;
inline constexpr int lattice_k_max = 970;
/// Largest clamp / 2^k: rounded inputs satisfy |n| <= 2^52 (every double >= 2^52 is an
/// integer, so the division by 2^k and the rounding are exact).
inline constexpr std::int64_t lattice_input_limit = std::int64_t{1} << 52;
/// The released grid index n + Z is saturated to [-2^53, 2^53] (exact as a double).
inline constexpr std::int64_t lattice_output_limit = std::int64_t{1} << 53;
/// Largest public precision exponent s of the grid rule.
inline constexpr int lattice_s_max = 60;

/// Validates the public lattice parameters: k in [-1022, 970], clamp finite and > 0 with
/// clamp / 2^k <= 2^52. Data-independent: call it before touching the data.
/// @throws std::domain_error naming `fn`, the parameter and the value
/// @spec SEC.LATTICE.CLAMP
inline void check_lattice(std::string_view fn, int k, double clamp) {
  if (k < lattice_k_min || k > lattice_k_max) fail_domain(fn, "k", "in [-1022, 970]", k);
  require_positive(fn, "clamp", clamp);
  if (std::ldexp(clamp, -k) > static_cast<double>(lattice_input_limit))
    fail_domain(fn, "clamp", "<= 2^(k + 52) (choose a coarser grid)", clamp);
}

/// The clamped, rounded grid index round_half_even(min(max(x, -C), C) / 2^k), exactly.
/// Never throws for a finite or infinite x when (k, clamp) passed check_lattice; x = NaN is
/// refused (it satisfies no sensitivity bound). Underflow of x / 2^k only occurs for
/// |x / 2^k| < 2^-1022, whose rounding is 0 either way.
/// @throws std::domain_error for NaN x
/// @spec SEC.LATTICE.CLAMP
/// @spec SEC.LATTICE.ROUND
inline std::int64_t lattice_round(double x, int k, double clamp) {
  if (std::isnan(x)) fail_domain("dpref::secure::lattice_round", "x", "not NaN", x);
  const double c = x < -clamp ? -clamp : (x > clamp ? clamp : x);
  return detail::round_half_even_exact(std::ldexp(c, -k));
}

/// The released double 2^k sat(n + z), sat = saturation to [-2^53, 2^53]: an exact lattice
/// point (+0.0 for 0, never -0.0). Requires |n| <= 2^52 (lattice_round) and k in range.
/// @spec SEC.LATTICE.ROUND
inline double lattice_release(std::int64_t n, std::int64_t z, int k) {
  constexpr std::int64_t lim = lattice_output_limit;
  std::int64_t sum;
  if (z > 2 * lim)
    sum = lim;
  else if (z < -2 * lim)
    sum = -lim;
  else
    sum = n + z;  // |n| <= 2^52, |z| <= 2^54: no overflow
  if (sum > lim) sum = lim;
  if (sum < -lim) sum = -lim;
  return std::ldexp(static_cast<double>(sum), k);  // exact: |sum| <= 2^53, k in range
}

/// The grid rule: the largest k with 2^k <= reference / 2^s, i.e. floor(log2(reference)) - s
/// (then limited to [-1022, 970]). The mechanisms use reference = min(noise scale,
/// sensitivity / m) with m the inflation per grid step (d for l1, sqrt(d) for l2), so the
/// sensitivity grows by at most a factor 1 + 2^-s and the noise spans >= 2^s grid steps.
/// @param reference finite and > 0 @param s in [0, 60]
/// @throws std::domain_error for an invalid reference or s
/// @spec SEC.LATTICE.RULE
inline int lattice_grid_exponent(double reference, int s) {
  constexpr std::string_view fn = "dpref::secure::lattice_grid_exponent";
  require_positive(fn, "reference", reference);
  if (s < 0 || s > lattice_s_max) fail_domain(fn, "s", "in [0, 60]", s);
  int e = 0;
  (void)std::frexp(reference, &e);  // reference = f 2^e, f in [1/2, 1): floor(log2) = e - 1
  const int k = e - 1 - s;
  return k < lattice_k_min ? lattice_k_min : (k > lattice_k_max ? lattice_k_max : k);
}

/// The smallest k with clamp / 2^k <= 2^52 (the finest grid on which clamp is admissible).
/// @throws std::domain_error if clamp is not finite and > 0
/// @spec SEC.LATTICE.RULE
inline int lattice_finest_exponent(double clamp) {
  require_positive("dpref::secure::lattice_finest_exponent", "clamp", clamp);
  int e = 0;
  (void)std::frexp(clamp, &e);  // 2^(e-1) <= clamp < 2^e
  int k = e - 52;               // admissible; k - 1 is admissible iff clamp == 2^(e-1)
  if (std::ldexp(clamp, 1 - k) <= static_cast<double>(lattice_input_limit)) --k;
  return k < lattice_k_min ? lattice_k_min : k;
}

/// The grid rule of the secure mechanisms: the coarser (larger k) of
///   lattice_grid_exponent(min(scale, sensitivity / per_step), s)   (cost and resolution) and
///   lattice_finest_exponent(clamp)                                   (exactness of the clamp),
/// with per_step = d (l1 sensitivities) or sqrt(d) (l2). The relative sensitivity inflation
/// per_step 2^k / sensitivity is then <= 2^-s unless the clamp forces a coarser grid.
/// @throws std::domain_error for non-positive or non-finite arguments or s out of [0, 60]
/// @spec SEC.LATTICE.RULE
inline int lattice_rule(double sensitivity, double scale, double per_step, double clamp, int s) {
  constexpr std::string_view fn = "dpref::secure::lattice_rule";
  require_positive(fn, "sensitivity", sensitivity);
  require_positive(fn, "scale", scale);
  require_positive(fn, "per_step", per_step);
  const double q = sensitivity / per_step;
  const double reference = q < scale ? q : scale;
  const int k = lattice_grid_exponent(reference > 0 ? reference : scale, s);
  const int k_clamp = lattice_finest_exponent(clamp);
  return k > k_clamp ? k : k_clamp;
}

/// The parameters of a lattice release meeting a target ε: the grid 2^k of
/// lattice_rule(sensitivity, sensitivity / ε, per_step, clamp, s), then the smallest certified
/// integer scale t = grid_scale(k) (the mechanism's accountant) and the scale t 2^k (exact:
/// t <= 2^52); `Params` has sensitivity, dimension, clamp, grid_exponent, scale and validate().
/// @spec SEC.LATTICE.RULE
template <class Params, class GridScale>
Params lattice_params_for(double sensitivity, long long dimension, double clamp, double scale,
                          double per_step, int s, GridScale&& grid_scale) {
  Params p;
  p.sensitivity = sensitivity;
  p.dimension = dimension;
  p.clamp = clamp;
  p.grid_exponent = lattice_rule(sensitivity, scale, per_step, clamp, s);
  const std::int64_t t = grid_scale(p.grid_exponent);
  p.scale = std::ldexp(static_cast<double>(t), p.grid_exponent);
  p.validate();
  return p;
}

/// The exact l2 clamp of a grid vector (SEC.LATTICE.L2CLAMP): with c = C / 2^k and d = n.size(),
/// n is left unchanged when ‖n‖₂ <= c + √d/2, and otherwise replaced by
/// n_i <- trunc(n_i ⌊c⌋ / ⌈‖n‖₂⌉), whose norm is <= ⌊c⌋. Either way ‖n‖₂ <= c + √d/2 afterwards,
/// so two outputs differ by at most 2c + √d in l2 — the inflated sensitivity Δ2/2^k + √d of a
/// query with l2 diameter Δ2 = 2C — whatever the inputs (ĝ clipped in floating point, or not at
/// all). A vector that was clipped to ‖x‖₂ <= C before rounding is unchanged (rounding moves it by
/// at most √d/2), so the clamp only acts where the float query broke its bound. Every comparison is
/// in exact integer arithmetic; |n_i| never grows. Requires (k, clamp) valid for check_lattice.
/// @spec SEC.LATTICE.L2CLAMP
inline void lattice_l2_clamp(std::span<std::int64_t> n, int k, double clamp) {
  using boost::multiprecision::cpp_int;
  check_lattice("dpref::secure::lattice_l2_clamp", k, clamp);
  cpp_int S = 0;  // ‖n‖₂², exact
  for (const std::int64_t v : n) S += cpp_int(v) * cpp_int(v);
  // c = C / 2^k = M / F exactly, M an integer, F = 2^f >= 1
  int e = 0;
  const double frac = std::frexp(clamp, &e);
  cpp_int M(static_cast<std::uint64_t>(std::ldexp(frac, 53)));  // clamp = M 2^(e - 53)
  const long long shift = static_cast<long long>(e) - 53 - k;
  cpp_int F = 1;
  if (shift >= 0)
    M <<= static_cast<unsigned>(shift);
  else
    F <<= static_cast<unsigned>(-shift);
  const cpp_int d(static_cast<long long>(n.size()));
  // ‖n‖₂ <= c + √d/2  <=>  A = 4 S F² − 4 M² − d F² <= 4 M F √d  <=>  A <= 0 or A² <= 16 M² F² d
  const cpp_int A = 4 * S * F * F - 4 * M * M - d * F * F;
  if (A <= 0 || A * A <= 16 * M * M * F * F * d) return;
  const cpp_int P = M / F;  // ⌊c⌋
  cpp_int Q = boost::multiprecision::sqrt(S);
  if (Q * Q < S) ++Q;  // ⌈‖n‖₂⌉ >= 1 here
  for (std::int64_t& v : n) v = static_cast<std::int64_t>(cpp_int(v) * P / Q);  // toward zero
}

/// The exact l1 clamp of a grid vector (SEC.LATTICE.L1CLAMP): with c = C / 2^k and d = n.size(),
/// n is left unchanged when ‖n‖₁ <= c + d/2, and otherwise replaced by
/// n_i <- trunc(n_i ⌊c⌋ / ‖n‖₁), whose l1 norm is <= ⌊c⌋. Either way ‖n‖₁ <= c + d/2 afterwards,
/// so two outputs differ by at most 2c + d in l1 — the inflated sensitivity Δ1/2^k + d of a query
/// with l1 diameter Δ1 = 2C — whatever the input. A vector with ‖x‖₁ <= C before rounding is
/// unchanged (rounding moves each coordinate by at most 1/2). Exact: ‖n‖₁ <= d 2^52 and
/// |n_i| ⌊c⌋ <= 2^104 are 128-bit integers, and 2c and c are exact doubles (or below 1, when
/// their floor is 0 either way). Requires (k, clamp) valid for check_lattice and d <= 2^40.
/// @spec SEC.LATTICE.L1CLAMP
inline void lattice_l1_clamp(std::span<std::int64_t> n, int k, double clamp) {
  check_lattice("dpref::secure::lattice_l1_clamp", k, clamp);
  __extension__ using i128 = __int128;
  i128 S = 0;  // ‖n‖₁, exact
  for (const std::int64_t v : n) S += v < 0 ? -static_cast<i128>(v) : static_cast<i128>(v);
  // ‖n‖₁ <= c + d/2  <=>  2‖n‖₁ − d <= 2c  <=>  2‖n‖₁ − d <= ⌊2c⌋ (the left side is an integer)
  const auto two_c = static_cast<i128>(std::floor(std::ldexp(clamp, 1 - k)));  // <= 2^53
  if (2 * S - static_cast<i128>(n.size()) <= two_c) return;
  const auto P = static_cast<i128>(std::floor(std::ldexp(clamp, -k)));  // ⌊c⌋ <= 2^52
  for (std::int64_t& v : n) v = static_cast<std::int64_t>(static_cast<i128>(v) * P / S);
}

/// Largest numerator of the grid variance of the snapped Gaussian: with sigma_g^2 = num / 2^j,
/// num <= 2^30 and j <= 20 the exact sampler stays in 64-bit arithmetic (2 a b t^2 < 2^62).
inline constexpr std::int64_t lattice_gauss_num_cap = std::int64_t{1} << 30;

/// (sigma / 2^k)^2 as a rational num / 2^j (lowest terms) rounded UP, never down: the exact
/// value if it fits, else the ceiling at the finest j <= 20 with num <= 2^30 (relative rounding
/// error <= 1 / num).
/// @throws std::domain_error if sigma is not finite and > 0, k is out of range, or
///   (sigma / 2^k)^2 > 2^30 (choose a coarser grid)
/// @spec SEC.LATTICE.RULE
inline rational64 lattice_gaussian_variance(double sigma, int k) {
  constexpr std::string_view fn = "dpref::secure::lattice_gaussian_variance";
  using boost::multiprecision::cpp_int;
  require_positive(fn, "sigma", sigma);
  if (k < lattice_k_min || k > lattice_k_max) fail_domain(fn, "k", "in [-1022, 970]", k);
  int e = 0;
  const double f = std::frexp(sigma, &e);
  auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));  // sigma = m 2^(e - 53), exact
  e -= 53;
  while (m % 2 == 0) {
    m /= 2;
    ++e;
  }
  const cpp_int sq = cpp_int(m) * cpp_int(m);
  const long long shift = 2LL * e - 2LL * k;  // (sigma / 2^k)^2 = sq 2^shift
  const cpp_int cap(lattice_gauss_num_cap);
  if (shift >= 0) {
    if (shift > 62 || (sq << static_cast<unsigned>(shift)) > cap)
      fail_domain(fn, "sigma", "such that (sigma / 2^k)^2 <= 2^30", sigma);
    return {static_cast<std::int64_t>(sq << static_cast<unsigned>(shift)), 1};
  }
  const long long total = -shift;
  for (long long j = total < 20 ? total : 20;; --j) {
    const auto drop = static_cast<unsigned>(total - j);
    cpp_int num = (sq + (cpp_int(1) << drop) - 1) >> drop;  // ceil(sq / 2^drop)
    if (num <= cap) {
      long long jj = j;
      while (jj > 0 && (num & 1) == 0) {
        num >>= 1;
        --jj;
      }
      return {static_cast<std::int64_t>(num), std::int64_t{1} << jj};
    }
    if (j == 0) fail_domain(fn, "sigma", "such that (sigma / 2^k)^2 <= 2^30", sigma);
  }
}

}  // namespace dpref::secure

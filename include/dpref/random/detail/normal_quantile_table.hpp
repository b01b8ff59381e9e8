// Fast inverse normal CDF for the double fast path: z(t) = −Φ⁻¹(t) = √2·erfc_inv(2t) for
// t ∈ (0, 1/2], by degree-9 polynomials on 16 sub-intervals of each binade [2^-(e+1), 2^-e),
// e = 1..66, interpolated at Chebyshev nodes from Boost's long double erfc_inv at start-up
// (~2 ms, once). Measured error against the long double value: see RAND.FAST.
#pragma once

#include <array>
#include <bit>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <cstdint>

namespace dpref::fast::detail {

struct normal_quantile_table {
  static constexpr int binades = 66;  // t >= 2^-67 covers every folded 62-bit uniform
  static constexpr int subs = 16;     // sub-intervals per binade (top 4 significand bits)
  static constexpr int degree = 9;
  // coefficient c_k of interval (e, j), k = 0..degree, in the local variable s ∈ [-1, 1]
  std::array<double, binades * subs*(degree + 1)> coeff{};
};

inline const normal_quantile_table& normal_quantile() {
  static const normal_quantile_table table = [] {
    normal_quantile_table t{};
    constexpr int n = normal_quantile_table::degree + 1;
    const long double pi = 3.141592653589793238462643383279502884L;
    for (int e = 1; e <= normal_quantile_table::binades; ++e) {
      for (int j = 0; j < normal_quantile_table::subs; ++j) {
        const long double lo = std::ldexp(1.0L + j / 16.0L, -(e + 1));
        const long double hi = std::ldexp(1.0L + (j + 1) / 16.0L, -(e + 1));
        const long double mid = (lo + hi) / 2, half = (hi - lo) / 2;
        // values at the Chebyshev nodes s_k = cos(π(k + 1/2)/n)
        std::array<long double, n> f{};
        for (int k = 0; k < n; ++k) {
          const long double s = std::cos(pi * (k + 0.5L) / n);
          f[k] = std::sqrt(2.0L) * boost::math::erfc_inv(2 * (mid + half * s));
        }
        // Chebyshev coefficients a_m, then monomial coefficients by the recurrence of T_m
        std::array<long double, n> a{};
        for (int m = 0; m < n; ++m) {
          long double sum = 0;
          for (int k = 0; k < n; ++k) sum += f[k] * std::cos(pi * m * (k + 0.5L) / n);
          a[m] = (m == 0 ? 1.0L : 2.0L) * sum / n;
        }
        std::array<long double, n> c{}, t_prev{}, t_cur{}, t_next{};
        t_prev[0] = 1;  // T_0
        t_cur[1] = 1;   // T_1
        for (int k = 0; k < n; ++k) c[k] += a[0] * t_prev[k];
        for (int k = 0; k < n; ++k) c[k] += a[1] * t_cur[k];
        for (int m = 2; m < n; ++m) {
          t_next.fill(0);
          for (int k = 0; k + 1 < n; ++k) t_next[k + 1] += 2 * t_cur[k];
          for (int k = 0; k < n; ++k) t_next[k] -= t_prev[k];
          for (int k = 0; k < n; ++k) c[k] += a[m] * t_next[k];
          t_prev = t_cur;
          t_cur = t_next;
        }
        double* out =
            &t.coeff[static_cast<std::size_t>(((e - 1) * normal_quantile_table::subs + j) * n)];
        for (int k = 0; k < n; ++k) out[k] = static_cast<double>(c[k]);
      }
    }
    return t;
  }();
  return table;
}

/// −Φ⁻¹(t) for a normal double t ∈ [2^-67, 1/2].
inline double normal_quantile_upper(double t) {
  const normal_quantile_table& tab = normal_quantile();
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(t);
  const int e = 1022 - static_cast<int>((bits >> 52) & 0x7ff);  // t in [2^-(e+1), 2^-e)
  const int j = static_cast<int>((bits >> 48) & 15);            // top 4 significand bits
  // local variable s = (t − mid)/half: the significand's remaining bits mapped to [-1, 1)
  const double m =
      std::bit_cast<double>(((bits & 0x0000ffffffffffffULL) << 4) | (1023ULL << 52));  // [1, 2)
  const double s = (m - 1.5) * 2;  // [1, 2) -> [-1, 1)
  const double* c = &tab.coeff[static_cast<std::size_t>(
      ((e - 1) * normal_quantile_table::subs + j) * (normal_quantile_table::degree + 1))];
  double r = c[9];
  for (int k = 8; k >= 0; --k) r = std::fma(r, s, c[k]);
  return r;
}

}  // namespace dpref::fast::detail

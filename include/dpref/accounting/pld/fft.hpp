// Linear convolution of non-negative double sequences by a radix-2 FFT with a rigorous bound
// of the round-off (spec/accounting_pld.md, ACC.PLD.FFT).
//
// Error bound (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm 24.2): for
// the Cooley–Tukey radix-2 FFT of length N = 2^t with computed twiddles |ŵ − w| <= μ,
//   ‖fl(F x) − F x‖₂ <= ρ ‖F x‖₂,   ρ = tη/(1 − tη),   η = μ + γ₄(√2 + μ),   γ₄ = 4u/(1 − 4u).
// Twiddles come from sinl/cosl at two levels (a table of √N angles and products in long double),
// so μ <= 2^-52 under the libm assumption of numeric.hpp. The convolution c = F⁻¹(F a ⊙ F b)/N
// is bounded in numeric_bound() step by step (forward transform of the packed a + i b, the
// split into A and B, the pointwise product with γ₂√2, the inverse transform, the division by
// N being exact); the ℓ1 error of the kept n_out outputs is <= √n_out times the ℓ2 bound.
// Subnormal underflow adds at most N (t + 4) 2^-1074 per output, also included.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "dpref/accounting/pld/numeric.hpp"

namespace dpref::accounting::pld::detail {

template <class T>
struct cpx_t {
  T re, im;
};
using cpx = cpx_t<double>;

/// Twiddle tables for every power-of-two length up to a maximum: stage tables stored
/// contiguously (for length L, the L/2 factors e^{-2πik/L}), in double and in long double.
/// Owned by the caller (no global state); building costs O(N) long double multiplications and
/// O(√N) sinl/cosl calls. Twiddle error bound: long double 2^-54 (two libm calls and one
/// complex product), double 2^-52 (plus the rounding to double).
class fft_plan {
 public:
  explicit fft_plan(std::size_t nmax = 2) { reserve(nmax); }
  void reserve(std::size_t nmax) {
    std::size_t n = 2;
    while (n < nmax) n <<= 1;
    if (n <= n_) return;
    n_ = n;
    // angles 2π k / n, k < n/2, as e^{-iθ} = coarse[k / B] * fine[k % B]
    std::size_t b = 1;
    while (b * b < n / 2) b <<= 1;
    const ld two_pi = 6.283185307179586476925286766559005768394L;
    std::vector<ld> fr(b), fi(b), cr(n / 2 / b + 1), ci(n / 2 / b + 1);
    for (std::size_t j = 0; j < b; ++j) {
      const ld th = two_pi * static_cast<ld>(j) / static_cast<ld>(n);
      fr[j] = std::cos(th);
      fi[j] = -std::sin(th);
    }
    for (std::size_t m = 0; m < cr.size(); ++m) {
      const ld th = two_pi * static_cast<ld>(m * b) / static_cast<ld>(n);
      cr[m] = std::cos(th);
      ci[m] = -std::sin(th);
    }
    std::vector<cpx_t<ld>> full(n / 2);
    for (std::size_t k = 0; k < n / 2; ++k) {
      const std::size_t m = k / b, j = k % b;
      full[k] = {cr[m] * fr[j] - ci[m] * fi[j], cr[m] * fi[j] + ci[m] * fr[j]};
    }
    // stage tables: for length L the factors full[k * (n / L)], k < L/2; offset L/2 - 1
    twl_.assign(n, cpx_t<ld>{0, 0});
    twd_.assign(n, cpx{0, 0});
    for (std::size_t len = 2; len <= n; len <<= 1)
      for (std::size_t k = 0; k < len / 2; ++k) {
        const auto w = full[k * (n / len)];
        twl_[len / 2 - 1 + k] = w;
        twd_[len / 2 - 1 + k] = {static_cast<double>(w.re), static_cast<double>(w.im)};
      }
  }
  [[nodiscard]] std::size_t max_size() const { return n_; }

  /// In-place FFT of length N (power of two <= max_size()); inverse = conjugate twiddles
  /// (unnormalised). T = double or long double.
  template <class T>
  void transform(std::vector<cpx_t<T>>& a, std::size_t n, bool inverse) const {
    for (std::size_t i = 1, j = 0; i < n; ++i) {
      std::size_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(a[i], a[j]);
    }
    const T sgn = inverse ? T(-1) : T(1);
    const cpx_t<T>* tw;
    if constexpr (std::is_same_v<T, double>)
      tw = twd_.data();
    else
      tw = twl_.data();
    for (std::size_t len = 2; len <= n; len <<= 1) {
      const std::size_t half = len / 2;
      const cpx_t<T>* w = tw + (half - 1);
      for (std::size_t i = 0; i < n; i += len) {
        cpx_t<T>* x = &a[i];
        cpx_t<T>* y = &a[i + half];
        for (std::size_t k = 0; k < half; ++k) {
          const T wr = w[k].re, wi = sgn * w[k].im;
          const T vr = y[k].re * wr - y[k].im * wi;
          const T vi = y[k].re * wi + y[k].im * wr;
          const T ur = x[k].re, ui = x[k].im;
          x[k] = {ur + vr, ui + vi};
          y[k] = {ur - vr, ui - vi};
        }
      }
    }
  }

 private:
  std::size_t n_ = 0;
  std::vector<cpx_t<ld>> twl_;
  std::vector<cpx> twd_;
};

struct norms {
  double l1 = 0, l2 = 0;
};
inline norms norms_of(const std::vector<double>& a) {
  long double s1 = 0, s2 = 0;
  for (const double x : a) {
    s1 += std::fabs(x);
    s2 += static_cast<long double>(x) * x;
  }
  // long double accumulation of <= 2^40 terms: relative error far below 2^-20
  return {static_cast<double>(s1 * (1 + 0x1p-20L)),
          static_cast<double>(std::sqrt(s2) * (1 + 0x1p-20L))};
}

/// Bound of ‖ĉ − c‖₁ over n_out outputs of an FFT convolution of length n of sequences with the
/// given norms (see the header comment).
inline double fft_conv_error_bound(std::size_t n, std::size_t n_out, norms a, norms b,
                                   bool extended = false) {
  const double u = extended ? 0x1p-64 : kU;
  const double t = std::log2(static_cast<double>(n));
  const double mu = extended ? 0x1p-54 : 0x1p-52;
  const double g4 = 4 * u / (1 - 4 * u), g2 = 2 * u / (1 - 2 * u);
  const double eta = mu + g4 * (std::sqrt(2.0) + mu);
  const double rho = t * eta / (1 - t * eta);
  const double sn = std::sqrt(static_cast<double>(n));
  // forward transform of z = a + i b: ‖ΔZ‖ <= ρ √N ‖z‖₂
  const double z2 = std::sqrt(a.l2 * a.l2 + b.l2 * b.l2);
  const double dz = rho * sn * z2;
  // split A = (Z_k + conj Z_-k)/2, B = (Z_k − conj Z_-k)/2i: contraction + rounding
  const double da = dz + 2 * u * sn * (a.l2 + dz), db = dz + 2 * u * sn * (b.l2 + dz);
  const double binf = b.l1 + db, ainf = a.l1 + da;
  // product: ‖ΔC‖ <= ‖ΔA‖‖B̂‖∞ + ‖A‖∞‖ΔB‖ + √2γ₂‖Â‖₂‖B̂‖∞
  const double dc = da * binf + ainf * db + std::sqrt(2.0) * g2 * (sn * a.l2 + da) * binf;
  const double cn = sn * a.l2 * b.l1 + dc;  // ‖Ĉ‖₂
  // inverse: ‖ĉ − c‖₂ <= (√N ‖ΔC‖ + ρ √N ‖Ĉ‖)/N
  const double e2 = (dc + rho * cn) / sn;
  const double under = static_cast<double>(n) * (t + 4) * 0x1p-1074;
  return (std::sqrt(static_cast<double>(n_out)) * e2 + under * static_cast<double>(n_out)) *
         (1 + 0x1p-40);
}

template <class T>
std::vector<double> fft_convolve(const std::vector<double>& a, const std::vector<double>& b,
                                 bool square, std::size_t n, const fft_plan& plan) {
  const std::size_t na = a.size(), nb = b.size(), nout = na + nb - 1;
  std::vector<cpx_t<T>> z(n, cpx_t<T>{0, 0});
  for (std::size_t i = 0; i < na; ++i) z[i].re = a[i];
  if (!square)
    for (std::size_t i = 0; i < nb; ++i) z[i].im = b[i];
  plan.transform(z, n, false);
  std::vector<cpx_t<T>> c(n);
  if (square) {
    for (std::size_t k = 0; k < n; ++k)
      c[k] = {z[k].re * z[k].re - z[k].im * z[k].im, 2 * z[k].re * z[k].im};
  } else {
    for (std::size_t k = 0; k < n; ++k) {
      const cpx_t<T> zk = z[k], zm = z[(n - k) & (n - 1)];
      const T ar = (zk.re + zm.re) / 2, ai = (zk.im - zm.im) / 2;
      const T br = (zk.im + zm.im) / 2, bi = -(zk.re - zm.re) / 2;
      c[k] = {ar * br - ai * bi, ar * bi + ai * br};
    }
  }
  plan.transform(c, n, true);
  std::vector<double> out(nout);
  const T inv = T(1) / static_cast<T>(n);
  for (std::size_t i = 0; i < nout; ++i) out[i] = static_cast<double>(c[i].re * inv);
  return out;
}

/// Linear convolution c = a * b (a, b non-empty); returns the ℓ1 error bound of c through
/// `err`. Direct summation when the shorter input has <= 48 entries (bound γ_m ‖a‖₁‖b‖₁),
/// FFT otherwise — in long double when `weight` times the double bound would exceed 2^-34
/// (weight: how many times the error is amplified later, e.g. k/c in self-composition).
/// The long double result is rounded to double: half an ulp per output, included.
inline std::vector<double> convolve(const std::vector<double>& a, const std::vector<double>& b,
                                    fft_plan& plan, double& err, double weight = 1) {
  const std::size_t na = a.size(), nb = b.size(), nout = na + nb - 1;
  const norms an = norms_of(a), bn = norms_of(b);
  if (std::min(na, nb) <= 48) {
    const auto& s = na <= nb ? a : b;
    const auto& l = na <= nb ? b : a;
    std::vector<double> c(nout, 0.0);
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double si = s[i];
      if (si == 0) continue;
      for (std::size_t j = 0; j < l.size(); ++j) c[i + j] += si * l[j];
    }
    const double m = static_cast<double>(s.size()) + 1;
    err = m * kU / (1 - m * kU) * an.l1 * bn.l1 * (1 + 0x1p-40) +
          static_cast<double>(nout) * m * 0x1p-1074;
    return c;
  }
  std::size_t n = 2;
  while (n < nout) n <<= 1;
  plan.reserve(n);
  const bool square = (&a == &b);
  const norms bb = square ? an : bn;
  const double ed = fft_conv_error_bound(n, nout, an, bb, false);
  if (ed * weight <= 0x1p-34) {
    err = ed;
    return fft_convolve<double>(a, b, square, n, plan);
  }
  std::vector<double> out = fft_convolve<ld>(a, b, square, n, plan);
  // rounding of each output to double: <= 2^-53 |c_k|, and Σ|c_k| <= ‖a‖₁‖b‖₁ + error
  const double el = fft_conv_error_bound(n, nout, an, bb, true);
  err = el + kU * (an.l1 * bb.l1 + el) * (1 + 0x1p-40);
  return out;
}

}  // namespace dpref::accounting::pld::detail

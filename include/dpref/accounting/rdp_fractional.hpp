// Rényi-DP of the Poisson-subsampled Gaussian at fractional orders (Mironov–Talwar–Zhang 2019,
// §3.3), certified, and the default order grid (spec/accounting_pld.md, ACC.RDP.FRAC).
//
// With μ0 = N(0, σ²), μ1 = N(1, σ²), μ = (1−q)μ0 + qμ1 and z0 = σ² log((1−q)/q) + 1/2 (where the
// two mixture components are equal), A_α = E_{μ0}[(μ/μ0)^α] = Σ_{i>=0} C(α, i) (s0_i + s1_i),
//   s0_i = (1−q)^{α−i} q^i e^{(i²−i)/(2σ²)} erfc((i − z0)/(√2σ))/2,
//   s1_i = q^{α−i} (1−q)^i e^{((α−i)²−(α−i))/(2σ²)} erfc((z0 − α + i)/(√2σ))/2,
// (binomial series of (μ/μ0)^α on z <= z0 and z > z0, where the expansion ratio is <= 1).
// Truncation, rigorously: for i >= i0 = ⌊α⌋ + 1 the terms alternate and |T_i| is a completely
// monotone sequence (a product of moment sequences: |C(α, i)| ∝ B(i − α, α + 1) and both s-parts
// are moments of a ratio <= 1). For such a tail Σ_k (−1)^k a_k the Euler transform converges
// geometrically with computable bounds: Σ_k (−1)^k a_k = Σ_{n<m} d_n/2^{n+1} + R_m with
// d_n = Σ_k (−1)^k C(n, k) a_k >= 0 and 0 <= R_m <= d_m/2^m. The upper bound of A_α uses
// R_m's bound in the direction of the tail's sign; everything is evaluated with `certifier`
// (W >= 256 bits, ADL math only) and rounded up.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

/// Default RDP order grid, a superset of Opacus's default: 1.1, 1.2, …, 10.9 (step 0.1, as the
/// values 1 + x/10 rounded to Real), then the integers 11, 12, …, 256.
/// @spec ACC.RDP.FRAC.GRID
template <real_scalar Real>
std::vector<Real> default_rdp_orders() {
  std::vector<Real> out;
  out.reserve(99 + 246);
  for (int x = 1; x <= 99; ++x) out.push_back(Real(1) + Real(x) / Real(10));
  for (int a = 11; a <= 256; ++a) out.push_back(Real(a));
  return out;
}

namespace detail {

/// Certified upper bound of A_α (fractional α > 1, 0 < q < 1) at the working precision, and the
/// magnitude of the cancelled terms (for the certifier's absolute margin).
template <real_scalar Real>
std::pair<work_real, work_real> mtz_frac_a(const certifier<Real>& c, const work_real& q,
                                           const work_real& sigma, const work_real& alpha) {
  using std::abs;
  using std::erfc;
  using std::exp;
  using std::floor;
  using std::log;
  using std::log1p;
  using std::sqrt;
  const work_real lq = log(q), l1q = log1p(-q);
  const work_real s2 = sigma * sigma;
  const work_real inv2s2 = 1 / (2 * s2);
  const work_real z0 = s2 * (l1q - lq) + work_real(1) / 2;
  const work_real r2s = 1 / (sqrt(work_real(2)) * sigma);
  // |s0_i + s1_i|
  auto parts = [&](long i) {
    const work_real wi(i);
    const work_real j = alpha - wi;
    const work_real s0 =
        exp((alpha - wi) * l1q + wi * lq + (wi * wi - wi) * inv2s2) * erfc((wi - z0) * r2s) / 2;
    const work_real s1 = exp(j * lq + wi * l1q + (j * j - j) * inv2s2) * erfc((z0 - j) * r2s) / 2;
    return s0 + s1;
  };
  const long i0 = static_cast<long>(floor(static_cast<double>(alpha))) + 1;
  const long n_direct = i0 + 2;
  work_real binom(1), sum(0), scale(0);
  for (long i = 0; i <= n_direct; ++i) {
    const work_real t = binom * parts(i);
    sum += t;
    scale += abs(t);
    binom = binom * (alpha - work_real(i)) / work_real(i + 1);
  }
  // tail a_k = |T_{n_direct + 1 + k}|, sign of T_{n_direct+1} = (−1)^{n_direct + 1 − i0}
  const bool tail_positive = ((n_direct + 1 - i0) % 2) == 0;
  std::vector<work_real> a;
  std::vector<work_real> d_row;  // C(n, k) for the current n
  work_real euler(0), euler_scale(0), remainder(0);
  // tightness target of the tail bound: 2^-(p + 16) relative (p = caller's precision)
  const work_real stop = ldexp(abs(sum), -std::min(c.target_bits() + 16, c.bits() - 40));
  for (long n = 0; n < 400; ++n) {
    const long i = n_direct + 1 + n;
    a.push_back(abs(binom) * parts(i));
    binom = binom * (alpha - work_real(i)) / work_real(i + 1);
    // d_n = Σ_k (−1)^k C(n, k) a_k
    work_real d(0), ds(0), ck(1);
    for (long k = 0; k <= n; ++k) {
      const work_real t = ck * a[static_cast<std::size_t>(k)];
      d += (k % 2 == 0) ? t : -t;
      ds += t;
      ck = ck * work_real(n - k) / work_real(k + 1);
    }
    const work_real w = ldexp(work_real(1), -static_cast<int>(n + 1));  // 2^{−(n+1)}
    const work_real dpos = d > 0 ? d : work_real(0);
    // remainder bound after n terms: d_n / 2^n
    if (n > 0 && dpos * 2 * w <= stop) {
      remainder = dpos * 2 * w;
      break;
    }
    euler += dpos * w;
    euler_scale += ds * w;
    remainder = a[0];  // fallback bound (never tighter than needed)
  }
  if (tail_positive)
    sum += euler + remainder;
  else
    sum -= euler;
  return {sum, scale + euler_scale + remainder};
}

}  // namespace detail

/// RDP of the Poisson-subsampled Gaussian mechanism at any orders α > 1 (fractional orders by
/// the two-sided MTZ series with the certified Euler-transform tail bound; integer orders by
/// poisson_subsampled_gaussian_rdp, whose results are reproduced bit for bit).
/// @param q Poisson rate ∈ (0, 1] @param noise_multiplier s = σ/Δ > 0
/// @param orders orders > 1, strictly increasing (integers up to 2^20, fractional up to 2^10)
/// @return RDP curve, every value an upper bound of the exact one, rounded up
/// @throws std::domain_error / std::invalid_argument for invalid input
/// @spec ACC.RDP.FRAC
template <real_scalar Real>
rdp_curve<Real> poisson_subsampled_gaussian_rdp_frac(const Real& q, const Real& noise_multiplier,
                                                     const std::vector<Real>& orders) {
  constexpr const char* fn = "poisson_subsampled_gaussian_rdp_frac";
  require_rate(fn, "q", q);
  require_positive(fn, "noise_multiplier", noise_multiplier);
  if (orders.empty()) fail_argument(fn, "orders", "non-empty", 0);
  using std::floor;
  std::vector<Real> ints;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const Real& a = orders[i];
    if (!is_finite_value(a) || !(a > Real(1))) fail_domain(fn, "orders[i]", "finite and > 1", a);
    if (i > 0 && !(a > orders[i - 1])) fail_domain(fn, "orders", "strictly increasing", a);
    if (Real(floor(a)) == a)
      ints.push_back(a);
    else if (a > Real(1024))
      fail_domain(fn, "orders[i]", "an integer or <= 1024", a);
  }
  rdp_curve<Real> out{orders, std::vector<Real>(orders.size())};
  rdp_curve<Real> integer_part;
  if (!ints.empty()) integer_part = poisson_subsampled_gaussian_rdp(q, noise_multiplier, ints);
  std::size_t next_int = 0;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (Real(floor(orders[i])) == orders[i]) {
      out.eps[i] = integer_part.eps[next_int++];
      continue;
    }
    using std::abs;
    using std::log;
    certifier<Real> c;
    const work_real al = c.in(orders[i]), s = c.in(noise_multiplier);
    if (q == Real(1)) {
      out.eps[i] = c.up(al / (2 * s * s));
      continue;
    }
    const auto [a, scale] = detail::mtz_frac_a(c, c.in(q), s, al);
    const work_real am1 = al - 1;
    const work_real e = log(a) / am1;
    const Real r = c.up(e, scale / (a * am1) + abs(e));
    out.eps[i] = r < Real(0) ? Real(0) : r;
  }
  return out;
}

}  // namespace dpref::accounting

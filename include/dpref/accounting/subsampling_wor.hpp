// Rényi DP of the Gaussian mechanism on a subsample drawn WITHOUT replacement
// (Wang–Balle–Kasiviswanathan, AISTATS 2019, Theorem 9), replace-one neighbouring.
#pragma once

#include <cmath>
#include <string_view>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

/// RDP of the Gaussian mechanism (noise multiplier s = σ/Δ, replace-one adjacency) applied to a
/// subsample drawn WITHOUT replacement with ratio γ (Wang–Balle–Kasiviswanathan 2019 Thm 9; the
/// Gaussian has ε(∞) = ∞, so the min{2, ·} factors are 2): for integer α >= 2,
///   ε′(α) <= (α−1)⁻¹ log(1 + γ²C(α,2) min{4(e^{ε(2)} − 1), 2e^{ε(2)}}
///                        + 2 Σ_{j=3}^{α} γ^j C(α,j) e^{(j−1)ε(j)}),  ε(j) = j/(2s²),
/// capped by ε(α) (subsampling never hurts). Log space at W bits, rounded up.
/// @param gamma γ ∈ (0, 1] @param noise_multiplier s > 0 @param orders integers >= 2
/// @spec ACC.RDP.WOR.WBK
template <real_scalar Real>
rdp_curve<Real> subsampled_gaussian_rdp_wor(const Real& gamma, const Real& noise_multiplier,
                                            const std::vector<Real>& orders) {
  constexpr std::string_view fn = "subsampled_gaussian_rdp_wor";
  require_rate(fn, "gamma", gamma);
  require_positive(fn, "noise_multiplier", noise_multiplier);
  const std::vector<long> ords = detail::integer_order_list(fn, orders);
  using std::exp;
  using std::log;
  certifier<Real> c;
  const work_real g = c.in(gamma), s = c.in(noise_multiplier);
  const work_real inv2s2 = 1 / (2 * s * s);
  const std::vector<work_real> lf = detail::log_factorials(ords.back());
  const work_real lg = log(g);
  rdp_curve<Real> out;
  out.orders = orders;
  for (long a : ords) {
    const work_real base = work_real(a) * inv2s2;
    if (g == 1) {
      out.eps.push_back(c.up(base));
      continue;
    }
    const auto A = static_cast<std::size_t>(a);
    std::vector<work_real> t;
    t.reserve(A);
    t.push_back(work_real(0));
    const work_real e2 = 2 * inv2s2;
    const work_real m2 =
        4 * detail::w_expm1(e2) < 2 * exp(e2) ? 4 * detail::w_expm1(e2) : 2 * exp(e2);
    t.push_back(2 * lg + lf[A] - lf[2] - lf[A - 2] + log(m2));
    const work_real ln2 = log(work_real(2));
    for (long j = 3; j <= a; ++j) {
      const auto J = static_cast<std::size_t>(j);
      t.push_back(ln2 + work_real(j) * lg + lf[A] - lf[J] - lf[A - J] +
                  work_real(j - 1) * work_real(j) * inv2s2);
    }
    work_real m = t[0];
    for (const auto& v : t)
      if (v > m) m = v;
    work_real sum(0);
    for (const auto& v : t) sum += exp(v - m);
    work_real e = (m + log(sum)) / work_real(a - 1);
    if (e > base) e = base;
    out.eps.push_back(c.up(e, m));
  }
  return out;
}

}  // namespace dpref::accounting

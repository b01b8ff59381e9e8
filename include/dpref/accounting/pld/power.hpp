// k-fold self-composition of a pessimistic discrete PLD by one FFT, a pointwise k-th power and
// one inverse FFT (spec/accounting_pld.md ACC.PLD.POWER), on a window of the loss axis chosen
// from Chernoff bounds of the k-fold measure's tails, all in long double with an explicit
// error bound. Replaces O(log k) squarings (each with its own FFTs) by two FFTs.
//
// Certification (added to the invariant of distribution.hpp): let x be the finite masses
// (total F), I the infinity mass and E the error of the input, and y = x^{*k} (exact).
//  - Window. For every λ > 0, the mass of y above s is <= e^{−λ s} (Σ_j x_j e^{λ l_j})^k and
//    below s' is <= e^{λ s'} (Σ_j x_j e^{−λ l_j})^k (Markov, for non-negative measures). The
//    window [L, L + N) (N a power of two) is chosen so that both bounds T_hi, T_lo are small;
//    the circular convolution folds the outside mass into the window.
//  - The measure ω' = y on the window + (y above → +∞) + (y below → the window's first node)
//    moves mass only to larger losses, so its curve dominates y's; the output differs from ω'
//    by at most the FFT error + 2 T_lo + 2 T_hi (fold and move), the infinity mass by T_hi.
//  - Forward FFT: ‖ΔX‖₂ <= ρ √N ‖x‖₂ (Higham Thm 24.2, long double, twiddles 2^-54);
//    |X_j|, |X̂_j| <= M = F + ‖ΔX‖₂; the power: |X̂^k − X^k| <= k M^{k−1}|ΔX| and the binary
//    powering (each complex product relative error √2γ₂, compounded at most 2k times since an
//    early squaring's error is raised with its base) adds <= ε_p M^k per frequency; inverse FFT:
//    (√N‖ΔP‖₂ + ρ√N(‖P‖₂ + ‖ΔP‖₂))/N in ℓ2, ×√N in ℓ1; rounding to double 2^-53 per output.
//  - Input error and infinity mass: ‖(x, I)^{⊗k} − (ω, ω_∞)^{⊗k}‖ <= (A + E)^k − A^k, A = F + I;
//    the infinity mass of the k-fold is (F + I)^k − F^k.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dpref/accounting/pld/discrete_pld.hpp"
#include "dpref/accounting/pld/fft.hpp"
#include "dpref/error.hpp"

namespace dpref::accounting::pld::detail {

/// Upper bound of (Σ_j x_j e^{sgn λ (j − c)})^k's logarithm, k·log of the sum, with a margin for
/// the recurrence's rounding (relative error <= 4 n 2^-64 + 2^-56 per term).
inline ld log_mgf_k(const std::vector<double>& x, ld lambda_index, ld c, double k) {
  const std::size_t n = x.size();
  const ld r = std::exp(lambda_index);
  ld e = std::exp(-lambda_index * c), s = 0;
  for (std::size_t j = 0; j < n; ++j) {
    s += static_cast<ld>(x[j]) * e;
    e *= r;
  }
  // terms that underflowed count at most 2^-16000 each
  const ld margin = 1 + (4 * static_cast<ld>(n) + 8) * kUL + 4 * kLibm;
  const ld lm = static_cast<ld>(k) * std::log((s + static_cast<ld>(n) * 0x1p-16000L) * margin);
  return lm + std::fabs(lm) * 4 * kLibm + 4 * kLibm;
}

/// Smallest relative sum index H such that the k-fold mass above H (index units, relative to
/// k·offset) is <= tau by a Chernoff bound (minimised over λ by a golden-section search; any
/// λ is valid), for the upper (up = true) or, mirrored, the lower tail.
inline double chernoff_edge(const std::vector<double>& x, double k, ld tau, bool up) {
  const std::size_t n = x.size();
  // centre c: the mean index (keeps the exponentials in range)
  ld s0 = 0, s1 = 0;
  for (std::size_t j = 0; j < n; ++j) {
    s0 += x[j];
    s1 += static_cast<ld>(x[j]) * static_cast<ld>(j);
  }
  const ld c = s0 > 0 ? s1 / s0 : 0;
  const ld sgn = up ? 1 : -1;
  const ld span = std::max<ld>(1, static_cast<ld>(n));
  // bound on the edge (relative to k·c, in index units) for λ (index units)
  auto edge = [&](ld lam) {
    // mass beyond k c + sgn·t <= exp(k log M(λ) − λ t)  =>  t = (k log M(λ) − log τ)/λ
    const ld lm = log_mgf_k(x, sgn * lam, c, k);
    return (lm - std::log(tau)) / lam;
  };
  // golden-section search on log λ in [log(1e-9 / span), log(8000 / span)]
  ld a = std::log(1e-9L / span), b = std::log(8000.0L / span);
  const ld g = 0.6180339887498948482L;
  ld x1 = b - g * (b - a), x2 = a + g * (b - a);
  ld f1 = edge(std::exp(x1)), f2 = edge(std::exp(x2));
  for (int it = 0; it < 60; ++it) {
    if (f1 < f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - g * (b - a);
      f1 = edge(std::exp(x1));
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + g * (b - a);
      f2 = edge(std::exp(x2));
    }
  }
  const ld t = std::min(f1, f2);
  const ld kc = static_cast<ld>(k) * c;
  const ld top = static_cast<ld>(k) * static_cast<ld>(n - 1);
  // relative sum index of the edge, widened by 2 nodes for the rounding of this computation
  const ld e = up ? std::ceil(kc + t) + 2 : std::floor(kc - t) - 2;
  return static_cast<double>(std::clamp<ld>(e, 0, top));
}

/// (a + e)^k − a^k for a, e >= 0 (upper bound, long double).
inline ld power_excess(ld a, ld e, double k) {
  if (e <= 0) return 0;
  if (!(a > 0)) return std::pow(e, static_cast<ld>(k)) * (1 + 16 * kLibm);
  const ld kk = k;
  const ld v = std::pow(a, kk) * std::expm1(kk * std::log1p(e / a));
  return v * (1 + 16 * kLibm) + kUL;
}

/// The k-fold self-composition of a pessimistic PLD by the FFT power (file comment).
/// @throws std::domain_error when the window needs more than max_points grid points
inline discrete_pld fft_power(const discrete_pld& a, std::uint64_t k, double tail_mass,
                              std::size_t max_points) {
  const double kk = static_cast<double>(k);
  const std::vector<double>& x = a.masses;
  const std::size_t n1 = x.size();
  const ld tau = static_cast<ld>(tail_mass) / 4;
  const double lo = chernoff_edge(x, kk, tau, false), hi = chernoff_edge(x, kk, tau, true);
  const double width = hi - lo + 1;
  const double need = std::max(width, static_cast<double>(n1));
  if (!(need <= static_cast<double>(max_points)))
    fail_domain("pld::self_compose", "grid points of the composition",
                "<= options.max_points = " + std::to_string(max_points) +
                    " (raise pld_max_points, use a coarser pld_interval or the RDP accountant)",
                need);
  std::size_t n = 2;
  while (static_cast<double>(n) < need) n <<= 1;
  fft_plan plan(n);
  std::vector<cpx_t<ld>> z(n, cpx_t<ld>{0, 0});
  for (std::size_t j = 0; j < n1; ++j) z[j].re = x[j];
  plan.transform(z, n, false);
  // k-th power by binary powering
  for (std::size_t f = 0; f < n; ++f) {
    cpx_t<ld> base = z[f], acc{1, 0};
    std::uint64_t e = k;
    bool first = true;
    while (e) {
      if (e & 1) {
        if (first) {
          acc = base;
          first = false;
        } else {
          acc = {acc.re * base.re - acc.im * base.im, acc.re * base.im + acc.im * base.re};
        }
      }
      e >>= 1;
      if (e) base = {base.re * base.re - base.im * base.im, 2 * base.re * base.im};
    }
    z[f] = acc;
  }
  plan.transform(z, n, true);
  // read the window [L, L + n) of relative sum indices
  const auto L = static_cast<std::int64_t>(lo);
  const ld inv = 1.0L / static_cast<ld>(n);
  discrete_pld c;
  c.kind = a.kind;
  c.interval = a.interval;
  c.offset = a.offset * static_cast<std::int64_t>(k) + L;
  c.masses.assign(n, 0.0);
  ld out_l1 = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const ld v = z[(static_cast<std::size_t>(L) + r) & (n - 1)].re * inv;
    c.masses[r] = static_cast<double>(v);
    out_l1 += std::fabs(v);
  }
  // error of the FFT power (file comment)
  const norms nx = norms_of(x);  // l2 only (its l1 is rounded up by 2^-20: too coarse for F^k)
  ld sum = 0;
  for (const double v : x) sum += v;
  const ld F = sum * (1 + (static_cast<ld>(n1) + 4) * kUL);  // upper bound of Σ x_j
  const ld t = std::log2(static_cast<ld>(n));
  const ld mu = 0x1p-54L, g4 = 4 * kUL / (1 - 4 * kUL), g2 = 2 * kUL / (1 - 2 * kUL);
  const ld eta = mu + g4 * (std::sqrt(2.0L) + mu);
  const ld rho = t * eta / (1 - t * eta);
  const ld sn = std::sqrt(static_cast<ld>(n));
  const ld dX = rho * sn * static_cast<ld>(nx.l2);
  const ld M = F + dX;
  // binary powering: an error of an early squaring is raised with its base, so the computed
  // power is X̂^k (1 + θ) with (1 + θ) a product of at most 2k factors (1 + δ), |δ| <= √2γ₂
  const ld eps_p =
      std::expm1(2 * static_cast<ld>(kk) * std::log1p(std::sqrt(2.0L) * g2)) * (1 + 8 * kLibm);
  const ld Mk1 = std::exp((static_cast<ld>(kk) - 1) * std::log(M)) * (1 + 16 * kLibm);
  const ld dP = static_cast<ld>(kk) * Mk1 * dX + eps_p * Mk1 * M * sn;
  const ld Pn = sn * Mk1 * M;  // ‖P‖₂ <= √N F^k
  const ld e2 = (sn * dP + rho * sn * (Pn + dP)) / static_cast<ld>(n);
  // ... + rounding of each output to double (2^-53 relative) + underflow
  const ld fft_err = sn * e2 + out_l1 * 0x1p-53L + static_cast<ld>(n) * 0x1p-1000L;
  // Chernoff tail masses (each <= tau by construction, up to the edge clamp: then exact 0)
  const ld T = tau;
  // input error and infinity mass through the k-fold composition
  const ld A = F + static_cast<ld>(a.infinity_mass);
  const ld in_err = power_excess(A, static_cast<ld>(a.error), kk);
  const ld inf = power_excess(F, static_cast<ld>(a.infinity_mass), kk);
  c.infinity_mass = round_up((inf + T) * (1 + 4 * kUL));
  c.error = round_up((fft_err + in_err + 4 * T + inf * 0x1p-50L) * (1 + 0x1p-40L));
  c.truncated_mass = a.truncated_mass * kk + static_cast<double>(2 * T);
  return c;
}

}  // namespace dpref::accounting::pld::detail

// Privacy building blocks of dda (Liu–Johansson–Shi): Lemma 4.1 (Gaussian mechanism, ε <= 1),
// Lemma 4.2 (node-then-sample amplification, errata DDA-E3), Lemma 4.3 (advanced composition
// as printed), and the tools of calibration (c): the RDP of the Gaussian mechanism on one record
// drawn without replacement (Wang–Balle–Kasiviswanathan 2019) and a Chernoff bound on the number
// of rounds in which a node is active. Every returned ε, δ is rounded up (ACC.CERT.UP).
// @spec DDA.PRIV.WOR DDA.PRIV.BINOM
#pragma once

#include <cmath>
#include <cstddef>
#include <string_view>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/subsampling_wor.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

/// dda Lemma 4.1: N(0, σ²I) noise on a query with ℓ2 sensitivity Δ is
/// (√(2 ln(2/δ)) Δ/σ, δ)-DP. Like every classical tail-bound form it is only valid for ε ≤ 1
/// (it fails e.g. at ε = 10, δ = 0.1, where the exact δ is 0.26): larger ε is refused.
/// @param l2_sensitivity Δ > 0 @param sigma σ > 0 @param delta δ ∈ (0, 1)
/// @return approx_dp with ε rounded up @throws std::domain_error if ε > 1 or invalid input
/// @spec ACC.GAUSS.DDA
template <real_scalar Real>
accounting::approx_dp<Real> gaussian_privacy_lemma41(const Real& l2_sensitivity, const Real& sigma,
                                                     const Real& delta) {
  require_positive("dpref::dda::gaussian_privacy_lemma41", "l2_sensitivity", l2_sensitivity);
  require_positive("dpref::dda::gaussian_privacy_lemma41", "sigma", sigma);
  accounting::require_delta("dpref::dda::gaussian_privacy_lemma41", "delta", delta);
  if (!(delta > Real(0)))
    fail_domain("dpref::dda::gaussian_privacy_lemma41", "delta", "> 0", delta);
  Real eps;
  {
    using std::log;
    using std::sqrt;
    accounting::certifier<Real> c;
    eps = c.up(sqrt(2 * log(2 / c.in(delta))) * c.in(l2_sensitivity) / c.in(sigma));
  }
  if (eps > Real(1))
    fail_domain("dpref::dda::gaussian_privacy_lemma41", "resulting eps",
                "<= 1 (validity range of Lemma 4.1)", eps);
  return {eps, delta};
}

/// dda Lemma 4.2 (node-then-sample): a fraction ι of nodes is active and each active node uses
/// one of its q_local records. With the active set hidden the rate is ι/q_local (as printed);
/// when the active set is public (dda Definition 1, errata DDA-E3) only 1/q_local applies, per
/// round in which the node is active.
/// @param p per-use guarantee @param iota ι ∈ (0, 1] @param q_local records per node >= 1
/// @param active_set_hidden whether the adversary cannot see which nodes are active
/// @spec ACC.SUBSAMPLE.DDA
template <real_scalar Real>
accounting::approx_dp<Real> subsample_nodes(const accounting::approx_dp<Real>& p, const Real& iota,
                                            long long q_local, bool active_set_hidden) {
  require_nonnegative("dpref::dda::subsample_nodes", "p.eps", p.eps);
  accounting::require_delta("dpref::dda::subsample_nodes", "p.delta", p.delta);
  accounting::require_rate("dpref::dda::subsample_nodes", "iota", iota);
  if (q_local < 1) fail_domain("dpref::dda::subsample_nodes", "q_local", ">= 1", q_local);
  accounting::certifier<Real> c;
  const accounting::work_real g =
      (active_set_hidden ? c.in(iota) : accounting::work_real(1)) / accounting::work_real(q_local);
  if (g == 1) return p;
  return accounting::detail::amplify(c, p, g);
}

/// Advanced composition exactly as dda Lemma 4.3: for (ε_i, δ_i)-DP parts with ε_i ∈ (0, 0.9],
/// ε̃ = √(2Σε_i² log(e + √(Σε_i²)/δ')) + Σε_i², δ̃ = 1 − (1−δ′)Π(1−δ_i), any δ′ ∈ (0, 1].
/// @param parts ε_i ∈ (0, 0.9], δ_i ∈ [0, 1) @param delta_prime δ′ ∈ (0, 1]
/// @return approx_dp rounded up @throws std::domain_error when a precondition fails
/// @spec ACC.COMP.ADV
template <real_scalar Real>
accounting::approx_dp<Real> compose_advanced(const std::vector<accounting::approx_dp<Real>>& parts,
                                             const Real& delta_prime) {
  if (parts.empty()) fail_argument("dpref::dda::compose_advanced", "parts", "non-empty", 0);
  if (!is_finite_value(delta_prime) || !(delta_prime > Real(0)) || delta_prime > Real(1))
    fail_domain("dpref::dda::compose_advanced", "delta_prime", "in (0, 1]", delta_prime);
  using std::exp;
  using std::log;
  using std::sqrt;
  accounting::certifier<Real> c;
  accounting::work_real s2(0), log_keep(0);
  const Real cap = Real(9) / 10;  // 0.9 as represented in Real (the bound holds for any ε_i)
  for (const auto& p : parts) {
    accounting::require_epsilon("dpref::dda::compose_advanced", "parts[i].eps", p.eps);
    if (p.eps > cap)
      fail_domain("dpref::dda::compose_advanced", "parts[i].eps", "<= 0.9 (Lemma 4.3)", p.eps);
    accounting::require_delta("dpref::dda::compose_advanced", "parts[i].delta", p.delta);
    const accounting::work_real e = c.in(p.eps);
    s2 += e * e;
    log_keep += accounting::detail::w_log1p(-c.in(p.delta));
  }
  const accounting::work_real eps =
      sqrt(2 * s2 * log(exp(accounting::work_real(1)) + sqrt(s2) / c.in(delta_prime))) + s2;
  log_keep += accounting::detail::w_log1p(-c.in(delta_prime));
  const accounting::work_real delta = -accounting::detail::w_expm1(log_keep);
  Real d = c.up(delta);
  if (d > Real(1)) d = Real(1);
  return {c.up(eps), d};
}

/// The without-replacement Gaussian RDP bound is generic: accounting/subsampling_wor.hpp.
using accounting::subsampled_gaussian_rdp_wor;

/// Chernoff upper bound of P[Bin(T, p) >= k]: exp(−T·KL(k/T ‖ p)) for k > Tp (1 otherwise),
/// rounded up. @spec DDA.PRIV.BINOM
template <real_scalar Real>
Real binomial_tail_bound(long long T, const Real& p, long long k) {
  if (T < 1) fail_domain("binomial_tail_bound", "T", ">= 1", T);
  accounting::require_rate("binomial_tail_bound", "p", p);
  if (k > T) return Real(0);
  accounting::certifier<Real> c;
  const accounting::work_real pp = c.in(p), a = accounting::work_real(k) / accounting::work_real(T);
  if (!(a > pp)) return Real(1);
  if (pp == 1) return Real(k <= T ? 1 : 0);
  using std::exp;
  using std::log;
  const accounting::work_real kl =
      a * log(a / pp) + (a < 1 ? (1 - a) * log((1 - a) / (1 - pp)) : accounting::work_real(0));
  return c.up(exp(-accounting::work_real(T) * kl));
}

/// Smallest k with P[Bin(T, p) > k] <= eta by the Chernoff bound (k* of calibration (c)).
/// @spec DDA.PRIV.BINOM
template <real_scalar Real>
long long binomial_upper_quantile(long long T, const Real& p, const Real& eta) {
  require_positive("binomial_upper_quantile", "eta", eta);
  long long lo = 0, hi = T;  // P[> T] = 0
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (!(binomial_tail_bound(T, p, mid + 1) > eta))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// Explicit instances (src/instances/dda.cpp); EXT is `extern` for consumers.
#define DPREF_DDA_COMPOSITION_INSTANCES(EXT, R)                                                    \
  EXT template accounting::approx_dp<R> gaussian_privacy_lemma41<R>(const R&, const R&, const R&); \
  EXT template accounting::approx_dp<R> subsample_nodes<R>(const accounting::approx_dp<R>&,        \
                                                           const R&, long long, bool);             \
  EXT template accounting::approx_dp<R> compose_advanced<R>(                                       \
      const std::vector<accounting::approx_dp<R>>&, const R&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_DDA_EXTERN_COMPOSITION(R) DPREF_DDA_COMPOSITION_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_DDA_EXTERN_COMPOSITION)
#undef DPREF_DDA_EXTERN_COMPOSITION
#endif

}  // namespace dpref::dda

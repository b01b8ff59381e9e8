// Composition: sequential (pure / approximate; Dwork–Roth Thm 3.16, also when each mechanism is
// chosen adaptively), Kairouz–Oh–Viswanath heterogeneous (Thm 3.5) and exact optimal homogeneous
// composition (Thm 3.3), Dwork–Rothblum–Vadhan, and RDP composition (Mironov 2017).
#pragma once

#include <cstddef>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

/// Sequential composition of pure mechanisms: ε = Σε_i (Dwork–Roth Thm 3.16; also adaptive).
/// @param parts the ε_i-DP mechanisms (ε_i >= 0) @return pure_dp, Σε_i rounded up
/// @throws std::domain_error if an ε_i is negative or not finite
/// @spec ACC.COMP.SEQ ACC.COMP.ADAPTIVE
template <real_scalar Real>
pure_dp<Real> compose_sequential(const std::vector<pure_dp<Real>>& parts) {
  certifier<Real> c;
  work_real s(0);
  for (const auto& p : parts) {
    require_nonnegative("compose_sequential", "parts[i].eps", p.eps);
    s += c.in(p.eps);
  }
  return {c.up(s)};
}

/// Sequential composition of approximate mechanisms: (Σε_i, Σδ_i) (δ capped at 1).
/// @spec ACC.COMP.SEQ
template <real_scalar Real>
approx_dp<Real> compose_sequential(const std::vector<approx_dp<Real>>& parts) {
  certifier<Real> c;
  work_real s(0), d(0);
  for (const auto& p : parts) {
    require_nonnegative("compose_sequential", "parts[i].eps", p.eps);
    // δ = 1 is allowed: a part may be an already capped composition (k·δ >= 1); the total is
    // then vacuous and refused as a result by account_document (HARD.VACUOUS)
    if (!(p.delta >= Real(0) && p.delta <= Real(1)))
      fail_domain("compose_sequential", "parts[i].delta", "in [0, 1]", p.delta);
    s += c.in(p.eps);
    d += c.in(p.delta);
  }
  Real delta = c.up(d);
  if (delta > Real(1)) delta = Real(1);
  return {c.up(s), delta};
}

/// k-fold homogeneous sequential composition (kε, kδ), k >= 1 (k up to 1e18).
/// @spec ACC.COMP.SEQ
template <real_scalar Real>
approx_dp<Real> compose_homogeneous(const approx_dp<Real>& part, long long k) {
  require_nonnegative("compose_homogeneous", "part.eps", part.eps);
  require_delta("compose_homogeneous", "part.delta", part.delta);
  if (k < 1) fail_domain("compose_homogeneous", "k", ">= 1", k);
  certifier<Real> c;
  const work_real kk(k);
  Real delta = c.up(kk * c.in(part.delta));
  if (delta > Real(1)) delta = Real(1);
  return {c.up(kk * c.in(part.eps)), delta};
}

/// Kairouz–Oh–Viswanath heterogeneous advanced composition (ICML'15 Thm 3.5):
/// ε̃ = min{Σε_i, Σε_i tanh(ε_i/2) + √(2Σε_i² log(e + √(Σε_i²)/δ′)),
///          Σε_i tanh(ε_i/2) + √(2Σε_i² log(1/δ′))}, δ̃ = 1 − (1−δ′)Π(1−δ_i).
/// @spec ACC.COMP.KOV.HET
template <real_scalar Real>
approx_dp<Real> compose_kov_heterogeneous(const std::vector<approx_dp<Real>>& parts,
                                          const Real& delta_prime) {
  if (parts.empty()) fail_argument("compose_kov_heterogeneous", "parts", "non-empty", 0);
  if (!is_finite_value(delta_prime) || !(delta_prime > Real(0)) || delta_prime > Real(1))
    fail_domain("compose_kov_heterogeneous", "delta_prime", "in (0, 1]", delta_prime);
  using std::exp;
  using std::log;
  using std::sqrt;
  using std::tanh;
  certifier<Real> c;
  work_real s1(0), s2(0), st(0), log_keep(0);
  for (const auto& p : parts) {
    require_nonnegative("compose_kov_heterogeneous", "parts[i].eps", p.eps);
    require_delta("compose_kov_heterogeneous", "parts[i].delta", p.delta);
    const work_real e = c.in(p.eps);
    s1 += e;
    s2 += e * e;
    st += e * tanh(e / 2);
    log_keep += detail::w_log1p(-c.in(p.delta));
  }
  const work_real dp = c.in(delta_prime);
  work_real eps = s1;
  const work_real b2 = st + sqrt(2 * s2 * log(exp(work_real(1)) + sqrt(s2) / dp));
  const work_real b3 = st + sqrt(2 * s2 * (-log(dp)));
  if (b2 < eps) eps = b2;
  if (b3 < eps) eps = b3;
  log_keep += detail::w_log1p(-dp);
  Real d = c.up(-detail::w_expm1(log_keep));
  if (d > Real(1)) d = Real(1);
  return {c.up(eps), d};
}

/// Dwork–Rothblum–Vadhan advanced composition of k (ε, δ)-DP mechanisms:
/// ε̃ = √(2k ln(1/δ′)) ε + kε(e^ε − 1), δ̃ = kδ + δ′.
/// @spec ACC.COMP.DRV
template <real_scalar Real>
approx_dp<Real> compose_drv(const approx_dp<Real>& part, long long k, const Real& delta_prime) {
  require_epsilon("compose_drv", "part.eps", part.eps);
  require_delta("compose_drv", "part.delta", part.delta);
  if (k < 1) fail_domain("compose_drv", "k", ">= 1", k);
  require_delta("compose_drv", "delta_prime", delta_prime);
  if (!(delta_prime > Real(0))) fail_domain("compose_drv", "delta_prime", "> 0", delta_prime);
  using std::log;
  using std::sqrt;
  certifier<Real> c;
  const work_real kk(k), e = c.in(part.eps);
  const work_real eps = sqrt(2 * kk * (-log(c.in(delta_prime)))) * e + kk * e * detail::w_expm1(e);
  Real d = c.up(kk * c.in(part.delta) + c.in(delta_prime));
  if (d > Real(1)) d = Real(1);
  return {c.up(eps), d};
}

/// Exact optimal k-fold composition of an (ε, δ)-DP mechanism (Kairouz–Oh–Viswanath Thm 3.3):
/// the composition is ((k−2i)ε, δ_i)-DP with δ_i = 1 − (1−δ)^k (1 − δ_(i)),
/// δ_(i) = Σ_{l<i} C(k,l)(e^{(k−l)ε} − e^{(k−2i+l)ε})/(1+e^ε)^k, and no better pair on this
/// grid exists. Returns the smallest (k−2i)ε whose δ_i ≤ target_delta.
/// @param part (ε, δ) of one mechanism @param k 1 <= k <= 10^6 @param target_delta ∈ (0, 1)
/// @return approx_dp{(k−2i)ε, target_delta} (ε rounded up)
/// @throws std::domain_error for invalid input or k > 10^6 (cost O(k) at 256 bits)
/// @spec ACC.COMP.KOV.OPT
template <real_scalar Real>
approx_dp<Real> compose_kov_optimal(const approx_dp<Real>& part, long k, const Real& target_delta) {
  require_epsilon("compose_kov_optimal", "part.eps", part.eps);
  require_delta("compose_kov_optimal", "part.delta", part.delta);
  if (k < 1 || k > 1000000) fail_domain("compose_kov_optimal", "k", "in [1, 1e6]", k);
  require_delta("compose_kov_optimal", "target_delta", target_delta);
  if (!(target_delta > Real(0)))
    fail_domain("compose_kov_optimal", "target_delta", "> 0", target_delta);
  using std::exp;
  using std::log;
  certifier<Real> c;
  const work_real e = c.in(part.eps);
  const work_real kk(k);
  // p = e^ε/(1+e^ε), r = 1/(1+e^ε); a_l = C(k,l) p^{k−l} r^l, b_l = C(k,l) p^l r^{k−l}.
  const work_real lp = -detail::w_log1p(exp(-e)), lr = -detail::w_log1p(exp(e));
  const work_real keep = exp(kk * detail::w_log1p(-c.in(part.delta)));
  const work_real tgt = c.in(target_delta);
  work_real a = exp(kk * lp), b = exp(kk * lr);
  const work_real ratio_a = exp(lr - lp), ratio_b = exp(lp - lr);
  work_real sa(0), sb(0);
  work_real ek = exp(kk * e);  // e^{(k−2i)ε}, updated by e^{−2ε}
  const work_real step = exp(-2 * e);
  long best_i = 0;
  for (long i = 1; 2 * i <= k; ++i) {
    const long l = i - 1;  // add the l = i − 1 term
    sa += a;
    sb += b;
    const work_real coef = work_real(k - l) / work_real(l + 1);
    a *= coef * ratio_a;
    b *= coef * ratio_b;
    // δ_(i) = Σ a_l − e^{(k−2i)ε} Σ b_l  (e^{(k−2i+l)ε}/(1+e^ε)^k = e^{(k−2i)ε} p^l r^{k−l}).
    ek *= step;
    const work_real di = sa - ek * sb;
    const work_real m = c.margin() * (sa + 1);
    const work_real delta_i = 1 - keep * (1 - di - m);
    if (delta_i + c.margin() > tgt) break;
    best_i = i;
  }
  if (best_i == 0) {
    // i = 0: (kε, 1 − (1−δ)^k)-DP.
    const work_real d0 = 1 - keep;
    if (d0 * (1 + c.margin()) > tgt)
      fail_domain("compose_kov_optimal", "target_delta", ">= 1 - (1-delta)^k", target_delta);
  }
  return {c.up(work_real(k - 2 * best_i) * e), target_delta};
}

/// RDP composition: pointwise sum of curves on the same orders (Mironov 2017, Prop 1).
/// @throws std::invalid_argument if the order grids differ
/// @spec ACC.COMP.RDP
template <real_scalar Real>
rdp_curve<Real> compose_rdp(const rdp_curve<Real>& a, const rdp_curve<Real>& b) {
  validate_curve("compose_rdp", a);
  validate_curve("compose_rdp", b);
  if (a.orders != b.orders)
    fail_argument("compose_rdp", "b.orders", "equal to a.orders", b.orders.size());
  certifier<Real> c;
  rdp_curve<Real> out{a.orders, {}};
  out.eps.reserve(a.eps.size());
  for (std::size_t i = 0; i < a.eps.size(); ++i)
    out.eps.push_back(c.up(c.in(a.eps[i]) + c.in(b.eps[i])));
  return out;
}

/// RDP of `steps` repetitions of a mechanism with the given curve: steps·ε(α).
/// @spec ACC.COMP.RDP
template <real_scalar Real>
rdp_curve<Real> compose_rdp_steps(const rdp_curve<Real>& a, long long steps) {
  validate_curve("compose_rdp_steps", a);
  if (steps < 1) fail_domain("compose_rdp_steps", "steps", ">= 1", steps);
  certifier<Real> c;
  const work_real k(steps);
  rdp_curve<Real> out{a.orders, {}};
  out.eps.reserve(a.eps.size());
  for (const Real& e : a.eps) out.eps.push_back(c.up(k * c.in(e)));
  return out;
}

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_COMPOSITION_INSTANCES(EXT, R)                                            \
  EXT template pure_dp<R> compose_sequential<R>(const std::vector<pure_dp<R>>&);           \
  EXT template approx_dp<R> compose_sequential<R>(const std::vector<approx_dp<R>>&);       \
  EXT template approx_dp<R> compose_homogeneous<R>(const approx_dp<R>&, long long);        \
  EXT template approx_dp<R> compose_kov_heterogeneous<R>(const std::vector<approx_dp<R>>&, \
                                                         const R&);                        \
  EXT template approx_dp<R> compose_drv<R>(const approx_dp<R>&, long long, const R&);      \
  EXT template approx_dp<R> compose_kov_optimal<R>(const approx_dp<R>&, long, const R&);   \
  EXT template rdp_curve<R> compose_rdp<R>(const rdp_curve<R>&, const rdp_curve<R>&);      \
  EXT template rdp_curve<R> compose_rdp_steps<R>(const rdp_curve<R>&, long long);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_COMPOSITION(R) DPREF_ACC_COMPOSITION_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_COMPOSITION)
#undef DPREF_ACC_EXTERN_COMPOSITION
#endif

}  // namespace dpref::accounting

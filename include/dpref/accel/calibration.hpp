// Privacy calibration of accel (Kuru–Birbil–Gürbüzbalaban–Yıldırım): Proposition 3.1 (b_t, ε₀),
// Proposition 4.2 (optimal budget split), the NAG weights of (4.3) and Remark 4.1 (choice of T).
// Noise scales are rounded up and budget shares down, so the guarantee always holds.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel {

/// Per-iteration loss (3.3) ε(S, b, n, m) = ln[(e^{S/(bm)} − 1) m/n + 1] of Laplace(b)
/// noise on a size-m subsample of n (Thm A.1 + A.3), rounded up.
/// @spec ACC.CAL.ACCEL.PROP31
template <real_scalar Real>
Real iteration_epsilon(const Real& S, const Real& b, long long n, long long m) {
  require_positive("dpref::accel::iteration_epsilon", "S", S);
  require_positive("dpref::accel::iteration_epsilon", "b", b);
  if (n < 1) fail_domain("dpref::accel::iteration_epsilon", "n", ">= 1", n);
  if (m < 1 || m > n) fail_domain("dpref::accel::iteration_epsilon", "m", "in [1, n]", m);
  accounting::certifier<Real> c;
  const accounting::work_real mm(m), nn(n);
  return c.up(
      accounting::detail::w_log1p(accounting::detail::w_expm1(c.in(S) / (c.in(b)*mm)) * mm / nn));
}

/// Proposition 3.1 parameters.
template <real_scalar Real>
struct prop31_result {
  Real eps0;  ///< ε₀ = ln[1 + (e^{ε/T} − 1) n/m] (3.5), rounded down
  Real b;     ///< b_t = S₁/(m ε₀) (3.4), rounded up
};

/// Proposition 3.1: Laplace scale b_t and ε₀ making T subsampled iterations ε-DP.
/// @param S1 ℓ1 sensitivity S₁ > 0 @param eps total ε > 0 @param T >= 1 @param n >= 1
/// @param m subsample size in [1, n] @spec ACC.CAL.ACCEL.PROP31
template <real_scalar Real>
prop31_result<Real> prop31(const Real& S1, const Real& eps, long long T, long long n, long long m) {
  require_positive("dpref::accel::prop31", "S1", S1);
  accounting::require_epsilon("dpref::accel::prop31", "eps", eps);
  if (T < 1) fail_domain("dpref::accel::prop31", "T", ">= 1", T);
  if (n < 1) fail_domain("dpref::accel::prop31", "n", ">= 1", n);
  if (m < 1 || m > n) fail_domain("dpref::accel::prop31", "m", "in [1, n]", m);
  accounting::certifier<Real> c;
  const accounting::work_real mm(m), nn(n);
  const accounting::work_real e0 = accounting::detail::w_log1p(
      accounting::detail::w_expm1(c.in(eps) / accounting::work_real(T)) * nn / mm);
  // b is computed from the exact ε₀ and rounded up; the reported ε₀ is rounded down.
  return {c.down(e0), c.up(c.in(S1) / (mm * e0))};
}

/// Proposition 4.2 solution.
template <real_scalar Real>
struct prop42_result {
  std::vector<Real> b;    ///< b_t = S₁ Σ_j a_j^{1/3} / (a_t^{1/3} n ε) (4.5), rounded up
  std::vector<Real> eps;  ///< ε_t = a_t^{1/3}/Σ_j a_j^{1/3} ε, rounded down (Σ ε_t <= ε)
  Real objective;  ///< Σ a_t b_t² at the optimum = (S₁/(nε))²(Σ a^{1/3})³ (Remark 4.1)
};

/// Proposition 4.2 (m = n): optimal Laplace scales for weights a_{T,t} under Σε_t = ε.
/// @param weights a_{T,1..T} > 0 @param S1 > 0 @param n >= 1 @param eps > 0
/// @spec ACC.CAL.ACCEL.PROP42
template <real_scalar Real>
prop42_result<Real> prop42(const std::vector<Real>& weights, const Real& S1, long long n,
                           const Real& eps) {
  if (weights.empty()) fail_argument("dpref::accel::prop42", "weights", "non-empty", 0);
  for (const Real& a : weights) require_positive("dpref::accel::prop42", "weights[t]", a);
  require_positive("dpref::accel::prop42", "S1", S1);
  if (n < 1) fail_domain("dpref::accel::prop42", "n", ">= 1", n);
  accounting::require_epsilon("dpref::accel::prop42", "eps", eps);
  using std::cbrt;
  accounting::certifier<Real> c;
  std::vector<accounting::work_real> r;
  r.reserve(weights.size());
  accounting::work_real sum(0);
  for (const Real& a : weights) {
    r.push_back(cbrt(c.in(a)));
    sum += r.back();
  }
  const accounting::work_real base = c.in(S1) / (accounting::work_real(n) * c.in(eps));
  prop42_result<Real> out;
  for (const accounting::work_real& x : r) {
    out.b.push_back(c.up(base * sum / x));
    out.eps.push_back(c.down(x / sum * c.in(eps)));
  }
  out.objective = c.up(base * base * sum * sum * sum);
  return out;
}

/// NAG weights a_{T,t} = (1 − √(μα))^{T−t} α(1 + αL), t = 1..T (4.3); a_{T,0} is
/// (1 − √(μα))^T. Plain evaluation (an error bound, not a privacy quantity).
/// @spec ACC.CAL.ACCEL.REMARK41
template <real_scalar Real>
std::vector<Real> nag_weights(long long T, const Real& mu, const Real& alpha, const Real& L) {
  if (T < 1) fail_domain("dpref::accel::nag_weights", "T", ">= 1", T);
  require_positive("dpref::accel::nag_weights", "mu", mu);
  require_positive("dpref::accel::nag_weights", "alpha", alpha);
  require_positive("dpref::accel::nag_weights", "L", L);
  using std::pow;
  using std::sqrt;
  const Real rho = 1 - sqrt(mu * alpha);
  if (!(rho >= Real(0)) || !(rho < Real(1)))
    fail_domain("dpref::accel::nag_weights", "mu*alpha", "in (0, 1]", mu * alpha);
  std::vector<Real> a(static_cast<std::size_t>(T));
  const Real c = alpha * (1 + alpha * L);
  for (long long t = 1; t <= T; ++t)
    a[static_cast<std::size_t>(t - 1)] = Real(pow(rho, Real(T - t))) * c;
  return a;
}

/// Remark 4.1: the T' ∈ [1, T_max] minimising bound (4.6)
/// a_{T',0}E₀ + d S₁²/(n²ε²) (Σ_j a_{T',j}^{1/3})³ for the NAG weights.
template <real_scalar Real>
struct remark41_result {
  long long T;
  Real bound;
};

/// @param E0 initial error guess @param mu,alpha,L NAG constants @param d dimension
/// @param S1 sensitivity @param n dataset size @param eps budget @param T_max upper limit
/// @spec ACC.CAL.ACCEL.REMARK41
template <real_scalar Real>
remark41_result<Real> remark41_choose_T(const Real& E0, const Real& mu, const Real& alpha,
                                        const Real& L, long long d, const Real& S1, long long n,
                                        const Real& eps, long long T_max) {
  require_nonnegative("dpref::accel::remark41_choose_T", "E0", E0);
  require_positive("dpref::accel::remark41_choose_T", "mu", mu);
  require_positive("dpref::accel::remark41_choose_T", "alpha", alpha);
  require_positive("dpref::accel::remark41_choose_T", "L", L);
  require_positive("dpref::accel::remark41_choose_T", "S1", S1);
  accounting::require_epsilon("dpref::accel::remark41_choose_T", "eps", eps);
  if (d < 1) fail_domain("dpref::accel::remark41_choose_T", "d", ">= 1", d);
  if (n < 1) fail_domain("dpref::accel::remark41_choose_T", "n", ">= 1", n);
  if (T_max < 1 || T_max > 100000000)
    fail_domain("dpref::accel::remark41_choose_T", "T_max", "in [1, 1e8]", T_max);
  using std::cbrt;
  using std::sqrt;
  const Real rho = 1 - sqrt(mu * alpha);
  if (!(rho >= Real(0)) || !(rho < Real(1)))
    fail_domain("dpref::accel::remark41_choose_T", "mu*alpha", "in (0, 1]", mu * alpha);
  const Real c3 = cbrt(alpha * (1 + alpha * L)), r3 = cbrt(rho);
  const Real k = Real(d) * S1 * S1 / (Real(n) * Real(n) * eps * eps);
  remark41_result<Real> best{0, Real(0)};
  Real a0 = 1, s = 0, rp = 1;  // a_{T,0} = ρ^T; Σ_{j=1}^T a_{T,j}^{1/3} = c3 Σ_{i<T} ρ^{i/3}
  for (long long T = 1; T <= T_max; ++T) {
    a0 *= rho;
    s += rp;
    rp *= r3;
    const Real sum = c3 * s;
    const Real b = a0 * E0 + k * sum * sum * sum;
    if (best.T == 0 || b < best.bound) best = {T, b};
  }
  return best;
}

// Explicit instances (src/instances/accel.cpp); EXT is `extern` for consumers.
#define DPREF_ACCEL_CALIBRATION_INSTANCES(EXT, R)                                                \
  EXT template R iteration_epsilon<R>(const R&, const R&, long long, long long);                 \
  EXT template prop31_result<R> prop31<R>(const R&, const R&, long long, long long, long long);  \
  EXT template prop42_result<R> prop42<R>(const std::vector<R>&, const R&, long long, const R&); \
  EXT template std::vector<R> nag_weights<R>(long long, const R&, const R&, const R&);           \
  EXT template remark41_result<R> remark41_choose_T<R>(const R&, const R&, const R&, const R&,   \
                                                       long long, const R&, long long, const R&, \
                                                       long long);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACCEL_EXTERN_CALIBRATION(R) DPREF_ACCEL_CALIBRATION_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACCEL_EXTERN_CALIBRATION)
#undef DPREF_ACCEL_EXTERN_CALIBRATION
#endif

}  // namespace dpref::accel

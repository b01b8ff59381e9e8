// accel Theorem 4.1 (DP-NAG error recursion) and its unrolled forms:
//   (4.2) E_t ≤ (1 − √(μα)) E_{t−1} + α(1 + αL)(b_t² d + σ_s²(m, n)/2),
//   (4.3) E_T ≤ a_{T,0} E_0 + Σ_t a_{T,t}(b_t² d + σ_s²/2),
//   (4.6) E_T ≤ a_{T,0} E_0 + d S₁²/(n²ε²) (Σ_j a_{T,j}^{1/3})³   (optimal b_t, m = n),
// with σ_s²(m, n) = (S₁²/4)(1/m)(n − m)/(n − 1) of (3.13). The weights a_{T,t} are
// nag_weights (calibration.hpp, NAG) or masg_weights (bounds_masg.hpp).
#pragma once

#include <cmath>
#include <vector>

#include "dpref/accel/calibration.hpp"
#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel::bounds {

/// σ_s²(m, n) of accel (3.13) (0 for m = n). @spec ACCEL.THM41
template <real_scalar Real>
Real subsampling_variance(const Real& S1, long long m, long long n) {
  require_positive("subsampling_variance", "S1", S1);
  if (n < 1) fail_domain("subsampling_variance", "n", ">= 1", n);
  if (m < 1 || m > n) fail_domain("subsampling_variance", "m", "in [1, n]", m);
  if (m == n) return Real(0);
  return S1 * S1 / Real(4) / Real(m) * Real(n - m) / Real(n - 1);
}

/// One step of the recursion (4.2). @param E_prev E_{t−1} >= 0 @param b_t Laplace scale >= 0
/// @param sigma_s2 σ_s²(m, n) @spec ACCEL.THM41
template <real_scalar Real>
Real nag_recursion_step(const Real& E_prev, const Real& mu, const Real& alpha, const Real& L,
                        const Real& b_t, long long d, const Real& sigma_s2) {
  constexpr const char* fn = "nag_recursion_step";
  require_nonnegative(fn, "E_prev", E_prev);
  require_positive(fn, "mu", mu);
  require_positive(fn, "alpha", alpha);
  require_positive(fn, "L", L);
  require_nonnegative(fn, "b_t", b_t);
  require_nonnegative(fn, "sigma_s2", sigma_s2);
  if (d < 1) fail_domain(fn, "d", ">= 1", d);
  if (alpha * L > Real(1) + Real(4) * machine_epsilon<Real>())
    fail_domain(fn, "alpha", "<= 1/L", alpha);
  using std::sqrt;
  return (Real(1) - sqrt(mu * alpha)) * E_prev +
         alpha * (Real(1) + alpha * L) * (b_t * b_t * Real(d) + sigma_s2 / Real(2));
}

/// The bound (4.3) for weights a_{T,0} and a_{T,1..T} and scales b_1..b_T. @spec ACCEL.THM41
template <real_scalar Real>
Real weighted_bound(const Real& a0, const std::vector<Real>& a, const Real& E0,
                    const std::vector<Real>& b, long long d, const Real& sigma_s2) {
  if (a.size() != b.size()) fail_argument("weighted_bound", "b.size()", "== a.size()", b.size());
  Real s = a0 * E0;
  for (std::size_t t = 0; t < a.size(); ++t)
    s += a[t] * (b[t] * b[t] * Real(d) + sigma_s2 / Real(2));
  return s;
}

/// The optimum (4.6): a_{T,0}E_0 + d S₁²/(n²ε²)(Σ a_{T,j}^{1/3})³. @spec ACCEL.THM41
template <real_scalar Real>
Real optimal_split_bound(const Real& a0, const std::vector<Real>& a, const Real& E0, long long d,
                         const Real& S1, long long n, const Real& eps) {
  using std::cbrt;
  Real s(0);
  for (const Real& x : a) s += cbrt(x);
  const Real k = Real(d) * S1 * S1 / (Real(n) * Real(n) * eps * eps);
  return a0 * E0 + k * s * s * s;
}

/// a_{T,0} = (1 − √(μα))^T of (4.3). @spec ACCEL.THM41
template <real_scalar Real>
Real nag_initial_weight(long long T, const Real& mu, const Real& alpha) {
  using std::pow;
  using std::sqrt;
  return Real(pow(Real(1) - sqrt(mu * alpha), Real(T)));
}

}  // namespace dpref::accel::bounds

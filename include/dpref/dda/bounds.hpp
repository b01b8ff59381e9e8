// The bounds of dda as functions of a run's parameters (plain evaluation in Real; these are
// error bounds, not privacy quantities). Symbols: m = dimension, L (Assumption 3), β
// (Assumption 2), ι (Definition 2), μ (Assumption 1), σ, d(x*) = ½‖x*‖².
// @spec DDA.THM2 DDA.COR32.RATE DDA.COR34.RATE
#pragma once

#include <cmath>

#include "dpref/dda/dp_dda.hpp"
#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

/// Constants of a bound evaluation.
template <real_scalar Real>
struct constants {
  Real L = Real(1), beta = Real(1) / 2, iota = Real(1), mu = Real(0), sigma = Real(0);
  long long m = 1;        ///< dimension
  Real d_star = Real(0);  ///< d(x*) = ½‖x*‖² (or an upper bound of it)
};

template <real_scalar Real>
void check(const constants<Real>& c) {
  require_positive("dpref::dda::check", "L", c.L);
  if (!(c.beta >= Real(0)) || !(c.beta < Real(1)))
    fail_domain("dpref::dda::check", "beta", "in [0, 1)", c.beta);
  if (!(c.iota > Real(0)) || c.iota > Real(1))
    fail_domain("dpref::dda::check", "iota", "in (0, 1]", c.iota);
  require_nonnegative("dpref::dda::check", "mu", c.mu);
  require_nonnegative("dpref::dda::check", "sigma", c.sigma);
  require_nonnegative("dpref::dda::check", "d_star", c.d_star);
  if (c.m < 1) fail_domain("dpref::dda::check", "m", ">= 1", c.m);
}

/// M = ιL²/2 + 2√ι L²/(1−β) of Theorem 2. @spec DDA.THM2
template <real_scalar Real>
Real theorem2_M(const constants<Real>& c) {
  using std::sqrt;
  return c.iota * c.L * c.L / 2 + 2 * Real(sqrt(c.iota)) * c.L * c.L / (1 - c.beta);
}

/// Right-hand side of (9) divided by A_t: a bound of E[F(ỹ^(t)) − F(x*)].
/// (9): A_t E[F(ỹ)−F*] <= γ_t d(x*)/ι + Σ_{τ<=t} a_τ²/(μιA_τ + γ_τ)·(M + mισ²/2 + 2√(mι)Lσ/(1−β)).
/// @spec DDA.THM2
template <real_scalar Real>
Real theorem2_bound(const constants<Real>& c, weight_schedule a, gamma_schedule g,
                    const Real& gamma, long long t) {
  check(c);
  if (t < 1) fail_domain("theorem2_bound", "t", ">= 1", t);
  using std::sqrt;
  const Real K = theorem2_M(c) + Real(c.m) * c.iota * c.sigma * c.sigma / 2 +
                 2 * Real(sqrt(Real(c.m) * c.iota)) * c.L * c.sigma / (1 - c.beta);
  Real s(0);
  for (long long tau = 1; tau <= t; ++tau) {
    const Real at = weight_at<Real>(a, tau);
    const Real den = c.mu * c.iota * cumulative_weight<Real>(a, tau) + gamma_at(g, gamma, tau);
    if (!(den > Real(0))) fail_domain("theorem2_bound", "mu*iota*A_t + gamma_t", "> 0", den);
    s += at * at / den;
  }
  return (gamma_at(g, gamma, t) * c.d_star / c.iota + s * K) / cumulative_weight<Real>(a, t);
}

/// Corollary 3.2 (10) (σ = 0, a_t = t, γ_t = 0, μ > 0):
/// (1/n)Σ E‖x̃_i^(t) − x*‖² <= 16/(t+1)·(L²(log t + 1)/(μ²ι(1−β)²t) + M/(μ²ι)). @spec DDA.COR32.RATE
template <real_scalar Real>
Real corollary32_bound(const constants<Real>& c, long long t) {
  check(c);
  require_positive("corollary32_bound", "mu", c.mu);
  using std::log;
  const Real T = static_cast<Real>(t), m2 = c.mu * c.mu;
  return 16 / (T + 1) *
         (c.L * c.L * (Real(log(T)) + 1) / (m2 * c.iota * (1 - c.beta) * (1 - c.beta) * T) +
          theorem2_M(c) / (m2 * c.iota));
}

/// Corollary 3.4 (11) (σ = 0, a_t = 1, γ_t = γ√t): E[F(ỹ^(t)) − F*] <= (d(x*) + 2ιM)/(ιγ√t).
/// @spec DDA.COR34.RATE
template <real_scalar Real>
Real corollary34_bound(const constants<Real>& c, const Real& gamma, long long t) {
  check(c);
  require_positive("corollary34_bound", "gamma", gamma);
  using std::sqrt;
  return (c.d_star + 2 * c.iota * theorem2_M(c)) / (c.iota * gamma * Real(sqrt(Real(t))));
}

/// Corollary 3.4 (12): (1/n)Σ E‖x̃_i^(t) − ỹ^(t)‖ <= 2L√ι/(γ(1−β)√t). @spec DDA.COR34.RATE
template <real_scalar Real>
Real corollary34_consensus_bound(const constants<Real>& c, const Real& gamma, long long t) {
  check(c);
  require_positive("corollary34_consensus_bound", "gamma", gamma);
  using std::sqrt;
  return 2 * c.L * Real(sqrt(c.iota)) / (gamma * (1 - c.beta) * Real(sqrt(Real(t))));
}

/// Corollary 3.5, explicit form of its proof (Appendix E) at the paper's σ (Theorem 1 equality):
/// E[F(ỹ^(T)) − F*] <= 4M/(μι(T+1)) + 80 m log(2/δ₀) ι²L²/(μq²ε²)
///                    + 16√(10 m log(2/δ₀) ι) L²/(μqε(1−β)√(T+1)). @spec DDA.THM2
template <real_scalar Real>
Real corollary35_bound(const constants<Real>& c, long long T, const Real& q, const Real& eps,
                       const Real& delta0) {
  check(c);
  require_positive("corollary35_bound", "mu", c.mu);
  using std::log;
  using std::sqrt;
  const Real lg = Real(log(Real(2) / delta0)), TT = static_cast<Real>(T),
             mm = static_cast<Real>(c.m);
  return 4 * theorem2_M(c) / (c.mu * c.iota * (TT + 1)) +
         80 * mm * lg * c.iota * c.iota * c.L * c.L / (c.mu * q * q * eps * eps) +
         16 * Real(sqrt(10 * mm * lg * c.iota)) * c.L * c.L /
             (c.mu * q * eps * (1 - c.beta) * Real(sqrt(TT + 1)));
}

/// Corollary 3.6, explicit form of its proof (Appendix F) at the paper's σ:
/// E[F(ỹ^(T)) − F*] <= (d(x*) + 2ιM)/(γι√T) + 8√(10 m ι log(2/δ₀)) ι L²/(γqε(1−β))
///                    + 80 m ι³ L² log(2/δ₀)√T/(γq²ε²). @spec DDA.THM2
template <real_scalar Real>
Real corollary36_bound(const constants<Real>& c, const Real& gamma, long long T, const Real& q,
                       const Real& eps, const Real& delta0) {
  check(c);
  require_positive("corollary36_bound", "gamma", gamma);
  using std::log;
  using std::sqrt;
  const Real lg = Real(log(Real(2) / delta0)), rT = Real(sqrt(static_cast<Real>(T))),
             mm = static_cast<Real>(c.m);
  return (c.d_star + 2 * c.iota * theorem2_M(c)) / (gamma * c.iota * rT) +
         8 * Real(sqrt(10 * mm * c.iota * lg)) * c.iota * c.L * c.L /
             (gamma * q * eps * (1 - c.beta)) +
         80 * mm * c.iota * c.iota * c.iota * c.L * c.L * lg * rT / (gamma * q * q * eps * eps);
}

/// Lemma 4.5 (18): (1/n)Σ E‖x_i^(t) − y^(t)‖ <= a_t(L + √m σ)√ι/((1−β)(μιA_t + γ_t)).
/// @spec DDA.THM2
template <real_scalar Real>
Real lemma45_bound(const constants<Real>& c, weight_schedule a, gamma_schedule g, const Real& gamma,
                   long long t) {
  check(c);
  using std::sqrt;
  const Real den =
      (1 - c.beta) * (c.mu * c.iota * cumulative_weight<Real>(a, t) + gamma_at(g, gamma, t));
  return weight_at<Real>(a, t) * (c.L + Real(sqrt(Real(c.m))) * c.sigma) * Real(sqrt(c.iota)) / den;
}

/// Lemma 4.5 (19): (1/n)Σ E‖x_i^(t) − y^(t)‖² <= a_t²(L² + mσ²)ι/((1−β)²(μιA_t + γ_t)²).
/// @spec DDA.THM2
template <real_scalar Real>
Real lemma45_squared_bound(const constants<Real>& c, weight_schedule a, gamma_schedule g,
                           const Real& gamma, long long t) {
  check(c);
  const Real den =
      (1 - c.beta) * (c.mu * c.iota * cumulative_weight<Real>(a, t) + gamma_at(g, gamma, t));
  const Real at = weight_at<Real>(a, t);
  return at * at * (c.L * c.L + Real(c.m) * c.sigma * c.sigma) * c.iota / (den * den);
}

}  // namespace dpref::dda

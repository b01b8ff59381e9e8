// Suboptimality bounds of ev (Han–Topcu–Pappas) §IV–§VI as functions. spec/ev.md EV.BOUND.*.
//
// The paper states Theorem 7, Corollaries 9, 15, 16 and Proposition 14 as O(·) rates; the
// functions named after them return the expression inside the O(·) (hidden constant 1), so they
// are rates to compare shapes, not numeric guarantees. The numeric guarantee is
// `sgd_averaging_bound` (EV.BOUND.EXPLICIT): an explicit constant for Algorithm 3 with
// α_k = c/√k and θ_k = (η+1)/(η+k), derived in spec/ev.md by the weighted regret argument,
//   E f(x̂^(K+1)) − f* <= ρ_D² Σ_i (v_i/(2α_i) − v_{i−1}/(2α_{i−1}))⁺ + (Ĝ²/2) Σ_i v_i α_i,
// i = 1..K+1, with v_i the weight of x^(i) in x̂^(K+1) (v_1 = 0) and ρ_D the diameter of X;
// `theorem7_explicit` instantiates it for Algorithm 2 (EV.BOUND.THM7).
#pragma once

#include <cmath>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/ev/problem.hpp"
#include "dpref/scalar.hpp"

namespace dpref::ev {

namespace detail {
template <real_scalar Real>
void require_K(const char* fn, long long K) {
  if (K < 1) fail_domain(fn, "K", ">= 1", K);
}
/// The arguments shared by Theorem 7 and Corollary 16.
template <real_scalar Real>
void require_rate_args(const char* fn, long long n, long long T, const Real& eta, const Real& rho,
                       const Real& G, const Real& L, const Real& Delta, const Real& eps) {
  if (n < 1) fail_domain(fn, "n", ">= 1", n);
  if (T < 1) fail_domain(fn, "T", ">= 1", T);
  require_positive(fn, "eta", eta);
  require_nonnegative(fn, "rho", rho);
  require_nonnegative(fn, "G", G);
  require_positive(fn, "L", L);
  require_positive(fn, "Delta", Delta);
  require_positive(fn, "eps", eps);
}
}  // namespace detail

/// ev Theorem 7 (10), inside the O(·):
///   η √n ρ (G/√K + √2 T K^{3/2} L Δ/(2ε)).
/// @throws std::domain_error naming the argument (K < 1, T < 1, a parameter not > 0)
/// @spec EV.BOUND.THM7
template <real_scalar Real>
Real theorem7_rate(const Real& eta, long long n, const Real& rho, const Real& G, long long K,
                   long long T, const Real& L, const Real& Delta, const Real& eps) {
  constexpr const char* fn = "dpref::ev::theorem7_rate";
  detail::require_K<Real>(fn, K);
  detail::require_rate_args(fn, n, T, eta, rho, G, L, Delta, eps);
  using std::sqrt;
  const Real k = Real(K);
  return eta * sqrt(Real(n)) * rho *
         (G / sqrt(k) + sqrt(Real(2)) * Real(T) * k * sqrt(k) * L * Delta / (2 * eps));
}

/// ev Corollary 16: K* = (√2 G ε/(3 T L Δ))^{1/2}, the minimiser over real K of Theorem 7's
/// expression (d/dK [G K^{−1/2} + a K^{3/2}] = 0 with a = √2 T L Δ/(2ε)).
/// @spec EV.BOUND.COR16
template <real_scalar Real>
Real corollary16_iterations(const Real& G, long long T, const Real& L, const Real& Delta,
                            const Real& eps) {
  constexpr const char* fn = "dpref::ev::corollary16_iterations";
  require_positive(fn, "G", G);
  if (T < 1) fail_domain(fn, "T", ">= 1", T);
  require_positive(fn, "L", L);
  require_positive(fn, "Delta", Delta);
  require_positive(fn, "eps", eps);
  using std::sqrt;
  return sqrt(sqrt(Real(2)) * G * eps / (3 * Real(T) * L * Delta));
}

/// ev Corollary 16 (14), inside the O(·): η T^{1/4} n^{1/2} ρ (G³ L Δ/ε)^{1/4}. Theorem 7's
/// expression at K* equals (4/3)(3/√2)^{1/4} ≈ 1.609 times this.
/// @spec EV.BOUND.COR16
template <real_scalar Real>
Real corollary16_rate(const Real& eta, long long n, const Real& rho, const Real& G, long long T,
                      const Real& L, const Real& Delta, const Real& eps) {
  constexpr const char* fn = "dpref::ev::corollary16_rate";
  detail::require_rate_args(fn, n, T, eta, rho, G, L, Delta, eps);
  using std::pow;
  using std::sqrt;
  const Real q = Real(1) / 4;
  return eta * pow(Real(T), q) * sqrt(Real(n)) * rho * pow(G * G * G * L * Delta / eps, q);
}

/// ev Corollary 9 (11) with the factors the paper drops restored: Corollary 16 with
/// ρ <= √n r_max, G <= (γ/n)(‖d‖ + γ r_max), L = γ²/n² (γ = n/m), i.e.
///   η T^{1/4} r_max γ^{5/4} (‖d‖ + γ r_max)^{3/4} (Δ/(nε))^{1/4}.
/// With keep_constants = false it returns the paper's (11): η T^{1/4} (Δ/(nε))^{1/4}.
/// @spec EV.BOUND.COR9
template <real_scalar Real>
Real corollary9_rate(const Real& eta, long long T, long long n, const Real& eps, const Real& Delta,
                     const Real& r_max, const Real& gamma, const Real& d_norm,
                     bool keep_constants = true) {
  constexpr const char* fn = "dpref::ev::corollary9_rate";
  if (T < 1) fail_domain(fn, "T", ">= 1", T);
  if (n < 1) fail_domain(fn, "n", ">= 1", n);
  require_positive(fn, "eta", eta);
  require_positive(fn, "eps", eps);
  require_positive(fn, "Delta", Delta);
  require_nonnegative(fn, "r_max", r_max);
  require_positive(fn, "gamma", gamma);
  require_nonnegative(fn, "d_norm", d_norm);
  using std::pow;
  const Real q = Real(1) / 4;
  const Real core = eta * pow(Real(T), q) * pow(Delta / (Real(n) * eps), q);
  if (!keep_constants) return core;
  return core * r_max * pow(gamma, Real(5) / 4) * pow(d_norm + gamma * r_max, Real(3) / 4);
}

/// ev Proposition 14 (12), inside the O(·): η(ρ²/c + cĜ²)/√K.
/// @spec EV.PROP14
template <real_scalar Real>
Real proposition14_rate(const Real& eta, const Real& rho, const Real& G_hat, const Real& c,
                        long long K) {
  constexpr const char* fn = "dpref::ev::proposition14_rate";
  detail::require_K<Real>(fn, K);
  require_positive(fn, "eta", eta);
  require_nonnegative(fn, "rho", rho);
  require_nonnegative(fn, "G_hat", G_hat);
  require_positive(fn, "c", c);
  using std::sqrt;
  return eta * (rho * rho / c + c * G_hat * G_hat) / sqrt(Real(K));
}

/// ev Corollary 15: c* = ρ/Ĝ minimises ρ²/c + cĜ² (value 2ρĜ); the rate (13) is ηρĜ/√K.
/// @spec EV.BOUND.COR15
template <real_scalar Real>
Real corollary15_step(const Real& rho, const Real& G_hat) {
  require_positive("dpref::ev::corollary15_step", "rho", rho);
  require_positive("dpref::ev::corollary15_step", "G_hat", G_hat);
  return rho / G_hat;
}

/// ev Corollary 15 (13), inside the O(·): η ρ Ĝ/√K.
/// @spec EV.BOUND.COR15
template <real_scalar Real>
Real corollary15_rate(const Real& eta, const Real& rho, const Real& G_hat, long long K) {
  constexpr const char* fn = "dpref::ev::corollary15_rate";
  detail::require_K<Real>(fn, K);
  require_positive(fn, "eta", eta);
  require_nonnegative(fn, "rho", rho);
  require_nonnegative(fn, "G_hat", G_hat);
  using std::sqrt;
  return eta * rho * G_hat / sqrt(Real(K));
}

/// Weights v_1..v_{K+1} of x^(1..K+1) in x̂^(K+1) of Algorithm 3 (x̂^(1) = x^(1), θ_1 = 1 so
/// v_1 = 0): v_{k+1} = θ_k Π_{j=k+1}^{K} (1 − θ_j), θ_k = (η+1)/(η+k). For η = 1,
/// v_{k+1} = 2k/(K(K+1)).
/// @spec EV.BOUND.EXPLICIT
template <real_scalar Real>
std::vector<Real> sgd_averaging_weights(long long K, const Real& eta) {
  constexpr const char* fn = "dpref::ev::sgd_averaging_weights";
  detail::require_K<Real>(fn, K);
  if (!is_finite_value(eta) || eta < Real(1)) fail_domain(fn, "eta", "finite and >= 1", eta);
  std::vector<Real> v(static_cast<std::size_t>(K + 2), Real(0));  // index i = 1..K+1
  Real tail(1);                                                   // Π_{j=k+1}^{K} (1 − θ_j)
  for (long long k = K; k >= 1; --k) {
    const Real theta = (eta + Real(1)) / (eta + Real(k));
    v[static_cast<std::size_t>(k + 1)] = theta * tail;
    tail *= Real(1) - theta;
  }
  return v;
}

/// Explicit bound on E f(x̂^(K+1)) − f* for Algorithm 3 (and Algorithm 2, an instance of it)
/// with α_k = c/√k, θ_k = (η+1)/(η+k) (derivation in spec/ev.md, EV.BOUND.EXPLICIT):
///   ρ_D² Σ_{i=1}^{K+1} (v_i/(2α_i) − v_{i−1}/(2α_{i−1}))⁺ + (Ĝ²/2) Σ_{i=1}^{K+1} v_i α_i,
/// ρ_D the diameter of X, Ĝ² >= max_k E‖ĝ_k‖² and >= sup_X ‖∇f‖² (the hypothetical step K+1).
/// For η = 1 it equals ρ_D²/(c√(K+1)) + (cĜ²/(K(K+1))) Σ_{i=2}^{K+1} (i−1)/√i.
/// @spec EV.BOUND.EXPLICIT
template <real_scalar Real>
Real sgd_averaging_bound(long long K, const Real& c, const Real& eta, const Real& diameter,
                         const Real& G_hat) {
  constexpr const char* fn = "dpref::ev::sgd_averaging_bound";
  require_positive(fn, "c", c);
  require_nonnegative(fn, "diameter", diameter);
  require_nonnegative(fn, "G_hat", G_hat);
  const std::vector<Real> v = sgd_averaging_weights<Real>(K, eta);
  using std::sqrt;
  Real drift(0), noise(0), prev(0);
  for (long long i = 1; i <= K + 1; ++i) {
    const Real alpha = c / sqrt(Real(i));
    const Real vi = v[static_cast<std::size_t>(i)];
    const Real cur = vi / (2 * alpha);
    if (cur > prev) drift += cur - prev;
    prev = cur;
    noise += vi * alpha;
  }
  return diameter * diameter * drift + G_hat * G_hat * noise / 2;
}

/// Constants of Theorem 7 for a charging problem, computed from the data (valid upper bounds):
///   ρ² = Σ_users max_{C_i} ‖r‖² <= Σ_j mult_j min(‖r̄_j‖², ‖r̄_j‖_∞ E_j) (‖r‖² <= ‖r‖_∞‖r‖₁),
///   diameter² <= 2ρ² (x, x' >= 0 so |x_t − x'_t| <= max(x_t, x'_t)),
///   G = sup ‖∇U‖ over loads in [0, Σ_i min(r̄_i, E_i)] = λ‖d⁺ + x_max/m‖/m for d >= 0
///   (the start r^(1) = 0 and every feasible load lie in that box),
///   E‖w_k‖² = T(T+1)s² (errata EV-E3), Ĝ² = n(G² + T(T+1)s²).
/// @spec EV.BOUND.THM7
template <real_scalar Real>
struct constants {
  Real rho{}, diameter{}, G{}, G_hat{}, noise_scale{};
  long long users = 0;
};

/// @param noise_scale s = K(K−1)LΔ/(2ε) of Algorithm 2 (0 for the noise-free Algorithm 1)
/// @throws std::domain_error if the base load has a negative entry (the G bound needs d >= 0)
/// @spec EV.BOUND.THM7
template <real_scalar Real>
constants<Real> theorem7_constants(const ev::problem<Real>& prob, const Real& noise_scale) {
  constexpr const char* fn = "dpref::ev::theorem7_constants";
  require_nonnegative(fn, "noise_scale", noise_scale);
  const Eigen::Index t = prob.horizon();
  const auto& sp = prob.specs();
  using std::sqrt;
  Real rho2(0);
  vector<Real> xmax = vector<Real>::Zero(t);
  for (Eigen::Index j = 0; j < prob.groups(); ++j) {
    Real sq(0), inf(0);
    for (Eigen::Index i = 0; i < t; ++i) {
      const Real& a = sp.max_rate(i, j);
      sq += a * a;
      if (a > inf) inf = a;
      xmax[i] += Real(prob.multiplicity(j)) * (a < sp.energy[j] ? a : sp.energy[j]);
    }
    const Real lin = inf * sp.energy[j];
    rho2 += Real(prob.multiplicity(j)) * (sq < lin ? sq : lin);
  }
  Real g2(0);
  for (Eigen::Index i = 0; i < t; ++i) {
    if (prob.base_load()[i] < Real(0)) fail_domain(fn, "prob.base_load[t]", ">= 0", i);
    const Real v = prob.base_load()[i] + xmax[i] / prob.households();
    g2 += v * v;
  }
  constants<Real> c;
  c.users = prob.users();
  c.rho = sqrt(rho2);
  c.diameter = sqrt(2 * rho2);
  c.G = prob.objective_scale() * sqrt(g2) / prob.households();
  c.noise_scale = noise_scale;
  c.G_hat = sqrt(Real(c.users) * (c.G * c.G + Real(t) * Real(t + 1) * noise_scale * noise_scale));
  return c;
}

/// Theorem 7 with an explicit constant: sgd_averaging_bound with the constants above.
/// @spec EV.BOUND.THM7
template <real_scalar Real>
Real theorem7_explicit(const ev::problem<Real>& prob, long long K, const Real& c, const Real& eta,
                       const Real& noise_scale) {
  const auto k = theorem7_constants(prob, noise_scale);
  return sgd_averaging_bound<Real>(K, c, eta, k.diameter, k.G_hat);
}

}  // namespace dpref::ev

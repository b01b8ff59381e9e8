// accel Proposition 3.4: the 3×3 matrix inequality (3.14)
//   c₀X₀ + c[X₁ + (1 − ρ²)X₂] ⪰ Φ(A, B, P, ρ),  Φ = [[AᵀPA − ρ²P, AᵀPB], [BᵀPA, BᵀPB]],
// solved, as the paper suggests, by a grid search over ρ and the entries of P (and c₀), with
// c = 1 (the inequality is homogeneous in (P, c₀, c), and c > 0 is needed by (3.15)).
// Sign convention: the HB error obeys ξ_{t+1} − ξ* = A(ξ_t − ξ*) + B∇F(x_t) with
// B = [−α, 0]ᵀ; the paper's (3.10) prints B = [α, 0]ᵀ, which is inconsistent with (3.1) and with
// X₁ (derived in (B.8)); dpref uses −α (spec/accel.md, ACCEL.PROP34).
// A grid point is accepted when λ_min(LHS − RHS) ≥ 1e-12·(1 + ‖LHS − RHS‖) in double; the
// reported certificate is then re-checked at 50 digits by a Cholesky factorisation with
// strictly positive pivots (certified = true).
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <optional>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel::bounds {

/// Result of the grid search.
struct prop34_certificate {
  double rho = 1;                    ///< smallest feasible ρ on the grid
  double p11 = 0, p12 = 0, p22 = 0;  ///< P
  double c0 = 0, c = 1;
  bool found = false;
  bool certified = false;  ///< the certificate passed the 50-digit PD check
};

/// Grid sizes and ranges of the search.
struct prop34_grid {
  int rho_points = 200;  ///< ρ_k = k/rho_points, k = 1..rho_points−1
  int p_points = 9;      ///< per entry of P, on [0, p_max] (p12 on [−p_max, p_max])
  double p_max = 2;
  int c0_points = 9;  ///< on [0, c0_max]
  double c0_max = 2;
};

namespace detail {
template <real_scalar Real>
Eigen::Matrix<Real, 3, 3> prop34_gap(const Real& mu, const Real& L, const Real& alpha,
                                     const Real& beta, const Real& rho, const Real& p11,
                                     const Real& p12, const Real& p22, const Real& c0,
                                     const Real& c) {
  using M3 = Eigen::Matrix<Real, 3, 3>;
  using M2 = Eigen::Matrix<Real, 2, 2>;
  M2 A, P;
  A << Real(1) + beta, -beta, Real(1), Real(0);
  P << p11, p12, p12, p22;
  Eigen::Matrix<Real, 2, 1> B(-alpha, Real(0));
  M3 Phi;
  Phi.template topLeftCorner<2, 2>() = A.transpose() * P * A - rho * rho * P;
  Phi.template topRightCorner<2, 1>() = A.transpose() * P * B;
  Phi.template bottomLeftCorner<1, 2>() = (A.transpose() * P * B).transpose();
  Phi(2, 2) = B.dot(P * B);
  M3 X0 = M3::Zero();
  X0(0, 0) = Real(2) * mu * L;
  X0(0, 2) = X0(2, 0) = -(mu + L);
  X0(2, 2) = Real(2);
  const Real h = (Real(1) - L * alpha) * beta, lb2 = L * beta * beta;
  M3 X1;
  X1 << -lb2, lb2, -h, lb2, -lb2, h, -h, h, alpha * (Real(2) - L * alpha);
  X1 /= Real(2);
  M3 X2 = M3::Zero();
  X2(0, 0) = mu;
  X2(0, 2) = X2(2, 0) = Real(-1);
  X2 /= Real(2);
  return c0 * X0 + c * (X1 + (Real(1) - rho * rho) * X2) - Phi;
}
}  // namespace detail

/// Whether (ρ, P, c₀, c) satisfies (3.14) in double with margin 1e-12(1 + ‖gap‖).
/// @spec ACCEL.PROP34
inline bool prop34_feasible(double mu, double L, double alpha, double beta, double rho, double p11,
                            double p12, double p22, double c0, double c) {
  if (p11 < 0 || p22 < 0 || p11 * p22 < p12 * p12) return false;  // P ⪰ 0
  const Eigen::Matrix3d G = detail::prop34_gap(mu, L, alpha, beta, rho, p11, p12, p22, c0, c);
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es;
  es.computeDirect(G, Eigen::EigenvaluesOnly);
  return es.eigenvalues()[0] >= 1e-12 * (1 + G.norm());
}

/// The 50-digit check: gap(ρ, P, c₀, c) positive definite (Cholesky pivots > 0) and P ⪰ 0.
/// @spec ACCEL.PROP34
inline bool prop34_certify(double mu, double L, double alpha, double beta,
                           const prop34_certificate& r) {
  const mp50 p11(r.p11), p12(r.p12), p22(r.p22);
  if (p11 < 0 || p22 < 0 || p11 * p22 < p12 * p12) return false;
  const Eigen::Matrix<mp50, 3, 3> G =
      detail::prop34_gap<mp50>(mp50(mu), mp50(L), mp50(alpha), mp50(beta), mp50(r.rho), p11, p12,
                               p22, mp50(r.c0), mp50(r.c));
  Eigen::LDLT<Eigen::Matrix<mp50, 3, 3>> f(G);
  if (f.info() != Eigen::Success) return false;
  for (int i = 0; i < 3; ++i)
    if (!(f.vectorD()[i] > mp50(0))) return false;
  return true;
}

/// Grid search for the smallest ρ satisfying (3.14) (c = 1). @param mu,L 0 < μ <= L
/// @param alpha > 0 @param beta in [0, 1) @throws std::domain_error on invalid input
/// @spec ACCEL.PROP34
inline prop34_certificate prop34_grid_search(double mu, double L, double alpha, double beta,
                                             const prop34_grid& g = {}) {
  constexpr const char* fn = "prop34_grid_search";
  require_positive(fn, "mu", mu);
  require_positive(fn, "L", L);
  if (mu > L) fail_domain(fn, "mu", "<= L", mu);
  require_positive(fn, "alpha", alpha);
  if (!(beta >= 0 && beta < 1)) fail_domain(fn, "beta", "in [0, 1)", beta);
  if (g.rho_points < 2) fail_domain(fn, "grid.rho_points", ">= 2", g.rho_points);
  if (g.p_points < 2) fail_domain(fn, "grid.p_points", ">= 2", g.p_points);
  if (g.c0_points < 2) fail_domain(fn, "grid.c0_points", ">= 2", g.c0_points);
  require_positive(fn, "grid.p_max", g.p_max);
  require_nonnegative(fn, "grid.c0_max", g.c0_max);
  prop34_certificate out;
  const auto at = [](double lo, double hi, int k, int n) { return lo + (hi - lo) * k / (n - 1); };
  for (int k = 1; k < g.rho_points; ++k) {
    const double rho = static_cast<double>(k) / g.rho_points;
    for (int i = 0; i < g.p_points; ++i)
      for (int j = 0; j < g.p_points; ++j)
        for (int l = 0; l < 2 * g.p_points - 1; ++l)
          for (int q = 0; q < g.c0_points; ++q) {
            const double p11 = at(0, g.p_max, i, g.p_points), p22 = at(0, g.p_max, j, g.p_points);
            const double p12 = at(-g.p_max, g.p_max, l, 2 * g.p_points - 1);
            const double c0 = at(0, g.c0_max, q, g.c0_points);
            if (prop34_feasible(mu, L, alpha, beta, rho, p11, p12, p22, c0, 1.0)) {
              out = {rho, p11, p12, p22, c0, 1.0, true, false};
              out.certified = prop34_certify(mu, L, alpha, beta, out);
              return out;
            }
          }
  }
  return out;
}

/// Right-hand side of (3.15) for a certificate, with x_{−1} = x_0:
/// ρ^{2t}(1/c)[(p11 + 2p12 + p22)‖x0 − x*‖² + c(F(x0) − F*)]
///   + (1 − ρ^{2t})/(1 − ρ²) (L d α²/2) E_T (1 + 2P12²/(P22 c L + 2|P|)), with 0/0 = 0.
/// @param dist2 ‖x0 − x*‖² @param gap0 F(x0) − F* @param noise E_T of (3.12) @spec ACCEL.PROP34
inline double prop34_bound(const prop34_certificate& r, long long t, double dist2, double gap0,
                           double L, long long d, double alpha, double noise) {
  if (!r.found) fail_domain("prop34_bound", "certificate.found", "true", 0);
  const double r2t = std::pow(r.rho, 2.0 * static_cast<double>(t));
  const double V = (r.p11 + 2 * r.p12 + r.p22) * dist2 + r.c * gap0;
  const double detP = r.p11 * r.p22 - r.p12 * r.p12;
  const double den = r.p22 * r.c * L + 2 * detP;
  const double extra = den == 0 ? 0.0 : 2 * r.p12 * r.p12 / den;
  return r2t * V / r.c + (1 - r2t) / (1 - r.rho * r.rho) *
                             (L * static_cast<double>(d) * alpha * alpha / 2) * noise * (1 + extra);
}

}  // namespace dpref::accel::bounds

// Certified upper bound on the largest eigenvalue of a symmetric positive-semidefinite matrix
// (used for the smoothness constant L of accel §5). Method: a full symmetric eigendecomposition
// G ≈ V Θ Vᵀ at Real's precision, then Weyl's inequality evaluated at 50 digits:
//   λ_max(G_exact) ≤ λ_max(V Θ₊ Vᵀ) + ‖G − V Θ₊ Vᵀ‖_F + ‖G_exact − G‖₂,
//   λ_max(V Θ₊ Vᵀ) = λ_max(Θ₊^{1/2} VᵀV Θ₊^{1/2}) ≤ θ_max (1 + ‖VᵀV − I‖_F),
// where Θ₊ = max(Θ, 0) and ‖G_exact − G‖₂ is the caller's bound on the error of forming G.
// The residual norms are computed at 50 digits (products of doubles are exact there) and the
// sum is padded by a relative 2^-100 (double) / 2^-150 (wider types) and rounded up.
#pragma once

#include <cmath>
#include <utility>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::problems {

/// Symmetric eigendecomposition by the cyclic Jacobi method at Real's precision (Eigen's
/// SelfAdjointEigenSolver does not compile for Boost.Multiprecision types here). Converges
/// quadratically; sweeps stop when the off-diagonal mass is below eps²·‖G‖_F².
/// @param G symmetric @param V out: eigenvectors (columns) @param theta out: eigenvalues,
/// ascending @spec ACCEL.LCERT
template <real_scalar Real>
void jacobi_eigen(const matrix<Real>& G, matrix<Real>& V, vector<Real>& theta) {
  using std::abs;
  using std::sqrt;
  const Eigen::Index d = G.rows();
  matrix<Real> A = G;
  V = matrix<Real>::Identity(d, d);
  const Real tol = machine_epsilon<Real>() * machine_epsilon<Real>() * A.squaredNorm();
  for (int sweep = 0; sweep < 100; ++sweep) {
    Real off(0);
    for (Eigen::Index i = 0; i < d; ++i)
      for (Eigen::Index j = i + 1; j < d; ++j) off += A(i, j) * A(i, j);
    if (!(off > tol)) break;
    for (Eigen::Index p = 0; p < d; ++p)
      for (Eigen::Index q = p + 1; q < d; ++q) {
        if (A(p, q) == Real(0)) continue;
        const Real th = (A(q, q) - A(p, p)) / (Real(2) * A(p, q));
        const Real t = (th >= Real(0) ? Real(1) : Real(-1)) / (abs(th) + sqrt(th * th + Real(1)));
        const Real c = Real(1) / sqrt(t * t + Real(1)), s = t * c;
        for (Eigen::Index k = 0; k < d; ++k) {  // A ← A J (columns p, q)
          const Real akp = A(k, p), akq = A(k, q);
          A(k, p) = c * akp - s * akq;
          A(k, q) = s * akp + c * akq;
        }
        for (Eigen::Index k = 0; k < d; ++k) {  // A ← Jᵀ A (rows p, q)
          const Real apk = A(p, k), aqk = A(q, k);
          A(p, k) = c * apk - s * aqk;
          A(q, k) = s * apk + c * aqk;
        }
        for (Eigen::Index k = 0; k < d; ++k) {
          const Real vkp = V(k, p), vkq = V(k, q);
          V(k, p) = c * vkp - s * vkq;
          V(k, q) = s * vkp + c * vkq;
        }
      }
  }
  theta = A.diagonal();
  // sort ascending (selection sort; d is small)
  for (Eigen::Index i = 0; i < d; ++i) {
    Eigen::Index k = i;
    for (Eigen::Index j = i + 1; j < d; ++j)
      if (theta[j] < theta[k]) k = j;
    if (k != i) {
      std::swap(theta[i], theta[k]);
      V.col(i).swap(V.col(k));
    }
  }
}

/// Rigorous upper bound on λ_max(G_exact) for a symmetric PSD G_exact, given its computed
/// approximation G and a bound `formation_error` ≥ ‖G_exact − G‖₂.
/// @param G symmetric d×d matrix (d >= 1) @param formation_error >= 0
/// @return an upper bound, >= the largest computed eigenvalue
/// @throws std::invalid_argument if G is empty or not square; std::domain_error on non-finite
/// @spec ACCEL.LCERT
template <real_scalar Real>
Real certified_lambda_max(const matrix<Real>& G, const Real& formation_error) {
  constexpr const char* fn = "certified_lambda_max";
  if (G.rows() < 1 || G.rows() != G.cols())
    fail_argument(fn, "G", "square and non-empty", G.rows());
  require_nonnegative(fn, "formation_error", formation_error);
  for (Eigen::Index i = 0; i < G.size(); ++i) require_finite(fn, "G(i,j)", G.data()[i]);
  using W = mp50;
  using std::abs;
  using std::sqrt;
  const Eigen::Index d = G.rows();
  matrix<Real> Vr;
  vector<Real> tr;
  jacobi_eigen(G, Vr, tr);
  matrix<W> Gw = G.template cast<W>();
  matrix<W> V = Vr.template cast<W>();
  vector<W> th = tr.template cast<W>();
  W theta_max(0);
  for (Eigen::Index i = 0; i < d; ++i) {
    if (th[i] < W(0)) th[i] = W(0);
    if (th[i] > theta_max) theta_max = th[i];
  }
  const matrix<W> R = Gw - V * th.asDiagonal() * V.transpose();
  const matrix<W> E = V.transpose() * V - matrix<W>::Identity(d, d);
  const W bound = theta_max * (W(1) + E.norm()) + R.norm() + W(formation_error);
  using std::ldexp;
  const W padded = bound * (W(1) + ldexp(W(1), std::is_same_v<Real, double> ? -100 : -150));
  Real out = static_cast<Real>(padded);
  using boost::multiprecision::nextafter;
  using std::nextafter;
  if (W(out) < padded) out = nextafter(out, Real(2) * out + Real(1));
  return out;
}

/// Gershgorin upper bound max_i (G_ii + Σ_{j≠i} |G_ij|) on λ_max of a symmetric G (looser;
/// a cross-check of certified_lambda_max, not rounded up). @spec ACCEL.LCERT
template <real_scalar Real>
Real gershgorin_upper(const matrix<Real>& G) {
  using std::abs;
  Real best(0);
  for (Eigen::Index i = 0; i < G.rows(); ++i) {
    Real s = G(i, i);
    for (Eigen::Index j = 0; j < G.cols(); ++j)
      if (j != i) s += abs(G(i, j));
    if (i == 0 || s > best) best = s;
  }
  return best;
}

}  // namespace dpref::problems

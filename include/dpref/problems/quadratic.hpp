// Quadratic objective of accel (3.16): F(x) = ½ xᵀQx + aᵀx + b, Q symmetric positive definite.
// It is used for Theorem 3.5 (DP-SHB on quadratics) and the convergence-rate tests. It has no
// per-example structure: size() = 1 (so minibatches are the full gradient) and the ℓ1
// sensitivity S₁ is a declared public constant (accel §3.2 "assume the L1 sensitivity of F is
// such that…"), default 1.
#pragma once

#include <Eigen/Cholesky>
#include <span>

#include "dpref/error.hpp"
#include "dpref/problems/spectral_bound.hpp"
#include "dpref/scalar.hpp"

namespace dpref::problems {

/// accel (3.16). @spec ACCEL.QUAD
template <real_scalar Real>
class quadratic {
 public:
  /// @param Q symmetric positive definite d×d @param a linear term (size d) @param b constant
  /// @param l1_sensitivity declared S₁ > 0
  /// @throws std::invalid_argument on size mismatch or asymmetric Q; std::domain_error if Q is
  /// not positive definite
  quadratic(matrix<Real> Q, vector<Real> a, const Real& b = Real(0),
            const Real& l1_sensitivity = Real(1))
      : Q_(std::move(Q)), a_(std::move(a)), b_(b), s1_(l1_sensitivity) {
    constexpr const char* fn = "quadratic";
    if (Q_.rows() < 1 || Q_.rows() != Q_.cols()) fail_argument(fn, "Q", "square", Q_.rows());
    if (a_.size() != Q_.rows()) fail_argument(fn, "a.size()", "== d", a_.size());
    if (!(Q_ == Q_.transpose())) fail_argument(fn, "Q", "symmetric", 0);
    require_finite(fn, "b", b_);
    require_positive(fn, "l1_sensitivity", s1_);
    matrix<Real> V;
    jacobi_eigen(Q_, V, eig_);
    if (!(eig_[0] > Real(0))) fail_domain(fn, "lambda_min(Q)", "> 0", eig_[0]);
    xstar_ = Q_.ldlt().solve(-a_);
  }

  [[nodiscard]] long long size() const { return 1; }
  [[nodiscard]] long long dimension() const { return static_cast<long long>(Q_.rows()); }
  [[nodiscard]] Real l1_sensitivity() const { return s1_; }
  /// μ = λ_min(Q) (computed eigenvalue). @spec ACCEL.QUAD
  [[nodiscard]] Real strong_convexity() const { return eig_[0]; }
  /// L = λ_max(Q) (computed eigenvalue).
  [[nodiscard]] Real smoothness() const { return eig_[eig_.size() - 1]; }
  /// The quadratic has no private data: its L is public.
  [[nodiscard]] Real public_smoothness() const { return smoothness(); }
  /// Eigenvalues of Q, ascending.
  [[nodiscard]] const vector<Real>& eigenvalues() const { return eig_; }
  [[nodiscard]] const vector<Real>& minimiser() const { return xstar_; }
  [[nodiscard]] const matrix<Real>& Q() const { return Q_; }

  [[nodiscard]] Real value(const vector<Real>& x) const {
    if (x.size() != Q_.rows()) fail_argument("quadratic::value", "x.size()", "== d", x.size());
    return x.dot(Q_ * x) / Real(2) + a_.dot(x) + b_;
  }
  /// F(x) − F(x*) = ½(x − x*)ᵀQ(x − x*) (no cancellation).
  [[nodiscard]] Real excess(const vector<Real>& x) const {
    const vector<Real> e = x - xstar_;
    return e.dot(Q_ * e) / Real(2);
  }
  void gradient_into(const vector<Real>& x, vector<Real>& g) const {
    if (x.size() != Q_.rows()) fail_argument("quadratic::gradient", "x.size()", "== d", x.size());
    g.noalias() = Q_ * x;
    g += a_;
  }
  [[nodiscard]] vector<Real> gradient(const vector<Real>& x) const {
    vector<Real> g(Q_.rows());
    gradient_into(x, g);
    return g;
  }
  /// With n = 1 every minibatch is the full data.
  void minibatch_gradient_into(const vector<Real>& x, std::span<const long long>,
                               vector<Real>& g) const {
    gradient_into(x, g);
  }

 private:
  matrix<Real> Q_;
  vector<Real> a_;
  Real b_, s1_;
  vector<Real> eig_, xstar_;
};

}  // namespace dpref::problems

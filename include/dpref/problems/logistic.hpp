// Regularised logistic regression of accel §5 (5.1)–(5.2), as a minimisation (errata ACC-E1):
//   F(x) = (1/n) Σ_i f(x; u_i, z_i),  f(x; u, z) = ln(1 + exp(−z uᵀx)) + λ‖x‖²,  z ∈ {−1, 1}
// (errata ACC-E2: the paper's "z ∈ {0,1}" in (5.2) is a typo). The paper's "argmax of ln p + λ‖x‖²"
// would reward large ‖x‖; dpref minimises the negative log-likelihood plus λ‖x‖².
//
// Gradient: ∇f(x; u, z) = −z u /(1 + exp(z uᵀx)) + 2λx. The regulariser's gradient 2λx is the
// same for every example, so it cancels between neighbouring datasets and
//   ‖∇f(x; u, z) − ∇f(x; u′, z′)‖₁ ≤ ‖u‖₁ + ‖u′‖₁ ≤ 2 B =: S₁     (accel (5.2))
// for a PUBLIC bound B ≥ sup ‖u‖₁ (B must not depend on the data). The constructor enforces it
// (spec/privacy_bounds.md PRIV.BOUNDS, "refuse"): a record whose exact ‖u_i‖₁ exceeds B is
// refused with an invalid_parameter naming l1_bound, the record and its norm, before anything
// can be computed from the data (l1_norm_within: no rounding in the decision).
// Certified constants: μ = 2λ; L = λ_max(¼ UᵀU/n) + 2λ (σ′ ≤ ¼), bounded above rigorously by
// certified_lambda_max (eigendecomposition + Weyl residual bound, spectral_bound.hpp).
//
// Storage: features as a d×n column-major matrix (column i = u_i), so one example is contiguous;
// no other copy of the data. Double (issue 6 performance target): one fused pass over the data
// in blocks of 32 examples held in L1 (logistic_kernel.hpp): the block's margins u_kᵀx, the
// weights −z/(1 + e^{z r}) by fastmath::logistic_weights (vector exp of fast_exp.hpp, ≤ 2 ulp;
// a table exp with SSE2) and g += Σ w_k u_k in vector registers, with d fixed at compile time
// for common d (logistic_kernel::fixed_dims) and a runtime-d kernel otherwise. value() runs the
// same margin blocks, with fastmath::logistic_loss_sum when the target has 4+ double lanes (AVX,
// `vector_loss`) and glibc's exp/log1p with SSE2. Every other scalar: blocks of `block` examples,
// r = U_Bᵀx, s = −z/(1 + e^{z r}) by the scalar's exact exp, g += U_B s (Eigen products). The
// workspace is preallocated: gradient_into/minibatch_gradient_into do not allocate, and an
// object must not be used by two threads at once.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/params.hpp"
#include "dpref/problems/fast_exp.hpp"
#include "dpref/problems/logistic_kernel.hpp"
#include "dpref/problems/spectral_bound.hpp"
#include "dpref/scalar.hpp"

namespace dpref::problems {

/// Exact comparison Σ_j |v_j| <= B of a finite vector v with a finite B >= 0 (no rounding in the
/// decision), and the recursively summed ‖v‖₁ for messages. The rounded sum s of the non-negative
/// terms is within γ_{d−1}·S of the exact S, so it decides unless it lies within (d + 2)·ε_mach·s
/// of B; then S − B is formed exactly as a non-overlapping expansion (Knuth's TwoSum, Shewchuk's
/// grow-expansion; binary floating point with round-to-nearest and -ffp-contract=off, as every
/// dpref scalar) whose sign is that of its largest component. A record on the bound (one-hot rows
/// summing to B exactly) is accepted, one an ulp above it refused. @spec PRIV.ACCEL.L1_BOUND
template <real_scalar Real, class Vec>
bool l1_norm_within(const Vec& v, const Real& B, Real& norm) {
  using std::abs;
  norm = Real(0);
  for (Eigen::Index j = 0; j < v.size(); ++j) norm += abs(v[j]);
  if (!is_finite_value(norm)) return false;
  const Real slack = norm * (Real(static_cast<long long>(v.size()) + 2) * machine_epsilon<Real>());
  if (norm + slack <= B) return true;
  if (norm - slack > B) return false;
  std::vector<Real> e;  // expansion of the partial sum, increasing magnitude, no zeros
  const auto grow = [&e](Real q) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < e.size(); ++i) {  // (q, h) = TwoSum(q, e_i)
      const Real x = q + e[i], bv = x - q, av = x - bv;
      const Real h = (q - av) + (e[i] - bv);
      q = x;
      if (h != Real(0)) e[k++] = h;
    }
    e.resize(k);
    if (q != Real(0)) e.push_back(q);
  };
  for (Eigen::Index j = 0; j < v.size(); ++j) grow(abs(v[j]));
  grow(-B);
  return e.empty() || e.back() < Real(0);
}

/// accel (5.1) with labels in {−1, 1} (errata ACC-E1, ACC-E2). @spec ACCEL.LOGISTIC
template <real_scalar Real>
class logistic_regression {
 public:
  /// Whether value() in double sums the losses by fastmath::logistic_loss_sum (vector exp and
  /// log1p): only with 4+ double lanes (AVX); with SSE2 glibc's exp and log1p are faster there.
  static constexpr bool vector_loss = std::is_same_v<Real, double> && fastmath::lanes >= 4;
  /// Whether the fused double kernels of logistic_kernel.hpp are used.
  static constexpr bool fused = std::is_same_v<Real, double>;
  /// Examples per block of the generic (non-double) path.
  static constexpr Eigen::Index block = 1024;

  /// @param features d×n matrix, column i = u_i (d >= 1, n >= 1)
  /// @param labels n labels in {−1, 1} @param lambda regularisation λ > 0
  /// @param l1_bound public B with ‖u_i‖₁ <= B for every admissible u (S₁ = 2B)
  /// @throws std::invalid_argument on size mismatch or a label outside {−1, 1};
  /// std::domain_error on λ <= 0, B <= 0 or non-finite features; invalid_parameter (a
  /// std::domain_error) "logistic_regression.l1_bound must be >= ||u_i||_1 = <norm> of record
  /// i = <i> …, got <B>" when a record's exact ‖u_i‖₁ exceeds B (PRIV.ACCEL.L1_BOUND)
  logistic_regression(matrix<Real> features, vector<Real> labels, const Real& lambda,
                      const Real& l1_bound)
      : U_(std::move(features)), z_(std::move(labels)), lambda_(lambda), bound_(l1_bound) {
    constexpr const char* fn = "logistic_regression";
    if (U_.rows() < 1 || U_.cols() < 1) fail_argument(fn, "features", "non-empty d×n", U_.size());
    if (z_.size() != U_.cols()) fail_argument(fn, "labels.size()", "== n", z_.size());
    require_positive(fn, "lambda", lambda_);
    require_positive(fn, "l1_bound", bound_);
    for (Eigen::Index i = 0; i < U_.cols(); ++i) {
      if (!(z_[i] == Real(1) || z_[i] == Real(-1))) fail_argument(fn, "labels[i]", "-1 or 1", i);
      for (Eigen::Index j = 0; j < U_.rows(); ++j) require_finite(fn, "features(j,i)", U_(j, i));
      // PRIV.BOUNDS (refuse): the sensitivity S₁ = 2B of (5.2) holds only for records in the bound
      Real norm(0);
      if (!l1_norm_within(U_.col(i), bound_, norm))
        param_checker(fn).fail("l1_bound",
                               ">= ||u_i||_1 = " + ::dpref::detail::to_text(norm) +
                                   " of record i = " + std::to_string(i) +
                                   " (the public l1 bound B of accel (5.2) must hold for every "
                                   "record; nothing was computed from the data)",
                               bound_);
    }
    if constexpr (!fused) {
      r_.resize(std::min<Eigen::Index>(block, U_.cols()));
      s_.resize(r_.size());
    }
    n_real_ = Real(static_cast<long long>(U_.cols()));
  }

  [[nodiscard]] long long size() const { return static_cast<long long>(U_.cols()); }
  [[nodiscard]] long long dimension() const { return static_cast<long long>(U_.rows()); }
  [[nodiscard]] const matrix<Real>& features() const { return U_; }
  [[nodiscard]] const vector<Real>& labels() const { return z_; }
  [[nodiscard]] const Real& lambda() const { return lambda_; }

  /// The public l1 bound B every record respects (checked by the constructor).
  [[nodiscard]] const Real& l1_bound() const { return bound_; }
  /// S₁ = 2B (accel (5.2)); independent of x. @spec ACCEL.S1
  [[nodiscard]] Real l1_sensitivity() const { return Real(2) * bound_; }
  /// μ = 2λ (Hessian of λ‖x‖²).
  [[nodiscard]] Real strong_convexity() const { return Real(2) * lambda_; }
  /// Public smoothness bound B²/4 + 2λ (rounded up): ¼ uuᵀ ⪯ ¼‖u‖₂² I ⪯ ¼B² I for every
  /// admissible row, so it holds for every dataset and reveals nothing about this one. The
  /// algorithms' step sizes and schedules use it (a data-dependent L would leak through α).
  /// @spec ACCEL.LPUBLIC
  [[nodiscard]] Real public_smoothness() const {
    using boost::multiprecision::nextafter;
    using std::nextafter;
    const Real quarter_b2 = nextafter(bound_ * bound_ / Real(4), Real(2) * bound_ * bound_ + 1);
    const Real l = quarter_b2 + Real(2) * lambda_;
    return nextafter(l, Real(2) * l + Real(1));
  }
  /// Certified L ≥ λ_max(¼UᵀU/n) + 2λ of this dataset (computed once, cached). Data-dependent:
  /// for analysis and reporting, not for choosing private parameters. @spec ACCEL.LCERT
  [[nodiscard]] Real smoothness() const {
    if (!L_computed_) {
      const Real n = n_real_;
      matrix<Real> G = (U_ * U_.transpose()) / (Real(4) * n);
      // Formation error of a dot product of length n: γ_n Σ|a_k b_k| (any order, with or
      // without FMA), and ‖|U||U|ᵀ‖_F ≤ trace(UUᵀ); +2 rounding for the division.
      const Real u = machine_epsilon<Real>() / 2;
      const Real gamma = (n + Real(2)) * u / (Real(1) - (n + Real(2)) * u);
      const Real err = gamma * (U_.squaredNorm() / (Real(4) * n)) * Real(2);
      const Real lmax = certified_lambda_max<Real>(G, err);
      const Real two_lambda = Real(2) * lambda_;
      Real L = lmax + two_lambda;
      using boost::multiprecision::nextafter;
      using std::nextafter;
      L = nextafter(L, Real(2) * L + Real(1));  // the addition rounded up
      L_ = L;
      L_computed_ = true;
    }
    return L_;
  }

  /// F(x) = (1/n) Σ ln(1 + e^{−z_i u_iᵀx}) + λ‖x‖² (margins block-wise).
  [[nodiscard]] Real value(const vector<Real>& x) const {
    check_x("logistic_regression::value", x);
    Real acc(0);
    const Eigen::Index n = U_.cols();
    if constexpr (fused) {
      logistic_kernel::dispatch(dim(), [&](auto D) {
        logistic_kernel::for_each_margin_block<decltype(D)::value>(
            U_.data(), static_cast<std::size_t>(n), dim(), x.data(),
            [&](std::size_t i, const double* r, std::size_t b) {
              if constexpr (vector_loss)
                acc += fastmath::logistic_loss_sum(z_.data() + i, r, b);
              else
                for (std::size_t k = 0; k < b; ++k)
                  acc += softplus(-z_[static_cast<Eigen::Index>(i + k)] * r[k]);
            });
      });
    } else {
      for (Eigen::Index j = 0; j < n; j += block) {
        const Eigen::Index b = std::min<Eigen::Index>(block, n - j);
        auto r = r_.head(b);
        r.noalias() = U_.middleCols(j, b).transpose() * x;
        for (Eigen::Index k = 0; k < b; ++k) acc += softplus(-z_[j + k] * r[k]);
      }
    }
    return acc / n_real_ + lambda_ * x.squaredNorm();
  }

  /// ∇f(x; u_i, z_i) including the regulariser (allocates; for tests and audits).
  [[nodiscard]] vector<Real> example_gradient(const vector<Real>& x, long long i) const {
    check_x("logistic_regression::example_gradient", x);
    if (i < 0 || i >= size())
      fail_argument("logistic_regression::example_gradient", "i", "in [0, n)", i);
    const auto k = static_cast<Eigen::Index>(i);
    return loss_weight(z_[k], U_.col(k).dot(x)) * U_.col(k) + Real(2) * lambda_ * x;
  }

  /// The loss part of example i's gradient, v = −z_i u_i/(1 + e^{z_i u_iᵀx}) (5.2), without the
  /// regulariser: ‖v‖₁ <= ‖u_i‖₁ <= B (the per-example record of a secure release, SEC.ACCEL).
  void loss_gradient_into(const vector<Real>& x, long long i, vector<Real>& v) const {
    check_x("logistic_regression::loss_gradient", x);
    if (i < 0 || i >= size())
      fail_argument("logistic_regression::loss_gradient", "i", "in [0, n)", i);
    const auto k = static_cast<Eigen::Index>(i);
    v.noalias() = loss_weight(z_[k], U_.col(k).dot(x)) * U_.col(k);
  }

  /// The regulariser's gradient 2λx, the same for every example (data-independent).
  void regulariser_gradient_into(const vector<Real>& x, vector<Real>& v) const {
    check_x("logistic_regression::regulariser_gradient", x);
    v.noalias() = Real(2) * lambda_ * x;
  }

  /// Full gradient (2.3) into g (resized once; no allocation when g has size d).
  void gradient_into(const vector<Real>& x, vector<Real>& g) const {
    check_x("logistic_regression::gradient", x);
    g.resize(U_.rows());
    const Eigen::Index n = U_.cols();
    if constexpr (fused) {
      // One pass: margins, weights (5.2) and Σ w_i u_i per block of 32 examples in L1.
      logistic_kernel::dispatch(dim(), [&](auto D) {
        logistic_kernel::gradient_sum<decltype(D)::value>(
            U_.data(), static_cast<std::size_t>(n), dim(), x.data(), g.data(),
            [&](std::size_t i, const double* r, double* w, std::size_t b) {
              fastmath::logistic_weights(z_.data() + i, r, w, b);
            });
      });
    } else {
      g.setZero();
      for (Eigen::Index j = 0; j < n; j += block) {
        const Eigen::Index b = std::min<Eigen::Index>(block, n - j);
        auto r = r_.head(b);
        auto s = s_.head(b);
        r.noalias() = U_.middleCols(j, b).transpose() * x;
        for (Eigen::Index k = 0; k < b; ++k) s[k] = loss_weight(z_[j + k], r[k]);  // (5.2)
        g.noalias() += U_.middleCols(j, b) * s;
      }
    }
    g /= n_real_;
    g += Real(2) * lambda_ * x;
  }

  /// Full gradient (allocating convenience).
  [[nodiscard]] vector<Real> gradient(const vector<Real>& x) const {
    vector<Real> g;
    gradient_into(x, g);
    return g;
  }

  /// Minibatch gradient (2.7): (1/m) Σ_{i∈B} ∇f(x; y_i), indices in [0, n), m >= 1.
  void minibatch_gradient_into(const vector<Real>& x, std::span<const long long> batch,
                               vector<Real>& g) const {
    if (batch.empty())
      fail_argument("logistic_regression::minibatch_gradient", "batch", "non-empty", 0);
    g.setZero(U_.rows());
    for (const long long i : batch) {
      const auto k = static_cast<Eigen::Index>(i);
      g.noalias() += loss_weight(z_[k], U_.col(k).dot(x)) * U_.col(k);
    }
    g /= Real(static_cast<long long>(batch.size()));
    g += Real(2) * lambda_ * x;
  }

  /// −z/(1 + e^{z r}): the derivative of ln(1 + e^{−z r}) in r (finite for every r).
  static Real loss_weight(const Real& z, const Real& r) {
    using std::exp;
    return -z / (exp(z * r) + Real(1));
  }
  /// ln(1 + e^t) without overflow.
  static Real softplus(const Real& t) {
    using std::exp;
    using std::log1p;
    return t > Real(0) ? t + log1p(exp(-t)) : log1p(exp(t));
  }

 private:
  [[nodiscard]] std::size_t dim() const { return static_cast<std::size_t>(U_.rows()); }
  void check_x(const char* fn, const vector<Real>& x) const {
    if (x.size() != U_.rows()) fail_argument(fn, "x.size()", "== d", x.size());
  }

  matrix<Real> U_;
  vector<Real> z_;
  Real lambda_, bound_, n_real_{1};
  mutable vector<Real> r_, s_;  ///< generic path only (empty for double)
  mutable Real L_{0};
  mutable bool L_computed_ = false;
};

}  // namespace dpref::problems

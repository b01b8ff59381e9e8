// L2-regularised linear ERM with a margin loss (linesearch §5.1):
//   F(w) = (1/n) Σ_i f(w; d_i),   f(w; (x, y)) = φ(y wᵀx) + (μ/2)‖w‖²,   μ = 0.001,
// φ ∈ {logistic, hinge, Huberized hinge (h = 0.5)} from margin_losses.hpp. Every f ≥ 0, so the
// clipped value min(f, C_obj) lies in [0, C_obj] (errata LS-E2).
//
// Per-example gradient g_i = φ′(z_i) y_i x_i + μw with z_i = y_i x_iᵀw; its norm follows from
// ‖g_i‖² = φ′² ‖x_i‖² + 2φ′μ z_i + μ²‖w‖² (‖x_i‖² precomputed), so the clipped sum
// Σ_i clip(g_i, C) (linesearch (6), Algorithm 2 line 5) costs two O(d) passes per example and
// no per-example vector. The Armijo queries of NOISYBTLS evaluate Σ_i min(f(w − ηg; d_i), C_obj)
// for many η along one line: line_evaluator precomputes y_i x_iᵀw and y_i x_iᵀg once, after
// which each η costs O(|B|) scalar operations.
// Storage: X is d×n column-major (one example per column, as io::labelled_data).
// spec/linesearch.md LS.ERM.
#pragma once

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/problems/clipping.hpp"
#include "dpref/problems/line_evaluator_base.hpp"
#include "dpref/problems/margin_losses.hpp"
#include "dpref/scalar.hpp"

namespace dpref::problems {

/// φ″(z) where it exists: logistic σ(z)(1 − σ(z)); Huberized hinge 1/(2h) on |1 − z| < h, else
/// 0; hinge 0 (a.e.; Newton is not used for it). Bound: 1/4 (logistic), 1/(2h) (Huber).
/// @spec LS.ERM
template <real_scalar Real>
Real margin_second_derivative(const margin_loss<Real>& l, const Real& z) {
  using std::abs;
  using std::exp;
  switch (l.kind) {
    case margin_loss_kind::logistic: {
      const Real e = exp(-abs(z));
      return e / ((Real(1) + e) * (Real(1) + e));
    }
    case margin_loss_kind::huberized_hinge:
      return abs(Real(1) - z) < l.h ? Real(1) / (Real(2) * l.h) : Real(0);
    case margin_loss_kind::hinge:
      return Real(0);
  }
  return Real(0);
}

/// Upper bound c ≥ sup φ″ (objective perturbation, Chaudhuri et al. 2011): 1/4 or 1/(2h).
/// @throws std::domain_error for the hinge (not twice differentiable) @spec LS.ERM
template <real_scalar Real>
Real margin_curvature_bound(const margin_loss<Real>& l) {
  if (l.kind == margin_loss_kind::logistic) return Real(1) / 4;
  if (l.kind == margin_loss_kind::huberized_hinge) return Real(1) / (Real(2) * l.h);
  fail_domain("dpref::problems::margin_curvature_bound", "loss", "logistic or huberized_hinge",
              l.name());
}

/// linesearch §5.1 problem. @spec LS.ERM
template <real_scalar Real>
class linear_erm {
 public:
  /// @param X d×n features (column i = x_i, finite) @param y n labels in {−1, +1}
  /// @param loss margin loss @param mu μ >= 0 (default 1/1000, linesearch §5.1)
  /// @throws std::invalid_argument on size mismatch / bad label, std::domain_error otherwise
  linear_erm(matrix<Real> X, vector<Real> y, margin_loss<Real> loss, Real mu = Real(1) / 1000)
      : X_(std::move(X)), y_(std::move(y)), loss_(loss), mu_(std::move(mu)) {
    constexpr const char* fn = "dpref::problems::linear_erm";
    if (X_.rows() < 1 || X_.cols() < 1) fail_argument(fn, "X", "non-empty d×n", X_.size());
    if (y_.size() != X_.cols()) fail_argument(fn, "y.size()", "== X.cols()", y_.size());
    require_nonnegative(fn, "mu", mu_);
    sq_.resize(X_.cols());
    for (Eigen::Index i = 0; i < X_.cols(); ++i) {
      // |y| = 1, which OUTPERT's and OBJPERT's sensitivities assume (PRIV.LINESEARCH.LOSS)
      if (!(y_[i] == Real(1) || y_[i] == Real(-1)))
        fail_argument(fn, "y[" + std::to_string(i) + "]", "-1 or +1", y_[i]);
      for (Eigen::Index j = 0; j < X_.rows(); ++j) require_finite(fn, "X(j,i)", X_(j, i));
      sq_[i] = X_.col(i).squaredNorm();
    }
  }

  [[nodiscard]] Eigen::Index size() const { return X_.cols(); }
  [[nodiscard]] Eigen::Index dimension() const { return X_.rows(); }
  [[nodiscard]] const matrix<Real>& features() const { return X_; }
  [[nodiscard]] const vector<Real>& labels() const { return y_; }
  [[nodiscard]] const margin_loss<Real>& loss() const { return loss_; }
  [[nodiscard]] const Real& mu() const { return mu_; }

  /// z_i = y_i x_iᵀw.
  [[nodiscard]] Real margin(const vector<Real>& w, Eigen::Index i) const {
    return y_[i] * X_.col(i).dot(w);
  }
  /// f(w; d_i) = φ(z_i) + (μ/2)‖w‖² (>= 0).
  [[nodiscard]] Real example_value(const vector<Real>& w, Eigen::Index i) const {
    return loss_.value(margin(w, i)) + mu_ * w.squaredNorm() / 2;
  }
  /// ∇f(w; d_i) = φ′(z_i) y_i x_i + μw (a subgradient for the hinge).
  [[nodiscard]] vector<Real> example_gradient(const vector<Real>& w, Eigen::Index i) const {
    return (loss_.derivative(margin(w, i)) * y_[i]) * X_.col(i) + mu_ * w;
  }
  /// F(w) = (1/n) Σ f(w; d_i) (unclipped).
  [[nodiscard]] Real value(const vector<Real>& w) const {
    Real s(0);
    for (Eigen::Index i = 0; i < X_.cols(); ++i) s += loss_.value(margin(w, i));
    return s / Real(static_cast<long long>(X_.cols())) + mu_ * w.squaredNorm() / 2;
  }
  /// ∇F(w) (unclipped).
  [[nodiscard]] vector<Real> gradient(const vector<Real>& w) const {
    vector<Real> g = vector<Real>::Zero(X_.rows());
    for (Eigen::Index i = 0; i < X_.cols(); ++i)
      g += (loss_.derivative(margin(w, i)) * y_[i]) * X_.col(i);
    g /= Real(static_cast<long long>(X_.cols()));
    g += mu_ * w;
    return g;
  }
  /// Hessian-vector product ∇²F(w)v = (1/n) Σ φ″(z_i)(x_iᵀv) x_i + μv (smooth losses).
  [[nodiscard]] vector<Real> hessian_vector(const vector<Real>& w, const vector<Real>& v) const {
    vector<Real> h = vector<Real>::Zero(X_.rows());
    for (Eigen::Index i = 0; i < X_.cols(); ++i) {
      const Real c = margin_second_derivative(loss_, margin(w, i));
      if (c != Real(0)) h += (c * X_.col(i).dot(v)) * X_.col(i);
    }
    h /= Real(static_cast<long long>(X_.cols()));
    h += mu_ * v;
    return h;
  }

  /// Factor s_i with clip(∇f(w; d_i), C) = s_i ∇f(w; d_i) (linesearch (6)), from the expanded
  /// norm ‖g_i‖² = φ′²‖x_i‖² + 2φ′μz_i + μ²‖w‖². A norm that is not a number (an overflowed
  /// margin: ∞·0 or ∞ − ∞) gives 0: the example then contributes nothing, which is within the
  /// ℓ2 ball of radius C (PRIV.LINESEARCH.C_GRAD); an infinite norm gives C/∞ = 0 as well.
  [[nodiscard]] Real clip_scale(const Real& dphi, const Real& z, Eigen::Index i, const Real& w_sq,
                                const Real& C) const {
    using std::sqrt;
    Real n2 = dphi * dphi * sq_[i] + Real(2) * dphi * mu_ * z + mu_ * mu_ * w_sq;
    if (n2 < Real(0)) n2 = Real(0);
    const Real nrm = sqrt(n2);
    if (nrm > C) return Real(C / nrm);
    return nrm <= C ? Real(1) : Real(0);  // NaN: 0
  }

  /// out = Σ_{i∈batch} clip(∇f(w; d_i), C) (Algorithm 2 line 5, Algorithm 3 line 3): every
  /// example's gradient has ℓ2 norm <= C in the sum, whatever the data (an example whose clip
  /// factor is 0 is skipped, so a non-finite φ′ never enters it), so adding or removing one
  /// example moves the sum by at most C in ℓ2: the sensitivity of the ledger's gradient event
  /// (PRIV.LINESEARCH.C_GRAD).
  /// @param batch example indices @param C C_grad > 0 (out is resized to d)
  void clipped_gradient_sum(const vector<Real>& w, std::span<const Eigen::Index> batch,
                            const Real& C, vector<Real>& out) const {
    require_positive("linear_erm::clipped_gradient_sum", "C", C);
    out.setZero(X_.rows());
    const Real w_sq = w.squaredNorm();
    Real scale_sum(0);
    for (const Eigen::Index i : batch) {
      const Real z = margin(w, i);
      const Real dphi = loss_.derivative(z);
      if (dphi == Real(0) && mu_ == Real(0)) continue;
      const Real s = clip_scale(dphi, z, i, w_sq, C);
      if (!(s > Real(0))) continue;  // contributes 0 (non-finite or overflowed gradient norm)
      out += (s * dphi * y_[i]) * X_.col(i);
      scale_sum += s;
    }
    out += (scale_sum * mu_) * w;
  }

  /// Σ_{i∈batch} min(f(w; d_i), C_obj) ∈ [0, |batch|·C_obj] (LS-E2): f >= 0 for every margin
  /// loss, and a value that is not a number counts as C_obj, so one example moves the sum by a
  /// value in [0, C_obj] (PRIV.LINESEARCH.C_OBJ).
  [[nodiscard]] Real clipped_value_sum(const vector<Real>& w, std::span<const Eigen::Index> batch,
                                       const Real& C_obj) const {
    require_positive("linear_erm::clipped_value_sum", "C_obj", C_obj);
    const Real reg = mu_ * w.squaredNorm() / 2;
    Real s(0);
    for (const Eigen::Index i : batch) {
      const Real f = loss_.value(margin(w, i)) + reg;
      s += f < C_obj ? f : C_obj;
    }
    return s;
  }

  /// Fraction of examples with sign(wᵀx_i) = y_i (ties count as errors).
  [[nodiscard]] double accuracy(const vector<Real>& w) const {
    long long ok = 0;
    for (Eigen::Index i = 0; i < X_.cols(); ++i)
      if (margin(w, i) > Real(0)) ++ok;
    return static_cast<double>(ok) / static_cast<double>(X_.cols());
  }

  /// Sub-problem on the given columns (e.g. a cross-validation fold).
  [[nodiscard]] linear_erm subset(std::span<const Eigen::Index> cols) const {
    matrix<Real> X(X_.rows(), static_cast<Eigen::Index>(cols.size()));
    vector<Real> y(static_cast<Eigen::Index>(cols.size()));
    for (std::size_t k = 0; k < cols.size(); ++k) {
      X.col(static_cast<Eigen::Index>(k)) = X_.col(cols[k]);
      y[static_cast<Eigen::Index>(k)] = y_[cols[k]];
    }
    return linear_erm(std::move(X), std::move(y), loss_, mu_);
  }

 private:
  matrix<Real> X_;
  vector<Real> y_;
  margin_loss<Real> loss_;
  Real mu_;
  vector<Real> sq_;  ///< ‖x_i‖²
};

/// Σ_{i∈B} min(f(w − ηg; d_i), C_obj) for many η on one line (NOISYBTLS queries,
/// linesearch Algorithm 1 line 7): z_i(η) = a_i − η b_i with a_i = y_i x_iᵀw, b_i = y_i x_iᵀg,
/// ‖w − ηg‖² = ‖w‖² − 2η wᵀg + η²‖g‖². Holds references to the problem and the batch.
/// @spec LS.ERM
template <real_scalar Real>
class line_evaluator : public line_evaluator_base<Real, line_evaluator<Real>> {
  using base = line_evaluator_base<Real, line_evaluator<Real>>;

 public:
  line_evaluator(const linear_erm<Real>& P, std::span<const Eigen::Index> batch,
                 const vector<Real>& w, const vector<Real>& g)
      : base(w, g), P_(P), a_(static_cast<Eigen::Index>(batch.size())), b_(a_.size()) {
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const Eigen::Index i = batch[k];
      const Real y = P.labels()[i];
      a_[static_cast<Eigen::Index>(k)] = y * P.features().col(i).dot(w);
      b_[static_cast<Eigen::Index>(k)] = y * P.features().col(i).dot(g);
    }
  }
  /// Calls each(min(f(w − ηg; d_i), C_obj)) for the examples of B in order: each value is in
  /// [0, C_obj] (a NaN loss counts as C_obj), the clipping that makes C_obj the query
  /// sensitivity (PRIV.LINESEARCH.C_OBJ).
  template <class Each>
  void for_each_clipped(const Real& eta, const Real& C_obj, Each&& each) const {
    const Real reg = this->regulariser(P_.mu(), eta);
    for (Eigen::Index k = 0; k < a_.size(); ++k)
      each(base::clip(P_.loss().value(Real(a_[k] - eta * b_[k])) + reg, C_obj));
  }

 private:
  const linear_erm<Real>& P_;
  vector<Real> a_, b_;
};

}  // namespace dpref::problems

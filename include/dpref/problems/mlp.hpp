// One-hidden-layer multi-layer perceptron for K-class classification (linesearch §5.7, issue 7):
//   z1 = W1 x + b1 (h),  a1 = ReLU(z1),  z2 = W2 a1 + b2 (K),
//   f_i(w) = CE(z2, y_i) + (μ/2)‖w‖²,  CE(z, y) = log Σ_k e^{z_k} − z_y ≥ 0,
// μ = 0.001 on ALL parameters (weights and biases, linesearch §5.1), so f_i ≥ 0 and
// min(f_i, C_obj) ∈ [0, C_obj] (errata LS-E2). ReLU'(0) is taken as 0 (a subgradient).
// Parameters are one flat vector w of dimension p = h·d + h + K·h + K, laid out as
// [W1 (h×d, column-major) | b1 | W2 (K×h, column-major) | b2].
//
// Per-example gradient without materialising it (δ2 = softmax(z2) − e_y, δ1 = (W2ᵀδ2) ⊙ 1[z1 > 0]):
//   ∇f_i = A_i + μw,  A_i = (δ1 xᵀ, δ1, δ2 a1ᵀ, δ2),
//   ‖A_i‖² = ‖δ1‖²(‖x‖² + 1) + ‖δ2‖²(‖a1‖² + 1)          (‖u vᵀ‖_F = ‖u‖‖v‖),
//   ⟨A_i, w⟩ = δ1ᵀ(W1x + b1) + δ2ᵀ(W2a1 + b2) = δ1ᵀz1 + δ2ᵀz2,
//   ‖∇f_i‖² = ‖A_i‖² + 2μ⟨A_i, w⟩ + μ²‖w‖²,
// so the clip factors s_i of linesearch (6) cost O(h + K) per example after the forward pass,
// and Σ_i s_i ∇f_i = ((δ1 S) Xᵀ, δ1 s, (δ2 S) A1ᵀ, δ2 s) + (Σ s_i) μ w is two GEMMs
// (S = diag(s)). The NOISYBTLS queries Σ_B min(f_i(w − ηg), C_obj) reuse the first layer:
// z1(η) = z1 − η(G1 x + gb1), so each η costs one h×K product per example (mlp_line_evaluator).
// Storage: X is d×n (one example per column), labels in {0, …, K−1}.
// spec/linesearch.md LS.MLP, LS.MLP.CLIP.
#pragma once

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/io/dataset.hpp"
#include "dpref/problems/line_evaluator_base.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"
#include "dpref/scalar.hpp"

namespace dpref::problems {

/// One-hidden-layer ReLU MLP with softmax cross-entropy and L2 regularisation (see file
/// comment). @spec LS.MLP
template <real_scalar Real>
class mlp_classifier {
 public:
  using mat_map = Eigen::Map<const matrix<Real>>;
  using vec_map = Eigen::Map<const vector<Real>>;

  /// @param X d×n inputs (finite) @param labels n labels in {0, …, classes−1}
  /// @param hidden width h >= 1 @param classes K >= 2 @param mu μ >= 0 (default 1/1000)
  /// @throws std::invalid_argument on size mismatch / bad label, std::domain_error otherwise
  mlp_classifier(matrix<Real> X, std::vector<int> labels, Eigen::Index hidden, int classes = 10,
                 Real mu = Real(1) / 1000)
      : X_(std::move(X)), y_(std::move(labels)), h_(hidden), K_(classes), mu_(std::move(mu)) {
    constexpr const char* fn = "dpref::problems::mlp_classifier";
    if (X_.rows() < 1 || X_.cols() < 1) fail_argument(fn, "X", "non-empty d×n", X_.size());
    if (static_cast<Eigen::Index>(y_.size()) != X_.cols())
      fail_argument(fn, "labels.size()", "== X.cols()", y_.size());
    if (h_ < 1) fail_domain(fn, "hidden", ">= 1", h_);
    if (K_ < 2) fail_domain(fn, "classes", ">= 2", K_);
    require_nonnegative(fn, "mu", mu_);
    sq_.resize(X_.cols());
    for (Eigen::Index i = 0; i < X_.cols(); ++i) {
      const int y = y_[static_cast<std::size_t>(i)];
      if (y < 0 || y >= K_)
        fail_argument(fn, "labels[" + std::to_string(i) + "]", "in {0, ..., classes-1}", y);
      for (Eigen::Index j = 0; j < X_.rows(); ++j) require_finite(fn, "X(j,i)", X_(j, i));
      sq_[i] = X_.col(i).squaredNorm();
    }
  }

  [[nodiscard]] Eigen::Index size() const { return X_.cols(); }
  /// p = h·d + h + K·h + K.
  [[nodiscard]] Eigen::Index dimension() const { return h_ * (X_.rows() + 1) + K_ * (h_ + 1); }
  [[nodiscard]] Eigen::Index input_dimension() const { return X_.rows(); }
  [[nodiscard]] Eigen::Index hidden() const { return h_; }
  [[nodiscard]] int classes() const { return K_; }
  [[nodiscard]] const Real& mu() const { return mu_; }
  [[nodiscard]] const matrix<Real>& features() const { return X_; }
  [[nodiscard]] const std::vector<int>& labels() const { return y_; }

  // Views of the parameter blocks of a flat vector of dimension p.
  [[nodiscard]] mat_map W1(const vector<Real>& w) const { return {w.data(), h_, X_.rows()}; }
  [[nodiscard]] vec_map b1(const vector<Real>& w) const { return {w.data() + off_b1(), h_}; }
  [[nodiscard]] mat_map W2(const vector<Real>& w) const { return {w.data() + off_W2(), K_, h_}; }
  [[nodiscard]] vec_map b2(const vector<Real>& w) const { return {w.data() + off_b2(), K_}; }
  [[nodiscard]] Eigen::Index off_b1() const { return h_ * X_.rows(); }
  [[nodiscard]] Eigen::Index off_W2() const { return off_b1() + h_; }
  [[nodiscard]] Eigen::Index off_b2() const { return off_W2() + K_ * h_; }

  /// Data-independent initial point: every weight and bias of a layer with fan-in m uniform in
  /// [−1/√m, 1/√m] (the default of common frameworks); reads the stream only.
  [[nodiscard]] vector<Real> initial_point(philox_stream& s) const {
    using std::sqrt;
    vector<Real> w(dimension());
    const Real r1 = Real(1) / sqrt(Real(static_cast<long long>(X_.rows())));
    const Real r2 = Real(1) / sqrt(Real(static_cast<long long>(h_)));
    for (Eigen::Index j = 0; j < w.size(); ++j)
      w[j] = (j < off_W2() ? r1 : r2) * (Real(2) * uniform01<Real>(s) - Real(1));
    return w;
  }

  /// Columns `batch` of X as a d×|batch| matrix.
  [[nodiscard]] matrix<Real> gather(std::span<const Eigen::Index> batch) const {
    matrix<Real> XB(X_.rows(), static_cast<Eigen::Index>(batch.size()));
    for (std::size_t k = 0; k < batch.size(); ++k)
      XB.col(static_cast<Eigen::Index>(k)) = X_.col(batch[k]);
    return XB;
  }

  /// Forward pass on the columns of XB: Z1 = W1 XB + b1 (h×m), Z2 = W2 ReLU(Z1) + b2 (K×m).
  void forward(const vector<Real>& w, const matrix<Real>& XB, matrix<Real>& Z1, matrix<Real>& A1,
               matrix<Real>& Z2) const {
    Z1.noalias() = W1(w) * XB;
    Z1.colwise() += b1(w);
    A1 = Z1.cwiseMax(Real(0));
    Z2.noalias() = W2(w) * A1;
    Z2.colwise() += b2(w);
  }

  /// Cross-entropy log Σ_k e^{z_k} − z_y (stable) of one column of logits; also writes the
  /// softmax into p when p != nullptr.
  static Real cross_entropy(const Eigen::Ref<const vector<Real>>& z, int y,
                            vector<Real>* p = nullptr) {
    using std::exp;
    using std::log;
    const Real m = z.maxCoeff();
    Real s(0);
    for (Eigen::Index k = 0; k < z.size(); ++k) s += exp(Real(z[k] - m));
    const Real lse = m + log(s);
    if (p != nullptr) {
      p->resize(z.size());
      for (Eigen::Index k = 0; k < z.size(); ++k) (*p)[k] = exp(Real(z[k] - lse));
    }
    Real ce = lse - z[y];
    return ce < Real(0) ? Real(0) : ce;  // rounding only (CE >= 0 exactly)
  }

  /// f(w; d_i) = CE + (μ/2)‖w‖² (>= 0).
  [[nodiscard]] Real example_value(const vector<Real>& w, Eigen::Index i) const {
    const Eigen::Index idx[1] = {i};
    return value_sum(w, idx, nullptr);
  }

  /// F(w) = (1/n) Σ f(w; d_i) (unclipped; forward passes in chunks of 1024 examples).
  [[nodiscard]] Real value(const vector<Real>& w) const {
    Real s(0);
    std::vector<Eigen::Index> chunk;
    for (Eigen::Index start = 0; start < X_.cols(); start += 1024) {
      chunk.clear();
      for (Eigen::Index i = start; i < X_.cols() && i < start + 1024; ++i) chunk.push_back(i);
      s += value_sum(w, chunk, nullptr);
    }
    return s / Real(static_cast<long long>(X_.cols()));
  }

  /// Σ_{i∈batch} min(f(w; d_i), C_obj) ∈ [0, |batch|·C_obj] (LS-E2). @param C_obj > 0
  [[nodiscard]] Real clipped_value_sum(const vector<Real>& w, std::span<const Eigen::Index> batch,
                                       const Real& C_obj) const {
    require_positive("mlp_classifier::clipped_value_sum", "C_obj", C_obj);
    return value_sum(w, batch, &C_obj);
  }

  /// Clip factors s_i = 1/max(1, ‖∇f(w; d_i)‖/C) of the batch (linesearch (6)), from the norm
  /// identity of the file comment, and optionally the clipped gradient sum into out.
  /// @param C C_grad > 0
  std::vector<Real> clip_factors(const vector<Real>& w, std::span<const Eigen::Index> batch,
                                 const Real& C, vector<Real>* out = nullptr) const {
    using std::sqrt;
    require_positive("mlp_classifier::clipped_gradient_sum", "C", C);
    const matrix<Real> XB = gather(batch);
    const auto m = static_cast<Eigen::Index>(batch.size());
    matrix<Real> Z1, A1, Z2;
    forward(w, XB, Z1, A1, Z2);
    matrix<Real> D2(K_, m);
    vector<Real> p;
    for (Eigen::Index k = 0; k < m; ++k) {
      const int y = y_[static_cast<std::size_t>(batch[static_cast<std::size_t>(k)])];
      (void)cross_entropy(Z2.col(k), y, &p);
      p[y] -= Real(1);
      D2.col(k) = p;  // δ2 = softmax − e_y
    }
    matrix<Real> D1;
    D1.noalias() = W2(w).transpose() * D2;
    D1 = D1.cwiseProduct((Z1.array() > Real(0)).template cast<Real>().matrix());  // ReLU'
    const Real w_sq = w.squaredNorm();
    std::vector<Real> s(static_cast<std::size_t>(m));
    Real scale_sum(0);
    for (Eigen::Index k = 0; k < m; ++k) {
      const Eigen::Index i = batch[static_cast<std::size_t>(k)];
      const Real a = D1.col(k).squaredNorm() * (sq_[i] + Real(1)) +
                     D2.col(k).squaredNorm() * (A1.col(k).squaredNorm() + Real(1));
      const Real aw = D1.col(k).dot(Z1.col(k)) + D2.col(k).dot(Z2.col(k));
      Real n2 = a + Real(2) * mu_ * aw + mu_ * mu_ * w_sq;
      if (n2 < Real(0)) n2 = Real(0);
      const Real nrm = sqrt(n2);
      // an infinite or NaN norm (overflowed forward pass) gives 0: the example contributes
      // nothing, within the ℓ2 ball of radius C (PRIV.LINESEARCH.C_GRAD)
      const Real sk = nrm > C ? Real(C / nrm) : nrm <= C ? Real(1) : Real(0);
      s[static_cast<std::size_t>(k)] = sk;
      scale_sum += sk;
      if (sk > Real(0)) {
        D1.col(k) *= sk;
        D2.col(k) *= sk;
      } else {  // 0·∞ would be NaN in the products below
        D1.col(k).setZero();
        D2.col(k).setZero();
        A1.col(k).setZero();
      }
    }
    if (out != nullptr) {
      out->resize(dimension());
      const Eigen::Index d = X_.rows();
      Eigen::Map<matrix<Real>> G1(out->data(), h_, d), G2(out->data() + off_W2(), K_, h_);
      Eigen::Map<vector<Real>> g1(out->data() + off_b1(), h_), g2(out->data() + off_b2(), K_);
      G1.noalias() = D1 * XB.transpose();
      g1 = D1.rowwise().sum();
      G2.noalias() = D2 * A1.transpose();
      g2 = D2.rowwise().sum();
      *out += (scale_sum * mu_) * w;
    }
    return s;
  }

  /// out = Σ_{i∈batch} clip(∇f(w; d_i), C) (Algorithm 2 line 5) by two GEMMs.
  void clipped_gradient_sum(const vector<Real>& w, std::span<const Eigen::Index> batch,
                            const Real& C, vector<Real>& out) const {
    (void)clip_factors(w, batch, C, &out);
  }

  /// Fraction of examples whose largest logit is the label (first maximum on ties).
  [[nodiscard]] double accuracy(const vector<Real>& w) const {
    long long ok = 0;
    std::vector<Eigen::Index> chunk;
    matrix<Real> Z1, A1, Z2;
    for (Eigen::Index start = 0; start < X_.cols(); start += 1024) {
      chunk.clear();
      for (Eigen::Index i = start; i < X_.cols() && i < start + 1024; ++i) chunk.push_back(i);
      forward(w, gather(chunk), Z1, A1, Z2);
      for (Eigen::Index k = 0; k < Z2.cols(); ++k) {
        Eigen::Index arg = 0;
        Z2.col(k).maxCoeff(&arg);
        if (arg == y_[static_cast<std::size_t>(chunk[static_cast<std::size_t>(k)])]) ++ok;
      }
    }
    return static_cast<double>(ok) / static_cast<double>(X_.cols());
  }

 private:
  /// Σ_{i∈batch} f(w; d_i), each clipped at *C_obj when C_obj != nullptr.
  Real value_sum(const vector<Real>& w, std::span<const Eigen::Index> batch,
                 const Real* C_obj) const {
    matrix<Real> Z1, A1, Z2;
    forward(w, gather(batch), Z1, A1, Z2);
    const Real reg = mu_ * w.squaredNorm() / 2;
    Real s(0);
    for (Eigen::Index k = 0; k < Z2.cols(); ++k) {
      const int y = y_[static_cast<std::size_t>(batch[static_cast<std::size_t>(k)])];
      const Real f = cross_entropy(Z2.col(k), y) + reg;
      s += (C_obj != nullptr && !(f <= *C_obj)) ? *C_obj : f;  // NaN counts as C_obj
    }
    return s;
  }

  matrix<Real> X_;
  std::vector<int> y_;
  Eigen::Index h_;
  int K_;
  Real mu_;
  vector<Real> sq_;  ///< ‖x_i‖²
};

/// Σ_{i∈B} min(f(w − ηg; d_i), C_obj) for many η on one line (NOISYBTLS queries, linesearch
/// Algorithm 1 line 7): z1(η) = Z1 − ηU1 with U1 = G1 X_B + gb1 computed once, then per η one
/// K×h GEMM; ‖w − ηg‖² = ‖w‖² − 2η wᵀg + η²‖g‖². Holds a reference to the problem.
/// @spec LS.MLP
template <real_scalar Real>
class mlp_line_evaluator : public line_evaluator_base<Real, mlp_line_evaluator<Real>> {
  using base = line_evaluator_base<Real, mlp_line_evaluator<Real>>;

 public:
  mlp_line_evaluator(const mlp_classifier<Real>& P, std::span<const Eigen::Index> batch,
                     const vector<Real>& w, const vector<Real>& g)
      : base(w, g), P_(P), W2_(P.W2(w)), b2_(P.b2(w)), G2_(P.W2(g)), gb2_(P.b2(g)) {
    const matrix<Real> XB = P.gather(batch);
    Z1_.noalias() = P.W1(w) * XB;
    Z1_.colwise() += P.b1(w);
    U1_.noalias() = P.W1(g) * XB;
    U1_.colwise() += P.b1(g);
    y_.reserve(batch.size());
    for (const Eigen::Index i : batch) y_.push_back(P.labels()[static_cast<std::size_t>(i)]);
  }
  /// Calls each(min(f(w − ηg; d_i), C_obj)) for the examples of B in order: each value is in
  /// [0, C_obj] (CE >= 0; a NaN loss counts as C_obj), so C_obj is the query sensitivity
  /// (PRIV.LINESEARCH.C_OBJ).
  template <class Each>
  void for_each_clipped(const Real& eta, const Real& C_obj, Each&& each) const {
    const Real reg = this->regulariser(P_.mu(), eta);
    const matrix<Real> A1 = (Z1_ - eta * U1_).cwiseMax(Real(0));
    const matrix<Real> W2 = W2_ - eta * G2_;
    const vector<Real> b2 = b2_ - eta * gb2_;
    matrix<Real> Z2;
    Z2.noalias() = W2 * A1;
    Z2.colwise() += b2;
    for (Eigen::Index k = 0; k < Z2.cols(); ++k) {
      const Real f =
          mlp_classifier<Real>::cross_entropy(Z2.col(k), y_[static_cast<std::size_t>(k)]) + reg;
      each(base::clip(f, C_obj));
    }
  }

 private:
  const mlp_classifier<Real>& P_;
  matrix<Real> W2_;
  vector<Real> b2_;
  matrix<Real> G2_;
  vector<Real> gb2_;
  matrix<Real> Z1_, U1_;
  std::vector<int> y_;
};

/// The line evaluator of the MLP (found by argument-dependent lookup from the linesearch
/// algorithms). @spec LS.MLP
template <real_scalar Real>
mlp_line_evaluator<Real> make_line(const mlp_classifier<Real>& P,
                                   std::span<const Eigen::Index> batch, const vector<Real>& w,
                                   const vector<Real>& g) {
  return mlp_line_evaluator<Real>(P, batch, w, g);
}

/// MLP problem from IDX image/label files (Fashion-MNIST, scripts/real_data.sh): the first
/// max_rows examples (0 = all), pixels p/255 ∈ [0, 1] rescaled to 2p/255 − 1 ∈ [−1, 1]
/// (linesearch §5.2). @throws std::invalid_argument on unreadable files or differing counts
/// @spec LS.MLP.DATA
template <real_scalar Real>
mlp_classifier<Real> mlp_from_idx(const std::string& images, const std::string& labels,
                                  Eigen::Index hidden, long long max_rows = 0,
                                  Real mu = Real(1) / 1000, int classes = 10) {
  if (max_rows < 0) fail_argument("mlp_from_idx", "max_rows", ">= 0", max_rows);
  matrix<Real> X = io::read_idx_images<Real>(images);
  std::vector<int> y = io::read_idx_labels(labels);
  if (static_cast<Eigen::Index>(y.size()) != X.cols())
    fail_argument("mlp_from_idx", "labels", "as many as images", y.size());
  if (max_rows > 0 && max_rows < X.cols()) {
    X.conservativeResize(Eigen::NoChange, static_cast<Eigen::Index>(max_rows));
    y.resize(static_cast<std::size_t>(max_rows));
  }
  X = (Real(2) * X.array() - Real(1)).matrix();
  return mlp_classifier<Real>(std::move(X), std::move(y), hidden, classes, std::move(mu));
}

}  // namespace dpref::problems

// Piecewise-affine objective of pwa (3): f(x) = max_{i≤m} (a_iᵀx + b_i) over a polytope
// P = {x : −c ≤ x_j ≤ c} ∩ {x : Gx ≤ h}. The private data are b ∈ R^m; two data sets are
// neighbours when max_i |b_i − b′_i| ≤ bmax (pwa (4)). A (m×d), c, G, h and bmax are public.
#pragma once

#include <utility>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::pwa {

/// The polytope P of pwa §3: the box [−c, c]^d intersected with optional rows Gx ≤ h.
/// @spec PWA.PROBLEM
template <real_scalar Real>
struct polytope {
  int dimension = 0;
  Real box = Real(1);  ///< c > 0: −c ≤ x_j ≤ c
  matrix<Real> G;      ///< k×d extra inequalities (k may be 0)
  vector<Real> h;      ///< size k

  /// The box only.
  static polytope box_only(int d, const Real& c) {
    polytope p;
    p.dimension = d;
    p.box = c;
    p.G = matrix<Real>(0, d);
    p.h = vector<Real>(0);
    p.validate();
    return p;
  }

  [[nodiscard]] bool has_extra_rows() const { return G.rows() > 0; }

  void validate() const {
    constexpr const char* fn = "dpref::pwa::polytope";
    if (dimension < 1) fail_argument(fn, "dimension", ">= 1", dimension);
    require_positive(fn, "box (c)", box);
    if (G.cols() != dimension) fail_argument(fn, "G.cols()", "== dimension", G.cols());
    if (h.size() != G.rows()) fail_argument(fn, "h.size()", "== G.rows()", h.size());
    for (Eigen::Index i = 0; i < G.size(); ++i) require_finite(fn, "G", G.data()[i]);
    for (Eigen::Index i = 0; i < h.size(); ++i) require_finite(fn, "h", h[i]);
  }

  /// x ∈ P up to an absolute slack `tol` (tol = 0: exact membership).
  [[nodiscard]] bool contains(const vector<Real>& x, const Real& tol = Real(0)) const {
    if (x.size() != dimension) return false;
    for (int j = 0; j < dimension; ++j)
      if (x[j] < -box - tol || x[j] > box + tol) return false;
    if (has_extra_rows()) {
      const vector<Real> r = G * x - h;
      for (Eigen::Index i = 0; i < r.size(); ++i)
        if (r[i] > tol) return false;
    }
    return true;
  }
};

/// f(x) = max_i (a_iᵀx + b_i) (pwa (3)); rows of A are the a_iᵀ. @spec PWA.PROBLEM
template <real_scalar Real>
class piecewise_affine {
 public:
  /// @throws std::invalid_argument on size mismatch, non-finite entries or bmax ≤ 0
  piecewise_affine(matrix<Real> A, vector<Real> b, pwa::polytope<Real> P, const Real& bmax)
      : A_(std::move(A)), b_(std::move(b)), P_(std::move(P)), bmax_(bmax) {
    constexpr const char* fn = "piecewise_affine";
    P_.validate();
    if (A_.rows() < 1) fail_argument(fn, "A.rows() (m)", ">= 1", A_.rows());
    if (A_.cols() != P_.dimension) fail_argument(fn, "A.cols()", "== P.dimension", A_.cols());
    if (b_.size() != A_.rows()) fail_argument(fn, "b.size()", "== A.rows()", b_.size());
    for (Eigen::Index i = 0; i < A_.size(); ++i) require_finite(fn, "A", A_.data()[i]);
    for (Eigen::Index i = 0; i < b_.size(); ++i) require_finite(fn, "b", b_[i]);
    require_positive(fn, "bmax", bmax_);
  }

  [[nodiscard]] int pieces() const { return static_cast<int>(A_.rows()); }     ///< m
  [[nodiscard]] int dimension() const { return static_cast<int>(A_.cols()); }  ///< d
  [[nodiscard]] const matrix<Real>& A() const { return A_; }
  [[nodiscard]] const vector<Real>& b() const { return b_; }
  [[nodiscard]] const pwa::polytope<Real>& polytope() const { return P_; }
  [[nodiscard]] const Real& bmax() const { return bmax_; }

  /// The same public structure with other private data b′ (a neighbour or a noisy b).
  [[nodiscard]] piecewise_affine with_b(vector<Real> b_new) const {
    return piecewise_affine(A_, std::move(b_new), P_, bmax_);
  }

  /// u_i(x) = a_iᵀx + b_i for every i (pwa Algorithm 2's utilities).
  [[nodiscard]] vector<Real> utilities(const vector<Real>& x) const {
    check_x("piecewise_affine::utilities", x);
    return A_ * x + b_;
  }
  /// f(x) = max_i u_i(x).
  [[nodiscard]] Real value(const vector<Real>& x) const { return utilities(x).maxCoeff(); }
  /// Index of a maximising piece (smallest index at ties); a_i is a subgradient at x.
  [[nodiscard]] int active_piece(const vector<Real>& x) const {
    const vector<Real> u = utilities(x);
    Eigen::Index i = 0;
    u.maxCoeff(&i);
    return static_cast<int>(i);
  }

 private:
  void check_x(const char* fn, const vector<Real>& x) const {
    if (x.size() != A_.cols()) fail_argument(fn, "x.size()", "== d", x.size());
  }

  matrix<Real> A_;
  vector<Real> b_;
  pwa::polytope<Real> P_;
  Real bmax_;
};

}  // namespace dpref::pwa

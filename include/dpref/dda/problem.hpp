// Distributed regularised ERM of dda (1) with the hinge loss (27):
//   F(x) = (1/n) Σ_i f_i(x) + h(x),  f_i(x) = (1/q) Σ_j max{0, 1 − y_i^(j)⟨C_i^(j), x⟩},
// records stored one per column (dense d×N or Eigen::SparseMatrix), node i owning the q
// consecutive columns [iq, (i+1)q) (N − nq trailing records are dropped so that every node has
// q records and F equals the plain average loss + h). L of Assumption 3 is max_j ‖C^(j)‖
// (the hinge is 1-Lipschitz in the margin). Also: a certified non-private solve (prox-SDCA with
// duality-gap bounds) for F*, test accuracy, and problem_spec, the public description of a
// run's problem (DDA.PROBLEM.SPEC; dda/data.hpp builds its data sets).
// @spec DDA.PROBLEM DDA.FSTAR
#pragma once

#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/params.hpp"
#include "dpref/problems/margin_losses.hpp"
#include "dpref/problems/regularizers.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/uniform_int.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

template <class M>
inline constexpr bool is_sparse_v = std::is_base_of_v<Eigen::SparseMatrixBase<M>, M>;

/// ⟨column j of X, x⟩ for dense or sparse X.
template <real_scalar Real, class Features>
Real column_dot(const Features& X, Eigen::Index j, const Eigen::Ref<const vector<Real>>& x) {
  if constexpr (is_sparse_v<Features>) {
    Real s(0);
    for (typename Features::InnerIterator it(X, j); it; ++it) s += it.value() * x[it.index()];
    return s;
  } else {
    return X.col(j).dot(x);
  }
}

/// out += a · (column j of X).
template <real_scalar Real, class Features>
void column_axpy(const Features& X, Eigen::Index j, const Real& a, Eigen::Ref<vector<Real>> out) {
  if constexpr (is_sparse_v<Features>) {
    for (typename Features::InnerIterator it(X, j); it; ++it) out[it.index()] += a * it.value();
  } else {
    out += a * X.col(j);
  }
}

/// Squared norm of column j.
template <real_scalar Real, class Features>
Real column_norm2(const Features& X, Eigen::Index j) {
  if constexpr (is_sparse_v<Features>) {
    Real s(0);
    for (typename Features::InnerIterator it(X, j); it; ++it) s += it.value() * it.value();
    return s;
  } else {
    return X.col(j).squaredNorm();
  }
}

/// Scales every column with norm > 1 to norm 1 (a per-record, data-independent map, so L <= 1
/// is a public bound).
template <real_scalar Real, class Features>
void clip_columns_to_unit_norm(Features& X) {
  using std::sqrt;
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const Real n2 = column_norm2<Real>(X, j);
    if (n2 > Real(1)) {
      const Real s = Real(1) / Real(sqrt(n2));
      if constexpr (is_sparse_v<Features>) {
        for (typename Features::InnerIterator it(X, j); it; ++it) it.valueRef() *= s;
      } else {
        X.col(j) *= s;
      }
    }
  }
}

/// dda problem (1)/(26)–(27). @spec DDA.PROBLEM
template <real_scalar Real, class Features = matrix<Real>>
class problem {
 public:
  /// @param X d×N records @param y labels ±1 (size N) @param nodes n >= 1 (N >= n)
  /// @param h regulariser @throws std::invalid_argument / std::domain_error
  problem(Features X, vector<Real> y, int nodes, problems::regularizer<Real> h)
      : X_(std::move(X)), y_(std::move(y)), n_(nodes), h_(h) {
    if (y_.size() != X_.cols())
      fail_argument("dpref::dda::problem", "y", "size == X.cols()", y_.size());
    if (n_ < 1) fail_domain("dpref::dda::problem", "nodes", ">= 1", n_);
    if (X_.cols() < n_) fail_domain("dpref::dda::problem", "records", ">= nodes", X_.cols());
    for (Eigen::Index j = 0; j < y_.size(); ++j)
      if (y_[j] != Real(1) && y_[j] != Real(-1))
        fail_argument("dpref::dda::problem", "y[j]", "±1", y_[j]);
    q_ = static_cast<long long>(X_.cols()) / n_;
    using std::sqrt;
    Real m(0);
    for (Eigen::Index j = 0; j < used(); ++j) m = std::max(m, column_norm2<Real>(X_, j));
    L_ = Real(sqrt(m));
  }

  [[nodiscard]] Eigen::Index dimension() const { return X_.rows(); }
  [[nodiscard]] int nodes() const { return n_; }
  /// q: records per node.
  [[nodiscard]] long long per_node() const { return q_; }
  /// Records used (nq).
  [[nodiscard]] Eigen::Index used() const { return static_cast<Eigen::Index>(q_) * n_; }
  /// max record norm: the data-dependent L of Assumption 3. A non-private diagnostic only
  /// (ARCH.PUBLIC): the calibration uses the public bound params.lipschitz.
  [[nodiscard]] const Real& empirical_lipschitz() const { return L_; }
  [[nodiscard]] const problems::regularizer<Real>& reg() const { return h_; }
  [[nodiscard]] const Features& features() const { return X_; }
  [[nodiscard]] const vector<Real>& labels() const { return y_; }
  /// Global column of record r (0 <= r < q) of node i.
  [[nodiscard]] Eigen::Index record(int i, long long r) const {
    return static_cast<Eigen::Index>(static_cast<long long>(i) * q_ + r);
  }

  /// out += scale · ĝ, ĝ = φ′(y⟨c, x⟩) y c ∈ ∂_x l(x, ξ) for record column j (hinge).
  void add_subgradient(Eigen::Index j, const Eigen::Ref<const vector<Real>>& x, const Real& scale,
                       Eigen::Ref<vector<Real>> out) const {
    const Real z = y_[j] * column_dot<Real>(X_, j, x);
    const Real d = loss_.derivative(z);
    if (d != Real(0)) column_axpy<Real>(X_, j, scale * d * y_[j], out);
  }

  /// (1/n)Σ_i f_i(x) = average hinge loss over the nq used records.
  [[nodiscard]] Real loss(const vector<Real>& x) const {
    Real s(0);
    for (Eigen::Index j = 0; j < used(); ++j) s += loss_.value(y_[j] * column_dot<Real>(X_, j, x));
    return s / Real(used());
  }
  /// F(x) of (1).
  [[nodiscard]] Real objective(const vector<Real>& x) const { return loss(x) + h_.value(x); }

 private:
  Features X_;
  vector<Real> y_;
  int n_;
  problems::regularizer<Real> h_;
  long long q_ = 0;
  Real L_ = Real(0);
  problems::margin_loss<Real> loss_ = problems::margin_loss<Real>::hinge();
};

/// Fraction of records with sign⟨c, x⟩ = y (0 counts as +1).
template <real_scalar Real, class Features>
Real accuracy(const Features& X, const vector<Real>& y, const vector<Real>& x) {
  long long ok = 0;
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const Real s = column_dot<Real>(X, j, x);
    if ((s >= Real(0) ? Real(1) : Real(-1)) == y[j]) ++ok;
  }
  return Real(ok) / Real(X.cols());
}

/// Certified bracket of F* = min F.
template <real_scalar Real>
struct optimum_bracket {
  vector<Real> x;  ///< best primal point found
  Real upper;      ///< F(x) >= F*
  Real lower;      ///< dual value <= F*
  long long epochs = 0;
};

/// Non-private solve of dda (1) with h = ℓ2 (μ > 0) or ℓ1 (φ > 0) by prox-SDCA (Shalev-Shwartz–
/// Zhang) on the hinge dual α ∈ [0,1]^N, v = (1/N)Σα_j y_j c_j:
///  - ℓ2: x = v/μ, dual D(α) = (1/N)Σα_j − (μ/2)‖x‖² <= F* (exact duality);
///  - ℓ1: iterates of the elastic net φ‖x‖₁ + (λ/2)‖x‖² (λ = `ridge`), x = soft(v, φ)/λ; the
///    lower bound is (1/N)Σα'_j with α' = α·min(1, φ/‖v‖∞) feasible for the LP dual
///    (‖v'‖∞ <= φ), so F* >= it.
/// Stops when upper − lower <= tol or after max_epochs. Deterministic given `s`.
/// @spec DDA.FSTAR
template <real_scalar Real, class Features>
optimum_bracket<Real> solve_optimum(const problem<Real, Features>& p, const Real& tol,
                                    long long max_epochs, philox_stream& s,
                                    const Real& ridge = Real(0)) {
  const auto& h = p.reg();
  const bool l2 = h.kind == problems::regularizer_kind::l2;
  if (!l2 && h.kind != problems::regularizer_kind::l1)
    fail_argument("solve_optimum", "h", "l2 or l1 regulariser", 0);
  if (!(h.weight > Real(0))) fail_domain("solve_optimum", "h.weight", "> 0", h.weight);
  const Real lambda = l2 ? h.weight : ridge;
  if (!(lambda > Real(0))) fail_domain("solve_optimum", "ridge", "> 0 for l1", ridge);
  const auto& X = p.features();
  const auto& y = p.labels();
  const Eigen::Index N = p.used(), d = p.dimension();
  const Real phi = l2 ? Real(0) : h.weight;
  vector<Real> alpha = vector<Real>::Zero(N), v = vector<Real>::Zero(d), x = vector<Real>::Zero(d);
  std::vector<Real> n2(static_cast<std::size_t>(N));
  for (Eigen::Index j = 0; j < N; ++j) n2[static_cast<std::size_t>(j)] = column_norm2<Real>(X, j);
  auto refresh = [&](Eigen::Index k) {
    const Real a = v[k];
    x[k] = (a > phi ? a - phi : (a < -phi ? a + phi : Real(0))) / lambda;
  };
  optimum_bracket<Real> out{x, std::numeric_limits<Real>::infinity(),
                            -std::numeric_limits<Real>::infinity(), 0};
  std::vector<Eigen::Index> order(static_cast<std::size_t>(N));
  for (Eigen::Index j = 0; j < N; ++j) order[static_cast<std::size_t>(j)] = j;
  for (long long ep = 1; ep <= max_epochs; ++ep) {
    for (Eigen::Index k = N - 1; k > 0; --k) {
      // not privacy noise: shuffle of the non-private optimum search
      const auto r = static_cast<Eigen::Index>(secure::uniform_int<std::int64_t>(s, k + 1));
      std::swap(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>(r)]);
    }
    for (Eigen::Index j : order) {
      const Real nn = n2[static_cast<std::size_t>(j)];
      if (!(nn > Real(0))) continue;
      const Real m = y[j] * column_dot<Real>(X, j, x);
      Real a = alpha[j] + (Real(1) - m) * lambda * Real(N) / nn;
      a = a < Real(0) ? Real(0) : (a > Real(1) ? Real(1) : a);
      const Real da = a - alpha[j];
      if (da == Real(0)) continue;
      alpha[j] = a;
      const Real c = da * y[j] / Real(N);
      if constexpr (is_sparse_v<Features>) {
        for (typename Features::InnerIterator it(X, j); it; ++it) {
          v[it.index()] += c * it.value();
          refresh(it.index());
        }
      } else {
        v += c * X.col(j);
        for (Eigen::Index k = 0; k < d; ++k) refresh(k);
      }
    }
    out.epochs = ep;
    for (Eigen::Index k = 0; k < d; ++k) refresh(k);  // no drift
    const Real up = p.objective(x);
    Real lo;
    const Real sa = alpha.sum() / Real(N);
    if (l2) {
      lo = sa - lambda * x.squaredNorm() / 2;
    } else {
      const Real vinf = v.cwiseAbs().maxCoeff();
      lo = vinf > phi ? sa * (phi / vinf) : sa;
    }
    if (up < out.upper) {
      out.upper = up;
      out.x = x;
    }
    if (lo > out.lower) out.lower = lo;
    if (out.upper - out.lower <= tol) break;
  }
  return out;
}

enum class dataset { synthetic, fashion, grants };
DPREF_ENUM_NAMES(dataset, synthetic, fashion, grants)
enum class regularizer_choice { l2, l1 };
DPREF_ENUM_NAMES(regularizer_choice, l2, l1)

/// Public description of the problem of a run. @spec DDA.PROBLEM.SPEC
template <real_scalar Real>
struct problem_spec {
  static constexpr long long max_records = 10000000;
  static constexpr int max_dimension = 100000;

  dataset data = dataset::synthetic;
  long long records = 4000;
  int dimension = 20;
  std::uint64_t data_seed = 20261121;
  std::string data_dir = "data/real";
  int fashion_negative = 0;
  int fashion_positive = 1;
  regularizer_choice regularizer = regularizer_choice::l2;
  Real reg_weight = Real(5) / 10000;

  template <class V>
  void fields(V&& v) {
    v("data", data, "synthetic (two Gaussian classes), fashion (Fashion-MNIST) or grants");
    v("records", records, "synthetic: training records N in [2, 1e7] (test: N/5)");
    v("dimension", dimension, "synthetic: features d in [1, 1e5]");
    v("data_seed", data_seed, "synthetic: seed of the records");
    v("data_dir", data_dir, "fashion, grants: folder written by scripts/real_data.sh");
    v("fashion_negative", fashion_negative, "fashion: class in [0, 9] labelled -1");
    v("fashion_positive", fashion_positive, "fashion: class in [0, 9] labelled +1");
    v("regularizer", regularizer, "h of dda (1): l2 ((μ/2)‖x‖²) or l1 (φ‖x‖₁)");
    v("reg_weight", reg_weight, "μ or φ > 0");
  }

  /// @throws invalid_parameter "dda::problem_spec.<field> must be <condition>, got <value>"
  void validate() const {
    const param_checker c("dda::problem_spec");
    c.at_least<long long>("records", records, 2, max_records);
    c.at_least<int>("dimension", dimension, 1, max_dimension);
    c.require(static_cast<double>(records) * dimension <= 2e8, "records",
              "such that records × dimension <= 2e8 (memory bound)", records);
    c.at_least<int>("fashion_negative", fashion_negative, 0, 9);
    c.at_least<int>("fashion_positive", fashion_positive, 0, 9);
    c.require(fashion_positive != fashion_negative, "fashion_positive", "!= fashion_negative",
              fashion_positive);
    c.positive("reg_weight", reg_weight);
  }

  [[nodiscard]] problems::regularizer<Real> make_regularizer() const {
    return regularizer == regularizer_choice::l1 ? problems::regularizer<Real>::l1(reg_weight)
                                                 : problems::regularizer<Real>::l2(reg_weight);
  }
};

}  // namespace dpref::dda

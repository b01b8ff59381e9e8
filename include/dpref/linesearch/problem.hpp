// The problem of the linesearch paper's convex experiments (spec/linesearch.md LS.API, §5.1):
// L2-regularised linear ERM (problem<Real> = problems::linear_erm<Real>), its public
// description problem_spec<Real> (a data file or synthetic data) and make_problem.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "dpref/io/dataset.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/params.hpp"
#include "dpref/problems/erm.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"
#include "dpref/scalar.hpp"

namespace dpref::linesearch {

/// How the linear ERM problem is built from public inputs (spec/architecture.md step 3).
/// @spec LS.API
template <real_scalar Real>
struct problem_spec {
  std::string data;                   ///< CSV (label,features) or LIBSVM (.svm); "" = synthetic
  std::optional<long long> max_rows;  ///< keep every k-th row so that at most this many remain
  long long synthetic_n = 250000;     ///< synthetic examples (Fertility-sized; see file comment)
  long long synthetic_d = 10;         ///< synthetic dimension
  std::uint64_t synthetic_seed = 20261121;  ///< generator seed of the synthetic data
  loss_kind loss = loss_kind::logistic;
  Real mu = Real(1) / 1000;  ///< L2 regularisation μ (§5.1)

  template <class V>
  void fields(V&& v) {
    v("data", data, "CSV (label,features) or LIBSVM (.svm) file; empty: synthetic data");
    v("max_rows", max_rows, "keep every k-th row so that at most max_rows >= 1 remain");
    v("synthetic_n", synthetic_n, "synthetic examples in [1, 1e7] (n·d <= 2^26)");
    v("synthetic_d", synthetic_d, "synthetic dimension in [1, 100000] (n·d <= 2^26)");
    v("synthetic_seed", synthetic_seed, "seed of the synthetic data generator");
    v("loss", loss, "logistic, hinge or huberized_hinge");
    v("mu", mu, "L2 regularisation μ in [0, 1e6]");
  }
  /// Memory bound of the dense data (never lifted): n·d <= 2^26 values.
  static constexpr long long max_cells = 1LL << 26;
  void validate() const {
    const param_checker c("linesearch::problem");
    if (max_rows) c.at_least<long long>("max_rows", *max_rows, 1, 100000000);
    c.at_least<long long>("synthetic_n", synthetic_n, 1, 10000000);
    c.at_least<long long>("synthetic_d", synthetic_d, 1, 100000);
    if (data.empty())
      c.require(synthetic_n <= max_cells / synthetic_d, "synthetic_n",
                "<= 2^26 / synthetic_d (memory bound on n·d)", synthetic_n);
    c.require(data.size() <= 4096, "data", "a path of at most 4096 characters", data.size());
    c.in_closed("mu", mu, Real(0), Real(1000000), "finite and in [0, 1e6]");
  }
};

/// The problem of the paper's convex experiments (§5.1): L2-regularised linear ERM.
template <real_scalar Real>
using problem = problems::linear_erm<Real>;

/// Synthetic binary data: x ∈ [0, 1]^d, labels from a planted w ∈ [−2, 2]^d with 10% of the
/// labels flipped, drawn from the stream (synthetic_seed ⊕ 0x5EED, 77).
template <real_scalar Real>
problem<Real> synthetic_problem(const problem_spec<Real>& s) {
  philox_stream st(s.synthetic_seed ^ 0x5EEDull, 77);
  matrix<Real> X(s.synthetic_d, s.synthetic_n);
  vector<Real> y(s.synthetic_n), w0(s.synthetic_d);
  // not privacy noise: synthetic data generation (public seed)
  for (auto& v : w0) v = Real(4) * uniform01<Real>(st) - Real(2);
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    // not privacy noise: synthetic data generation (public seed)
    for (Eigen::Index j = 0; j < X.rows(); ++j) X(j, i) = uniform01<Real>(st);
    Real m = X.col(i).dot(w0) - w0.sum() / 2;
    // not privacy noise: synthetic data generation (public seed)
    if (uniform01<Real>(st) < Real(1) / 10) m = -m;
    y[i] = m > Real(0) ? Real(1) : Real(-1);
  }
  return problem<Real>(std::move(X), std::move(y), margin_loss_of<Real>(s.loss), s.mu);
}

/// Builds the problem: the data file (CSV label,features or LIBSVM ".svm"; every k-th row kept
/// when max_rows is given) or synthetic data. The dense data are bounded by n·d <= 2^26 values
/// (checked before allocating). @throws invalid_parameter / std::invalid_argument naming the
/// field or the file @spec LS.API
template <real_scalar Real>
problem<Real> make_problem(const problem_spec<Real>& s) {
  s.validate();
  if (s.data.empty()) return synthetic_problem(s);
  io::dataset_limits lim;
  lim.max_cells = problem_spec<Real>::max_cells;
  matrix<Real> X;
  vector<Real> y;
  if (s.data.size() > 4 && s.data.substr(s.data.size() - 4) == ".svm") {
    auto d = io::read_libsvm<Real>(s.data, 0, lim);
    param_checker("linesearch::problem")
        .require(
            d.X.rows() <= problem_spec<Real>::max_cells / std::max<Eigen::Index>(1, d.X.cols()),
            "data", "a data set with n·d <= 2^26 (memory bound)", s.data);
    X = matrix<Real>(d.X);
    y = std::move(d.y);
  } else {
    auto d = io::read_csv_binary<Real>(s.data, lim);
    X = std::move(d.X);
    y = std::move(d.y);
  }
  if (s.max_rows && X.cols() > *s.max_rows) {
    const Eigen::Index stride = (X.cols() + *s.max_rows - 1) / *s.max_rows;
    const Eigen::Index m = (X.cols() + stride - 1) / stride;
    matrix<Real> X2(X.rows(), m);
    vector<Real> y2(m);
    for (Eigen::Index k = 0; k < m; ++k) {
      X2.col(k) = X.col(k * stride);
      y2[k] = y[k * stride];
    }
    X = std::move(X2);
    y = std::move(y2);
  }
  return problem<Real>(std::move(X), std::move(y), margin_loss_of<Real>(s.loss), s.mu);
}

}  // namespace dpref::linesearch

// The public description of a dda problem (spec/dda.md DDA.PROBLEM.SPEC) and the data sets of
// dda §5: two Gaussian classes (synthetic, no files), Fashion-MNIST (two classes; train 12,000
// rows, test 2,000) and grants_other (sparse, 1,838 features; records with index % 5 == 4 form
// the test set), from the folder of scripts/real_data.sh. Every record is clipped to norm 1 (a
// per-record, data-independent map), so L = 1 is a valid public bound (params.lipschitz).
#pragma once

#include <Eigen/SparseCore>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/dda/problem.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/io/dataset.hpp"
#include "dpref/params.hpp"
#include "dpref/problems/regularizers.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

enum class dataset { synthetic, fashion, grants };
DPREF_ENUM_NAMES(dataset, synthetic, fashion, grants)
enum class regularizer_choice { l2, l1 };
DPREF_ENUM_NAMES(regularizer_choice, l2, l1)

/// Training and test records (columns), labels ±1, every record of norm <= 1.
template <class F>
struct labelled_split {
  std::string name;
  F X, Xtest;
  vector<double> y, ytest;
};

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

/// Two Gaussian classes: y_j = ±1 alternating, c = y·0.8/√d·1 + N(0, 0.4²I), clipped to norm 1.
inline labelled_split<matrix<double>> synthetic_data(long long N, int d, std::uint64_t seed) {
  labelled_split<matrix<double>> out;
  out.name = "synthetic N=" + std::to_string(N) + " d=" + std::to_string(d);
  philox_stream s(seed, 0x5E);
  auto fill = [&](long long n, matrix<double>& X, vector<double>& y) {
    X.resize(d, n);
    y.resize(n);
    for (long long j = 0; j < n; ++j) {
      y[j] = j % 2 == 0 ? 1.0 : -1.0;
      for (int k = 0; k < d; ++k)
        // not privacy noise: synthetic data generation (public seed)
        X(k, j) = y[j] * 0.8 / std::sqrt(double(d)) + gaussian<double>(s, 0.4);
    }
    clip_columns_to_unit_norm<double>(X);
  };
  fill(N, out.X, out.y);
  fill(std::max<long long>(1, N / 5), out.Xtest, out.ytest);
  return out;
}

/// Fashion-MNIST classes {neg, pos}, records clipped to norm 1.
inline labelled_split<matrix<double>> fashion_data(const std::filesystem::path& dir, int neg,
                                                   int pos) {
  labelled_split<matrix<double>> out;
  out.name = "fashion-mnist " + std::to_string(neg) + " vs " + std::to_string(pos);
  auto take = [&](const std::string& img, const std::string& lab, matrix<double>& X,
                  vector<double>& y) {
    const auto labels = io::read_idx_labels((dir / "fashion-mnist" / lab).string());
    const matrix<float> all = io::read_idx_images<float>((dir / "fashion-mnist" / img).string());
    const auto two = io::select_two_classes<float>(all, labels, neg, pos);
    X = two.X.template cast<double>();
    y = two.y.template cast<double>();
  };
  take("train-images-idx3-ubyte", "train-labels-idx1-ubyte", out.X, out.y);
  take("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", out.Xtest, out.ytest);
  clip_columns_to_unit_norm<double>(out.X);
  clip_columns_to_unit_norm<double>(out.Xtest);
  return out;
}

/// grants_other (sparse): records with index % 5 == 4 form the test set; clipped to norm 1.
inline labelled_split<Eigen::SparseMatrix<double>> grants_data(const std::filesystem::path& dir) {
  using sparse = Eigen::SparseMatrix<double>;
  const auto all = io::read_libsvm<double>((dir / "grants_other.svm").string());
  std::vector<Eigen::Index> tr, te;
  for (Eigen::Index j = 0; j < all.X.cols(); ++j) (j % 5 == 4 ? te : tr).push_back(j);
  auto pick = [&](const std::vector<Eigen::Index>& idx, sparse& X, vector<double>& y) {
    std::vector<Eigen::Triplet<double>> t;
    y.resize(static_cast<Eigen::Index>(idx.size()));
    for (std::size_t k = 0; k < idx.size(); ++k) {
      for (sparse::InnerIterator it(all.X, idx[k]); it; ++it)
        t.emplace_back(it.index(), static_cast<Eigen::Index>(k), it.value());
      y[static_cast<Eigen::Index>(k)] = all.y[idx[k]];
    }
    X.resize(all.X.rows(), static_cast<Eigen::Index>(idx.size()));
    X.setFromTriplets(t.begin(), t.end());
    X.makeCompressed();
  };
  labelled_split<sparse> out;
  out.name = "grants_other";
  pick(tr, out.X, out.y);
  pick(te, out.Xtest, out.ytest);
  clip_columns_to_unit_norm<double>(out.X);
  clip_columns_to_unit_norm<double>(out.Xtest);
  return out;
}

}  // namespace dpref::dda

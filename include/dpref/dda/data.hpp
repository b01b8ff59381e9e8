// The data sets of dda §5 that a problem_spec (dda/problem.hpp, DDA.PROBLEM.SPEC) names: two
// Gaussian classes (synthetic, no files), Fashion-MNIST (two classes; train 12,000 rows, test
// 2,000) and grants_other (sparse, 1,838 features; records with index % 5 == 4 form
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

/// Training and test records (columns), labels ±1, every record of norm <= 1.
template <class F>
struct labelled_split {
  std::string name;
  F X, Xtest;
  vector<double> y, ytest;
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

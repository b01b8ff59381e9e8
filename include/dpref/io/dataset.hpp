// Readers for the real binary-classification data sets of the studies (made by
// scripts/real_data.sh from Debian packages): a CSV with a header `label,<features...>`, LIBSVM
// sparse files, and IDX (MNIST-format) image/label files. Examples are stored one per column
// (d×n), labels as ±1. Every malformed input throws std::invalid_argument naming the file, the
// line and what is wrong; nothing is silently skipped except '#' comment lines. Sizes read from a
// file are checked against the bytes actually present (IDX) or against `dataset_limits` before
// anything is allocated, so a corrupt header cannot trigger a huge allocation. Each reader has
// a std::istream overload (`name` is used in messages), which the fuzz targets drive.
// @spec IO.DATASET IO.DATASET.LIMITS
#pragma once

#include <Eigen/SparseCore>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <istream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::io {

/// Dense labelled data: X is d×n (one example per column), y ∈ {−1, +1}^n.
template <real_scalar Real>
struct labelled_data {
  matrix<Real> X;
  vector<Real> y;
  std::vector<std::string> feature_names;
  [[nodiscard]] long long size() const { return static_cast<long long>(X.cols()); }
  [[nodiscard]] long long dimension() const { return static_cast<long long>(X.rows()); }
};

/// Sparse labelled data: X is d×n column-major sparse, y ∈ {−1, +1}^n.
template <real_scalar Real>
struct sparse_labelled_data {
  Eigen::SparseMatrix<Real> X;
  vector<Real> y;
  [[nodiscard]] long long size() const { return static_cast<long long>(X.cols()); }
  [[nodiscard]] long long dimension() const { return static_cast<long long>(X.rows()); }
};

/// Upper bounds a reader enforces before allocating.
struct dataset_limits {
  long long max_rows = 100000000;      ///< examples
  long long max_features = 100000000;  ///< d (dense) or the largest LIBSVM index
  long long max_cells = 1LL << 31;     ///< dense d·n values held in memory
};

namespace detail {

[[noreturn]] inline void fail_file(const std::string& path, long long line, std::string_view what) {
  std::string msg = "dataset file '" + path + "'";
  if (line > 0) msg += " line " + std::to_string(line);
  msg.append(": ").append(what);
  throw std::invalid_argument(msg);
}

inline std::ifstream open_or_throw(const std::string& path,
                                   std::ios::openmode mode = std::ios::in) {
  std::ifstream in(path, mode);
  if (!in) fail_file(path, 0, "cannot be opened");
  return in;
}

/// Parses a finite decimal number; double via from_chars (correctly rounded), other scalars
/// from the decimal string (exact to their precision).
template <real_scalar Real>
bool parse_real(std::string_view s, Real& out) {
  if (s.empty()) return false;
  double d = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, d);
  if (ec != std::errc() || ptr != end || !std::isfinite(d)) return false;
  if constexpr (std::is_same_v<Real, double>) {
    out = d;
  } else if constexpr (std::is_same_v<Real, long double>) {
    out = std::strtold(std::string(s).c_str(), nullptr);  // correctly rounded (glibc)
  } else {
    out = Real(std::string(s));
  }
  return true;
}

inline std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = line.find(sep, start);
    parts.push_back(line.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

inline std::string_view trim_cr(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  return s;
}

/// Label 0/−1 → −1, 1 → +1; anything else is an error.
inline bool parse_label(std::string_view s, int& out) {
  if (s == "1" || s == "+1") {
    out = 1;
  } else if (s == "0" || s == "-1") {
    out = -1;
  } else {
    return false;
  }
  return true;
}

inline std::uint32_t read_be32(std::istream& in, const std::string& path) {
  unsigned char b[4];
  if (!in.read(reinterpret_cast<char*>(b), 4)) fail_file(path, 0, "truncated IDX header");
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) |
         std::uint32_t{b[3]};
}

}  // namespace detail

/// Reads `label,<f1>,...,<fd>` CSV (header required, '#' lines ignored), label ∈ {0, 1, −1, +1}.
/// @throws std::invalid_argument (file, line, cause) on any malformed line or an empty file
template <real_scalar Real>
labelled_data<Real> read_csv_binary(std::istream& in, const std::string& path,
                                    const dataset_limits& lim = {}) {
  std::string line;
  long long lineno = 0;
  std::vector<std::string> names;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string_view l = detail::trim_cr(line);
    if (l.empty() || l.front() == '#') continue;
    const auto parts = detail::split(l, ',');
    if (parts.size() < 2 || parts[0] != "label")
      detail::fail_file(path, lineno, "header must be 'label,<feature names...>'");
    for (std::size_t j = 1; j < parts.size(); ++j) names.emplace_back(parts[j]);
    break;
  }
  if (names.empty()) detail::fail_file(path, lineno, "no header line");
  if (static_cast<long long>(names.size()) > lim.max_features)
    detail::fail_file(path, lineno,
                      "more than " + std::to_string(lim.max_features) + " feature columns");
  const std::size_t d = names.size();
  std::vector<Real> values;
  std::vector<int> labels;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string_view l = detail::trim_cr(line);
    if (l.empty() || l.front() == '#') continue;
    const auto parts = detail::split(l, ',');
    if (parts.size() != d + 1)
      detail::fail_file(
          path, lineno,
          "expected " + std::to_string(d + 1) + " fields, got " + std::to_string(parts.size()));
    int label = 0;
    if (!detail::parse_label(parts[0], label))
      detail::fail_file(path, lineno,
                        "label must be 0, 1, -1 or +1, got '" + std::string(parts[0]) + "'");
    if (static_cast<long long>(labels.size()) >= lim.max_rows ||
        static_cast<long long>((labels.size() + 1) * d) > lim.max_cells)
      detail::fail_file(path, lineno,
                        "more than " + std::to_string(lim.max_rows) + " rows or " +
                            std::to_string(lim.max_cells) + " values");
    labels.push_back(label);
    for (std::size_t j = 1; j <= d; ++j) {
      Real v;
      if (!detail::parse_real(parts[j], v))
        detail::fail_file(path, lineno,
                          "feature '" + names[j - 1] + "' is not a finite number: '" +
                              std::string(parts[j]) + "'");
      values.push_back(v);
    }
  }
  if (labels.empty()) detail::fail_file(path, lineno, "no data rows");
  labelled_data<Real> out;
  const auto n = static_cast<Eigen::Index>(labels.size());
  out.X.resize(static_cast<Eigen::Index>(d), n);
  out.y.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    out.y[i] = Real(labels[static_cast<std::size_t>(i)]);
    for (std::size_t j = 0; j < d; ++j)
      out.X(static_cast<Eigen::Index>(j), i) = values[static_cast<std::size_t>(i) * d + j];
  }
  out.feature_names = std::move(names);
  return out;
}

template <real_scalar Real>
labelled_data<Real> read_csv_binary(const std::string& path, const dataset_limits& lim = {}) {
  auto in = detail::open_or_throw(path);
  return read_csv_binary<Real>(in, path, lim);
}

/// Reads LIBSVM `label idx:value ...` (1-based strictly increasing indices ≤ dimension).
/// @param dimension d; 0 = the largest index present
/// @throws std::invalid_argument on malformed lines, out-of-range or unsorted indices
template <real_scalar Real>
sparse_labelled_data<Real> read_libsvm(std::istream& in, const std::string& path,
                                       long long dimension = 0, const dataset_limits& lim = {}) {
  if (dimension < 0 || dimension > lim.max_features)
    fail_argument("read_libsvm", "dimension", "in [0, max_features]", dimension);
  const long long index_cap = std::min<long long>(lim.max_features, 2147483647LL);
  std::string line;
  long long lineno = 0;
  std::vector<Eigen::Triplet<Real>> triplets;
  std::vector<int> labels;
  long long max_index = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string_view l = detail::trim_cr(line);
    if (l.empty() || l.front() == '#') continue;
    const auto parts = detail::split(l, ' ');
    int label = 0;
    if (!detail::parse_label(parts[0], label))
      detail::fail_file(path, lineno,
                        "label must be 0, 1, -1 or +1, got '" + std::string(parts[0]) + "'");
    if (static_cast<long long>(labels.size()) >= std::min<long long>(lim.max_rows, 2147483647LL))
      detail::fail_file(path, lineno, "more than " + std::to_string(lim.max_rows) + " rows");
    const auto col = static_cast<int>(labels.size());
    labels.push_back(label);
    long long previous = 0;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      if (parts[k].empty()) continue;
      const std::size_t colon = parts[k].find(':');
      if (colon == std::string_view::npos) detail::fail_file(path, lineno, "entry without ':'");
      long long index = 0;
      const auto idx = parts[k].substr(0, colon);
      const auto [ptr, ec] = std::from_chars(idx.data(), idx.data() + idx.size(), index);
      if (ec != std::errc() || ptr != idx.data() + idx.size() || index < 1 || index > index_cap)
        detail::fail_file(path, lineno,
                          "index must be an integer in [1, " + std::to_string(index_cap) +
                              "], got '" + std::string(idx) + "'");
      if (index <= previous) detail::fail_file(path, lineno, "indices must be strictly increasing");
      if (dimension > 0 && index > dimension)
        detail::fail_file(
            path, lineno,
            "index " + std::to_string(index) + " exceeds dimension " + std::to_string(dimension));
      previous = index;
      Real v;
      if (!detail::parse_real(parts[k].substr(colon + 1), v))
        detail::fail_file(path, lineno, "value is not a finite number");
      max_index = std::max(max_index, index);
      triplets.emplace_back(static_cast<int>(index - 1), col, v);
    }
  }
  if (labels.empty()) detail::fail_file(path, lineno, "no data rows");
  sparse_labelled_data<Real> out;
  const long long d = dimension > 0 ? dimension : max_index;
  out.X.resize(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(labels.size()));
  out.X.setFromTriplets(triplets.begin(), triplets.end());
  out.X.makeCompressed();
  out.y.resize(static_cast<Eigen::Index>(labels.size()));
  for (std::size_t i = 0; i < labels.size(); ++i)
    out.y[static_cast<Eigen::Index>(i)] = Real(labels[i]);
  return out;
}

template <real_scalar Real>
sparse_labelled_data<Real> read_libsvm(const std::string& path, long long dimension = 0,
                                       const dataset_limits& lim = {}) {
  auto in = detail::open_or_throw(path);
  return read_libsvm<Real>(in, path, dimension, lim);
}

/// IDX (MNIST format, uncompressed) images → d×n matrix with pixel/255 ∈ [0, 1].
/// @throws std::invalid_argument on a wrong magic number or a truncated file
namespace detail {
/// Bytes left in a seekable stream after the current position (-1 if unknown).
inline long long bytes_left(std::istream& in) {
  const auto here = in.tellg();
  if (here < 0) return -1;
  in.seekg(0, std::ios::end);
  const auto end = in.tellg();
  in.seekg(here);
  return end < 0 ? -1 : static_cast<long long>(end - here);
}
}  // namespace detail

template <real_scalar Real>
matrix<Real> read_idx_images(std::istream& in, const std::string& path,
                             const dataset_limits& lim = {}) {
  if (detail::read_be32(in, path) != 0x00000803u)
    detail::fail_file(path, 0, "not an IDX image file (magic 0x00000803 expected)");
  const std::uint32_t n = detail::read_be32(in, path);
  const std::uint32_t rows = detail::read_be32(in, path);
  const std::uint32_t cols = detail::read_be32(in, path);
  const std::size_t d = std::size_t{rows} * cols;  // < 2^64: two 32-bit factors
  // check the sizes against the limits and the bytes present BEFORE allocating
  const long long left = detail::bytes_left(in);
  const bool too_big = d > static_cast<std::size_t>(lim.max_features) ||
                       n > static_cast<std::size_t>(lim.max_rows) ||
                       (d > 0 && n > static_cast<std::size_t>(lim.max_cells) / d);
  if (too_big)
    detail::fail_file(path, 0,
                      "header declares " + std::to_string(n) + " images of " +
                          std::to_string(rows) + "x" + std::to_string(cols) +
                          " pixels, more than the reader's limits");
  if (left >= 0 && static_cast<unsigned long long>(left) < d * n)
    detail::fail_file(path, 0,
                      "truncated pixel data (header declares " + std::to_string(d * n) +
                          " bytes, " + std::to_string(left) + " present)");
  std::vector<unsigned char> buffer(d * n);
  if (!in.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(buffer.size())))
    detail::fail_file(path, 0, "truncated pixel data");
  matrix<Real> X(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j)
      X(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i)) =
          Real(int{buffer[i * d + j]}) / Real(255);
  return X;
}

template <real_scalar Real>
matrix<Real> read_idx_images(const std::string& path, const dataset_limits& lim = {}) {
  auto in = detail::open_or_throw(path, std::ios::in | std::ios::binary);
  return read_idx_images<Real>(in, path, lim);
}

/// IDX (uncompressed) labels.
template <class = void>
std::vector<int> read_idx_labels(std::istream& in, const std::string& path,
                                 const dataset_limits& lim = {}) {
  if (detail::read_be32(in, path) != 0x00000801u)
    detail::fail_file(path, 0, "not an IDX label file (magic 0x00000801 expected)");
  const std::uint32_t n = detail::read_be32(in, path);
  const long long left = detail::bytes_left(in);
  if (n > static_cast<std::uint32_t>(std::min<long long>(lim.max_rows, 0xffffffffLL)))
    detail::fail_file(path, 0, "header declares " + std::to_string(n) + " labels, more than " +
                                   std::to_string(lim.max_rows));
  if (left >= 0 && left < static_cast<long long>(n))
    detail::fail_file(path, 0, "truncated label data");
  std::vector<unsigned char> buffer(n);
  if (!in.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(n)))
    detail::fail_file(path, 0, "truncated label data");
  return {buffer.begin(), buffer.end()};
}

template <class = void>
std::vector<int> read_idx_labels(const std::string& path, const dataset_limits& lim = {}) {
  auto in = detail::open_or_throw(path, std::ios::in | std::ios::binary);
  return read_idx_labels<>(in, path, lim);
}

/// The two-class subset {negative, positive} of a multi-class image set, labels ±1, order kept.
/// @throws std::invalid_argument if sizes differ or a class is absent
template <real_scalar Real>
labelled_data<Real> select_two_classes(const matrix<Real>& X, std::span<const int> labels,
                                       int negative, int positive) {
  if (static_cast<std::size_t>(X.cols()) != labels.size())
    fail_argument("select_two_classes", "labels.size()", "== X.cols()", labels.size());
  if (negative == positive)
    fail_argument("select_two_classes", "positive", "!= negative", positive);
  std::vector<Eigen::Index> keep;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == negative || labels[i] == positive)
      keep.push_back(static_cast<Eigen::Index>(i));
  labelled_data<Real> out;
  out.X.resize(X.rows(), static_cast<Eigen::Index>(keep.size()));
  out.y.resize(static_cast<Eigen::Index>(keep.size()));
  int positives = 0;
  for (std::size_t k = 0; k < keep.size(); ++k) {
    out.X.col(static_cast<Eigen::Index>(k)) = X.col(keep[k]);
    const bool pos = labels[static_cast<std::size_t>(keep[k])] == positive;
    positives += pos ? 1 : 0;
    out.y[static_cast<Eigen::Index>(k)] = pos ? Real(1) : Real(-1);
  }
  if (positives == 0 || positives == static_cast<int>(keep.size()))
    fail_argument("select_two_classes", "classes", "both present", keep.size());
  return out;
}

}  // namespace dpref::io

// Real binary-classification data for the accel (5.1) problem (issue 6: the comparison repeated
// on a real data set). Files come from scripts/real_data.sh (spec/io.md): a CSV
// `label,<features>` with every feature in [0, 1], categorical variables one-hot encoded as
// columns `<variable>_<level>`.
//
// Sensitivity (accel (5.2)) needs a PUBLIC B ≥ sup ‖u‖₁ over every admissible example, not the
// largest norm in this file (that would depend on the data). schema_l1_bound derives B from the
// column names alone: a one-hot group contributes exactly 1 (one indicator set per example) and a
// numeric column at most 1, so B = (#groups) + (#numeric columns) (fertility: 5 + 2 = 7). An
// intercept column of ones adds 1. logistic_regression's constructor still checks every row
// against B (a wrong schema is an error, never silently used).
// @spec ACCEL.REALDATA
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/io/dataset.hpp"
#include "dpref/problems/synthetic_logistic.hpp"

namespace dpref::problems {

/// Public ℓ1 bound from a one-hot schema (names only): columns `<group>_<level>` whose prefix
/// before the last '_' is shared by at least two columns form one group (contributing 1); every
/// other column is numeric in [0, 1] (contributing 1). Splitting a group in two only raises B,
/// so an ambiguous name errs on the safe side, except that two numeric columns sharing a prefix
/// would be merged: the scripts/real_data.sh naming has no such columns (numeric names keep the
/// variable's name). @throws std::invalid_argument on an empty list. @spec ACCEL.REALDATA
inline double schema_l1_bound(const std::vector<std::string>& feature_names) {
  if (feature_names.empty()) fail_argument("schema_l1_bound", "feature_names", "non-empty", 0);
  std::map<std::string, int> prefix_count;
  const auto prefix = [](const std::string& name) {
    const auto pos = name.rfind('_');
    return pos == std::string::npos || pos == 0 ? std::string() : name.substr(0, pos);
  };
  for (const auto& name : feature_names) {
    const std::string p = prefix(name);
    if (!p.empty()) ++prefix_count[p];
  }
  int groups = 0, numeric = 0;
  for (const auto& [p, count] : prefix_count) groups += count >= 2 ? 1 : 0;
  for (const auto& name : feature_names) {
    const std::string p = prefix(name);
    if (p.empty() || prefix_count[p] < 2) ++numeric;
  }
  return static_cast<double>(groups + numeric);
}

/// A loaded real data set in the accel layout (d×n double, labels ±1) and where it came from.
struct real_logistic_dataset {
  logistic_data data;
  std::vector<std::string> feature_names;  ///< including "intercept" if added
  std::string path;
  double schema_bound = 0;  ///< schema_l1_bound of the file's columns (+1 with an intercept)
};

/// Reads a `label,<features>` CSV (io::read_csv_binary, decimals correctly rounded to double;
/// multiprecision problems widen these doubles exactly, as for the synthetic data).
/// @param l1_bound public B; 0 = the schema bound (+1 with the intercept)
/// @param intercept append a constant-1 feature (regularised like the others)
/// @throws std::invalid_argument if the file is missing (the message says to run
/// scripts/real_data.sh) or malformed; std::domain_error (from logistic_regression later) if a
/// row exceeds B. @spec ACCEL.REALDATA
inline real_logistic_dataset load_real_logistic_data(const std::string& path, double l1_bound = 0,
                                                     bool intercept = false) {
  if (!std::filesystem::exists(path))
    throw std::invalid_argument("data file '" + path +
                                "' not found: run scripts/real_data.sh (it writes data/real/"
                                "fertility.csv, shuttle.csv, ...) and pass its path to --data");
  if (l1_bound < 0) fail_domain("load_real_logistic_data", "l1_bound", ">= 0", l1_bound);
  auto csv = io::read_csv_binary<double>(path);
  real_logistic_dataset out;
  out.path = path;
  out.schema_bound = schema_l1_bound(csv.feature_names) + (intercept ? 1.0 : 0.0);
  const double B = l1_bound > 0 ? l1_bound : out.schema_bound;
  const Eigen::Index d = csv.X.rows() + (intercept ? 1 : 0), n = csv.X.cols();
  out.data.features.resize(d, n);
  out.data.features.topRows(csv.X.rows()) = csv.X;
  if (intercept) out.data.features.row(d - 1).setOnes();
  out.data.labels = std::move(csv.y);
  out.data.l1_bound = B;
  out.feature_names = std::move(csv.feature_names);
  if (intercept) out.feature_names.emplace_back("intercept");
  return out;
}

}  // namespace dpref::problems

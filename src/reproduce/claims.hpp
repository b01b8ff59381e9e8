// `dpref reproduce` (spec/reproduce.md): the declared claims of every paper, each re-checked by a
// computation in the running process, with its statistic, its error probability and a verdict
// derived from the numbers (never a stored string). One job per claim; a paper's jobs live in
// src/reproduce/<paper>_claims.cpp and register in registry.cpp.
#pragma once

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace dpref::reproduce {

/// reproduced: the paper's statement passed its test; contradicted: the opposite statement passed
/// at the stated error probability (or exactly); not_reproduced: neither (or the paper's
/// guarantee is not certified by any sound accountant); inconclusive: the opposite statement
/// passed, but the run was smaller than the paper's in a parameter the claim depends on
/// (settle_size). @spec REPRO.VERDICT REPRO.VERDICT.SIZE
enum class verdict { reproduced, not_reproduced, contradicted, inconclusive };

inline const char* verdict_name(verdict v) {
  switch (v) {
    case verdict::reproduced:
      return "reproduced";
    case verdict::contradicted:
      return "contradicted";
    case verdict::inconclusive:
      return "inconclusive at this size";
    case verdict::not_reproduced:
      break;
  }
  return "not reproduced";
}

/// One named number of a claim (the statistic, its standard error, the paper's value, ...).
struct number {
  std::string name;
  double value = 0;
};

/// A claim's decision rule (rule.hpp, REPRO.RULE): boolean expressions over the claim's numbers;
/// contradicted when contradicted_if holds, else reproduced when reproduced_if holds.
struct decision_rule {
  std::string reproduced_if;
  std::string contradicted_if;  ///< empty: the claim is never contradicted by its statistic
};

/// One claim of a paper and its outcome in this run. @spec REPRO.CLAIM
struct claim {
  std::string id;                ///< spec ID (spec/<paper>.md, spec/errata.md or spec/reproduce.md)
  std::string paper;             ///< ev, pwa, accel, linesearch, dda, accounting, audit
  std::string statement;         ///< what the paper says
  std::string statistic;         ///< what dpref measures and the decision rule
  std::string error;             ///< the error statement in words
  double error_probability = 0;  ///< probability that the verdict is wrong (0: exact)
  bool exact = false;            ///< the verdict is an exact (certified) computation
  decision_rule rule;            ///< the one definition of the verdict (REPRO.RULE)
  verdict result = verdict::not_reproduced;  ///< decide(*this), set after the numbers
  std::vector<number> numbers;               ///< the measured numbers behind the verdict
  std::string summary;                       ///< the numbers in one line for people
  bool reduced = false;                      ///< ran at reduced (quick) size
  std::string size;                          ///< the size it ran at
  /// The parameters the claim's truth depends on, with the paper's values (e.g. "n: the
  /// paper's data set has 254,654 rows"); empty when the verdict does not depend on the size.
  std::string size_dependence;
  /// This run was smaller than the paper's in a parameter of size_dependence.
  bool below_paper_size = false;
  double seconds = 0;
};

/// REPRO.VERDICT.SIZE, the one place that decides it: a reduced run cannot contradict a claim
/// whose truth depends on the size it reduced (n, T, K, ...); it can only fail to reproduce it
/// at that size. A "contradicted" statistic of such a run becomes "inconclusive at this size";
/// every other verdict is kept. Returns the settled verdict.
inline verdict settle_size(const claim& c) {
  if (c.result == verdict::contradicted && c.below_paper_size && !c.size_dependence.empty())
    return verdict::inconclusive;
  return c.result;
}

/// A place where dpref departs from a paper. @spec REPRO.ERRATA
struct erratum {
  std::string id, paper, what, paper_value, dpref_value, test;
  bool measured = false;  ///< the dpref value was computed in this run
};

/// One performance measurement, as a ratio against a reference measured in the same run.
/// @spec REPRO.PERF
struct perf_row {
  std::string name, unit;
  double value = 0;       ///< dpref's measurement (unit)
  std::string reference;  ///< what the ratio compares with
  double reference_value = 0;
  double ratio = 0;  ///< value / reference_value (NaN: absent, see note)
  std::string note;
  double seconds = 0;
};

/// Everything a job may add.
struct results {
  std::vector<claim> claims;
  std::vector<erratum> errata;
  std::vector<perf_row> perf;
  std::vector<std::pair<std::string, std::string>> series;  ///< (name, JSON text) for plots
};

struct options {
  bool quick = true;
  std::string source_dir;  ///< the source tree (committed data sets), may be empty
};

/// A job: one claim (or one performance measurement) of one paper.
struct job {
  std::string paper, name;
  bool perf = false;
  std::function<void(const options&, results&)> run;
  std::vector<std::string> also{};  ///< the other claims the same experiment decides
};

/// Every job, papers in the order ev, pwa, accel, linesearch, dda, accounting, audit, random,
/// perf.
std::vector<job> all_jobs();

std::vector<job> ev_jobs();
std::vector<job> pwa_jobs();
std::vector<job> accel_jobs();
std::vector<job> linesearch_jobs();
std::vector<job> dda_jobs();
std::vector<job> accounting_jobs();
std::vector<job> audit_jobs();
std::vector<job> random_jobs();
std::vector<job> perf_jobs();

/// The errata of spec/errata.md as report rows (errata.cpp).
std::vector<erratum> documented_errata();

/// The papers `--papers` accepts.
inline const std::vector<std::string>& paper_names() {
  static const std::vector<std::string> n = {"ev",  "pwa",        "accel", "linesearch",
                                             "dda", "accounting", "audit", "random"};
  return n;
}

// ---- statistics shared by the jobs --------------------------------------------------------

/// P[N(0,1) > z].
inline double normal_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

/// P[Bin(n, 1/2) >= k], exact. @spec REPRO.SIGN
inline double sign_tail(int n, int k) {
  double s = 0;
  for (int i = k; i <= n; ++i) {
    double c = 1;
    for (int j = 0; j < i; ++j) c = c * (n - j) / (j + 1);
    s += c;
  }
  return s / std::pow(2.0, n);
}

/// The utility cost of secure mode (spec/reproduce.md, the SEC.*.COST rule): paired runs with
/// the same streams give idealised values a_r and secure values b_r; r = mean(b)/mean(a) and its
/// standard error se = SE(mean of b_r − a_r)/mean(a). A claim "cost <= c" is not reproduced only
/// when r − 5·se > c (false alarm <= P[N(0,1) > 5] ≈ 2.9e-7 when the true ratio is <= c).
struct cost_ratio {
  double mean_idealised = 0, mean_secure = 0, ratio = 0, se = 0;
};
inline cost_ratio paired_cost_ratio(const std::vector<double>& idealised,
                                    const std::vector<double>& secure) {
  const double n = static_cast<double>(idealised.size());
  cost_ratio c;
  for (std::size_t r = 0; r < idealised.size(); ++r)
    c.mean_idealised += idealised[r], c.mean_secure += secure[r];
  c.mean_idealised /= n, c.mean_secure /= n;
  double v = 0;
  for (std::size_t r = 0; r < idealised.size(); ++r)
    v += std::pow(secure[r] - idealised[r] - (c.mean_secure - c.mean_idealised), 2);
  c.ratio = c.mean_secure / c.mean_idealised;
  c.se = std::sqrt(v / (n - 1) / n) / c.mean_idealised;
  return c;
}

/// The error statement of every SEC.*.COST claim (the budget check and the rule above).
inline constexpr const char* secure_cost_error =
    "the budget check is exact (certified accountant); r is a Monte-Carlo estimate: a true "
    "r <= 1.5 is reported not reproduced with probability <= P[N(0,1) > 5] = 2.9e-7";

/// Seconds since t0.
inline double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// "%.4g".
std::string fmt(double x);

}  // namespace dpref::reproduce

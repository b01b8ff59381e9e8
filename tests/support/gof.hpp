// Goodness-of-fit tests with stated false-alarm probabilities.
//  - ks_reject: Kolmogorov–Smirnov with the Dvoretzky–Kiefer–Wolfowitz–Massart bound
//    P(sup|F_n - F| > x) <= 2 exp(-2 n x^2), valid for every n (no asymptotics).
//  - chi2_reject: Pearson chi-square against the chi-square(k-1) quantile (asymptotic; bins
//    are merged until each has expected count >= 20).
#pragma once

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <vector>

namespace dpref::test {

struct ks_result {
  double statistic;  // sup |F_n - F|
  double critical;   // DKW-Massart critical value at the false-alarm probability
  bool reject;
};

/// KS test of `sample` against the continuous CDF `cdf`, false-alarm probability `alpha`.
inline ks_result ks_test(std::vector<double> sample, const std::function<double(double)>& cdf,
                         double alpha) {
  std::sort(sample.begin(), sample.end());
  const double n = static_cast<double>(sample.size());
  double d = 0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const double f = cdf(sample[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
  }
  const double critical = std::sqrt(std::log(2.0 / alpha) / (2.0 * n));
  return {d, critical, d > critical};
}

struct chi2_result {
  double statistic;
  double critical;
  int dof;
  bool reject;
};

/// Pearson chi-square of integer counts against pmf(k), summed over the observed support and
/// a tail bin; bins with expected count < min_expected are merged into their neighbours.
inline chi2_result chi2_test(const std::map<long long, long long>& counts,
                             const std::function<double(long long)>& pmf, long long lo,
                             long long hi, double alpha, double min_expected = 20) {
  long long n = 0;
  for (auto& [k, c] : counts) n += c;
  const double nn = static_cast<double>(n);
  std::vector<double> expected, observed;
  double acc_e = 0, acc_o = 0, mass = 0;
  for (long long k = lo; k <= hi; ++k) {
    const double p = pmf(k);
    mass += p;
    acc_e += nn * p;
    auto it = counts.find(k);
    acc_o += it == counts.end() ? 0.0 : static_cast<double>(it->second);
    if (acc_e >= min_expected) {
      expected.push_back(acc_e);
      observed.push_back(acc_o);
      acc_e = acc_o = 0;
    }
  }
  // everything outside [lo, hi] plus the leftover forms the last bin
  double outside_o = 0;
  for (auto& [k, c] : counts)
    if (k < lo || k > hi) outside_o += static_cast<double>(c);
  acc_e += nn * std::max(0.0, 1.0 - mass);
  acc_o += outside_o;
  if (!expected.empty()) {
    expected.back() += acc_e;
    observed.back() += acc_o;
  }
  double stat = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    stat += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
  const int dof = static_cast<int>(expected.size()) - 1;
  boost::math::chi_squared dist(dof);
  const double critical = boost::math::quantile(boost::math::complement(dist, alpha));
  return {stat, critical, dof, stat > critical};
}

/// z such that P(|N(0,1)| > z) = alpha (two-sided normal critical value).
inline double normal_two_sided_critical(double alpha) {
  // bisection on erfc(z / sqrt 2) = alpha
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (std::erfc(mid / std::sqrt(2.0)) > alpha ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace dpref::test

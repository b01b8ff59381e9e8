// Summaries of repeated measurements in the cost tests (label slow): the mean with its standard
// error, and the median (of wall times).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace dpref::test {

/// Mean and standard error of the mean (sample standard deviation / √n; n >= 2).
struct mean_se {
  double mean = 0, se = 0;
};
inline mean_se summarise(const std::vector<double>& v) {
  mean_se s;
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.se = std::sqrt(ss / static_cast<double>(v.size() - 1) / static_cast<double>(v.size()));
  return s;
}

/// The upper median (v[n/2] of the sorted values).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace dpref::test

// Statistics of the ev §VII study (spec/ev.md EV.STUDY.*): per-point mean and standard error
// of the relative suboptimality, paired differences on common random numbers, the log-log fit
// with its Student-t interval, and the three qualitative claims as statistical checks.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "dpref/error.hpp"

namespace dpref::ev::study {

/// Mean and standard error of the relative suboptimality over runs.
struct point_stats {
  double mean = 0, se = 0;
  std::vector<double> values;  ///< per run (index = run)
  double seconds = 0;          ///< wall time of the runs
};

inline void finish_stats(point_stats& s) {
  const double n = static_cast<double>(s.values.size());
  double m = 0;
  for (const double v : s.values) m += v;
  m /= n;
  double q = 0;
  for (const double v : s.values) q += (v - m) * (v - m);
  s.mean = m;
  s.se = n > 1 ? std::sqrt(q / (n - 1) / n) : 0.0;
}

/// Paired difference a − b of two points evaluated on the same runs (common random numbers):
/// mean and standard error of the per-run differences.
inline point_stats paired_difference(const point_stats& a, const point_stats& b) {
  point_stats d;
  const std::size_t n = std::min(a.values.size(), b.values.size());
  d.values.resize(n);
  for (std::size_t i = 0; i < n; ++i) d.values[i] = a.values[i] - b.values[i];
  finish_stats(d);
  return d;
}

/// Least-squares fit of log y = a + s·log x. se_mc propagates the per-point Monte Carlo errors
/// (var log ȳ_i ≈ (se_i/ȳ_i)²) through the linear slope estimator; se_fit is the usual
/// residual-based standard error (it also absorbs curvature of the curve).
struct loglog_fit {
  double slope = 0, intercept = 0, se_mc = 0, se_fit = 0;
  double ci95_mc_lo = 0, ci95_mc_hi = 0, ci95_fit_lo = 0, ci95_fit_hi = 0;
  double t_quantile = 0;  ///< Student t_{0.975, n−2} used by the fit interval
};

/// Student t quantile t_{0.975, ν} (table for ν <= 30, 1.96 + 2.4/ν beyond: error < 0.002).
inline double t975(long long nu) {
  static const double table[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                 2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                 2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                 2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (nu < 1) return 0;
  if (nu <= 30) return table[nu];
  return 1.96 + 2.4 / static_cast<double>(nu);
}

/// @throws std::domain_error with fewer than 3 points or a non-positive x or mean
/// @spec EV.STUDY.EPS
inline loglog_fit fit_loglog(const std::vector<double>& x, const std::vector<double>& mean,
                             const std::vector<double>& se) {
  const std::size_t n = x.size();
  if (n < 3 || mean.size() != n || se.size() != n)
    fail_domain("dpref::ev::study::fit_loglog", "x", "3 or more points, sizes equal", n);
  std::vector<double> lx(n), ly(n);
  for (std::size_t i = 0; i < n; ++i) {
    require_positive("dpref::ev::study::fit_loglog", "x[i]", x[i]);
    require_positive("dpref::ev::study::fit_loglog", "mean[i]", mean[i]);
    lx[i] = std::log(x[i]);
    ly[i] = std::log(mean[i]);
  }
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += lx[i], my += ly[i];
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (lx[i] - mx) * (lx[i] - mx);
    sxy += (lx[i] - mx) * (ly[i] - my);
  }
  loglog_fit f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  double rss = 0, var_mc = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = ly[i] - f.intercept - f.slope * lx[i];
    rss += r * r;
    const double a = (lx[i] - mx) / sxx, rel = se[i] / mean[i];
    var_mc += a * a * rel * rel;
  }
  f.se_mc = std::sqrt(var_mc);
  f.se_fit = std::sqrt(rss / static_cast<double>(n - 2) / sxx);
  f.t_quantile = t975(static_cast<long long>(n) - 2);
  f.ci95_mc_lo = f.slope - 1.959964 * f.se_mc;
  f.ci95_mc_hi = f.slope + 1.959964 * f.se_mc;
  f.ci95_fit_lo = f.slope - f.t_quantile * f.se_fit;
  f.ci95_fit_hi = f.slope + f.t_quantile * f.se_fit;
  return f;
}

/// A qualitative claim checked as a statistic against a threshold with a margin in standard
/// errors. `holds` is the decision; `margin_se` how many standard errors the estimate is from
/// the threshold on the passing side (negative: failing side).
struct claim_result {
  bool holds = false;
  double estimate = 0, threshold = 0, se = 0, margin_se = 0;
};

/// Claim "flat in c on [c_lo, c_hi]" (ev §VII, Fig. 2): |log(m(c_hi)/m(c_lo))| <= log(band).
/// The log-ratio's standard error is by the delta method on the paired per-run values
/// (common random numbers). Decision: the point estimate lies inside the band.
/// @spec EV.STUDY.C
inline claim_result check_flat(const point_stats& lo, const point_stats& hi, double band) {
  claim_result c;
  c.estimate = std::log(hi.mean / lo.mean);
  c.threshold = std::log(band);
  // delta method: var(log ȳ_h − log ȳ_l) = var(y_h/ȳ_h − y_l/ȳ_l)/R, estimated from the runs
  point_stats z;
  const std::size_t n = std::min(lo.values.size(), hi.values.size());
  z.values.resize(n);
  for (std::size_t i = 0; i < n; ++i) z.values[i] = hi.values[i] / hi.mean - lo.values[i] / lo.mean;
  finish_stats(z);
  c.se = z.se;
  c.margin_se = (c.threshold - std::abs(c.estimate)) / c.se;
  c.holds = std::abs(c.estimate) <= c.threshold;
  return c;
}

/// Claim "interior optimum in K" (ev §VII, Fig. 3): on an evaluation set independent of the
/// one that chose K̂ (the argmin over the grid), both grid ends are worse than K̂ by more than
/// z paired standard errors. Returns the weaker of the two sides.
/// @spec EV.STUDY.K
inline claim_result check_interior(const point_stats& first, const point_stats& best,
                                   const point_stats& last, double z) {
  const point_stats a = paired_difference(first, best), b = paired_difference(last, best);
  const auto ratio = [](const point_stats& d) {  // K̂ at a grid end: difference 0, claim fails
    if (d.se > 0) return d.mean / d.se;
    return d.mean > 0 ? HUGE_VAL : -HUGE_VAL;
  };
  const double ma = ratio(a), mb = ratio(b);
  const point_stats& w = ma < mb ? a : b;
  claim_result c;
  c.estimate = w.mean;
  c.se = w.se;
  c.threshold = z * w.se;
  c.margin_se = std::min(ma, mb) - z;
  c.holds = c.margin_se > 0;
  return c;
}

/// Claim "negative slope in ε" (ev §VII, Fig. 4): slope + z·se_mc < 0.
/// @spec EV.STUDY.EPS
inline claim_result check_negative_slope(const loglog_fit& f, double z) {
  claim_result c;
  c.estimate = f.slope;
  c.se = f.se_mc;
  c.threshold = -z * f.se_mc;
  c.margin_se = -f.slope / f.se_mc - z;
  c.holds = c.margin_se > 0;
  return c;
}

/// Argmin over a grid of point means.
inline std::size_t argmin_mean(const std::vector<point_stats>& pts) {
  std::size_t b = 0;
  for (std::size_t i = 1; i < pts.size(); ++i)
    if (pts[i].mean < pts[b].mean) b = i;
  return b;
}

}  // namespace dpref::ev::study

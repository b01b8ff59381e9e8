// Synthetic logistic-regression data as in accel §5 (d = 20, n = 1e5, ‖u‖₁ ≤ 20). The paper
// does not state its generator; dpref's (documented in spec/accel.md, ACCEL.DATA):
//   example i uses substream i of the given stream; u_ij = (B/d)(2V_j − 1) with V_j ~ U(0,1)
//   (so ‖u_i‖₁ ≤ B), and z_i = 1 if V_{d+1} < 1/(1 + exp(−u_iᵀx_true)), else −1,
// with x_true = (1, …, 1) unless given. All draws and arithmetic are in double, then widened
// exactly to Real: the double and 50-digit problems hold the same data.
#pragma once

#include <cmath>
#include <optional>

#include "dpref/error.hpp"
#include "dpref/problems/logistic.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::problems {

/// Generated data: d×n features (column i = u_i) and labels in {−1, 1}, double precision.
struct logistic_data {
  matrix<double> features;
  vector<double> labels;
  double l1_bound;
};

/// @param n examples >= 1 @param d dimension >= 1 @param l1_bound B > 0
/// @param stream seed/stream; example i reads substream i @param x_true optional (size d)
/// @spec ACCEL.DATA
inline logistic_data synthetic_logistic_data(long long n, long long d, double l1_bound,
                                             const philox_stream& stream,
                                             const std::optional<vector<double>>& x_true = {}) {
  constexpr const char* fn = "synthetic_logistic_data";
  if (n < 1) fail_domain(fn, "n", ">= 1", n);
  if (d < 1) fail_domain(fn, "d", ">= 1", d);
  require_positive(fn, "l1_bound", l1_bound);
  if (x_true && x_true->size() != d) fail_argument(fn, "x_true.size()", "== d", x_true->size());
  const auto dd = static_cast<Eigen::Index>(d);
  const vector<double> xt = x_true ? *x_true : vector<double>(vector<double>::Ones(dd));
  logistic_data out{matrix<double>(dd, static_cast<Eigen::Index>(n)),
                    vector<double>(static_cast<Eigen::Index>(n)), l1_bound};
  // Scale B/d rounded down so that the rounded coordinates still satisfy Σ|u_j| ≤ B.
  const double scale = std::nextafter(l1_bound / static_cast<double>(d), 0.0) *
                       (1.0 - 4.0 * static_cast<double>(d) * 1.1102230246251565e-16);
  for (long long i = 0; i < n; ++i) {
    philox_stream s = stream.substream(static_cast<std::uint64_t>(i));
    const auto k = static_cast<Eigen::Index>(i);
    for (Eigen::Index j = 0; j < dd; ++j)
      out.features(j, k) = scale * (2.0 * uniform01<double>(s) - 1.0);
    const double p = 1.0 / (1.0 + std::exp(-out.features.col(k).dot(xt)));
    out.labels[k] = uniform01<double>(s) < p ? 1.0 : -1.0;
  }
  return out;
}

/// The accel (5.1) problem on generated data, at precision Real (data widened exactly).
/// @spec ACCEL.DATA
template <real_scalar Real>
logistic_regression<Real> make_logistic(const logistic_data& data, const Real& lambda) {
  return logistic_regression<Real>(data.features.template cast<Real>(),
                                   data.labels.template cast<Real>(), lambda, Real(data.l1_bound));
}

}  // namespace dpref::problems

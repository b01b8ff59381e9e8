// Snapped (lattice) Laplace release of a real scalar or d-vector (spec/secure_release.md
// SEC.LAPLACE): y = 2^k (round(clamp(x) / 2^k) + Z), Z coordinate-wise exact discrete Laplace of
// integer scale t = ceil(b / 2^k). The released doubles are exact lattice points; the ledger
// event (params.event()) is true for them: ε = (Δ1 + d 2^k)/(2^k t) for a query of l1
// sensitivity Δ1 (accounting/snapped.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "dpref/accounting/event.hpp"
#include "dpref/accounting/snapped.hpp"
#include "dpref/error.hpp"
#include "dpref/params.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "dpref/random/secure/snapping.hpp"
#include "dpref/scalar.hpp"

namespace dpref::mechanisms {

/// Public parameters of a snapped Laplace release (all data-independent).
/// @spec SEC.LAPLACE
struct snapped_laplace_params {
  double sensitivity = 0;   ///< l1 sensitivity Δ1 of the clamped query
  double scale = 0;         ///< noise scale b in x units (the grid scale t = ceil(b / 2^k))
  long long dimension = 1;  ///< d
  double clamp = 0;         ///< public bound C: coordinates are clamped to [-C, C]
  int grid_exponent = 0;    ///< k: the release lies on 2^k Z

  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ1 sensitivity Δ1 > 0 of the clamped query");
    v("scale", scale, "noise scale b > 0 (rounded up to t 2^k, t integer)");
    v("dimension", dimension, "number of coordinates d >= 1");
    v("clamp", clamp, "public bound C > 0: every coordinate is clamped to [-C, C]");
    v("grid_exponent", grid_exponent, "k: the release lies on the grid 2^k Z");
  }
  /// @throws invalid_parameter "mechanisms::snapped_laplace_params.<field> must be ..., got ..."
  void validate() const {
    const param_checker c("mechanisms::snapped_laplace_params");
    c.positive("sensitivity", sensitivity);
    c.positive("scale", scale);
    c.at_least<long long>("dimension", dimension, 1, 1LL << 40);
    c.positive("clamp", clamp);
    c.at_least<int>("grid_exponent", grid_exponent, secure::lattice_k_min, secure::lattice_k_max);
    c.require(std::ldexp(clamp, -grid_exponent) <= 0x1p52, "clamp",
              "<= 2^(grid_exponent + 52) (coarser grid or smaller clamp)", clamp);
    c.require(std::ldexp(scale, -grid_exponent) <= 0x1p52, "scale",
              "<= 2^(grid_exponent + 52) (coarser grid)", scale);
  }
  /// Integer noise scale t = max(1, ceil(b / 2^k)) in grid steps.
  [[nodiscard]] std::int64_t grid_scale() const {
    return secure::laplace_grid_scale(scale, grid_exponent);
  }
  /// The ledger event of `count` releases with these parameters.
  template <real_scalar Real>
  [[nodiscard]] accounting::event<Real> event(long long count = 1, std::string label = {}) const {
    validate();
    return accounting::make_event<Real>(
        accounting::snapped_laplace_mechanism<Real>{Real(sensitivity), grid_exponent, grid_scale(),
                                                    dimension},
        count, std::move(label));
  }
};

/// Parameters meeting a target ε: grid by secure::lattice_rule (per_step = d, precision s),
/// then the smallest certified grid scale t (accounting::snapped_laplace_grid_scale); the
/// sensitivity inflation costs at most a factor 1 + 2^-s unless the clamp forces a coarser grid.
/// @throws std::domain_error / invalid_parameter for invalid arguments
/// @spec SEC.LATTICE.RULE
inline snapped_laplace_params snapped_laplace_for(double l1_sensitivity, double epsilon,
                                                  long long dimension, double clamp, int s = 20) {
  require_positive("dpref::mechanisms::snapped_laplace_for", "epsilon", epsilon);
  snapped_laplace_params p;
  p.sensitivity = l1_sensitivity;
  p.dimension = dimension;
  p.clamp = clamp;
  p.grid_exponent = secure::lattice_rule(l1_sensitivity, l1_sensitivity / epsilon,
                                         static_cast<double>(dimension), clamp, s);
  const std::int64_t t =
      accounting::snapped_laplace_grid_scale(l1_sensitivity, epsilon, p.grid_exponent, dimension);
  p.scale = std::ldexp(static_cast<double>(t), p.grid_exponent);  // exact: t <= 2^52
  p.validate();
  return p;
}

/// The snapped Laplace release of the d-vector x: y_i = 2^k sat(n_i + Z_i), n_i the rounded
/// clamped coordinate, Z_i iid discrete Laplace(t). Validation is data-independent (the
/// parameters and the size of x); no value of x except NaN makes it throw.
/// @throws invalid_parameter for invalid params; std::domain_error if x.size() != d or some
///   x_i is NaN
/// @spec SEC.LAPLACE
inline vector<double> snapped_laplace(philox_stream& s, const vector<double>& x,
                                      const snapped_laplace_params& p) {
  p.validate();
  if (x.size() != p.dimension)
    fail_domain("dpref::mechanisms::snapped_laplace", "x.size()", "== params.dimension", x.size());
  const int k = p.grid_exponent;
  const std::int64_t t = p.grid_scale();
  vector<double> y(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const std::int64_t n = secure::lattice_round(x[i], k, p.clamp);
    const std::int64_t z = secure::discrete_laplace<std::int64_t>(s, t, 1);
    y[i] = secure::lattice_release(n, z, k);
  }
  return y;
}

/// Scalar form (params.dimension must be 1).
/// @throws as the vector form @spec SEC.LAPLACE
inline double snapped_laplace(philox_stream& s, double x, const snapped_laplace_params& p) {
  p.validate();
  if (p.dimension != 1)
    fail_domain("dpref::mechanisms::snapped_laplace", "params.dimension", "1 for a scalar",
                p.dimension);
  const int k = p.grid_exponent;
  const std::int64_t n = secure::lattice_round(x, k, p.clamp);
  const std::int64_t z = secure::discrete_laplace<std::int64_t>(s, p.grid_scale(), 1);
  return secure::lattice_release(n, z, k);
}

}  // namespace dpref::mechanisms

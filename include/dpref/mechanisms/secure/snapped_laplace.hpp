// Snapped (lattice) Laplace release of a real scalar or d-vector (spec/secure_release.md
// SEC.LAPLACE): y = 2^k (round(clamp(x) / 2^k) + Z), Z coordinate-wise exact discrete Laplace of
// integer scale t = ceil(b / 2^k). The released doubles are exact lattice points; the ledger
// event (params.event()) is true for them: ε = (Δ1 + d 2^k)/(2^k t) for a query of l1
// sensitivity Δ1 (accounting/snapped.hpp).
// With clamp_set::sum_of_l1_balls (snapped_laplace_sum) the query is a sum of records, each put
// in the l1 ball of radius record_radius on the grid (SEC.LATTICE.L1CLAMP) and summed exactly,
// and Δ1 >= 2 record_radius is required: the event then holds for any records, one replaced,
// added or removed, whatever floating-point error the records carry (SEC.LAPLACE.SUM).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/event.hpp"
#include "dpref/accounting/snapped.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/secure/clamp_set.hpp"
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
  clamp_set shape = clamp_set::coordinates;  ///< what is enforced (SEC.LAPLACE.SUM)
  double record_radius = 0;  ///< sum_of_l1_balls: the l1 bound of each record (else 0)

  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ1 sensitivity Δ1 > 0 of the clamped query");
    v("scale", scale, "noise scale b > 0 (rounded up to t 2^k, t integer)");
    v("dimension", dimension, "number of coordinates d >= 1");
    v("clamp", clamp, "public bound C > 0: every coordinate is clamped to [-C, C]");
    v("grid_exponent", grid_exponent, "k: the release lies on the grid 2^k Z");
    v("shape", shape,
      "coordinates (|x_i| <= C) or sum_of_l1_balls (each record in the l1 ball of radius "
      "record_radius on the grid, summed exactly; requires Δ1 >= 2 record_radius)");
    v("record_radius", record_radius,
      "sum_of_l1_balls: l1 bound of each record's vector, enforced on the grid (else 0)");
  }
  /// @throws invalid_parameter "mechanisms::snapped_laplace_params.<field> must be ..., got ..."
  void validate() const {
    const param_checker c("mechanisms::snapped_laplace_params");
    check_lattice_release(c, sensitivity, "scale", scale, 52, dimension, clamp, grid_exponent);
    c.require(shape == clamp_set::coordinates || shape == clamp_set::sum_of_l1_balls, "shape",
              "coordinates or sum_of_l1_balls (l2 shapes belong to the snapped Gaussian)",
              std::string(clamp_set_name(shape)));
    if (shape == clamp_set::sum_of_l1_balls) {  // one record replaced: 2 radius apart
      c.positive("record_radius", record_radius);
      c.require(std::ldexp(record_radius, -grid_exponent) <= 0x1p52, "record_radius",
                "<= 2^(grid_exponent + 52) (coarser grid)", record_radius);
      c.require(sensitivity >= 2 * record_radius, "sensitivity",
                ">= 2 * record_radius (one record replaced) when shape = sum_of_l1_balls",
                sensitivity);
    } else {
      c.require(record_radius == 0, "record_radius", "0 unless shape = sum_of_l1_balls",
                record_radius);
    }
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
  return secure::lattice_params_for<snapped_laplace_params>(
      l1_sensitivity, dimension, clamp, l1_sensitivity / epsilon, static_cast<double>(dimension), s,
      [&](int k) {
        return accounting::snapped_laplace_grid_scale(l1_sensitivity, epsilon, k, dimension);
      });
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
  if (p.shape != clamp_set::coordinates)
    fail_domain("dpref::mechanisms::snapped_laplace", "params.shape",
                "coordinates (a sum of records is released by snapped_laplace_sum)",
                std::string(clamp_set_name(p.shape)));
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

/// The snapped Laplace release of a sum of `records` per-record vectors plus a PUBLIC offset
/// (SEC.LAPLACE.SUM): record(r, x) writes record r's vector (size d) into x; each is rounded to
/// the grid with coordinates clamped to ±record_radius and put in the l1 ball of radius
/// record_radius exactly (SEC.LATTICE.L1CLAMP); the integer vectors and the rounded offset (a
/// data-independent vector, e.g. a regulariser's gradient at a released iterate; empty for none)
/// are summed exactly, each coordinate clamped to ±clamp/2^k (1-Lipschitz) and released as
/// y = 2^k sat(Σ n_r + n_offset + Z). Replacing one record moves the integer sum by at most
/// 2 record_radius/2^k + d <= Δ1/2^k + d in l1, the event's inflated sensitivity, whatever
/// floating-point error the records carry. Draws the same noise integers, in the same order, as
/// the vector form. Requires shape = sum_of_l1_balls.
/// @throws invalid_parameter for invalid params; std::domain_error for another shape, a record
///   or offset of the wrong size, or NaN
/// @spec SEC.LAPLACE.SUM
template <class Record>
vector<double> snapped_laplace_sum(philox_stream& s, std::size_t records, Record&& record,
                                   const vector<double>& offset, const snapped_laplace_params& p) {
  p.validate();
  if (p.shape != clamp_set::sum_of_l1_balls)
    fail_domain("dpref::mechanisms::snapped_laplace_sum", "params.shape", "sum_of_l1_balls",
                std::string(clamp_set_name(p.shape)));
  const std::vector<std::int64_t> n = detail::lattice_sum_of_balls(
      "dpref::mechanisms::snapped_laplace_sum", records, record, offset, p.dimension,
      p.grid_exponent, p.record_radius, p.clamp, true);
  const std::int64_t t = p.grid_scale();
  vector<double> y(p.dimension);
  for (Eigen::Index i = 0; i < p.dimension; ++i) {
    const std::int64_t z = secure::discrete_laplace<std::int64_t>(s, t, 1);
    y[i] = secure::lattice_release(n[static_cast<std::size_t>(i)], z, p.grid_exponent);
  }
  return y;
}

/// Scalar form (params.dimension must be 1, shape coordinates).
/// @throws as the vector form @spec SEC.LAPLACE
inline double snapped_laplace(philox_stream& s, double x, const snapped_laplace_params& p) {
  p.validate();
  if (p.shape != clamp_set::coordinates)
    fail_domain("dpref::mechanisms::snapped_laplace", "params.shape",
                "coordinates (a sum of records is released by snapped_laplace_sum)",
                std::string(clamp_set_name(p.shape)));
  if (p.dimension != 1)
    fail_domain("dpref::mechanisms::snapped_laplace", "params.dimension", "1 for a scalar",
                p.dimension);
  const int k = p.grid_exponent;
  const std::int64_t n = secure::lattice_round(x, k, p.clamp);
  const std::int64_t z = secure::discrete_laplace<std::int64_t>(s, p.grid_scale(), 1);
  return secure::lattice_release(n, z, k);
}

}  // namespace dpref::mechanisms

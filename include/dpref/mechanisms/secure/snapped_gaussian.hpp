// Snapped (lattice) Gaussian release of a real scalar or d-vector (spec/secure_release.md
// SEC.GAUSS): y = 2^k (round(clamp(x) / 2^k) + Z), Z coordinate-wise exact discrete Gaussian
// N_Z(0, σ_g²) with σ_g² = (σ / 2^k)² rounded up to a rational. The ledger event
// (params.event()) is true for the released doubles: ρ = (Δ2/2^k + √d)²/(2σ_g²)-zCDP for a
// query of l2 sensitivity Δ2 (accounting/snapped.hpp). Calibrate σ with the inflated
// sensitivity accounting::snapped_inflated_sensitivity(Δ2, k, d, true) = Δ2 + √d 2^k.
// With clamp_set::l2_ball the clamp C bounds ‖x‖₂ (exactly, on the grid: SEC.LATTICE.L2CLAMP) and
// Δ2 >= 2C is required, so the event holds for ANY two inputs: the mechanism enforces its own
// sensitivity instead of trusting the caller's floating-point clip (SEC.GAUSS.L2).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/accounting/event.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/secure/clamp_set.hpp"
#include "dpref/params.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/discrete_gaussian.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "dpref/scalar.hpp"

namespace dpref::mechanisms {

/// Public parameters of a snapped Gaussian release (all data-independent).
/// @spec SEC.GAUSS
struct snapped_gaussian_params {
  double sensitivity = 0;   ///< l2 sensitivity Δ2 of the clamped query
  double sigma = 0;         ///< noise standard deviation σ in x units (rounded up on the grid)
  long long dimension = 1;  ///< d
  double clamp = 0;         ///< public bound C: coordinates are clamped to [-C, C]
  int grid_exponent = 0;    ///< k: the release lies on 2^k Z
  clamp_set shape = clamp_set::coordinates;  ///< what is enforced (SEC.GAUSS.L2, SEC.GAUSS.SUM)
  double record_radius = 0;  ///< sum_of_l2_balls: the l2 bound of each record (else 0)

  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ2 sensitivity Δ2 > 0 of the clamped query");
    v("sigma", sigma, "noise standard deviation σ > 0 with (σ/2^k)² <= 2^30");
    v("dimension", dimension, "number of coordinates d >= 1");
    v("clamp", clamp, "public bound C > 0: every coordinate is clamped to [-C, C]");
    v("grid_exponent", grid_exponent, "k: the release lies on the grid 2^k Z");
    v("shape", shape,
      "coordinates (|x_i| <= C), l2_ball (‖x‖₂ <= C on the grid; requires Δ2 >= 2C) or "
      "sum_of_l2_balls (each record in the ball of radius record_radius on the grid, summed "
      "exactly; requires Δ2 >= record_radius)");
    v("record_radius", record_radius,
      "sum_of_l2_balls: l2 bound of each record's vector, enforced on the grid (else 0)");
  }
  /// @throws invalid_parameter "mechanisms::snapped_gaussian_params.<field> must be ..."
  void validate() const {
    const param_checker c("mechanisms::snapped_gaussian_params");
    check_lattice_release(c, sensitivity, "sigma", sigma, 15, dimension, clamp, grid_exponent);
    c.require(shape != clamp_set::sum_of_l1_balls, "shape",
              "coordinates, l2_ball or sum_of_l2_balls (l1 balls belong to the snapped Laplace)",
              std::string(clamp_set_name(shape)));
    if (shape == clamp_set::l2_ball)  // any two points of the ball are <= 2C apart
      c.require(sensitivity >= 2 * clamp, "sensitivity",
                ">= 2 * clamp (the l2 diameter of the clamp ball) when shape = l2_ball",
                sensitivity);
    if (shape == clamp_set::sum_of_l2_balls) {  // one record added or removed moves the sum
      c.positive("record_radius", record_radius);
      c.require(std::ldexp(record_radius, -grid_exponent) <= 0x1p52, "record_radius",
                "<= 2^(grid_exponent + 52) (coarser grid)", record_radius);
      c.require(sensitivity >= record_radius, "sensitivity",
                ">= record_radius (one record added or removed) when shape = sum_of_l2_balls",
                sensitivity);
    } else {
      c.require(record_radius == 0, "record_radius", "0 unless shape = sum_of_l2_balls",
                record_radius);
    }
  }
  /// σ_g² = (σ / 2^k)² rounded up (secure::lattice_gaussian_variance).
  [[nodiscard]] secure::rational64 grid_variance() const {
    return secure::lattice_gaussian_variance(sigma, grid_exponent);
  }
  /// The ledger event of `count` releases with these parameters.
  template <real_scalar Real>
  [[nodiscard]] accounting::event<Real> event(long long count = 1, std::string label = {}) const {
    validate();
    const secure::rational64 v = grid_variance();
    return accounting::make_event<Real>(
        accounting::snapped_gaussian_mechanism<Real>{Real(sensitivity), grid_exponent, v.num, v.den,
                                                     dimension},
        count, std::move(label));
  }
};

/// The grid of a snapped Gaussian: secure::lattice_rule with per_step = √d and reference
/// min(σ, Δ2/√d), made coarse enough that σ / 2^k <= 2^14 (so that σ may still grow by the
/// calibration for the inflated sensitivity and the exact sampler stays in 64-bit arithmetic).
/// @throws std::domain_error for invalid arguments
/// @spec SEC.LATTICE.RULE
inline int snapped_gaussian_grid_exponent(double l2_sensitivity, double sigma, long long dimension,
                                          double clamp, int s = 20) {
  if (dimension < 1)
    fail_domain("dpref::mechanisms::snapped_gaussian_grid_exponent", "dimension", ">= 1",
                dimension);
  const int k = secure::lattice_rule(l2_sensitivity, sigma,
                                     std::sqrt(static_cast<double>(dimension)), clamp, s);
  int e = 0;
  (void)std::frexp(sigma, &e);  // sigma <= 2^e
  return k > e - 14 ? k : e - 14;
}

/// The snapped Gaussian release of the d-vector x: y_i = 2^k sat(n_i + Z_i), Z_i iid N_Z(0, σ_g²),
/// n the rounded clamped x (clamped into the l2 ball on the grid when shape = l2_ball).
/// Validation is data-independent; no value of x except NaN makes it throw.
/// @throws invalid_parameter for invalid params; std::domain_error if x.size() != d or some x_i
///   is NaN
/// @spec SEC.GAUSS
inline vector<double> snapped_gaussian(philox_stream& s, const vector<double>& x,
                                       const snapped_gaussian_params& p) {
  p.validate();
  if (p.shape == clamp_set::sum_of_l2_balls)
    fail_domain("dpref::mechanisms::snapped_gaussian", "params.shape",
                "coordinates or l2_ball (a sum of records is released by snapped_gaussian_sum)",
                std::string("sum_of_l2_balls"));
  if (x.size() != p.dimension)
    fail_domain("dpref::mechanisms::snapped_gaussian", "x.size()", "== params.dimension", x.size());
  const int k = p.grid_exponent;
  const secure::rational64 v = p.grid_variance();
  std::vector<std::int64_t> n(static_cast<std::size_t>(x.size()));
  for (Eigen::Index i = 0; i < x.size(); ++i)
    n[static_cast<std::size_t>(i)] = secure::lattice_round(x[i], k, p.clamp);
  if (p.shape == clamp_set::l2_ball) secure::lattice_l2_clamp(n, k, p.clamp);  // SEC.GAUSS.L2
  vector<double> y(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {  // rounding draws nothing: same stream order
    const std::int64_t z = secure::discrete_gaussian<std::int64_t>(s, v.num, v.den);
    y[i] = secure::lattice_release(n[static_cast<std::size_t>(i)], z, k);
  }
  return y;
}

/// The snapped Gaussian release of a sum of `records` per-record vectors (SEC.GAUSS.SUM):
/// record(r, x) writes record r's vector (size d) into x; each is rounded to the grid, its
/// coordinates clamped to ±record_radius and the vector clamped into the l2 ball of radius
/// record_radius exactly (SEC.LATTICE.L2CLAMP); the integer vectors are summed exactly, each
/// coordinate of the sum clamped to ±clamp / 2^k (1-Lipschitz), and released as
/// y = 2^k sat(Σ n_r + Z). Adding or removing a record moves the integer sum by at most
/// record_radius / 2^k + √d/2 in l2, within the event's Δ2/2^k + √d: no floating-point error of
/// the records or of a floating-point sum can break the ledger. Draws the same noise integers, in
/// the same order, as the vector form. Requires shape = sum_of_l2_balls.
/// @throws invalid_parameter for invalid params; std::domain_error for another shape or NaN
/// @spec SEC.GAUSS.SUM
template <class Record>
vector<double> snapped_gaussian_sum(philox_stream& s, std::size_t records, Record&& record,
                                    const snapped_gaussian_params& p) {
  p.validate();
  if (p.shape != clamp_set::sum_of_l2_balls)
    fail_domain("dpref::mechanisms::snapped_gaussian_sum", "params.shape", "sum_of_l2_balls",
                std::string(clamp_set_name(p.shape)));
  const std::vector<std::int64_t> n = detail::lattice_sum_of_balls(
      "dpref::mechanisms::snapped_gaussian_sum", records, record, vector<double>(), p.dimension,
      p.grid_exponent, p.record_radius, p.clamp, false);
  const secure::rational64 v = p.grid_variance();
  vector<double> y(p.dimension);
  for (Eigen::Index i = 0; i < p.dimension; ++i) {
    const std::int64_t z = secure::discrete_gaussian<std::int64_t>(s, v.num, v.den);
    y[i] = secure::lattice_release(n[static_cast<std::size_t>(i)], z, p.grid_exponent);
  }
  return y;
}

/// Scalar form (params.dimension must be 1). @throws as the vector form @spec SEC.GAUSS
inline double snapped_gaussian(philox_stream& s, double x, const snapped_gaussian_params& p) {
  p.validate();
  if (p.shape == clamp_set::sum_of_l2_balls)
    fail_domain("dpref::mechanisms::snapped_gaussian", "params.shape",
                "coordinates or l2_ball (a sum of records is released by snapped_gaussian_sum)",
                std::string("sum_of_l2_balls"));
  if (p.dimension != 1)
    fail_domain("dpref::mechanisms::snapped_gaussian", "params.dimension", "1 for a scalar",
                p.dimension);
  const secure::rational64 v = p.grid_variance();
  const std::int64_t n = secure::lattice_round(x, p.grid_exponent, p.clamp);
  const std::int64_t z = secure::discrete_gaussian<std::int64_t>(s, v.num, v.den);
  return secure::lattice_release(n, z, p.grid_exponent);
}

}  // namespace dpref::mechanisms

// Lattice l2-Laplace release of a real d-vector (spec/secure_release.md SEC.VLAPLACE): the
// secure counterpart of the l2 ("vector") Laplace of ev and pwa. y = 2^k (round(clamp(x) / 2^k)
// + Z), Z = round(W) with W of density ∝ exp(−‖W‖₂/t) in grid steps, drawn exactly
// (random/secure/l2_laplace_lattice.hpp). The ledger event (params.event()) is true for the
// released doubles: ε = (Δ2 + √d 2^k)/(2^k t) for a query of l2 sensitivity Δ2.
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
#include "dpref/random/secure/l2_laplace_lattice.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "dpref/random/secure/snapping.hpp"
#include "dpref/scalar.hpp"

namespace dpref::mechanisms {

/// Public parameters of a lattice l2-Laplace release (all data-independent).
/// @spec SEC.VLAPLACE
struct snapped_vector_laplace_params {
  double sensitivity = 0;   ///< l2 sensitivity Δ2 of the clamped query
  double scale = 0;         ///< scale b of exp(−‖w‖₂/b) in x units (t = ceil(b / 2^k))
  long long dimension = 1;  ///< d
  double clamp = 0;         ///< public bound C: coordinates are clamped to [-C, C]
  int grid_exponent = 0;    ///< k: the release lies on 2^k Z

  template <class V>
  void fields(V&& v) {
    v("sensitivity", sensitivity, "ℓ2 sensitivity Δ2 > 0 of the clamped query");
    v("scale", scale, "scale b > 0 of the density ∝ exp(−‖w‖₂/b) (rounded up to t 2^k)");
    v("dimension", dimension, "number of coordinates d >= 1");
    v("clamp", clamp, "public bound C > 0: every coordinate is clamped to [-C, C]");
    v("grid_exponent", grid_exponent, "k: the release lies on the grid 2^k Z");
  }
  /// @throws invalid_parameter "mechanisms::snapped_vector_laplace_params.<field> must be ..."
  void validate() const {
    const param_checker c("mechanisms::snapped_vector_laplace_params");
    check_lattice_release(c, sensitivity, "scale", scale, 52, dimension, clamp, grid_exponent);
  }
  /// Integer scale t = max(1, ceil(b / 2^k)) in grid steps.
  [[nodiscard]] std::int64_t grid_scale() const {
    return secure::laplace_grid_scale(scale, grid_exponent);
  }
  /// The ledger event of `count` releases with these parameters.
  template <real_scalar Real>
  [[nodiscard]] accounting::event<Real> event(long long count = 1, std::string label = {}) const {
    validate();
    return accounting::make_event<Real>(
        accounting::snapped_vector_laplace_mechanism<Real>{Real(sensitivity), grid_exponent,
                                                           grid_scale(), dimension},
        count, std::move(label));
  }
};

/// Parameters meeting a target ε: grid by secure::lattice_rule (per_step = √d, precision s),
/// then the smallest certified t (accounting::snapped_vector_laplace_grid_scale).
/// @throws std::domain_error / invalid_parameter for invalid arguments
/// @spec SEC.LATTICE.RULE
inline snapped_vector_laplace_params snapped_vector_laplace_for(double l2_sensitivity,
                                                                double epsilon, long long dimension,
                                                                double clamp, int s = 20) {
  require_positive("dpref::mechanisms::snapped_vector_laplace_for", "epsilon", epsilon);
  if (dimension < 1)
    fail_domain("dpref::mechanisms::snapped_vector_laplace_for", "dimension", ">= 1", dimension);
  return secure::lattice_params_for<snapped_vector_laplace_params>(
      l2_sensitivity, dimension, clamp, l2_sensitivity / epsilon,
      std::sqrt(static_cast<double>(dimension)), s, [&](int k) {
        return accounting::snapped_vector_laplace_grid_scale(l2_sensitivity, epsilon, k, dimension);
      });
}

/// The lattice l2-Laplace release of the d-vector x: y = 2^k sat(n + Z). Validation is
/// data-independent; no value of x except NaN makes it throw.
/// @throws invalid_parameter for invalid params; std::domain_error if x.size() != d or some x_i
///   is NaN
/// @spec SEC.VLAPLACE
inline vector<double> snapped_vector_laplace(philox_stream& s, const vector<double>& x,
                                             const snapped_vector_laplace_params& p) {
  p.validate();
  if (x.size() != p.dimension)
    fail_domain("dpref::mechanisms::snapped_vector_laplace", "x.size()", "== params.dimension",
                x.size());
  const int k = p.grid_exponent;
  std::vector<std::int64_t> n(static_cast<std::size_t>(x.size()));
  for (Eigen::Index i = 0; i < x.size(); ++i)
    n[static_cast<std::size_t>(i)] = secure::lattice_round(x[i], k, p.clamp);
  const std::vector<std::int64_t> z =
      secure::l2_laplace_lattice(s, static_cast<std::size_t>(x.size()), p.grid_scale());
  vector<double> y(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const auto j = static_cast<std::size_t>(i);
    y[i] = secure::lattice_release(n[j], z[j], k);
  }
  return y;
}

}  // namespace dpref::mechanisms

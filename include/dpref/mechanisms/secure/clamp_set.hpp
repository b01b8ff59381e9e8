// What a lattice release enforces on its input (spec/secure_release.md SEC.GAUSS.L2,
// SEC.GAUSS.SUM, SEC.LAPLACE.SUM), and the exact sum of per-record grid vectors that the
// "sum of balls" shapes release. A shape that bounds the query on the grid makes the release's
// event hold for ANY input: the mechanism enforces its own sensitivity instead of trusting a
// floating-point clip or sum computed by the caller.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/params.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "dpref/scalar.hpp"

namespace dpref::mechanisms {

/// The set the rounded input is put in:
///   coordinates      |x_i| <= C; the caller answers for the query's sensitivity;
///   l2_ball          ‖x‖₂ <= C on the grid (snapped Gaussian; Δ2 >= 2C required);
///   sum_of_l2_balls  x = Σ_r x_r, each record's x_r in the l2 ball of radius record_radius on the
///                    grid, summed exactly (snapped Gaussian; Δ2 >= record_radius required);
///   sum_of_l1_balls  the same with l1 balls (snapped Laplace; Δ1 >= 2 record_radius required,
///                    so one record replaced, added or removed stays within Δ1).
enum class clamp_set { coordinates, l2_ball, sum_of_l2_balls, sum_of_l1_balls };

DPREF_ENUM_NAMES(clamp_set, coordinates, l2_ball, sum_of_l2_balls, sum_of_l1_balls)

/// The shape's name, as in enum_names (for messages).
constexpr std::string_view clamp_set_name(clamp_set c) {
  for (const auto& [v, name] : enum_names(c))
    if (v == c) return name;
  return "?";
}

/// The checks every lattice release's parameters share (SEC.LATTICE.CLAMP), in this order:
/// Δ > 0, the noise parameter > 0, d in [1, 2^40], C > 0, k in [-1022, 970], C / 2^k <= 2^52 and
/// noise / 2^k <= 2^noise_log2_cap. Public values only: call before touching the data.
inline void check_lattice_release(const param_checker& c, double sensitivity,
                                  std::string_view noise_field, double noise, int noise_log2_cap,
                                  long long dimension, double clamp, int grid_exponent) {
  c.positive("sensitivity", sensitivity);
  c.positive(noise_field, noise);
  c.at_least<long long>("dimension", dimension, 1, 1LL << 40);
  c.positive("clamp", clamp);
  c.at_least<int>("grid_exponent", grid_exponent, secure::lattice_k_min, secure::lattice_k_max);
  c.require(std::ldexp(clamp, -grid_exponent) <= 0x1p52, "clamp",
            "<= 2^(grid_exponent + 52) (coarser grid or smaller clamp)", clamp);
  c.require(std::ldexp(noise, -grid_exponent) <= std::ldexp(1.0, noise_log2_cap), noise_field,
            "<= 2^(grid_exponent + " + std::to_string(noise_log2_cap) + ") (coarser grid)", noise);
}

namespace detail {

__extension__ using i128 = __int128;  // |Σ n| <= records 2^53: exact for < 2^73 records

/// Σ_r n_r + offset, exactly, each coordinate then clamped to ±⌊C/2^k⌉ (1-Lipschitz): n_r is
/// record r's vector (record(r, x) writes it, size d) rounded to the grid with coordinates
/// clamped to ±radius and put in the ball of radius `radius` (l1 or l2) exactly
/// (SEC.LATTICE.L1CLAMP / SEC.LATTICE.L2CLAMP); offset is the rounded PUBLIC vector `offset`
/// (size d, or empty for none). Adding, removing or replacing one record moves the result by at
/// most the record's ball bound (twice it for a replacement), whatever the records' values.
/// @throws std::domain_error naming `fn` for a record of the wrong size or a NaN coordinate
template <class Record>
std::vector<std::int64_t> lattice_sum_of_balls(std::string_view fn, std::size_t records,
                                               Record&& record, const vector<double>& offset,
                                               long long dimension, int k, double radius,
                                               double clamp, bool l1) {
  const auto d = static_cast<std::size_t>(dimension);
  if (offset.size() != 0 && static_cast<std::size_t>(offset.size()) != d)
    fail_domain(fn, "offset.size()", "0 or == params.dimension", offset.size());
  std::vector<i128> total(d, 0);
  std::vector<std::int64_t> n(d);
  vector<double> x(dimension);
  for (std::size_t r = 0; r < records; ++r) {
    record(r, x);
    if (static_cast<std::size_t>(x.size()) != d)
      fail_domain(fn, "record size", "== params.dimension", x.size());
    for (std::size_t i = 0; i < d; ++i)
      n[i] = secure::lattice_round(x[static_cast<Eigen::Index>(i)], k, radius);
    if (l1)
      secure::lattice_l1_clamp(n, k, radius);
    else
      secure::lattice_l2_clamp(n, k, radius);
    for (std::size_t i = 0; i < d; ++i) total[i] += n[i];
  }
  if (offset.size() != 0)
    for (std::size_t i = 0; i < d; ++i)
      total[i] += secure::lattice_round(offset[static_cast<Eigen::Index>(i)], k, clamp);
  const auto lim = static_cast<i128>(secure::lattice_round(clamp, k, clamp));  // ⌊C/2^k⌉
  std::vector<std::int64_t> out(d);
  for (std::size_t i = 0; i < d; ++i)
    out[i] = static_cast<std::int64_t>(total[i] > lim ? lim : (total[i] < -lim ? -lim : total[i]));
  return out;
}

}  // namespace detail
}  // namespace dpref::mechanisms

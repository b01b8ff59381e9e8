// Lattice AboveThreshold (spec/secure_release.md SEC.SVT): the sparse-vector mechanism of
// linesearch Algorithm 1 (mechanisms/above_threshold.hpp) with integer queries and exact discrete
// Laplace noise. Query i is a sum of per-record terms plus a PUBLIC offset: every term is rounded
// to the grid 2^k and clamped to ±Δ_int = floor(C / 2^k) (C the public per-record bound), the
// integers are summed exactly, the rounded offset is added, and the comparison
// q_i + ν_i >= T + λ is done in exact integer arithmetic with λ ~ DLap(t1), ν_i ~ DLap(t2).
// Adding or removing one record moves every integer query by at most Δ_int, an integer, so the
// proof of Dwork–Roth Thm 3.23 holds with the integer shifts λ' = λ + Δ_int, ν'_i = ν_i + 2Δ_int
// (the pmf of DLap(t) changes by at most e^{s/t} under a shift by s): the released index is
// ε-DP with ε = Δ_int/t1 + 2Δ_int/t2, whatever floating-point error the terms carry. The ledger
// event is the sparse_vector kind with exactly these lattice values (sensitivity Δ_int 2^k <= C,
// scales t1 2^k and t2 2^k), whose proven bound is this ε (accounting/svt.hpp ACC.SVT.PURE; its
// RDP is the ε-DP → RDP conversion, true for any ε-DP mechanism).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/event.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/above_threshold.hpp"
#include "dpref/mechanisms/secure/record_terms.hpp"
#include "dpref/params.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"
#include "dpref/random/secure/lattice.hpp"

namespace dpref::mechanisms {

/// Public parameters of a lattice AboveThreshold (all data-independent).
/// @spec SEC.SVT
struct snapped_above_threshold_params {
  double record_bound = 0;                ///< C: each record's term is clamped to [-C, C]
  int grid_exponent = 0;                  ///< k: queries are integers in units of 2^k
  std::int64_t threshold_grid_scale = 0;  ///< t1: λ ~ DLap(t1) in grid units
  std::int64_t query_grid_scale = 0;      ///< t2: ν_i ~ DLap(t2) in grid units
  long long max_queries = 1;              ///< at most this many queries

  template <class V>
  void fields(V&& v) {
    v("record_bound", record_bound, "C > 0: every record's term is clamped to [-C, C]");
    v("grid_exponent", grid_exponent, "k: the queries are integers in units of 2^k");
    v("threshold_grid_scale", threshold_grid_scale, "t1 >= 1: threshold noise DLap(t1)");
    v("query_grid_scale", query_grid_scale, "t2 >= 1: query noise DLap(t2)");
    v("max_queries", max_queries, "at most this many queries, in [1, 10^6]");
  }
  /// @throws invalid_parameter "mechanisms::snapped_above_threshold_params.<field> must be ..."
  void validate() const {
    const param_checker c("mechanisms::snapped_above_threshold_params");
    check_record_bound(c, record_bound, grid_exponent);
    c.at_least<std::int64_t>("threshold_grid_scale", threshold_grid_scale, 1,
                             std::int64_t{1} << 52);
    c.at_least<std::int64_t>("query_grid_scale", query_grid_scale, 1, std::int64_t{1} << 52);
    c.at_least<long long>("max_queries", max_queries, 1, 1000000);
  }
  /// Δ_int = floor(C / 2^k).
  [[nodiscard]] std::int64_t record_bound_units() const {
    return mechanisms::record_bound_units(record_bound, grid_exponent);
  }
  /// The accounting kind: sparse_vector{laplace, Δ_int 2^k, t1 2^k, t2 2^k, max_queries,
  /// proven}, whose pure ε is Δ_int/t1 + 2Δ_int/t2 (all values exact doubles).
  template <real_scalar Real>
  [[nodiscard]] accounting::sparse_vector_mechanism<Real> mechanism() const {
    validate();
    accounting::sparse_vector_mechanism<Real> m;
    m.noise = accounting::svt_noise::laplace;
    m.sensitivity = Real(std::ldexp(static_cast<double>(record_bound_units()), grid_exponent));
    m.threshold_scale = Real(std::ldexp(static_cast<double>(threshold_grid_scale), grid_exponent));
    m.query_scale = Real(std::ldexp(static_cast<double>(query_grid_scale), grid_exponent));
    m.max_queries = max_queries;
    m.bound = accounting::svt_bound::proven;
    return m;
  }
  /// The ledger event of one run with these parameters.
  template <real_scalar Real>
  [[nodiscard]] accounting::event<Real> event(std::string label = {}) const {
    return accounting::make_event<Real>(mechanism<Real>(), 1, std::move(label));
  }
};

/// Parameters meeting a target ε for per-record bound C: the grid k = e − s with C in
/// [2^(e−1), 2^e) (so Δ_int >= 2^(s−1)), then the smallest t1 = ceil(2Δ_int/ε), t2 =
/// ceil(4Δ_int/ε) (Theorem 1's split ε/2 + ε/2), each raised until the certified pure ε of the
/// event is <= ε.
/// @throws std::domain_error / invalid_parameter for invalid arguments
/// @spec SEC.SVT
inline snapped_above_threshold_params snapped_above_threshold_for(double record_bound,
                                                                  double epsilon,
                                                                  long long max_queries,
                                                                  int s = 20) {
  constexpr const char* fn = "dpref::mechanisms::snapped_above_threshold_for";
  require_positive(fn, "epsilon", epsilon);
  snapped_above_threshold_params p;
  p.record_bound = record_bound;
  p.grid_exponent = record_grid_exponent(fn, record_bound, s);
  p.max_queries = max_queries;
  const double units = static_cast<double>(p.record_bound_units());
  constexpr const char* bound = "such that 4 C / (epsilon 2^k) <= 2^52";
  p.threshold_grid_scale = ceil_grid_scale(fn, 2 * units, epsilon, bound);
  p.query_grid_scale = ceil_grid_scale(fn, 4 * units, epsilon, bound);
  p.validate();
  // the quotients above are rounded doubles: raise t until the certified ε is within the target
  for (;;) {
    const auto m = p.mechanism<double>();
    const double got =
        accounting::svt_laplace_privacy(m.sensitivity, m.threshold_scale, m.query_scale).eps;
    if (!(got > epsilon)) break;
    ++p.threshold_grid_scale;
    ++p.query_grid_scale;
  }
  return p;
}

/// The lattice AboveThreshold on lazily built queries: query(i, terms) fills `terms` with the
/// per-record terms of query i (any doubles; each is rounded to the grid and clamped to ±Δ_int)
/// and returns its PUBLIC offset (a data-independent double, rounded to the grid and saturated).
/// The threshold T = threshold_units 2^k is public. Draws λ first, then one ν_i per evaluated
/// query. Validation is data-independent; only a NaN term is refused.
/// @throws invalid_parameter for invalid params; std::domain_error for a NaN term or offset
/// @spec SEC.SVT
template <class Query>
above_threshold_result snapped_above_threshold(philox_stream& s, Query&& query,
                                               const snapped_above_threshold_params& p,
                                               std::int64_t threshold_units = 0) {
  constexpr const char* fn = "dpref::mechanisms::snapped_above_threshold";
  p.validate();
  const int k = p.grid_exponent;
  const std::int64_t bound = p.record_bound_units();
  // public offsets are saturated here: far beyond any sum of at most 2^32 clamped terms
  constexpr double offset_limit = 0x1p62;
  using i128 = lattice_int;
  const i128 lambda = secure::discrete_laplace<std::int64_t>(s, p.threshold_grid_scale, 1);
  const i128 noisy_threshold = i128{threshold_units} + lambda;  // step 4
  std::vector<double> terms;
  for (long long i = 0; i < p.max_queries; ++i) {
    terms.clear();
    const double offset = query(static_cast<std::size_t>(i), terms);  // step 7
    if (terms.size() > (std::size_t{1} << 32))
      fail_domain(fn, "terms.size()", "<= 2^32", terms.size());
    i128 q = sum_record_terms(terms, k, bound, false);  // each term in [−Δ_int, Δ_int]
    if (std::isnan(offset)) fail_domain(fn, "offset", "not NaN", offset);
    const double o = std::ldexp(offset, -k);
    q += static_cast<std::int64_t>(std::nearbyint(o < -offset_limit  ? -offset_limit
                                                  : o > offset_limit ? offset_limit
                                                                     : o));
    const i128 nu = secure::discrete_laplace<std::int64_t>(s, p.query_grid_scale, 1);
    if (q + nu >= noisy_threshold) return {true, static_cast<std::size_t>(i)};  // steps 8-10
  }
  return {false, 0};  // step 12
}

}  // namespace dpref::mechanisms

// Lattice report-noisy-min for monotone scores (spec/secure_release.md SEC.NOISY_MIN): the
// selection of mechanisms/report_noisy_max.hpp with integer scores and exact discrete Laplace
// noise. Each candidate's score is a sum of per-record terms in [0, C] (DP-AGD's clipped
// objective): every term is rounded to the grid 2^k and clamped to [0, Δ_int], Δ_int =
// floor(C / 2^k), the integers are summed exactly, and argmin_k (score_k + Z_k), Z_k ~ DLap(t),
// is taken in exact integer arithmetic (ties keep the first index). Adding or removing one
// record moves every integer score the same way by at most Δ_int (monotone), and the tail of
// DLap(t) satisfies P(Z >= m + Δ) >= e^{−Δ/t} P(Z >= m) for every integer m, so the argument of
// Dwork–Roth Claim 3.9 gives ε = Δ_int / t for the released index, whatever floating-point
// error the terms carry. The ledger event is pure{ε} with this ε rounded up.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/event.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/secure/record_terms.hpp"
#include "dpref/params.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"
#include "dpref/random/secure/lattice.hpp"

namespace dpref::mechanisms {

/// Public parameters of a lattice report-noisy-min over monotone scores (data-independent).
/// @spec SEC.NOISY_MIN
struct snapped_report_noisy_min_params {
  double record_bound = 0;      ///< C: each record's term is clamped to [0, C]
  int grid_exponent = 0;        ///< k: scores are integers in units of 2^k
  std::int64_t grid_scale = 0;  ///< t: score noise DLap(t) in grid units
  long long candidates = 1;     ///< number of scores m

  template <class V>
  void fields(V&& v) {
    v("record_bound", record_bound, "C > 0: every record's term is clamped to [0, C]");
    v("grid_exponent", grid_exponent, "k: the scores are integers in units of 2^k");
    v("grid_scale", grid_scale, "t >= 1: score noise DLap(t)");
    v("candidates", candidates, "number of scores, in [1, 10^6]");
  }
  /// @throws invalid_parameter "mechanisms::snapped_report_noisy_min_params.<field> must be ..."
  void validate() const {
    const param_checker c("mechanisms::snapped_report_noisy_min_params");
    check_record_bound(c, record_bound, grid_exponent);
    c.at_least<std::int64_t>("grid_scale", grid_scale, 1, std::int64_t{1} << 52);
    c.at_least<long long>("candidates", candidates, 1, 1000000);
  }
  /// Δ_int = floor(C / 2^k).
  [[nodiscard]] std::int64_t record_bound_units() const {
    return mechanisms::record_bound_units(record_bound, grid_exponent);
  }
  /// ε = Δ_int / t rounded up (ACC.CERT.UP).
  template <real_scalar Real>
  [[nodiscard]] Real epsilon() const {
    validate();
    accounting::certifier<Real> c;
    return c.up(accounting::work_real(record_bound_units()) / accounting::work_real(grid_scale));
  }
  /// The ledger event of one selection: pure{Δ_int / t}.
  template <real_scalar Real>
  [[nodiscard]] accounting::event<Real> event(std::string label = {}) const {
    return accounting::make_event<Real>(accounting::pure_mechanism<Real>{epsilon<Real>()}, 1,
                                        std::move(label));
  }
};

/// Parameters meeting a target ε for per-record bound C: the grid k = e − s with C in
/// [2^(e−1), 2^e), then the smallest t = ceil(Δ_int / ε), raised until the certified ε <= ε.
/// @throws std::domain_error / invalid_parameter for invalid arguments
/// @spec SEC.NOISY_MIN
inline snapped_report_noisy_min_params snapped_report_noisy_min_for(double record_bound,
                                                                    double epsilon,
                                                                    long long candidates,
                                                                    int s = 20) {
  constexpr const char* fn = "dpref::mechanisms::snapped_report_noisy_min_for";
  require_positive(fn, "epsilon", epsilon);
  snapped_report_noisy_min_params p;
  p.record_bound = record_bound;
  p.grid_exponent = record_grid_exponent(fn, record_bound, s);
  p.candidates = candidates;
  p.grid_scale = ceil_grid_scale(fn, static_cast<double>(p.record_bound_units()), epsilon,
                                 "such that C / (epsilon 2^k) <= 2^52");
  p.validate();
  while (p.epsilon<double>() > epsilon) ++p.grid_scale;  // the quotient above is a rounded double
  return p;
}

/// The lattice report-noisy-min: scores(k, terms) fills `terms` with candidate k's per-record
/// terms (any doubles; each is rounded to the grid and clamped to [0, Δ_int]); one DLap(t) draw
/// per candidate in index order; returns argmin_k (Σ terms + Z_k), ties keeping the first.
/// @throws invalid_parameter for invalid params; std::domain_error for a NaN term
/// @spec SEC.NOISY_MIN
template <class Scores>
std::size_t snapped_report_noisy_min(philox_stream& s, Scores&& scores,
                                     const snapped_report_noisy_min_params& p) {
  p.validate();
  const int k = p.grid_exponent;
  const std::int64_t bound = p.record_bound_units();
  std::vector<double> terms;
  std::size_t best = 0;
  lattice_int best_v = 0;
  for (long long c = 0; c < p.candidates; ++c) {
    terms.clear();
    scores(static_cast<std::size_t>(c), terms);
    lattice_int v = sum_record_terms(terms, k, bound, true);  // each in [0, Δ_int]: monotone
    v += secure::discrete_laplace<std::int64_t>(s, p.grid_scale, 1);
    if (c == 0 || v < best_v) {
      best = static_cast<std::size_t>(c);
      best_v = v;
    }
  }
  return best;
}

}  // namespace dpref::mechanisms

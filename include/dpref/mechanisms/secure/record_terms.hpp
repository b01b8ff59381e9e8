// Per-record terms on the lattice (spec/secure_release.md SEC.SVT, SEC.NOISY_MIN): the grid of a
// public per-record bound C and the exact integer sum of terms each rounded to the grid 2^k and
// clamped to [lo, Δ_int], Δ_int = floor(C / 2^k). Adding or removing one record then moves the
// sum by an integer of at most Δ_int, whatever floating-point error the terms carry.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/params.hpp"
#include "dpref/random/secure/lattice.hpp"

namespace dpref::mechanisms {

/// Exact 128-bit integers (GCC/Clang extension) for sums of grid terms and their comparisons.
__extension__ using lattice_int = __int128;

/// The grid of a per-record bound C at precision s: k = e − s with C in [2^(e−1), 2^e), so that
/// Δ_int = floor(C / 2^k) is in [2^(s−1), 2^s).
/// @throws std::domain_error for C <= 0 or s outside [1, 30]
inline int record_grid_exponent(const char* fn, double record_bound, int s) {
  require_positive(fn, "record_bound", record_bound);
  if (s < 1 || s > 30) fail_domain(fn, "s", "in [1, 30]", s);
  int e = 0;
  (void)std::frexp(record_bound, &e);
  return e - s;
}

/// Δ_int = floor(C / 2^k) (exact when C / 2^k <= 2^30, as check_record_bound requires).
inline std::int64_t record_bound_units(double record_bound, int k) {
  return static_cast<std::int64_t>(std::floor(std::ldexp(record_bound, -k)));
}

/// The smallest integer noise scale t = max(1, ceil(units / ε)) of a lattice mechanism over Δ_int
/// grid units (`units` a multiple of Δ_int); the caller raises it until the certified ε is within
/// the target (the quotient is a rounded double).
/// @throws std::domain_error naming epsilon when t > 2^52 (`condition` says which quotient)
inline std::int64_t ceil_grid_scale(const char* fn, double units, double epsilon,
                                    const char* condition) {
  const double t = std::ceil(units / epsilon);
  if (!(t <= 0x1p52)) fail_domain(fn, "epsilon", condition, epsilon);
  return t < 1 ? std::int64_t{1} : static_cast<std::int64_t>(t);
}

/// Checks the public pair (C, k): C > 0, k in the lattice range, 1 <= C / 2^k <= 2^30.
inline void check_record_bound(const param_checker& c, double record_bound, int k) {
  c.positive("record_bound", record_bound);
  c.at_least<int>("grid_exponent", k, secure::lattice_k_min, secure::lattice_k_max);
  c.require(std::ldexp(record_bound, -k) >= 1, "record_bound", ">= 2^grid_exponent (one grid step)",
            record_bound);
  c.require(std::ldexp(record_bound, -k) <= 0x1p30, "record_bound",
            "<= 2^(grid_exponent + 30) (coarser grid)", record_bound);
}

/// Σ clamp(round(x / 2^k), lo, Δ_int) over the terms, exactly; lo = −Δ_int (signed terms) or 0
/// (nonnegative terms, a monotone sum). Only NaN is refused.
/// @throws std::domain_error for a NaN term
inline lattice_int sum_record_terms(const std::vector<double>& terms, int k, std::int64_t bound,
                                    bool nonnegative) {
  const double bound_x = std::ldexp(static_cast<double>(bound), k);  // exact
  lattice_int q = 0;
  for (const double x : terms) {
    const std::int64_t n = secure::lattice_round(x, k, bound_x);  // |n| <= Δ_int
    q += nonnegative && n < 0 ? 0 : n;
  }
  return q;
}

}  // namespace dpref::mechanisms

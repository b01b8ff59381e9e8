// What a dda run returns (spec/dda.md DDA.RUN, ARCH.RESULT): the snapshots of a trace and
// result<Real>, the shared run_report plus the outputs of Algorithm 1.
#pragma once

#include <string>
#include <vector>

#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

/// State after iteration t: x̄ = (1/n)Σ_i x̃_i^(t), ỹ^(t), and the consensus error
/// (1/n)Σ_i‖x_i^(t+1) − y^(t+1)‖ of Lemma 4.5.
template <real_scalar Real>
struct snapshot {
  long long t = 0;
  vector<Real> x_bar;
  vector<Real> y_tilde;
  Real consensus = Real(0);
  matrix<Real> x_tilde;  ///< d×n x̃_i^(t) (only with trace_nodes)
};

/// Result of a run: the shared run_report (status, message, iterations, privacy with the ledger)
/// plus the outputs of Algorithm 1. @spec DDA.RUN ARCH.RESULT
template <real_scalar Real>
struct result : run_report<Real> {
  matrix<Real> x_tilde;  ///< d×n: x̃_i^(T) = A_T^{-1} Σ_t a_t x_i^(t) (Algorithm 1 output)
  vector<Real> x_bar;    ///< (1/n) Σ_i x̃_i^(T) (the point evaluated in dda §5)
  vector<Real> y_tilde;  ///< ỹ^(T) = A_T^{-1} Σ_t a_t y^(t), y of (8)
  matrix<Real> z;        ///< d×n: z_i^(T+1) (the released messages of the last round)
  std::vector<long long> active_rounds;  ///< per node: rounds in which it was active
  std::vector<snapshot<Real>> trace;
  Real iota = Real(1);
  Real sigma = Real(0);     ///< σ of the noise ν ~ N(0, σ²I)
  std::string calibration;  ///< which calibration produced σ ("none": non-private)
  /// Node of column 0 of x_tilde and z: 0 except on ranks > 0 of a distributed run, which hold
  /// only their own nodes (DIST.DDA; rank 0 holds the whole result).
  int first_node = 0;
};

}  // namespace dpref::dda

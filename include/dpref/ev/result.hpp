// What `ev::run` returns (spec/ev.md EV.RESULT, ARCH.RESULT): result<Real> (the shared
// run_report, the released broadcasts and the non-private schedules and loads), the objective
// trace and the certified bracket of U* (EV.OPT).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "dpref/ev/params.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::ev {

/// U(Σ r^(k)) and U(Σ r̂^(k)), k = 1..K+1: non-private diagnostics (they depend on every
/// user's constraints directly).
template <real_scalar Real>
struct objective_trace {
  std::vector<Real> objective;
  std::vector<Real> averaged;
  template <class V>
  void fields(V&& v) {
    v("objective", objective, "U(Σ r^(k)), k = 1..K+1");
    v("averaged_objective", averaged, "U(Σ r̂^(k)), k = 1..K+1");
  }
};

/// The certified bracket of U* (spec/ev.md EV.OPT): lower <= U* <= value, value − lower = gap.
template <real_scalar Real>
struct optimum_bracket {
  Real value{};
  Real lower{};
  Real gap{};
  long long iterations = 0;
  bool certified = false;
  template <class V>
  void fields(V&& v) {
    v("value", value, "U(Σ r) at the solver's schedules, an upper bound of U*");
    v("lower", lower, "value − gap, a lower bound of U*");
    v("gap", gap, "Frank–Wolfe duality gap");
    v("iterations", iterations, "iterations of the solver");
    v("certified", certified, "gap <= optimum_relative_gap · value");
  }
};

/// Result of `ev::run` (ARCH.RESULT). Only `released` of Algorithm 2 is covered by the privacy
/// guarantee (Theorem 6 protects the broadcast sequence p̂^(1..K)); every other member is a
/// non-private quantity (the schedules and loads depend on the users' constraints directly).
/// @spec EV.RESULT
template <real_scalar Real>
struct result : run_report<Real> {
  algorithm_kind algorithm = algorithm_kind::private_projected_gradient;
  matrix<Real> released;   ///< T × K: broadcast p̂^(k) (Alg. 2), p^(k) (Alg. 1), ĝ_k (Alg. 3)
  matrix<Real> gradients;  ///< T × K: exact p^(k) = ∇U(Σ r^(k)) — NOT private
  matrix<Real> final_schedules;     ///< r_j^(K+1), T × N (optimum: the solver's schedules)
  matrix<Real> averaged_schedules;  ///< r̂_j^(K+1) (Algorithm 1 and optimum: = final)
  /// Global index of column 0 of the schedules: 0 except on ranks > 0 of a distributed run,
  /// which hold only their owned columns (DIST.EV; rank 0 holds all N).
  Eigen::Index schedules_first_column = 0;
  vector<Real> final_load;     ///< Σ_i r_i^(K+1) (multiplicity-weighted)
  vector<Real> averaged_load;  ///< Σ_i r̂_i^(K+1)
  Real final_objective{};      ///< U(Σ_i r_i^(K+1))
  Real averaged_objective{};   ///< U(Σ_i r̂_i^(K+1)), the utility of Algorithm 2's output
  Real noise_scale{};          ///< s of Algorithm 2, σ of Algorithm 3, else 0
  std::optional<objective_trace<Real>> trace;    ///< if params.trace
  std::optional<optimum_bracket<Real>> optimum;  ///< if params.optimum (or algorithm optimum)

  /// [U(Σ r̂^(K+1)) − U*]/U* of ev §VII with U* = optimum->value, and its upper bound with
  /// U* = optimum->lower (the certificate brackets the true value). Non-private.
  [[nodiscard]] std::optional<std::pair<Real, Real>> relative_suboptimality() const {
    if (!optimum) return std::nullopt;
    return std::pair<Real, Real>{(averaged_objective - optimum->value) / optimum->value,
                                 (averaged_objective - optimum->lower) / optimum->lower};
  }
};

}  // namespace dpref::ev

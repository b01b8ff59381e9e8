// What pwa::run returns (spec/pwa.md PWA.RUN, ARCH.RESULT): result<Real> (the shared report, the
// released x and the public calibration) and the non-private diagnostics a private run computes
// only on request (PRIV.RELEASE).
#pragma once

#include <optional>
#include <vector>

#include "dpref/pwa/exponential_mechanism.hpp"
#include "dpref/pwa/params.hpp"
#include "dpref/pwa/solve.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::pwa {

/// Non-private diagnostics of a run: functions of the private b without noise (evaluation only;
/// not covered by the guarantee).
template <real_scalar Real>
struct diagnostics {
  std::optional<Real> objective;      ///< f(x) of the released x on the true data
  std::optional<Real> suboptimality;  ///< f(x) − f_opt (params.optimum)
  /// min_{i≤k} f(x^(i)): Theorem 24's quantity, which Algorithm 2 does NOT output (choosing the
  /// best iterate needs the private f; errata PWA-E3)
  std::optional<Real> best_iterate_objective;
  std::vector<Real> objective_trace;          ///< f(x^(i)), i = 1..k+1 (params.trace)
  std::optional<pwa_solution<Real>> optimum;  ///< the certified LP optimum (params.optimum)
  std::optional<Real> optimum_gap;            ///< f(x_opt) − g(λ, μ) of its certificate
  std::optional<me_counts> sampler_counts;    ///< M_E proposals (depend on b)
};

/// Result of pwa::run (ARCH.RESULT): the shared report, the released x and the public
/// calibration (sensitivity, noise scale, step, bounds of Theorems 17 / 24).
/// @spec PWA.RUN ARCH.RESULT
template <real_scalar Real>
struct result : run_report<Real> {
  algorithm_kind algorithm = algorithm_kind::private_subgradient;
  vector<Real> x;  ///< the released output (x_opt for `optimum`)
  /// Δ (M_P: √m·bmax; M_S: diam P; Algorithm 1 / M_E: Δu = bmax, in secure mode plus the
  /// rounding of the double utilities, PRIV.PWA.BMAX)
  std::optional<Real> sensitivity;
  std::optional<Real> noise_scale;      ///< ℓ2-Laplace scale b, or the exponential scale 2Δu/ε'
  std::optional<Real> step;             ///< α of the subgradient methods
  std::vector<long long> selected;      ///< i* of every step of Algorithm 2 (released)
  std::optional<Real> bound_theorem17;  ///< E[f(x)] − f_opt bound of M_S (public)
  /// bound of Theorem 24 on E[min_i f(x^(i))] − f_opt, NOT on the output (errata PWA-E3)
  std::optional<Real> bound_theorem24_best_iterate;
  pwa::diagnostics<Real> diagnostics;
};

}  // namespace dpref::pwa

// What an accel run returns (spec/accel.md ACCEL.RESULT, ARCH.RESULT): result<Real> (the shared
// report, the released x_{T′} and the public calibration) and run_result<Real>, the result plus
// the non-private diagnostics that accel::run computes only on request (PRIV.RELEASE).
#pragma once

#include <optional>
#include <vector>

#include "dpref/accel/params.hpp"
#include "dpref/accel/reference.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel {

/// Result of a run (ARCH.RESULT): the shared report (status, iterations T′, privacy with the
/// ledger and the certified guarantee), the released x_{T′} and the public calibration.
/// @spec ACCEL.RESULT ARCH.RESULT
template <real_scalar Real>
struct result : run_report<Real> {
  algorithm_kind algorithm = algorithm_kind::gd;
  vector<Real> x;                  ///< final iterate x_{T′}
  std::vector<Real> trace;         ///< F(x_t), t = 0..T′ (if params.trace; non-private)
  std::vector<Real> noise_scales;  ///< b_t, t = 1..T′ (empty for noise_mode::none)
  Real eps_spent = Real(0);        ///< privacy.guarantee.epsilon (0 for noise_mode::none)
  long long batch = 0;             ///< m used
  Real alpha = Real(0);            ///< α (first stage for MASG)
  Real beta = Real(0);             ///< β (first stage for MASG; 0 for GD)
  Real smoothness = Real(0);       ///< the public L the run used
};

/// Non-private diagnostics of a run (functions of the private data without noise). A private run
/// computes them only when params.diagnostics is set (PRIV.RELEASE); a non-private one always
/// has the objective.
template <real_scalar Real>
struct diagnostics {
  std::optional<Real> objective;                 ///< F(x_{T′})
  std::optional<reference_minimum<Real>> fstar;  ///< certified non-private solve (params.fstar)
  std::optional<Real> smoothness_certified;  ///< the data's L (NOT used by the run; ARCH.PUBLIC)
};

/// The accel result plus its diagnostics (what accel::run returns).
template <real_scalar Real>
struct run_result : result<Real> {
  accel::diagnostics<Real> diagnostics;
};

}  // namespace dpref::accel

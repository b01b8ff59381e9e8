// The one entry point of the accel paper (spec/architecture.md ARCH.RUN, spec/accel.md ACCEL.RUN):
//   result<Real> run(const problem&, const params<Real>&, const philox_stream&)
// runs the algorithm named by params.algorithm (the dp_xxx::run implementations: DP-GD (2.4),
// DP-SHB (3.1), DP-NAG (4.1), DP-NAG-opt (Prop 4.2), DP-MASG (4.7), DP-MASG-opt). Every
// algorithm has a fixed plan: b_t and the ledger are accounted (plan_privacy) before any draw.
// `problem_spec<Real>` is the public description of the logistic-regression instance of accel
// (5.1) (synthetic data of §5 or a real-data CSV), `config<Real>` the complete configuration of
// `dpref accel run`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "dpref/accel/dp_gd.hpp"
#include "dpref/accel/dp_masg.hpp"
#include "dpref/accel/dp_masg_opt.hpp"
#include "dpref/accel/dp_nag.hpp"
#include "dpref/accel/dp_nag_opt.hpp"
#include "dpref/accel/dp_shb.hpp"
#include "dpref/accel/problem.hpp"
#include "dpref/accel/reference.hpp"
#include "dpref/accel/result.hpp"
#include "dpref/run/config.hpp"

namespace dpref::accel {

/// Runs params.algorithm on `prob`. Works for any problem of the dp_xxx algorithms (logistic
/// regression, quadratics of the tests).
/// @throws invalid_parameter naming the field; accounting::budget_exceeded before anything is
/// released if the certified guarantee would exceed params.epsilon
/// @spec ACCEL.RUN ARCH.RUN ARCH.BUDGET
template <class Problem, real_scalar Real = detail::problem_real<Problem>>
run_result<Real> run(const Problem& prob, const params<Real>& p, const philox_stream& stream) {
  run_result<Real> out;
  result<Real>& r = out;
  switch (p.algorithm) {
    case algorithm_kind::gd:
      r = dp_gd::run(prob, p, stream);
      break;
    case algorithm_kind::shb:
      r = dp_shb::run(prob, p, stream);
      break;
    case algorithm_kind::nag:
      r = dp_nag::run(prob, p, stream);
      break;
    case algorithm_kind::nag_opt:
      r = dp_nag_opt::run(prob, p, stream);
      break;
    case algorithm_kind::masg:
      r = dp_masg::run(prob, p, stream);
      break;
    case algorithm_kind::masg_opt:
      r = dp_masg_opt::run(prob, p, stream);
      break;
  }
  // PRIV.RELEASE: nothing data-dependent beyond the ledger's releases unless asked for
  if (r.privacy.is_private && !p.diagnostics) return out;
  out.diagnostics.objective = prob.value(r.x);
  if (p.fstar) {
    // F* by a certified non-private solve (ACCEL.FSTAR): F(x̂) − F* <= ‖∇F(x̂)‖²/(2μ)
    out.diagnostics.fstar = certified_minimum(prob, Real(1) / Real(1000000000000LL));
    if constexpr (requires { prob.smoothness(); })
      out.diagnostics.smoothness_certified = Real(prob.smoothness());
  }
  return out;
}

/// The `--params` document of `dpref accel run` and the "config" of its result (ARCH.RUN).
template <real_scalar Real>
using config = run_config<problem_spec<Real>, accel::params<Real>, 0>;

}  // namespace dpref::accel

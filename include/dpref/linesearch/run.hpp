// The one entry point of the linesearch paper (spec/architecture.md ARCH.RUN):
//   result<Real> run(const problem<Real>&, const params<Real>&, const philox_stream&)
// with params.algorithm selecting DP-BLSGD, DP-BLSGD-AC, DP-BLGD, DP-SGD, DP-AGD, OUTPERT, OBJPERT,
// NON-PRIVATE or MAJORITY on a linear ERM problem (problem<Real> = problems::linear_erm<Real>);
// the same run() accepts the §5.7 MLP (problems::mlp_classifier<Real>) for the algorithms that
// are generic over the problem (blsgd, blsgd_ac, blgd, dpsgd); config<Real>, the complete
// configuration of `dpref linesearch run`. The problem and make_problem: problem.hpp.
// spec/linesearch.md LS.API.
#pragma once

#include <cmath>
#include <string>
#include <type_traits>

#include "dpref/linesearch/baselines.hpp"
#include "dpref/linesearch/dp_blsgd.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/problem.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/problems/mlp.hpp"
#include "dpref/run/config.hpp"

namespace dpref::linesearch {

/// Runs params.algorithm on P (see the file comment). Non-private algorithms report
/// privacy.is_private = false and keep their output in the diagnostics; a private run computes
/// the non-private diagnostics (F(w), training accuracy, the objective trace) only when
/// params.diagnostics asks for them (spec/privacy_bounds.md PRIV.RELEASE), and lists its public
/// constants with their enforcement in privacy.enforced (PRIV.BOUNDS).
/// @throws invalid_parameter for invalid parameters (the message names the field);
/// accounting::budget_exceeded before anything is released when a fixed plan exceeds the
/// request without allow_over_budget
/// @spec ARCH.RUN LS.API
template <real_scalar Real, linesearch_problem<Real> Problem>
result<Real> run(const Problem& P, const params<Real>& p, const philox_stream& stream) {
  p.validate();
  constexpr bool linear = std::is_same_v<Problem, problems::linear_erm<Real>>;
  const param_checker chk("linesearch::params");
  if (p.algorithm != algorithm::outpert && p.algorithm != algorithm::objpert &&
      is_private(p.algorithm)) {  // RDP accounting: the request must be attainable on the grid
    try {
      (void)rdp_budget_for_dp(p.epsilon, p.delta,
                              accounting::integer_orders<Real>(2, static_cast<int>(p.max_order)));
    } catch (const std::domain_error&) {
      chk.fail("epsilon",
               "attainable at delta = " + io::format_real(p.delta) + " on the RDP orders 2.." +
                   std::to_string(p.max_order) + " (raise max_order or epsilon)",
               p.epsilon);
    }
  }
  result<Real> r;
  switch (p.algorithm) {
    case algorithm::blsgd:
    case algorithm::blsgd_ac:
    case algorithm::blgd:
      r = dp_blsgd(P, p, stream);
      break;
    case algorithm::dpsgd:
      r = dp_sgd(P, p, stream);
      break;
    default:
      if constexpr (!linear) {
        chk.fail("algorithm", "blsgd, blsgd_ac, blgd or dpsgd for the MLP problem",
                 std::string(io::enum_to_string(p.algorithm)));
      } else {
        const param_checker pc("linesearch::problem");
        using std::sqrt;
        const Real R = p.R ? *p.R : Real(sqrt(Real(static_cast<long long>(P.dimension()))));
        switch (p.algorithm) {
          case algorithm::dpagd:
            r = dp_agd(P, p, stream);
            break;
          case algorithm::outpert:
          case algorithm::objpert:
            pc.require(P.mu() > Real(0), "mu", "> 0 for outpert and objpert (strong convexity)",
                       P.mu());
            r = p.algorithm == algorithm::outpert
                    ? output_perturbation(smooth_surrogate(P), p, R, stream)
                    : objective_perturbation(smooth_surrogate(P), p, R, stream);
            break;
          case algorithm::nonprivate: {
            const auto m = minimize_smooth(
                smooth_surrogate(P), vector<Real>(vector<Real>::Zero(P.dimension())), Real(0));
            r.privacy = ::dpref::non_private<Real>();
            r.status = m.converged ? status::converged : status::iteration_limit;
            r.message = m.converged ? "Newton-CG met its gradient-norm test"
                                    : "Newton-CG stopped at its iteration cap";
            r.diagnostics.minimiser = m.w;
            r.diagnostics.objective = P.value(m.w);
            r.diagnostics.accuracy = Real(P.accuracy(m.w));
            return r;
          }
          case algorithm::majority: {
            r.privacy = ::dpref::non_private<Real>();
            r.status = status::completed;
            r.message = "the training majority class (not private)";
            r.diagnostics.majority_class = majority_class(P.labels());
            r.diagnostics.accuracy = Real(majority_accuracy(P.labels(), P.labels()));
            return r;
          }
          default:
            break;
        }
      }
  }
  if (r.w.size() > 0 && p.diagnostics) {  // PRIV.RELEASE: only when asked for
    r.diagnostics.objective = P.value(r.w);
    r.diagnostics.accuracy = Real(P.accuracy(r.w));
  }
  return r;
}

/// The `--params` document of `dpref linesearch run` and the "config" of its result (ARCH.RUN).
template <real_scalar Real>
using config = run_config<problem_spec<Real>, linesearch::params<Real>, 0>;

}  // namespace dpref::linesearch

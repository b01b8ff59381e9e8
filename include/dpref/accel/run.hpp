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
#include "dpref/accel/reference.hpp"
#include "dpref/problems/logistic.hpp"
#include "dpref/problems/real_logistic.hpp"
#include "dpref/problems/synthetic_logistic.hpp"

namespace dpref::accel {

/// The problem of accel (5.1): ℓ2-regularised logistic regression with ‖u_i‖₁ <= B.
template <real_scalar Real>
using problem = problems::logistic_regression<Real>;

/// Public description of the instance. The l1 bound B (S₁ = 2B) and λ are public constants given
/// by the caller (ARCH.PUBLIC); the features must satisfy ‖u_i‖₁ <= B (refused otherwise).
/// @spec ACCEL.RUN ARCH.PUBLIC
template <real_scalar Real>
struct problem_spec {
  static constexpr long long max_examples = 100000000, max_dimension = 10000;
  static constexpr long long max_entries = 100000000;

  std::string data;  ///< real-data CSV (scripts/real_data.sh); empty: synthetic (ACCEL.DATA)
  long long n = 10000;
  long long d = 20;
  std::optional<Real> l1_bound;
  Real lambda = Real(1) / 100;
  std::uint64_t data_seed = 1;
  bool intercept = false;

  template <class V>
  void fields(V&& v) {
    v("data", data,
      "real-data CSV label,<features> from scripts/real_data.sh (e.g. data/real/fertility.csv); "
      "empty: the synthetic data of accel §5 (n, d, data_seed)");
    v("n", n, "synthetic examples n in [1, 1e8]");
    v("d", d, "synthetic dimension d in [1, 1e4]");
    v("l1_bound", l1_bound,
      "public bound B > 0 on ‖u_i‖₁ (S₁ = 2B); absent: 20 (synthetic) or the column schema "
      "bound of the CSV (ACCEL.REALDATA)");
    v("lambda", lambda, "regularisation λ > 0 of (5.1)");
    v("data_seed", data_seed, "seed of the synthetic data");
    v("intercept", intercept, "with data: append a constant-1 feature (B grows by 1)");
  }
  /// @throws invalid_parameter "accel::problem.<field> must be …"
  void validate() const {
    const param_checker c("accel::problem");
    c.at_least<long long>("n", n, 1, max_examples);
    c.at_least<long long>("d", d, 1, max_dimension);
    c.require(n * d <= max_entries, "n", "such that n·d <= 1e8", n);
    if (l1_bound) c.positive("l1_bound", *l1_bound);
    c.positive("lambda", lambda);
    c.require(!intercept || !data.empty(), "intercept", "false unless data names a CSV",
              std::string("true"));
  }
};

/// Builds the problem from its public description.
/// @throws invalid_parameter naming the field; std::invalid_argument for a missing file
/// @spec ACCEL.RUN
template <real_scalar Real>
problem<Real> make_problem(const problem_spec<Real>& s) {
  s.validate();
  if (s.data.empty()) {
    const Real B = s.l1_bound ? *s.l1_bound : Real(20);
    // the data are generated in double under the bound B rounded down
    const auto data = problems::synthetic_logistic_data(s.n, s.d, static_cast<double>(B),
                                                        philox_stream(s.data_seed));
    return problem<Real>(data.features.template cast<Real>(), data.labels.template cast<Real>(),
                         s.lambda, B);
  }
  const auto real = problems::load_real_logistic_data(
      s.data, s.l1_bound ? static_cast<double>(*s.l1_bound) : 0.0, s.intercept);
  const Real B = s.l1_bound ? *s.l1_bound : Real(real.data.l1_bound);
  return problem<Real>(real.data.features.template cast<Real>(),
                       real.data.labels.template cast<Real>(), s.lambda, B);
}

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

/// Complete configuration of a run: the problem's public description, the parameters and the
/// stream (seed, stream id) of the run's noise and minibatches. Its JSON is the `--params`
/// document of `dpref accel run` and the "config" echoed in the result.
/// @spec ACCEL.RUN
template <real_scalar Real>
struct config {
  problem_spec<Real> problem;
  accel::params<Real> params;
  std::uint64_t seed = 20261121;
  std::uint64_t stream = 0;

  template <class V>
  void fields(V&& v) {
    v("problem", problem, "the instance (public description)");
    v("params", params, "the algorithm and its parameters");
    v("seed", seed, "seed of the run's stream (noise and minibatches)");
    v("stream", stream, "stream id of the run's stream");
  }
};

}  // namespace dpref::accel

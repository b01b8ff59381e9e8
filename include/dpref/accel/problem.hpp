// The problem of the accel paper (spec/accel.md ACCEL.RUN, ARCH.PUBLIC): ℓ2-regularised logistic
// regression (5.1), its public description problem_spec<Real> (the synthetic data of §5 or a
// real-data CSV) and make_problem, which builds the problem from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "dpref/params.hpp"
#include "dpref/problems/logistic.hpp"
#include "dpref/problems/real_logistic.hpp"
#include "dpref/problems/synthetic_logistic.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

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

}  // namespace dpref::accel

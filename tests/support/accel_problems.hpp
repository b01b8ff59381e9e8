// The small accel instance shared by the accel run and secure-mode tests: synthetic logistic
// regression with n examples, d features and the public l1 bound B (accel §5's generator); and
// the constant part of a one-dimensional problem stub.
#pragma once

#include "dpref/accel/run.hpp"

namespace dpref::test {

inline accel::problem<double> small_accel_problem(long long n = 200, long long d = 4,
                                                  double B = 20) {
  accel::problem_spec<double> s;
  s.n = n;
  s.d = d;
  s.l1_bound = B;
  return accel::make_problem(s);
}

/// The constant members of a one-dimensional accel problem stub of N examples (every constant 1,
/// value 0); a stub adds gradient_into and minibatch_gradient_into.
template <long long N>
struct accel_stub {
  [[nodiscard]] long long size() const { return N; }
  [[nodiscard]] long long dimension() const { return 1; }
  [[nodiscard]] double l1_sensitivity() const { return 1; }
  [[nodiscard]] double strong_convexity() const { return 1; }
  [[nodiscard]] double smoothness() const { return 1; }
  [[nodiscard]] double public_smoothness() const { return 1; }
  [[nodiscard]] double value(const vector<double>&) const { return 0; }
};

}  // namespace dpref::test

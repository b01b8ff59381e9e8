// The small accel instance shared by the accel run and secure-mode tests: synthetic logistic
// regression with n examples, d features and the public l1 bound B (accel §5's generator).
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

}  // namespace dpref::test

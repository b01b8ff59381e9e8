// Synthetic binary ERM instance shared by the linesearch tests: x ∈ [0, 1]^d, labels from a
// planted w0 ∈ [−2, 2]^d with 10% of the labels flipped, all drawn from stream (seed, 77).
#pragma once

#include <cstdint>

#include "dpref/problems/erm.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::test {

template <real_scalar Real>
problems::linear_erm<Real> synthetic_erm(
    Eigen::Index n, Eigen::Index d, std::uint64_t seed,
    problems::margin_loss<Real> loss = problems::margin_loss<Real>::logistic(),
    Real mu = Real(1) / 1000) {
  philox_stream s(seed, 77);
  matrix<Real> X(d, n);
  vector<Real> y(n), w0(d);
  for (Eigen::Index j = 0; j < d; ++j) w0[j] = Real(4) * uniform01<Real>(s) - Real(2);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) X(j, i) = uniform01<Real>(s);
    Real m = X.col(i).dot(w0) - w0.sum() / 2;
    if (uniform01<Real>(s) < Real(1) / 10) m = -m;
    y[i] = m > Real(0) ? Real(1) : Real(-1);
  }
  return problems::linear_erm<Real>(X, y, loss, mu);
}

}  // namespace dpref::test

// l2 (vector) Laplace in R^d with density proportional to exp(-||w||_2 / b):
// w = R u, R ~ Gamma(d, b), u uniform on S^{d-1} (pwa Theorem 9, ev Proposition 11).
// spec/random.md RAND.VLAPLACE.
#pragma once

#include <cstddef>

#include "dpref/random/gamma.hpp"
#include "dpref/random/sphere.hpp"

namespace dpref {

/// One l2-Laplace vector in R^d with scale b (E||w|| = d b).
/// @throws std::domain_error if d == 0 or b is not finite and > 0.
/// @spec RAND.VLAPLACE
template <real_scalar Real>
vector<Real> vector_laplace(philox_stream& s, std::size_t d, const Real& b) {
  if (d == 0) fail_domain("dpref::vector_laplace", "d", ">= 1", d);
  require_positive("dpref::vector_laplace", "b", b);
  const Real radius = gamma_integer<Real>(s, d, b);
  vector<Real> w = uniform_direction<Real>(s, d);
  for (Eigen::Index i = 0; i < w.size(); ++i) w[i] *= radius;
  return w;
}

}  // namespace dpref

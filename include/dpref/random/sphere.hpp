// Uniform direction on the unit sphere S^{d-1}: a standard Gaussian vector divided by its
// norm (rotation invariance). spec/random.md RAND.SPHERE.
#pragma once

#include <cstddef>

#include "dpref/error.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/scalar.hpp"

namespace dpref {

/// Uniformly distributed unit vector in R^d. Uses d draws.
/// @throws std::domain_error if d == 0.
/// @spec RAND.SPHERE
template <real_scalar Real>
vector<Real> uniform_direction(philox_stream& s, std::size_t d) {
  if (d == 0) fail_domain("dpref::uniform_direction", "d", ">= 1", d);
  using Eval = detail::evaluation_t<Real>;
  const unsigned lanes = detail::inversion_lanes<Real>();
  Eigen::Matrix<Eval, Eigen::Dynamic, 1> z(static_cast<Eigen::Index>(d));
  for (Eigen::Index i = 0; i < z.size(); ++i)
    z[i] = detail::standard_gaussian<Eval>(s.next_draw(), lanes);
  Eval norm2(0);
  for (Eigen::Index i = 0; i < z.size(); ++i) norm2 += z[i] * z[i];
  const Eval norm = math::sqrt(norm2);  // > 0: every Gaussian draw is nonzero
  vector<Real> u(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) u[i] = static_cast<Real>(z[i] / norm);
  return u;
}

}  // namespace dpref

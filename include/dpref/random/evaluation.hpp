// Inversion samplers compute in an evaluation type and round once to the caller's type.
// For double the evaluation type is long double with two lanes (128 uniform bits): the double
// sample is then, in all but a fraction ~1e-4 of draws, the correctly rounded value of the
// exact inverse-CDF transform of the draw, i.e. the double sample equals the 50-digit sample
// of the same draw rounded to double (RAND.PRECISION.AGREE). The fast double-only variants in
// fast.hpp skip this and compute in double from one word.
#pragma once

#include <type_traits>

#include "dpref/random/uniform.hpp"
#include "dpref/scalar.hpp"

namespace dpref::detail {

template <class Real>
struct evaluation_type {
  using type = Real;
};
template <>
struct evaluation_type<double> {
  using type = long double;
};

template <class Real>
using evaluation_t = typename evaluation_type<Real>::type;

/// Lanes read by an inversion sampler of Real: those of its evaluation type.
template <real_scalar Real>
unsigned inversion_lanes() {
  return lanes_for<evaluation_t<Real>>();
}

}  // namespace dpref::detail

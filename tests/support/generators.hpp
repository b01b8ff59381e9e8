// RapidCheck generators for real scalars (RapidCheck has no floating-point range generator).
#pragma once

#include <rapidcheck.h>

#include <cmath>
#include <cstdint>

#include "dpref/scalar.hpp"

namespace dpref::test {

/// Real uniform-ish in [lo, hi] at double resolution, with the end points and a few
/// awkward values (powers of two) drawn more often.
template <real_scalar Real>
rc::Gen<Real> real_in(double lo, double hi) {
  return rc::gen::map(rc::gen::inRange<std::int64_t>(0, (std::int64_t{1} << 52) + 1),
                      [lo, hi](std::int64_t k) {
                        const double t = static_cast<double>(k) / 0x1p52;
                        return Real(lo + (hi - lo) * t);
                      });
}

/// Log-uniform positive reals in [lo, hi] (scales, noise parameters).
template <real_scalar Real>
rc::Gen<Real> positive_log_uniform(double lo, double hi) {
  return rc::gen::map(real_in<double>(std::log(lo), std::log(hi)),
                      [](double t) { return Real(std::exp(t)); });
}

/// Privacy parameter epsilon in [1e-3, 10], log-uniform.
template <real_scalar Real>
rc::Gen<Real> epsilon() {
  return positive_log_uniform<Real>(1e-3, 10.0);
}

/// Privacy parameter delta in [1e-12, 0.5), log-uniform.
template <real_scalar Real>
rc::Gen<Real> delta() {
  return positive_log_uniform<Real>(1e-12, 0.49);
}

/// Any double including NaN, infinities, zero and negatives (for validation properties).
inline rc::Gen<double> any_parameter() {
  return rc::gen::oneOf(
      rc::gen::element(0.0, -0.0, -1.0, 1.0, 0.5, 1e-300, -1e300, 1e300, std::nan(""), INFINITY,
                       -INFINITY),
      rc::gen::map(rc::gen::arbitrary<std::int32_t>(), [](std::int32_t k) { return k / 1000.0; }));
}

}  // namespace dpref::test

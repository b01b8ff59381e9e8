// Scalar layer: the one place that says which number types dpref supports.
// Every kernel is written against `template <real_scalar Real>`.
#pragma once

#include <Eigen/Core>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/eigen.hpp>
#include <cmath>
#include <concepts>
#include <limits>
#include <type_traits>

#include "dpref/scalar_mpfr.hpp"

namespace dpref {

namespace bmp = boost::multiprecision;

/// 50 significant decimal digits (166-bit significand), expression templates off (spec/random.md,
/// spec/architecture.md ARCH.NUMBERS).
using mp50 = bmp::number<bmp::cpp_bin_float<50>, bmp::et_off>;
// mpfr_real (runtime-precision MPFR, precision per thread from mpfr_precision_scope) is defined
// in scalar_mpfr.hpp.

template <class T>
inline constexpr bool is_runtime_precision_v = false;
template <>
inline constexpr bool is_runtime_precision_v<mpfr_real> = true;

/// A real binary floating-point scalar usable by every dpref kernel. Runtime-precision MPFR
/// has no numeric_limits specialisation, so it is admitted by name.
template <class T>
concept real_scalar = (is_runtime_precision_v<T> || (std::numeric_limits<T>::is_specialized &&
                                                     !std::numeric_limits<T>::is_integer &&
                                                     std::numeric_limits<T>::radix == 2)) &&
                      requires(T a, T b, int e) {
  { a + b } -> std::convertible_to<T>;
  { a* b } -> std::convertible_to<T>;
  { a / b } -> std::convertible_to<T>;
  { -a } -> std::convertible_to<T>;
  { a < b } -> std::convertible_to<bool>;
  { T(e) } -> std::same_as<T>;
};

/// Number of binary digits in the significand of Real (runtime value for mpfr_real).
template <real_scalar Real>
int binary_digits() {
  if constexpr (is_runtime_precision_v<Real>) {
    Real probe;  // default-constructed: carries the current default precision
    return static_cast<int>(mpfr_get_prec(probe.backend().data()));
  } else {
    return std::numeric_limits<Real>::digits;
  }
}

/// Machine epsilon 2^(1-p) of Real at its (current) precision.
template <real_scalar Real>
Real machine_epsilon() {
  using std::ldexp;
  return ldexp(Real(1), 1 - binary_digits<Real>());
}

/// Default comparison tolerance for kernels of Real: 2^6 ulps of one, i.e. a few
/// rounding errors per operation over a short chain of operations.
template <real_scalar Real>
Real tolerance() {
  return Real(64) * machine_epsilon<Real>();
}

/// Human-readable name of the scalar type (used in CLI/JSON output and test names).
template <real_scalar Real>
constexpr const char* scalar_name() {
  if constexpr (std::is_same_v<Real, float>)
    return "float";
  else if constexpr (std::is_same_v<Real, double>)
    return "double";
  else if constexpr (std::is_same_v<Real, long double>)
    return "long double";
  else if constexpr (std::is_same_v<Real, mp50>)
    return "mp50";
  else if constexpr (std::is_same_v<Real, mpfr_real>)
    return "mpfr";
  else
    return "real";
}

template <real_scalar Real>
using vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
template <real_scalar Real>
using matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;

}  // namespace dpref

/// Applies X(type) to every scalar type dpref instantiates explicitly in src/instances.
#define DPREF_FOR_EACH_SCALAR(X) \
  X(double)                      \
  X(long double)                 \
  X(::dpref::mp50)               \
  X(::dpref::mpfr_real)

// Elementary and special functions dispatched by scalar type: libm/Boost.Math for built-in
// types, MPFR for mpfr_real, and for cpp_bin_float types dpref's own series evaluated with 30
// guard digits (Boost.Math's generic erf_inv costs ~1.5 ms per call at 50 digits; the
// refinement below costs ~20-60 us). spec/random.md RAND.MATH.ERFINV.
#pragma once

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <cmath>
#include <type_traits>

#include "dpref/scalar.hpp"

namespace dpref::math {

namespace detail {
/// For cpp_bin_float types: an MPFR type with >= the same precision. Elementary functions go
/// through it (exact conversion in, correctly rounded MPFR result, one rounding out): ~3 us
/// instead of ~8 us for Boost's generic log at 50 digits, and more accurate.
template <class Real>
struct mpfr_twin {
  using type = void;
};
template <unsigned Digits, bmp::expression_template_option ET>
struct mpfr_twin<bmp::number<bmp::cpp_bin_float<Digits>, ET>> {
  using type = bmp::number<bmp::mpfr_float_backend<Digits + 3>, bmp::et_off>;
};
template <class Real>
using mpfr_twin_t = typename mpfr_twin<Real>::type;
template <class Real>
inline constexpr bool has_mpfr_twin_v = !std::is_void_v<mpfr_twin_t<Real>>;
}  // namespace detail

template <real_scalar Real>
Real log(const Real& x) {
  if constexpr (detail::has_mpfr_twin_v<Real>) {
    return static_cast<Real>(log(detail::mpfr_twin_t<Real>(x)));
  } else {
    using std::log;
    return log(x);
  }
}

template <real_scalar Real>
Real log1p(const Real& x) {
  if constexpr (std::is_floating_point_v<Real>) {
    return std::log1p(x);
  } else if constexpr (detail::has_mpfr_twin_v<Real>) {
    return static_cast<Real>(log1p(detail::mpfr_twin_t<Real>(x)));
  } else if constexpr (is_runtime_precision_v<Real>) {
    return log1p(x);  // MPFR's mpfr_log1p via ADL
  } else {
    return boost::math::log1p(x);
  }
}

template <real_scalar Real>
Real sqrt(const Real& x) {
  using std::sqrt;
  return sqrt(x);
}

template <real_scalar Real>
Real exp(const Real& x) {
  if constexpr (detail::has_mpfr_twin_v<Real>) {
    return static_cast<Real>(exp(detail::mpfr_twin_t<Real>(x)));
  } else {
    using std::exp;
    return exp(x);
  }
}

namespace detail {

/// Working type with >= 30 extra decimal digits for the guard-digit series below.
template <class Real>
struct guarded {
  using type = Real;
};
template <unsigned Digits, bmp::expression_template_option ET>
struct guarded<bmp::number<bmp::cpp_bin_float<Digits>, ET>> {
  using type = bmp::number<bmp::cpp_bin_float<Digits + 30>, bmp::et_off>;
};

/// erf(x) for x >= 0 by the positive-term series
/// erf(x) = 2x/sqrt(pi) e^{-x^2} sum_n (2x^2)^n / (2n+1)!! (no cancellation).
template <class W>
W erf_series(const W& x) {
  using std::abs;
  using std::exp;
  const W two_x2 = 2 * x * x;
  const W eps = ldexp(W(1), -std::numeric_limits<W>::digits - 2);
  W term(1), sum(1);
  for (int n = 1; n < 100000; ++n) {
    term *= two_x2 / W(2 * n + 1);
    sum += term;
    if (term < eps * sum) break;
  }
  return 2 * x / boost::math::constants::root_pi<W>() * math::exp(W(-x * x)) * sum;
}

/// erfc(x) for x > 0 by the continued fraction (modified Lentz)
/// erfc(x) = e^{-x^2}/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
template <class W>
W erfc_continued_fraction(const W& x) {
  using std::abs;
  using std::exp;
  const W eps = ldexp(W(1), -std::numeric_limits<W>::digits - 2);
  const W tiny = ldexp(W(1), -1000);
  W f = x, c = x, d = 0;
  for (int n = 1; n < 1000000; ++n) {
    const W a = W(n) / 2;
    d = x + a * d;
    if (d == 0) d = tiny;
    c = x + a / c;
    if (c == 0) c = tiny;
    d = 1 / d;
    const W delta = c * d;
    f *= delta;
    if (abs(delta - 1) < eps) break;
  }
  return math::exp(W(-x * x)) / boost::math::constants::root_pi<W>() / f;
}

/// erf and erfc accurate to Real's precision for x >= 0.
template <class Real>
void erf_erfc(const Real& x, Real& erf_out, Real& erfc_out) {
  if constexpr (is_runtime_precision_v<Real>) {
    erf_out = erf(x);  // MPFR, correctly rounded
    erfc_out = erfc(x);
  } else {
    using W = typename guarded<Real>::type;
    const W wx(x);
    if (x < Real(4)) {  // 1 - erf loses <= 24 bits of the 100 guard bits here
      const W e = erf_series(wx);
      erf_out = static_cast<Real>(e);
      erfc_out = static_cast<Real>(W(1) - e);
    } else {
      const W c = erfc_continued_fraction(wx);
      erfc_out = static_cast<Real>(c);
      erf_out = static_cast<Real>(W(1) - c);
    }
  }
}

/// 61-bit MPFR: Boost's erf_inv at <= 64 bits is its rational approximation, here with MPFR's
/// correctly rounded log instead of libm's.
using start_real = bmp::number<bmp::mpfr_float_backend<18>, bmp::et_off>;

/// Starting point of inverse_erf_family, a function of y alone. Boost's rational approximation
/// at long double is used only where it calls no libm function (erf_inv on |y| <= 1/2, erfc_inv
/// on [1/2, 3/2]); elsewhere it takes log(q), and glibc's logl is the x87 FYL2X instruction,
/// whose last bit differs between Intel and AMD CPUs (Halley's result inherits it in its last
/// digits): there the same approximation runs at 61 bits with MPFR's log (spec/conformance.md
/// CONF.MACHINE).
template <class Real>
Real inverse_erf_start(const Real& y, bool complement) {
  const long double y0 = static_cast<long double>(y);
  if (!complement && y0 >= -0.5L && y0 <= 0.5L) return Real(boost::math::erf_inv(y0));
  if (complement && y0 >= 0.5L && y0 <= 1.5L) return Real(boost::math::erfc_inv(y0));
  const start_real s(y);
  const start_real x0 = complement ? boost::math::erfc_inv(s) : boost::math::erf_inv(s);
  if constexpr (std::is_same_v<Real, mpfr_real>) {
    // Boost 1.74 gives a variable-precision number built from another MPFR number the source's
    // precision (61 bits), and Halley's steps would then stay at 61 bits: round into a number
    // of the working precision instead (RAND_MATH_ERFINV, 40 digits)
    Real r;
    mpfr_set(r.backend().data(), x0.backend().data(), MPFR_RNDN);
    return r;
  } else {
    return Real(x0);
  }
}

/// Solves erf(x) = y (complement == false) or erfc(x) = y (complement == true) for x >= 0 by
/// Halley iteration from inverse_erf_start; cubic convergence from about 60 correct bits.
template <class Real>
Real inverse_erf_family(const Real& y, bool complement) {
  using std::abs;
  using std::exp;
  Real x = inverse_erf_start(y, complement);
  const Real two_over_root_pi = 2 / boost::math::constants::root_pi<Real>();
  const Real tol = ldexp(Real(1), 4 - binary_digits<Real>());
  for (int it = 0; it < 12; ++it) {
    Real e, c;
    erf_erfc(x, e, c);
    // f(x) = erf(x) - y  or  erfc(x) - y;  f' = +-(2/sqrt(pi)) e^{-x^2};  f''/f' = -2x
    const Real fprime =
        (complement ? -two_over_root_pi : two_over_root_pi) * math::exp(Real(-x * x));
    const Real f = complement ? Real(c - y) : Real(e - y);
    const Real newton = f / fprime;
    const Real step = newton / (1 + x * newton);  // Halley
    x -= step;
    // Halley's error recursion for erf/erfc: e_{n+1} ~ ((x^2 + 1)/3) e_n^3, with e_n ~ step.
    if (abs(step) <= tol * abs(x) || (x * x + 1) * abs(step * step * step) <= tol * abs(x)) break;
  }
  return x;
}

}  // namespace detail

/// Inverse error function; argument in (0, 1/2] in the samplers.
template <real_scalar Real>
Real erf_inv(const Real& y) {
  if constexpr (std::is_floating_point_v<Real>) {
    return boost::math::erf_inv(y);
  } else {
    return detail::inverse_erf_family(y, false);
  }
}

/// Inverse complementary error function; argument in (0, 1/2] in the samplers.
template <real_scalar Real>
Real erfc_inv(const Real& y) {
  if constexpr (std::is_floating_point_v<Real>) {
    return boost::math::erfc_inv(y);
  } else {
    return detail::inverse_erf_family(y, true);
  }
}

}  // namespace dpref::math

// Numbers of the conformance kit (spec/conformance.md CONF.NUMBERS): an owned MPFR number of
// an explicit precision (no process-wide state), exact conversion of every dpref scalar to it,
// correctly rounded parsing of decimal text at a given number of bits, decimal text with a
// given number of significant digits, and the unit in the last place of a p-bit format.
#pragma once

#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "dpref/io/number_text.hpp"
#include "dpref/scalar.hpp"

namespace dpref::conformance {

/// Working precision of reference values and comparisons (bits).
inline constexpr mpfr_prec_t reference_bits = 640;

/// An MPFR number with its own precision (round to nearest unless stated).
class mp {
 public:
  explicit mp(mpfr_prec_t bits = reference_bits) {
    mpfr_init2(v_, bits);
    mpfr_set_zero(v_, 1);
  }
  mp(const mp& o) {
    mpfr_init2(v_, mpfr_get_prec(o.v_));
    mpfr_set(v_, o.v_, MPFR_RNDN);
  }
  mp& operator=(const mp& o) {
    if (this != &o) {
      mpfr_set_prec(v_, mpfr_get_prec(o.v_));
      mpfr_set(v_, o.v_, MPFR_RNDN);
    }
    return *this;
  }
  ~mp() { mpfr_clear(v_); }

  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }
  [[nodiscard]] mpfr_prec_t bits() const { return mpfr_get_prec(v_); }

  /// Decimal (JSON number grammar) text rounded to nearest at `bits` bits.
  /// @throws std::invalid_argument "<what> must be a decimal number, got '<text>'"
  static mp parse(std::string_view text, mpfr_prec_t bits, std::string_view what) {
    const std::string s(text);
    if (s.size() > 100000 || !io::is_decimal_number(s))
      throw std::invalid_argument(std::string(what) + " must be a decimal number, got '" +
                                  (s.size() > 80 ? s.substr(0, 80) + "..." : s) + "'");
    mp out(bits);
    mpfr_strtofr(out.v_, s.c_str(), nullptr, 10, MPFR_RNDN);
    return out;
  }

  /// Significant decimal digits of the value, rounded to nearest: "-1.2345e-7" style
  /// (d.ddd...e±x; "0" for zero). Every digit is printed, trailing zeros included.
  [[nodiscard]] std::string digits(int n) const {
    if (mpfr_zero_p(v_)) return "0";
    mpfr_exp_t e = 0;
    char* raw = mpfr_get_str(nullptr, &e, 10, static_cast<std::size_t>(n), v_, MPFR_RNDN);
    std::string m(raw);
    mpfr_free_str(raw);
    std::string sign;
    if (!m.empty() && m[0] == '-') {
      sign = "-";
      m.erase(0, 1);
    }
    // value = 0.m * 10^e = m[0].m[1..] * 10^(e-1)
    std::string out = sign + m.substr(0, 1);
    if (m.size() > 1) out += "." + m.substr(1);
    out += "e" + std::to_string(static_cast<long>(e) - 1);
    return out;
  }

  [[nodiscard]] bool is_zero() const { return mpfr_zero_p(v_) != 0; }
  [[nodiscard]] int sign() const { return mpfr_sgn(v_); }
  [[nodiscard]] double to_double() const { return mpfr_get_d(v_, MPFR_RNDN); }

 private:
  mpfr_t v_;
};

inline int compare(const mp& a, const mp& b) { return mpfr_cmp(a.get(), b.get()); }

/// a - b, |a|, a * b, a / b at `bits` bits (round to nearest).
inline mp sub(const mp& a, const mp& b, mpfr_prec_t bits = reference_bits) {
  mp out(bits);
  mpfr_sub(out.get(), a.get(), b.get(), MPFR_RNDN);
  return out;
}
inline mp abs(const mp& a) {
  mp out(a.bits());
  mpfr_abs(out.get(), a.get(), MPFR_RNDN);
  return out;
}
inline mp mul(const mp& a, const mp& b, mpfr_prec_t bits = reference_bits) {
  mp out(bits);
  mpfr_mul(out.get(), a.get(), b.get(), MPFR_RNDN);
  return out;
}
inline mp div(const mp& a, const mp& b, mpfr_prec_t bits = reference_bits) {
  mp out(bits);
  mpfr_div(out.get(), a.get(), b.get(), MPFR_RNDN);
  return out;
}

inline mp add(const mp& a, const mp& b, mpfr_prec_t bits = reference_bits) {
  mp out(bits);
  mpfr_add(out.get(), a.get(), b.get(), MPFR_RNDN);
  return out;
}
inline mp neg(const mp& a) {
  mp out(a.bits());
  mpfr_neg(out.get(), a.get(), MPFR_RNDN);
  return out;
}
inline mp from_long(long v, mpfr_prec_t bits = reference_bits) {
  mp out(bits);
  mpfr_set_si(out.get(), v, MPFR_RNDN);
  return out;
}

/// Elementary functions at the reference precision (MPFR, correctly rounded).
inline mp log(const mp& x) {
  mp out(reference_bits);
  mpfr_log(out.get(), x.get(), MPFR_RNDN);
  return out;
}
inline mp log1p(const mp& x) {
  mp out(reference_bits);
  mpfr_log1p(out.get(), x.get(), MPFR_RNDN);
  return out;
}
inline mp sqrt(const mp& x) {
  mp out(reference_bits);
  mpfr_sqrt(out.get(), x.get(), MPFR_RNDN);
  return out;
}

/// erfc^-1(y) (complement) or erf^-1(y) for y in (0, 1) by Newton's method on MPFR's erfc /
/// erf from a double start, to the reference precision.
inline mp inverse_erf(const mp& y, bool complement) {
  // start: a few bisection-free Newton steps from the double estimate
  double yd = y.to_double();
  double x0 = 0;
  {
    // Giles' single-precision-ish start is enough: Newton converges quadratically
    const double u = complement ? yd : 1 - yd;  // erfc(x) = u
    double lo = 0, hi = 30;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      (std::erfc(mid) > u ? lo : hi) = mid;
    }
    x0 = 0.5 * (lo + hi);
  }
  mp x(reference_bits), f(reference_bits), d(reference_bits), pi(reference_bits);
  mpfr_set_d(x.get(), x0, MPFR_RNDN);
  mpfr_const_pi(pi.get(), MPFR_RNDN);
  mpfr_sqrt(pi.get(), pi.get(), MPFR_RNDN);  // sqrt(pi)
  for (int it = 0; it < 60; ++it) {
    // g(x) = erfc(x) - y (complement) or erf(x) - y; g'(x) = -+ 2/sqrt(pi) exp(-x^2)
    if (complement)
      mpfr_erfc(f.get(), x.get(), MPFR_RNDN);
    else
      mpfr_erf(f.get(), x.get(), MPFR_RNDN);
    mpfr_sub(f.get(), f.get(), y.get(), MPFR_RNDN);
    mpfr_sqr(d.get(), x.get(), MPFR_RNDN);
    mpfr_exp(d.get(), d.get(), MPFR_RNDN);  // exp(x^2)
    mpfr_mul(f.get(), f.get(), d.get(), MPFR_RNDN);
    mpfr_mul(f.get(), f.get(), pi.get(), MPFR_RNDN);
    mpfr_div_ui(f.get(), f.get(), 2, MPFR_RNDN);  // (g / |g'|)
    if (complement)
      mpfr_add(x.get(), x.get(), f.get(), MPFR_RNDN);
    else
      mpfr_sub(x.get(), x.get(), f.get(), MPFR_RNDN);
    if (mpfr_zero_p(f.get()) ||
        mpfr_get_exp(f.get()) < mpfr_get_exp(x.get()) - static_cast<mpfr_exp_t>(reference_bits) - 4)
      break;
  }
  return x;
}

/// x rounded to nearest at `bits` bits.
inline mp round_to(const mp& x, mpfr_prec_t bits) {
  mp out(bits);
  mpfr_set(out.get(), x.get(), MPFR_RNDN);
  return out;
}

/// Unit in the last place of |x| in a binary format with `bits` significand bits (unbounded
/// exponent): 2^(floor(log2|x|) - bits + 1); 0 for x = 0.
inline mp ulp(const mp& x, int bits) {
  mp out(reference_bits);
  if (x.is_zero()) return out;
  // x = m 2^e with m in [1/2, 1): floor(log2|x|) = e - 1
  const mpfr_exp_t e = mpfr_get_exp(x.get());
  mpfr_set_ui_2exp(out.get(), 1, static_cast<mpfr_exp_t>(e - 1 - bits + 1), MPFR_RNDN);
  return out;
}

/// The exact value of a dpref scalar (double, long double, mp50, mpfr_real) as an mp of
/// `bits` bits (exact whenever bits >= the scalar's precision).
template <real_scalar Real>
mp exact(const Real& x, mpfr_prec_t bits = reference_bits) {
  mp out(bits);
  if constexpr (std::is_same_v<Real, double>) {
    mpfr_set_d(out.get(), x, MPFR_RNDN);
  } else if constexpr (std::is_same_v<Real, long double>) {
    mpfr_set_ld(out.get(), x, MPFR_RNDN);
  } else if constexpr (is_runtime_precision_v<Real>) {
    mpfr_set(out.get(), x.backend().data(), MPFR_RNDN);
  } else {
    // generic: |x| = sum of 32-bit chunks scaled by powers of two (frexp / ldexp are exact)
    using std::floor;
    using std::frexp;
    using std::ldexp;
    if (x == Real(0)) return out;
    const bool negative = x < Real(0);
    int e = 0;
    Real m = frexp(negative ? Real(-x) : x, &e);  // m in [1/2, 1)
    mp term(64);
    for (int k = 1; m != Real(0); ++k) {
      m = ldexp(m, 32);
      const Real c = floor(m);
      m -= c;
      mpfr_set_ui_2exp(term.get(), static_cast<unsigned long>(static_cast<std::uint32_t>(c)),
                       static_cast<mpfr_exp_t>(e - 32 * k), MPFR_RNDN);
      mpfr_add(out.get(), out.get(), term.get(), MPFR_RNDN);
    }
    if (negative) mpfr_neg(out.get(), out.get(), MPFR_RNDN);
  }
  return out;
}

}  // namespace dpref::conformance

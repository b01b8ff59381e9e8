// The number type of every certified accounting evaluation: an MPFR value whose precision is
// set per thread, never process-wide (spec ACC.CERT.THREADS).
//
// Boost.Multiprecision's mpfr_float keeps its default precision in one process-wide static
// (Boost 1.74), so switching it for a certified evaluation races with every other thread that
// creates an mpfr_float. work_real owns its mpfr_t; a new value takes the calling thread's
// working precision (`thread_local`, changed only by `working_precision_scope`); arithmetic is
// MPFR's correctly rounded (round-to-nearest) arithmetic at that precision. MPFR's inexact flag
// is thread-local in Debian's MPFR (built with TLS), so `certifier` can read it per thread.
#pragma once

#include <mpfr.h>

#include <concepts>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

namespace dpref::accounting {

namespace detail {
/// Working precision (bits) of new work_real values on this thread.
inline mpfr_prec_t& thread_working_bits() {
  thread_local mpfr_prec_t bits = 256;
  return bits;
}
}  // namespace detail

/// RAII: sets this thread's working precision to `bits` (>= 2) and restores the previous value.
/// Affects only work_real values created on this thread while it is alive.
/// @spec ACC.CERT.THREADS
class working_precision_scope {
 public:
  explicit working_precision_scope(int bits) : saved_(detail::thread_working_bits()) {
    if (bits < 2 || bits > (1 << 24))
      throw std::domain_error("working_precision_scope: bits must be in [2, 2^24], got " +
                              std::to_string(bits));
    detail::thread_working_bits() = static_cast<mpfr_prec_t>(bits);
  }
  ~working_precision_scope() { detail::thread_working_bits() = saved_; }
  working_precision_scope(const working_precision_scope&) = delete;
  working_precision_scope& operator=(const working_precision_scope&) = delete;
  /// Working precision of this thread now.
  [[nodiscard]] static int bits() { return static_cast<int>(detail::thread_working_bits()); }

 private:
  mpfr_prec_t saved_;
};

/// An MPFR number at the calling thread's working precision (see the file comment).
/// @spec ACC.CERT.THREADS
class work_real {
 public:
  work_real() {
    mpfr_init2(v_, detail::thread_working_bits());
    mpfr_set_zero(v_, 1);
  }
  work_real(const work_real& o) {
    mpfr_init2(v_, mpfr_get_prec(o.v_));
    mpfr_set(v_, o.v_, MPFR_RNDN);
  }
  work_real(work_real&& o) noexcept {
    mpfr_init2(v_, MPFR_PREC_MIN);
    mpfr_swap(v_, o.v_);
  }
  work_real& operator=(const work_real& o) {
    if (this != &o) {
      mpfr_set_prec(v_, mpfr_get_prec(o.v_));
      mpfr_set(v_, o.v_, MPFR_RNDN);
    }
    return *this;
  }
  work_real& operator=(work_real&& o) noexcept {
    mpfr_swap(v_, o.v_);
    return *this;
  }
  ~work_real() { mpfr_clear(v_); }

  /// Exact: integers up to 64 bits fit any working precision >= 64.
  template <std::signed_integral I>
  work_real(I i) : work_real() {  // NOLINT(google-explicit-constructor): 2 * x must work
    mpfr_set_si(v_, static_cast<long>(i), MPFR_RNDN);
  }
  template <std::unsigned_integral I>
  work_real(I i) : work_real() {  // NOLINT(google-explicit-constructor)
    mpfr_set_ui(v_, static_cast<unsigned long>(i), MPFR_RNDN);
  }
  /// Exact for a working precision >= 53 bits.
  work_real(double d) : work_real() { mpfr_set_d(v_, d, MPFR_RNDN); }  // NOLINT
  /// Exact for a working precision >= 64 bits.
  explicit work_real(long double d) : work_real() { mpfr_set_ld(v_, d, MPFR_RNDN); }
  /// Decimal text, correctly rounded to the working precision.
  /// @throws std::invalid_argument if `text` is not a number
  explicit work_real(const std::string& text) : work_real() {
    if (mpfr_set_str(v_, text.c_str(), 10, MPFR_RNDN) != 0)
      throw std::invalid_argument("work_real: not a decimal number: '" + text + "'");
  }

  [[nodiscard]] mpfr_ptr data() { return v_; }
  [[nodiscard]] mpfr_srcptr data() const { return v_; }
  [[nodiscard]] int precision() const { return static_cast<int>(mpfr_get_prec(v_)); }

  explicit operator double() const { return mpfr_get_d(v_, MPFR_RNDN); }
  explicit operator long double() const { return mpfr_get_ld(v_, MPFR_RNDN); }

  work_real& operator+=(const work_real& o) {
    mpfr_add(v_, v_, o.v_, MPFR_RNDN);
    return *this;
  }
  work_real& operator-=(const work_real& o) {
    mpfr_sub(v_, v_, o.v_, MPFR_RNDN);
    return *this;
  }
  work_real& operator*=(const work_real& o) {
    mpfr_mul(v_, v_, o.v_, MPFR_RNDN);
    return *this;
  }
  work_real& operator/=(const work_real& o) {
    mpfr_div(v_, v_, o.v_, MPFR_RNDN);
    return *this;
  }

  friend work_real operator+(const work_real& a, const work_real& b) {
    return apply2(mpfr_add, a, b);
  }
  friend work_real operator-(const work_real& a, const work_real& b) {
    return apply2(mpfr_sub, a, b);
  }
  friend work_real operator*(const work_real& a, const work_real& b) {
    return apply2(mpfr_mul, a, b);
  }
  friend work_real operator/(const work_real& a, const work_real& b) {
    return apply2(mpfr_div, a, b);
  }
  friend work_real operator-(const work_real& a) {
    work_real r;
    mpfr_neg(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  friend work_real operator+(const work_real& a) { return a; }

  friend bool operator==(const work_real& a, const work_real& b) {
    return mpfr_equal_p(a.v_, b.v_) != 0;
  }
  friend bool operator<(const work_real& a, const work_real& b) {
    return mpfr_less_p(a.v_, b.v_) != 0;
  }
  friend bool operator<=(const work_real& a, const work_real& b) {
    return mpfr_lessequal_p(a.v_, b.v_) != 0;
  }
  friend bool operator>(const work_real& a, const work_real& b) {
    return mpfr_greater_p(a.v_, b.v_) != 0;
  }
  friend bool operator>=(const work_real& a, const work_real& b) {
    return mpfr_greaterequal_p(a.v_, b.v_) != 0;
  }

  // Elementary functions (found by argument-dependent lookup, as for the built-in types).
  friend work_real exp(const work_real& x) { return apply1(mpfr_exp, x); }
  friend work_real log(const work_real& x) { return apply1(mpfr_log, x); }
  friend work_real log1p(const work_real& x) { return apply1(mpfr_log1p, x); }
  friend work_real expm1(const work_real& x) { return apply1(mpfr_expm1, x); }
  friend work_real sqrt(const work_real& x) { return apply1(mpfr_sqrt, x); }
  friend work_real cbrt(const work_real& x) { return apply1(mpfr_cbrt, x); }
  friend work_real tanh(const work_real& x) { return apply1(mpfr_tanh, x); }
  friend work_real erfc(const work_real& x) { return apply1(mpfr_erfc, x); }
  friend work_real abs(const work_real& x) { return apply1(mpfr_abs, x); }
  friend work_real fabs(const work_real& x) { return apply1(mpfr_abs, x); }
  friend work_real floor(const work_real& x) {
    work_real r;
    mpfr_floor(r.v_, x.v_);
    return r;
  }
  friend work_real ceil(const work_real& x) {
    work_real r;
    mpfr_ceil(r.v_, x.v_);
    return r;
  }
  friend work_real pow(const work_real& x, const work_real& y) { return apply2(mpfr_pow, x, y); }
  friend work_real ldexp(const work_real& x, int e) {
    work_real r;
    mpfr_mul_2si(r.v_, x.v_, e, MPFR_RNDN);
    return r;
  }
  friend bool isfinite(const work_real& x) { return mpfr_number_p(x.v_) != 0; }
  friend bool isnan(const work_real& x) { return mpfr_nan_p(x.v_) != 0; }

  /// Decimal text with `digits` significant digits (0: enough to round-trip).
  [[nodiscard]] std::string str(int digits = 0) const {
    if (digits <= 0) digits = static_cast<int>(mpfr_get_prec(v_) * 30103 / 100000 + 2);
    std::string fmt = "%." + std::to_string(digits) + "RNg";
    char* buf = nullptr;
    if (mpfr_asprintf(&buf, fmt.c_str(), v_) < 0) throw std::runtime_error("work_real::str");
    std::string out(buf);
    mpfr_free_str(buf);
    return out;
  }
  friend std::ostream& operator<<(std::ostream& os, const work_real& x) {
    const auto p = os.precision();
    return os << x.str(p > 0 ? static_cast<int>(p) : 0);
  }

 private:
  template <class F>
  static work_real apply1(F f, const work_real& x) {
    work_real r;
    f(r.v_, x.v_, MPFR_RNDN);
    return r;
  }
  template <class F>
  static work_real apply2(F f, const work_real& a, const work_real& b) {
    work_real r;
    f(r.v_, a.v_, b.v_, MPFR_RNDN);
    return r;
  }

  mpfr_t v_;
};

}  // namespace dpref::accounting

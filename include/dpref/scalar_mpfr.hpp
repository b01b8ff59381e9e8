// mpfr_real's backend: an MPFR number whose precision is set per thread, by a scope, never
// process-wide (spec/architecture.md ARCH.MPFR.SCOPE).
//
// Boost 1.74's runtime-precision mpfr_float_backend<0> keeps its default precision (the precision
// of every new value: literals, temporaries, results) in one process-wide static, so two threads
// at two precisions race, and a precision set by one command leaks into the next. Boost declares
// mpfr_float_backend<0, allocate_stack> and leaves it undefined (stack allocation needs a fixed
// precision); dpref defines that specialization here as its own runtime-precision backend: the
// storage and every MPFR operation are Boost's (mpfr_float_imp, the eval_* functions, constants
// and special functions written for mpfr_float_backend<D, A>), so results are bit-identical to
// Boost's mpfr_float at the same precision; only the default precision differs: it is
// `thread_local`, and dpref sets it only through `mpfr_precision_scope` (RAII, restored on exit).
// Worker threads the library starts inherit their parent's precision (parallel/worker_scope.hpp).
// If a later Boost defines this specialization itself, this header stops compiling: nothing
// changes silently.
#pragma once

#include <boost/multiprecision/mpfr.hpp>
#include <climits>
#include <limits>
#include <stdexcept>
#include <string>

namespace dpref::detail {

/// Decimal digits of new mpfr_real values on this thread (Boost's compile-time default until a
/// scope says otherwise).
inline unsigned& mpfr_thread_digits10() noexcept {
  thread_local unsigned digits10 = BOOST_MULTIPRECISION_MPFR_DEFAULT_PRECISION;
  return digits10;
}

}  // namespace dpref::detail

namespace boost::multiprecision::backends {

/// dpref's runtime-precision MPFR backend (see the file comment).
template <>
struct mpfr_float_backend<0, allocate_stack> : public detail::mpfr_float_imp<0, allocate_dynamic> {
 private:
  using imp = detail::mpfr_float_imp<0, allocate_dynamic>;
  static unsigned thread_bits() noexcept {
    return static_cast<unsigned>(
        multiprecision::detail::digits10_2_2(::dpref::detail::mpfr_thread_digits10()));
  }
  /// A moved-from value has no storage: give it this thread's precision before assigning.
  void ensure_storage() {
    if (this->m_data[0]._mpfr_d == nullptr) mpfr_init2(this->m_data, thread_bits());
  }

 public:
  mpfr_float_backend() : imp(thread_bits()) {}
  mpfr_float_backend(const mpfr_float_backend& o) : imp(o) {}
  mpfr_float_backend(mpfr_float_backend&& o) noexcept : imp(static_cast<imp&&>(o)) {}
  explicit mpfr_float_backend(const mpfr_t val) : imp(static_cast<unsigned>(mpfr_get_prec(val))) {
    mpfr_set(this->m_data, val, GMP_RNDN);
  }
  /// Another MPFR backend: keeps its precision (as Boost's mpfr_float does).
  template <unsigned D, mpfr_allocation_type A>
  mpfr_float_backend(const mpfr_float_backend<D, A>& val)  // NOLINT(google-explicit-constructor)
      : imp(static_cast<unsigned>(mpfr_get_prec(val.data()))) {
    mpfr_set(this->m_data, val.data(), GMP_RNDN);
  }
  /// `o` at `digits10` decimal digits.
  template <class V>
  mpfr_float_backend(const V& o, unsigned digits10)
      : imp(static_cast<unsigned>(multiprecision::detail::digits10_2_2(digits10))) {
    *this = o;
  }
  ~mpfr_float_backend() = default;

  mpfr_float_backend& operator=(const mpfr_float_backend& o) {
    if (this != &o) {
      if (this->m_data[0]._mpfr_d == nullptr)
        mpfr_init2(this->m_data, mpfr_get_prec(o.data()));
      else
        detail::mpfr_copy_precision(this->m_data, o.data());
      mpfr_set(this->m_data, o.data(), GMP_RNDN);
    }
    return *this;
  }
  mpfr_float_backend& operator=(mpfr_float_backend&& o) noexcept {
    static_cast<imp&>(*this) = static_cast<imp&&>(o);
    return *this;
  }
  mpfr_float_backend& operator=(const mpfr_t val) {
    if (this->m_data[0]._mpfr_d == nullptr)
      mpfr_init2(this->m_data, mpfr_get_prec(val));
    else
      mpfr_set_prec(this->m_data, mpfr_get_prec(val));
    mpfr_set(this->m_data, val, GMP_RNDN);
    return *this;
  }
  template <unsigned D, mpfr_allocation_type A>
  mpfr_float_backend& operator=(const mpfr_float_backend<D, A>& val) {
    if (this->m_data[0]._mpfr_d == nullptr)
      mpfr_init2(this->m_data, mpfr_get_prec(val.data()));
    else
      mpfr_set_prec(this->m_data, mpfr_get_prec(val.data()));
    mpfr_set(this->m_data, val.data(), GMP_RNDN);
    return *this;
  }
  /// Arithmetic values and decimal text: rounded to this value's precision.
  template <class V>
  mpfr_float_backend& operator=(const V& v) {
    ensure_storage();
    static_cast<imp&>(*this) = v;
    return *this;
  }

  /// This thread's precision of new values (decimal digits).
  static unsigned default_precision() noexcept { return ::dpref::detail::mpfr_thread_digits10(); }
  /// Sets this thread's precision of new values. Boost's special functions call this inside
  /// their own precision guards; dpref code uses dpref::mpfr_precision_scope.
  static void default_precision(unsigned v) noexcept {
    ::dpref::detail::mpfr_thread_digits10() = v;
  }
  [[nodiscard]] unsigned precision() const noexcept {
    return static_cast<unsigned>(multiprecision::detail::digits2_2_10(
        static_cast<unsigned long>(mpfr_get_prec(this->m_data))));
  }
  void precision(unsigned digits10) noexcept {
    mpfr_prec_round(this->m_data, multiprecision::detail::digits10_2_2(digits10), GMP_RNDN);
  }
};

}  // namespace boost::multiprecision::backends

namespace boost::multiprecision::detail {
template <>
struct is_variable_precision<backends::mpfr_float_backend<0, allocate_stack>> : public true_type {};
}  // namespace boost::multiprecision::detail

namespace std {

/// As Boost's numeric_limits of the runtime-precision mpfr_float (not specialised: the precision
/// is a run-time value), at this thread's precision.
template <boost::multiprecision::expression_template_option ET>
class numeric_limits<boost::multiprecision::number<
    boost::multiprecision::backends::mpfr_float_backend<0, boost::multiprecision::allocate_stack>,
    ET>> {
  using number_type = boost::multiprecision::number<
      boost::multiprecision::backends::mpfr_float_backend<0, boost::multiprecision::allocate_stack>,
      ET>;

 public:
  static constexpr bool is_specialized = false;
  static number_type(min)() {
    number_type v(0.5);
    mpfr_div_2exp(v.backend().data(), v.backend().data(), -mpfr_get_emin(), GMP_RNDN);
    return v;
  }
  static number_type(max)() {
    number_type v(0.5);
    mpfr_mul_2exp(v.backend().data(), v.backend().data(), mpfr_get_emax(), GMP_RNDN);
    return v;
  }
  static number_type lowest() { return -(max)(); }
  static constexpr int digits = INT_MAX;
  static constexpr int digits10 = INT_MAX;
  static constexpr int max_digits10 = INT_MAX;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr int radix = 2;
  static number_type epsilon() {
    number_type v(1);
    mpfr_div_2exp(v.backend().data(), v.backend().data(),
                  boost::multiprecision::detail::digits10_2_2(number_type::default_precision()) - 1,
                  GMP_RNDN);
    return v;
  }
  static number_type round_error() { return epsilon() / 2; }
  static constexpr long min_exponent = MPFR_EMIN_DEFAULT;
  static constexpr long min_exponent10 = (MPFR_EMIN_DEFAULT / 1000) * 301L;
  static constexpr long max_exponent = MPFR_EMAX_DEFAULT;
  static constexpr long max_exponent10 = (MPFR_EMAX_DEFAULT / 1000) * 301L;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = false;
  static constexpr float_denorm_style has_denorm = denorm_absent;
  static constexpr bool has_denorm_loss = false;
  static number_type infinity() {
    number_type v;
    mpfr_set_inf(v.backend().data(), 1);
    return v;
  }
  static number_type quiet_NaN() {
    number_type v;
    mpfr_set_nan(v.backend().data());
    return v;
  }
  static number_type signaling_NaN() { return number_type(0); }
  static number_type denorm_min() { return number_type(0); }
  static constexpr bool is_iec559 = false;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;
  static constexpr float_round_style round_style = round_toward_zero;
};

}  // namespace std

namespace dpref {

/// Runtime-precision MPFR float: new values take this thread's precision, set by
/// mpfr_precision_scope (spec/architecture.md ARCH.MPFR.SCOPE).
using mpfr_real = boost::multiprecision::number<
    boost::multiprecision::backends::mpfr_float_backend<0, boost::multiprecision::allocate_stack>,
    boost::multiprecision::et_off>;

/// RAII: new mpfr_real values on this thread have `digits10` decimal digits while the scope
/// lives; the previous precision is restored when it ends. The only way dpref sets mpfr_real's
/// precision. @spec ARCH.MPFR.SCOPE
class mpfr_precision_scope {
 public:
  /// @throws std::domain_error unless 1 <= digits10 <= 1000000
  explicit mpfr_precision_scope(unsigned digits10) : saved_(detail::mpfr_thread_digits10()) {
    if (digits10 < 1 || digits10 > 1000000)
      throw std::domain_error("mpfr_precision_scope: digits10 must be in [1, 1000000], got " +
                              std::to_string(digits10));
    detail::mpfr_thread_digits10() = digits10;
  }
  ~mpfr_precision_scope() { detail::mpfr_thread_digits10() = saved_; }
  mpfr_precision_scope(const mpfr_precision_scope&) = delete;
  mpfr_precision_scope& operator=(const mpfr_precision_scope&) = delete;
  /// This thread's precision of new mpfr_real values (decimal digits).
  [[nodiscard]] static unsigned current() noexcept { return detail::mpfr_thread_digits10(); }

 private:
  unsigned saved_;
};

}  // namespace dpref

namespace boost::math::tools {

template <>
inline int digits<::dpref::mpfr_real>() noexcept {
  return static_cast<int>(
      multiprecision::detail::digits10_2_2(::dpref::mpfr_real::default_precision()));
}
template <>
inline ::dpref::mpfr_real max_value<::dpref::mpfr_real>() {
  ::dpref::mpfr_real r(0.5);
  mpfr_mul_2exp(r.backend().data(), r.backend().data(), mpfr_get_emax(), GMP_RNDN);
  return r;
}
template <>
inline ::dpref::mpfr_real min_value<::dpref::mpfr_real>() {
  ::dpref::mpfr_real r(0.5);
  mpfr_div_2exp(r.backend().data(), r.backend().data(), -mpfr_get_emin(), GMP_RNDN);
  return r;
}

}  // namespace boost::math::tools

// Argument validation: every public function checks its inputs and throws an exception
// whose message names the function, the parameter and the offending value.
#pragma once

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "dpref/scalar.hpp"

namespace dpref {

namespace detail {
/// Text of a value for messages: the shortest text that round-trips for double (integers below
/// 2^53 in plain digits: "10000000", not "1e+07"), all digits for other floating-point types.
template <class T>
std::string to_text(const T& v) {
  if constexpr (std::is_same_v<T, double>) {
    char buf[40];
    const bool plain_integer = std::isfinite(v) && std::abs(v) < 0x1p53 && std::trunc(v) == v;
    const auto r = plain_integer ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                                 : std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
  } else {
    std::ostringstream os;
    os.precision(std::is_same_v<T, long double> ? 21 : 17);
    os << v;
    return os.str();
  }
}
}  // namespace detail

/// Throws std::domain_error("<fn>: <param> must be <condition>, got <value>").
template <class T>
[[noreturn]] void fail_domain(std::string_view fn, std::string_view param,
                              std::string_view condition, const T& value) {
  std::string msg;
  msg.append(fn).append(": ").append(param).append(" must be ").append(condition);
  msg.append(", got ").append(detail::to_text(value));
  throw std::domain_error(msg);
}

/// Throws std::invalid_argument with the same message shape (structural errors: sizes, ranges).
template <class T>
[[noreturn]] void fail_argument(std::string_view fn, std::string_view param,
                                std::string_view condition, const T& value) {
  std::string msg;
  msg.append(fn).append(": ").append(param).append(" must be ").append(condition);
  msg.append(", got ").append(detail::to_text(value));
  throw std::invalid_argument(msg);
}

template <class Real>
bool is_finite_value(const Real& x) {
  using boost::multiprecision::isfinite;
  using std::isfinite;
  return static_cast<bool>(isfinite(x));
}

/// x must be finite and strictly positive.
template <class Real>
void require_positive(std::string_view fn, std::string_view param, const Real& x) {
  if (!is_finite_value(x) || !(x > Real(0))) fail_domain(fn, param, "finite and > 0", x);
}

/// x must be finite and >= 0.
template <class Real>
void require_nonnegative(std::string_view fn, std::string_view param, const Real& x) {
  if (!is_finite_value(x) || x < Real(0)) fail_domain(fn, param, "finite and >= 0", x);
}

/// x must be finite.
template <class Real>
void require_finite(std::string_view fn, std::string_view param, const Real& x) {
  if (!is_finite_value(x)) fail_domain(fn, param, "finite", x);
}

/// lo <= x <= hi, x finite.
template <class Real>
void require_in_closed(std::string_view fn, std::string_view param, const Real& x, const Real& lo,
                       const Real& hi, std::string_view condition) {
  if (!is_finite_value(x) || x < lo || x > hi) fail_domain(fn, param, condition, x);
}

}  // namespace dpref

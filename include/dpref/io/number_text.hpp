// Decimal text <-> scalars, exactly (spec/architecture.md ARCH.NUMBERS):
//  - parse_real<Real>(text): the JSON number grammar only (no "inf", "nan", hex, spaces or a
//    leading '+'), converted ONCE from the decimal text at Real's precision — so "0.1" is the
//    mp50 value nearest 1/10, not the double 0.1 widened; out of range (overflow to ±∞) and
//    values that underflow to 0 from a non-zero text are refused;
//  - parse_integer<Int>(text): an optional '-' and digits, range-checked (no wrap, no
//    truncation);
//  - format_real(x): shortest round-trip text for double ("%.17g" class), all digits for the
//    other scalars, so parse_real<Real>(format_real(x)) == x bit for bit.
#pragma once

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ios>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::io {

/// Whether `t` matches the JSON number grammar -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
/// (leading zeros are accepted: "007" is read as 7).
inline bool is_decimal_number(std::string_view t) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t s = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > s;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (!digits()) return false;
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

/// Whether the decimal text denotes zero (all its significand digits are 0).
inline bool is_zero_text(std::string_view t) {
  for (const char c : t) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return false;
  }
  return true;
}

/// Parses decimal text at Real's precision (correctly rounded for double / long double; Boost's
/// conversion for mp50 and mpfr_real). @param what the argument's name for the message
/// @throws std::invalid_argument "<what> must be a decimal number[ in range], got '<text>'"
/// @spec ARCH.NUMBERS
template <real_scalar Real>
Real parse_real(std::string_view text, std::string_view what) {
  const std::string s(text);
  if (s.size() > 4096 || !is_decimal_number(s))
    throw std::invalid_argument(std::string(what) + " must be a decimal number, got '" +
                                (s.size() > 80 ? s.substr(0, 80) + "..." : s) + "'");
  Real x{};
  if constexpr (std::is_floating_point_v<Real>) {
    errno = 0;
    char* end = nullptr;
    if constexpr (std::is_same_v<Real, double>)
      x = std::strtod(s.c_str(), &end);
    else
      x = static_cast<Real>(std::strtold(s.c_str(), &end));
  } else {
    x = Real(s);
  }
  if (!is_finite_value(x))
    throw std::invalid_argument(std::string(what) + " must be a decimal number in the range of " +
                                scalar_name<Real>() + ", got '" + s + "'");
  if (x == Real(0) && !is_zero_text(s))
    throw std::invalid_argument(std::string(what) + " underflows to 0 in " + scalar_name<Real>() +
                                ", got '" + s + "'");
  return x;
}

/// Parses an integer written as digits with an optional '-', range-checked in Int.
/// @throws std::invalid_argument "<what> must be an integer in [lo, hi], got '<text>'"
/// @spec ARCH.NUMBERS
template <class Int>
Int parse_integer(std::string_view text, std::string_view what,
                  Int lo = std::numeric_limits<Int>::lowest(),
                  Int hi = std::numeric_limits<Int>::max()) {
  static_assert(std::is_integral_v<Int>);
  Int v{};
  const char* b = text.data();
  const char* e = text.data() + text.size();
  const bool ok_syntax = !text.empty() && (text[0] != '+');
  const auto r = std::from_chars(b, e, v);
  if (!ok_syntax || r.ec != std::errc() || r.ptr != e || v < lo || v > hi) {
    std::string msg = std::string(what) + " must be an integer in [" + std::to_string(lo) + ", " +
                      std::to_string(hi) + "], got '" + std::string(text.substr(0, 80)) +
                      (text.size() > 80 ? "...'" : "'");
    throw std::invalid_argument(msg);
  }
  return v;
}

/// Text that parses back to exactly x (parse_real<Real>(format_real(x)) == x).
/// @spec ARCH.NUMBERS
template <real_scalar Real>
std::string format_real(const Real& x) {
  if constexpr (std::is_same_v<Real, double>) {
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);  // shortest round-trip
    return std::string(buf, r.ptr);
  } else if constexpr (std::is_same_v<Real, long double>) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.21Lg", x);
    return buf;
  } else {
    return x.str(0, std::ios_base::scientific);  // 0 = every digit needed to round-trip
  }
}

}  // namespace dpref::io

// Text formatting of scalars for CLI output: enough digits to round-trip.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "dpref/scalar.hpp"

namespace dpref::cli {

template <real_scalar Real>
std::string to_text(const Real& x) {
  if constexpr (std::is_same_v<Real, double>) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
  } else if constexpr (std::is_same_v<Real, long double>) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.21Lg", x);
    return buf;
  } else {
    return x.str(0, std::ios_base::scientific);  // 0 = all digits needed to round-trip
  }
}

/// Parses decimal text at Real's precision (correctly rounded for double and long double).
/// @throws std::invalid_argument naming `what` when the text is not a complete number.
template <real_scalar Real>
Real parse_scalar(const std::string& text, const std::string& what) {
  const auto fail = [&] {
    throw std::invalid_argument("dpref: " + what + " must be a decimal number, got '" + text + "'");
  };
  if constexpr (std::is_floating_point_v<Real>) {
    char* end = nullptr;
    const Real x = std::is_same_v<Real, double>
                       ? static_cast<Real>(std::strtod(text.c_str(), &end))
                       : static_cast<Real>(std::strtold(text.c_str(), &end));
    if (text.empty() || end != text.c_str() + text.size()) fail();
    return x;
  } else {
    try {
      return Real(text);
    } catch (const std::exception&) {
      fail();
    }
    return Real(0);
  }
}

}  // namespace dpref::cli

// Precision names `double|long-double|mp50|mpfr:DIGITS` and the dispatch to the scalar type
// (spec/architecture.md ARCH.CLI): the CLI's --precision and the Python package's `precision=`.
// mpfr:DIGITS sets mpfr_real's precision (Boost's mpfr_float keeps it process-wide): the CLI does
// it once, in the main thread, before any computation; the Python package while holding the GIL.
#pragma once

#include <stdexcept>
#include <string>

#include "dpref/io/number_text.hpp"
#include "dpref/scalar.hpp"

namespace dpref::io {

struct precision {
  enum class kind { double_, long_double, mp50, mpfr } k = kind::double_;
  unsigned digits = 0;  ///< decimal digits (mpfr)
  [[nodiscard]] std::string name() const {
    switch (k) {
      case kind::double_:
        return "double";
      case kind::long_double:
        return "long-double";
      case kind::mp50:
        return "mp50";
      case kind::mpfr:
        return "mpfr:" + std::to_string(digits);
    }
    return "?";
  }
};

/// @param what the name of the argument in messages ("--precision" on the command line)
/// @throws std::invalid_argument "<what> must be double, long-double, mp50 or
/// mpfr:DIGITS (DIGITS in [10, 10000]), got '...'"
inline precision parse_precision(const std::string& text, const std::string& what = "--precision") {
  precision p;
  if (text == "double") return p;
  if (text == "long-double") {
    p.k = precision::kind::long_double;
    return p;
  }
  if (text == "mp50") {
    p.k = precision::kind::mp50;
    return p;
  }
  const std::string msg =
      what +
      " must be double, long-double, mp50 or mpfr:DIGITS (DIGITS in [10, 10000]), got "
      "'" +
      text + "'";
  if (text.rfind("mpfr:", 0) == 0) {
    try {
      p.digits = parse_integer<unsigned>(text.substr(5), what, 10U, 10000U);
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument(msg);
    }
    p.k = precision::kind::mpfr;
    return p;
  }
  throw std::invalid_argument(msg);
}

/// Calls f.template operator()<Real>() with the scalar type of p.
template <class F>
decltype(auto) with_precision(const precision& p, F&& f) {
  switch (p.k) {
    case precision::kind::long_double:
      return f.template operator()<long double>();
    case precision::kind::mp50:
      return f.template operator()<mp50>();
    case precision::kind::mpfr: {
      const mpfr_precision_scope scope(p.digits);  // this thread, for the call (ARCH.MPFR.SCOPE)
      return f.template operator()<mpfr_real>();
    }
    case precision::kind::double_:
      break;
  }
  return f.template operator()<double>();
}

}  // namespace dpref::io

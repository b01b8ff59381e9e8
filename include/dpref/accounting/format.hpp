// Text of a guarantee that never understates it (spec/architecture.md ARCH.NUMBERS): x is
// converted exactly to MPFR and printed with `digits` significant digits rounded toward +∞ (never
// down), so "0.1" is never printed for the double 0.1000000000000000055…. Lower bounds (an
// audit's ε_lb, a Clopper–Pearson lower limit) are printed rounded toward −∞ instead.
#pragma once

#include <mpfr.h>

#include <string>

#include "dpref/accounting/certified.hpp"

namespace dpref::accounting {

namespace detail {
/// mpfr_asprintf with rounding `mode` ('U' toward +∞, 'D' toward −∞) of the exact value of x.
template <real_scalar Real>
std::string format_rounded(const Real& x, int digits, char mode) {
  if (!is_finite_value(x)) return x > Real(0) ? "inf" : (x < Real(0) ? "-inf" : "nan");
  working_precision_scope scope(working_bits(binary_digits<Real>()));
  const work_real w = detail::to_work(x);  // exact
  const std::string fmt = "%." + std::to_string(digits < 1 ? 1 : digits) + "R" + mode + "g";
  char* buf = nullptr;
  if (mpfr_asprintf(&buf, fmt.c_str(), w.data()) < 0) return "?";
  std::string out(buf);
  mpfr_free_str(buf);
  return out;
}
}  // namespace detail

/// x with `digits` significant digits, rounded up (toward +∞).
/// @spec ARCH.NUMBERS
template <real_scalar Real>
std::string format_rounded_up(const Real& x, int digits) {
  return detail::format_rounded(x, digits, 'U');
}

/// x with `digits` significant digits, rounded down (toward −∞): for lower bounds.
/// @spec ARCH.NUMBERS
template <real_scalar Real>
std::string format_rounded_down(const Real& x, int digits) {
  return detail::format_rounded(x, digits, 'D');
}

}  // namespace dpref::accounting

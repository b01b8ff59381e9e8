// One validation shape for every parameter struct of every paper (spec/architecture.md
// ARCH.PARAMS): `Params::validate()` checks each field with a param_checker and throws
// invalid_parameter with the message
//     "<owner>.<field> must be <condition>, got <value>"
// e.g. "ev::params.epsilon must be finite and > 0, got nan". The field name is the C++ member
// name, which is also the JSON key and (with '_' -> '-') the CLI flag, so a message points at
// what the user wrote whichever way the value came in.
#pragma once

#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "dpref/error.hpp"

namespace dpref {

/// An invalid parameter value: names the owner struct, the field, the condition and the value.
class invalid_parameter : public std::domain_error {
 public:
  invalid_parameter(std::string_view owner, std::string_view field, std::string_view condition,
                    std::string value)
      : std::domain_error(std::string(owner) + "." + std::string(field) + " must be " +
                          std::string(condition) + ", got " + value),
        field_(field) {}
  /// The field (as written in C++, JSON and, with '-', on the command line).
  [[nodiscard]] const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/// Checks the fields of one parameter struct; every failure throws invalid_parameter.
/// @spec ARCH.PARAMS
class param_checker {
 public:
  /// @param owner qualified struct name as users see it, e.g. "ev::params"
  explicit param_checker(std::string_view owner) : owner_(owner) {}

  template <class T>
  [[noreturn]] void fail(std::string_view field, std::string_view condition, const T& value) const {
    throw invalid_parameter(owner_, field, condition, ::dpref::detail::to_text(value));
  }
  /// Fails with `condition` unless ok.
  template <class T>
  void require(bool ok, std::string_view field, std::string_view condition, const T& value) const {
    if (!ok) fail(field, condition, value);
  }
  template <class Real>
  void finite(std::string_view field, const Real& x) const {
    if (!is_finite_value(x)) fail(field, "finite", x);
  }
  template <class Real>
  void positive(std::string_view field, const Real& x) const {
    if (!is_finite_value(x) || !(x > Real(0))) fail(field, "finite and > 0", x);
  }
  template <class Real>
  void nonnegative(std::string_view field, const Real& x) const {
    if (!is_finite_value(x) || x < Real(0)) fail(field, "finite and >= 0", x);
  }
  /// lo <= x <= hi (x finite); `condition` describes the range for the message.
  template <class Real>
  void in_closed(std::string_view field, const Real& x, const Real& lo, const Real& hi,
                 std::string_view condition) const {
    if (!is_finite_value(x) || x < lo || x > hi) fail(field, condition, x);
  }
  /// lo < x <= hi (x finite); `condition` describes the range for the message.
  template <class Real>
  void in_open_closed(std::string_view field, const Real& x, const std::type_identity_t<Real>& lo,
                      const std::type_identity_t<Real>& hi, std::string_view condition) const {
    if (!is_finite_value(x) || !(x > lo) || x > hi) fail(field, condition, x);
  }
  /// x ∈ (0, 1).
  template <class Real>
  void unit_open(std::string_view field, const Real& x) const {
    if (!(x > Real(0) && x < Real(1))) fail(field, "in (0, 1)", x);
  }
  /// δ ∈ [0, 1).
  template <class Real>
  void delta(std::string_view field, const Real& x) const {
    if (!is_finite_value(x) || x < Real(0) || !(x < Real(1))) fail(field, "in [0, 1)", x);
  }
  /// A rate q ∈ (0, 1].
  template <class Real>
  void rate(std::string_view field, const Real& x) const {
    if (!is_finite_value(x) || !(x > Real(0)) || x > Real(1)) fail(field, "in (0, 1]", x);
  }
  /// An integer >= lo (and <= hi).
  template <class Int>
  void at_least(std::string_view field, Int n, Int lo,
                Int hi = std::numeric_limits<Int>::max()) const {
    if (n < lo || n > hi) {
      std::string cond = ">= " + std::to_string(lo);
      if (hi != std::numeric_limits<Int>::max()) cond += " and <= " + std::to_string(hi);
      fail(field, cond, n);
    }
  }
  /// Refuses release = secure unless Real is double (SEC.MODE: the lattice release is defined
  /// on doubles, spec/secure_release.md); called when release = secure.
  template <class Real>
  void require_double_for_secure() const {
    if constexpr (!std::is_same_v<Real, double>)
      fail("release",
           std::string("idealised at precision ") + scalar_name<Real>() +
               " (the lattice release is defined on doubles: run secure mode at precision "
               "double)",
           std::string("secure"));
  }
  /// The same, and refuses release = secure for a non-private `algorithm` (no noise is
  /// accounted: there is no release to secure).
  template <class Real>
  void require_secure_release_allowed(bool is_private, std::string_view algorithm) const {
    require_double_for_secure<Real>();
    require(is_private, "release",
            "idealised for " + std::string(algorithm) +
                " (non-private: no noise is accounted, there is no release to secure)",
            std::string("secure"));
  }
  [[nodiscard]] const std::string& owner() const { return owner_; }

 private:
  std::string owner_;
};

}  // namespace dpref

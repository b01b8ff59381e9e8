// Field lists: the one description of a parameter struct from which its JSON reader, JSON
// writer and command-line flags are derived (spec/architecture.md ARCH.FIELDS).
//
// A struct describes its fields with a member template
//     template <class V> void fields(V&& v) {
//       v("epsilon", epsilon, "total privacy budget ε > 0");
//       v("iterations", iterations, "number of iterations K >= 2");
//     }
// (name = C++ member = JSON key; the CLI flag is "--" + name with '_' -> '-'), and an enum
// describes its values with a function found by argument-dependent lookup:
//     DPREF_ENUM_NAMES(start_kind, zero, projected_zero)        (dpref/enum_names.hpp)
// or, where a value's spelling differs from its enumerator, by hand:
//     constexpr auto enum_names(svt_bound) {
//       return std::array{std::pair{svt_bound::proven, std::string_view("proven")}, ...};
//     }
// A struct whose fields do not all apply in every configuration (an algorithm's own constants,
// a mode's or a calibration's parameters) declares which apply with a second member template
//     template <class A> void applicability(A&& a) const {
//       a("delta0", calibration != calibration_kind::rdp, "applies only to calibration ...");
//     }
// io::read_fields refuses a key that is present (given explicitly, in a --params file or as a
// flag) when its field does not apply, naming the key and the reason; io::fields_value omits
// such fields from the echoed configuration (spec/hardening.md HARD.APPLIES).
// This header has no dependency: paper headers include it; only the translation units that
// read or write JSON include io/json.hpp.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace dpref::io {

/// Visitor that records nothing (used to detect the fields() member).
struct ignore_fields {
  template <class T>
  void operator()(std::string_view, T&, std::string_view = {}) const {}
};

/// T describes its fields with `template <class V> void fields(V&&)`.
template <class T>
concept has_fields = requires(T& t, ignore_fields v) {
  t.fields(v);
};

/// Visitor of applicability() that records nothing (used to detect the member).
struct ignore_applicability {
  void operator()(std::string_view, bool, std::string_view) const {}
};

/// T declares which of its fields apply: `template <class A> void applicability(A&&) const`,
/// calling a(name, applies, reason) for every field that does not always apply. `reason` says
/// when it applies ("applies only to calibration paper_theorem1 or sound_chain").
template <class T>
concept has_applicability = requires(const T& t, ignore_applicability a) {
  t.applicability(a);
};

/// The fields of `x` that do not apply (empty if T declares none).
template <class T>
std::vector<std::pair<std::string, std::string>> inapplicable_fields(const T& x) {
  std::vector<std::pair<std::string, std::string>> out;
  if constexpr (has_applicability<T>)
    x.applicability([&](std::string_view name, bool applies, std::string_view reason) {
      if (!applies) out.emplace_back(std::string(name), std::string(reason));
    });
  return out;
}

/// E is an enum with an `enum_names(E)` table found by argument-dependent lookup.
template <class E>
concept named_enum = std::is_enum_v<E> && requires(E e) {
  enum_names(e).size();
  { enum_names(e)[0].second } -> std::convertible_to<std::string_view>;
};

/// Name of an enum value. @throws std::logic_error if the table lacks it (a programming error).
template <named_enum E>
std::string_view enum_to_string(E e) {
  for (const auto& [v, n] : enum_names(E{}))
    if (v == e) return n;
  throw std::logic_error("enum_to_string: value without a name");
}

/// The enum value named `text`. @throws std::invalid_argument "<what> must be one of a, b, c,
/// got 'text'"
template <named_enum E>
E enum_from_string(std::string_view text, std::string_view what) {
  std::string valid;
  for (const auto& [v, n] : enum_names(E{})) {
    if (n == text) return v;
    valid.append(valid.empty() ? "" : ", ").append(n);
  }
  throw std::invalid_argument(std::string(what) + " must be one of " + valid + ", got '" +
                              std::string(text.substr(0, 80)) + "'");
}

}  // namespace dpref::io

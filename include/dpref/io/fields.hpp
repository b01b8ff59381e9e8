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
//     constexpr auto enum_names(start_kind) {
//       return std::array{std::pair{start_kind::zero, std::string_view("zero")}, ...};
//     }
// This header has no dependency: paper headers include it; only the translation units that
// read or write JSON include io/json.hpp.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

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

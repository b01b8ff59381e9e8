// DPREF_ENUM_NAMES(E, a, b, c): the `enum_names(E)` table (found by argument-dependent lookup;
// io/fields.hpp reads and writes enums through it) of an enum whose JSON keys and CLI values are
// its enumerators' names, written once: the table is the enumerators and their spelling, split
// from the macro's text at compile time.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace dpref::detail {

/// The table {values[i], i-th name of `names`} of `names` = "a, b, c" (the macro's text).
template <class E, std::size_t N>
constexpr std::array<std::pair<E, std::string_view>, N> enum_table(std::string_view names,
                                                                   const E (&values)[N]) {
  std::array<std::pair<E, std::string_view>, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    while (!names.empty() && (names.front() == ' ' || names.front() == ',')) names.remove_prefix(1);
    std::size_t end = 0;
    while (end < names.size() && names[end] != ',' && names[end] != ' ') ++end;
    out[i] = {values[i], names.substr(0, end)};
    names.remove_prefix(end);
  }
  return out;
}

}  // namespace dpref::detail

/// Defines `constexpr auto enum_names(E)` with each enumerator named as it is written.
#define DPREF_ENUM_NAMES(E, ...)                                        \
  constexpr auto enum_names(E) {                                        \
    using enum E;                                                       \
    return ::dpref::detail::enum_table<E>(#__VA_ARGS__, {__VA_ARGS__}); \
  }

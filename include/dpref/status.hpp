// How a run ended: one status enum shared by every algorithm of every paper
// (spec/architecture.md ARCH.STATUS). The criteria are part of the contract: a paper module may
// not use a value for anything but what its comment says.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dpref {

enum class status {
  /// Every planned iteration ran (fixed-length algorithms: K, T given by the parameters) and
  /// every iterate is finite.
  completed,
  /// The algorithm's own stopping test met its tolerance (e.g. a duality-gap certificate)
  /// before the iteration cap.
  converged,
  /// An iteration cap stopped an algorithm that has a stopping test, before the test was met.
  iteration_limit,
  /// The privacy budget could not pay the next mechanism call: the run stopped BEFORE that call
  /// (nothing was released beyond the budget) and returns the last released iterate.
  budget_exhausted,
  /// An iterate became non-finite; the run stopped and returns the last finite iterate.
  diverged,
};

inline constexpr std::array<std::pair<status, std::string_view>, 5> status_names{{
    {status::completed, "completed"},
    {status::converged, "converged"},
    {status::iteration_limit, "iteration_limit"},
    {status::budget_exhausted, "budget_exhausted"},
    {status::diverged, "diverged"},
}};

/// Lower-case name of a status (the JSON value).
inline std::string_view to_string(status s) {
  for (const auto& [v, n] : status_names)
    if (v == s) return n;
  return "unknown";
}

/// Inverse of to_string. @throws std::invalid_argument naming the text and the valid names.
inline status status_from_string(std::string_view text) {
  std::string valid;
  for (const auto& [v, n] : status_names) {
    if (n == text) return v;
    valid.append(valid.empty() ? "" : ", ").append(n);
  }
  throw std::invalid_argument("status must be one of " + valid + ", got '" + std::string(text) +
                              "'");
}

}  // namespace dpref

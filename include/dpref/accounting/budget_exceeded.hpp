// The exception a privacy budget throws before a mechanism call that would overspend it.
#pragma once

#include <stdexcept>

namespace dpref::accounting {

/// Thrown BEFORE a mechanism call whose event would make the run exceed its budget (nothing
/// has been released for that call). @spec ACC.BUDGET
class budget_exceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dpref::accounting

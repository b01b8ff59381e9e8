// The message of an expected exception, for tests that check that an error names the argument
// and its value.
#pragma once

#include <exception>
#include <string>
#include <type_traits>

namespace dpref::test {

/// The message of the exception f throws: "(no exception)" if it throws none, and
/// "wrong exception type: ..." if it throws a std::exception that is not an Ex.
template <class Ex = std::exception, class F>
std::string message_of(F&& f) {
  if constexpr (std::is_same_v<Ex, std::exception>) {
    try {
      f();
    } catch (const std::exception& e) {
      return e.what();
    }
  } else {
    try {
      f();
    } catch (const Ex& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("wrong exception type: ") + e.what();
    }
  }
  return "(no exception)";
}

}  // namespace dpref::test

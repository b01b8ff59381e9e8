// Subcommands of the dpref CLI. Each lives in its own src/cli/<name>_command.cpp and registers
// itself with a static `command_registrar`, so adding a file adds a subcommand:
//
//   void register_foo_command(CLI::App& app) { ... app.add_subcommand("foo", ...) ... }
//   static const command_registrar foo_registrar(register_foo_command);
#pragma once

#include <CLI/CLI.hpp>
#include <stdexcept>
#include <vector>

namespace dpref::cli {

using command_registration = void (*)(CLI::App&);

/// The registered subcommands, in registration order (function-local static: no init-order
/// problem across translation units).
inline std::vector<command_registration>& command_registry() {
  static std::vector<command_registration> registry;
  return registry;
}

struct command_registrar {
  explicit command_registrar(command_registration r) { command_registry().push_back(r); }
};

void register_demo_command(CLI::App& app);

/// Exit codes (main.cpp).
inline constexpr int exit_usage = 2;
inline constexpr int exit_invalid = 3;
inline constexpr int exit_budget = 4;
inline constexpr int exit_violation = 5;
inline constexpr int exit_check_failed = 6;
inline constexpr int exit_internal = 70;

/// Thrown by a command whose audit found a violation (exit code 5).
class audit_violation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// Thrown by `dpref check-vectors` when an implementation fails a conformance vector (exit 6).
class check_failed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
void register_sample_command(CLI::App& app);

}  // namespace dpref::cli

// Subcommands of the dpref CLI. Each lives in its own src/cli/<name>_command.cpp and registers
// itself with a static `command_registrar`, so adding a file adds a subcommand:
//
//   void register_foo_command(CLI::App& app) { ... app.add_subcommand("foo", ...) ... }
//   static const command_registrar foo_registrar(register_foo_command);
#pragma once

#include <CLI/CLI.hpp>
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
void register_sample_command(CLI::App& app);

}  // namespace dpref::cli

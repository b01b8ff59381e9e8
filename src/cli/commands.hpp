// Subcommands of the dpref CLI; each is defined in its own <name>_command.cpp and registers
// itself from main.cpp.
#pragma once

#include <CLI/CLI.hpp>

namespace dpref::cli {
void register_demo_command(CLI::App& app);
void register_sample_command(CLI::App& app);
}  // namespace dpref::cli

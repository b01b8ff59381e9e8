// The `dpref pwa` subcommand group (spec/pwa.md PWA.CLI). Several files add subcommands to it
// (pwa_command.cpp: run, study; pwa_sample_command.cpp: sample). The order in which the
// command_registrars of different files run is unspecified, so every file obtains the group
// through pwa_group(app), which creates it on first use and returns the same App afterwards:
//
//   void register_pwa_sample_command(CLI::App& app) {
//     auto* sample = pwa_group(app)->add_subcommand("sample", "...");
//     ...
//   }
//   static const command_registrar pwa_sample_registrar(register_pwa_sample_command);
#pragma once

#include <CLI/CLI.hpp>

namespace dpref::cli {

/// The `pwa` subcommand of `app`, created (with require_subcommand(1)) if absent.
CLI::App* pwa_group(CLI::App& app);

}  // namespace dpref::cli

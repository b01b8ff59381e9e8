// dpref command-line tool: reference values for other implementations.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"dpref: verified reference implementation of differentially private optimization"};
  app.require_subcommand(1);
  for (const auto registration : dpref::cli::command_registry()) registration(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dpref: error: %s\n", e.what());
    return 2;
  }
  return 0;
}

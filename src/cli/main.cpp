// dpref command-line tool: reference values for other implementations.
//
// Exit codes (spec/architecture.md ARCH.CLI): 0 success; 2 usage error (unknown flag or
// subcommand, missing argument); 3 invalid input (a value, a file or a JSON document the
// library refuses); 4 a requested privacy budget would be exceeded (nothing was released);
// 5 an audit found a violation; 6 an implementation failed conformance vectors
// (`dpref check-vectors`); 70 internal error.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "commands.hpp"
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"dpref: verified reference implementation of differentially private optimization"};
  app.set_version_flag("--version", std::string("dpref ") + dpref::version);
  app.require_subcommand(1);
  for (const auto registration : dpref::cli::command_registry()) registration(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : dpref::cli::exit_usage;
  } catch (const dpref::accounting::budget_exceeded& e) {
    std::fprintf(stderr, "dpref: budget exceeded: %s\n", e.what());
    return dpref::cli::exit_budget;
  } catch (const dpref::cli::audit_violation& e) {
    std::fprintf(stderr, "dpref: audit violation: %s\n", e.what());
    return dpref::cli::exit_violation;
  } catch (const dpref::cli::check_failed& e) {
    std::fprintf(stderr, "dpref: conformance check failed: %s\n", e.what());
    return dpref::cli::exit_check_failed;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "dpref: invalid input: %s\n", e.what());
    return dpref::cli::exit_invalid;
  } catch (const std::domain_error& e) {
    std::fprintf(stderr, "dpref: invalid input: %s\n", e.what());
    return dpref::cli::exit_invalid;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "dpref: internal error: out of memory (the sizes asked for exceed this "
                 "machine's memory)\n");
    return dpref::cli::exit_internal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dpref: internal error: %s\n", e.what());
    return dpref::cli::exit_internal;
  }
  return 0;
}

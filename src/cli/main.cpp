// dpref command-line tool: reference values for other implementations.
//
// Exit codes (spec/architecture.md ARCH.CLI): 0 success; 2 usage error (unknown flag or
// subcommand, missing argument); 3 invalid input (a value, a file or a JSON document the
// library refuses); 4 a requested privacy budget would be exceeded (nothing was released);
// 5 an audit found a violation; 6 an implementation failed conformance vectors
// (`dpref check-vectors`); 70 internal error.
//
// Under mpirun (detected from the launcher's environment) every rank runs the command; the
// distributed commands split their work over the ranks and rank 0 writes the output; an error
// on any rank prints its message and aborts every rank with the exit code (spec/distributed.md
// DIST.ABORT).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "commands.hpp"
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/version.hpp"
#include "world.hpp"

#ifdef DPREF_HAVE_MPI
#include <cstdlib>
#include <optional>

#include "dpref/parallel/mpi_communicator.hpp"
#endif

namespace {

/// Whether this process was started by an MPI launcher (Open MPI, PMI, PMIx).
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}

/// Prints the error (or aborts every rank with it under MPI) and returns the exit code.
int fail(int code, const char* kind, const char* what) {
  const auto& w = dpref::cli::world();
  if (w.size() > 1) {
    std::string msg = std::string(kind) + ": " + what;
    w.abort(code, msg);
  }
  std::fprintf(stderr, "dpref: %s: %s\n", kind, what);
  return code;
}

}  // namespace

int run_main(int argc, char** argv) {
  CLI::App app{"dpref: verified reference implementation of differentially private optimization"};
  app.set_version_flag("--version", std::string("dpref ") + dpref::version);
  app.require_subcommand(1);
  for (const auto registration : dpref::cli::command_registry()) registration(app);
  // an unknown first word is a mistyped subcommand: say so (CLI11 would report a missing one)
  if (argc > 1 && argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      found = found || sub->get_name() == argv[1];
      known += (known.empty() ? "" : ", ") + sub->get_name();
    }
    if (!found) {
      std::fprintf(stderr, "dpref: usage error: unknown subcommand '%s' (known: %s)\n", argv[1],
                   known.c_str());
      return dpref::cli::exit_usage;
    }
  }
  // an unknown first option (a typo of --version, say) would be reported as a missing subcommand
  if (argc > 1 && argv[1][0] == '-') {
    const std::string first = argv[1];
    if (first != "-h" && first != "--help" && first != "--version") {
      std::fprintf(stderr,
                   "dpref: usage error: unknown option '%s' before the subcommand (known: --help, "
                   "--version)\n",
                   argv[1]);
      return dpref::cli::exit_usage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : dpref::cli::exit_usage;
  } catch (const dpref::accounting::budget_exceeded& e) {
    return fail(dpref::cli::exit_budget, "budget exceeded", e.what());
  } catch (const dpref::cli::audit_violation& e) {
    return fail(dpref::cli::exit_violation, "audit violation", e.what());
  } catch (const dpref::cli::check_failed& e) {
    return fail(dpref::cli::exit_check_failed, "conformance check failed", e.what());
  } catch (const std::invalid_argument& e) {
    return fail(dpref::cli::exit_invalid, "invalid input", e.what());
  } catch (const std::domain_error& e) {
    return fail(dpref::cli::exit_invalid, "invalid input", e.what());
  } catch (const std::bad_alloc&) {
    return fail(dpref::cli::exit_internal, "internal error",
                "out of memory (the sizes asked for exceed this machine's memory)");
  } catch (const std::exception& e) {
    return fail(dpref::cli::exit_internal, "internal error", e.what());
  }
  return 0;
}

int main(int argc, char** argv) {
#ifdef DPREF_HAVE_MPI
  if (launched_by_mpirun()) {
    MPI_Init(&argc, &argv);
    int rc = 0;
    {
      const dpref::parallel::mpi_communicator comm(MPI_COMM_WORLD);
      dpref::cli::set_world(comm);
      rc = run_main(argc, argv);
      dpref::cli::set_world(dpref::parallel::serial());
      if (std::getenv("DPREF_MPI_TRAFFIC") != nullptr) {  // bench/ev_mpi_scale.sh
        const auto& t = comm.received();
        std::fprintf(
            stderr,
            "dpref: rank %d of %d: received bytes: allgather %llu gather %llu exchange "
            "%llu broadcast %llu reduce %llu; point-to-point sent %llu\n",
            comm.rank(), comm.size(), static_cast<unsigned long long>(t.allgather),
            static_cast<unsigned long long>(t.gather), static_cast<unsigned long long>(t.exchange),
            static_cast<unsigned long long>(t.broadcast), static_cast<unsigned long long>(t.reduce),
            static_cast<unsigned long long>(t.exchange_sent));
      }
    }
    MPI_Finalize();
    return rc;
  }
#else
  (void)launched_by_mpirun;
#endif
  return run_main(argc, argv);
}

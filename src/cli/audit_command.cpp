// `dpref audit <mechanism>`: runs the statistical DP auditor (spec/audit.md) on one mechanism
// calibrated to --epsilon (and --delta), audited against that claim. Prints ε_lb, the verdict,
// the chosen event and its counts (JSON with --json). The mechanisms and the report live in
// the library (dpref/audit/builtin.hpp), shared with the Python package. Under mpirun the
// samples are split over the ranks (spec/distributed.md DIST.AUDIT); rank 0 prints. The time
// goes to stderr (identical runs print identical bytes); a violation exits with status 5.
#include <fmt/core.h>

#include <cstdio>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "dpref/accounting/format.hpp"
#include "dpref/audit/builtin.hpp"
#include "dpref/io/number_text.hpp"
#include "world.hpp"

namespace dpref::cli {
namespace {

struct audit_options : audit::builtin_options {
  bool json = false;
};

/// The flags as given (text): numbers are parsed strictly, naming the flag (HARD.AUDIT_FLAGS);
/// the library's validate() checks the ranges.
struct audit_text {
  std::string mechanism;
  std::optional<std::string> epsilon, delta, samples, seed, alpha, threads, dim, candidates;
  bool json = false;
  bool force = false;
};

/// Text flags -> options; a flag that does not apply to the mechanism is refused (never ignored).
/// @spec HARD.AUDIT_FLAGS
audit_options parse(const audit_text& t) {
  audit_options o;
  o.mechanism = t.mechanism;
  o.json = t.json;
  o.force = t.force;
  const auto real = [](const std::optional<std::string>& v, const char* flag, double& out) {
    if (v) out = io::parse_real<double>(*v, flag);
  };
  const auto integer = [](const std::optional<std::string>& v, const char* flag, auto& out,
                          auto hi) {
    using I = std::decay_t<decltype(out)>;
    if (v) out = io::parse_integer<I>(*v, flag, I{0}, static_cast<I>(hi));
  };
  const auto only_for = [&](const std::optional<std::string>& v, const char* flag,
                            std::initializer_list<const char*> mechanisms) {
    if (!v) return;
    for (const char* m : mechanisms)
      if (o.mechanism == m) return;
    std::string names;
    for (const char* m : mechanisms) names.append(names.empty() ? "" : ", ").append(m);
    throw std::invalid_argument(std::string(flag) + " applies to the mechanism(s) " + names +
                                " only, got " + flag + " " + *v + " with mechanism " + o.mechanism);
  };
  only_for(t.delta, "--delta", {"gaussian"});
  only_for(t.dim, "--dim", {"vector-laplace"});
  only_for(t.candidates, "--candidates", {"exponential"});
  real(t.epsilon, "--epsilon", o.epsilon);
  real(t.delta, "--delta", o.delta);
  real(t.alpha, "--alpha", o.alpha);
  integer(t.samples, "--samples", o.samples, std::uint64_t{1} << 34);
  integer(t.seed, "--seed", o.seed, ~std::uint64_t{0});
  integer(t.threads, "--threads", o.threads, 1024U);
  integer(t.dim, "--dim", o.dim, ~std::size_t{0});  // ranges: validate()
  integer(t.candidates, "--candidates", o.candidates, ~std::size_t{0});
  audit::validate(o);
  return o;
}

void print_report(const audit_options& o, const audit::audit_report& r,
                  const std::string& sampler) {
  const auto& w = r.worst_pair();
  if (o.json) {
    const nlohmann::json j = audit::builtin_report_json(o, r, sampler);
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("dpref audit {}  (sampler: {})\n", o.mechanism, sampler);
  // The claim is printed rounded up, the lower bound ε_lb and the CP lower limit rounded down.
  fmt::print("  claimed        eps = {}, delta = {}\n", accounting::format_rounded_up(r.epsilon, 6),
             accounting::format_rounded_up(r.delta, 3));
  fmt::print("  samples        {} search + {} test per side and pair, {} pair(s), seed {}\n",
             o.samples, o.samples, r.pairs.size(), o.seed);
  fmt::print("  eps_lb         {}   (false-alarm probability {})\n",
             accounting::format_rounded_down(r.eps_lb, 5),
             accounting::format_rounded_up(r.alpha, 2));
  fmt::print("  verdict        {}\n", r.violation ? "VIOLATION" : "no violation");
  fmt::print("  worst pair     {}\n", w.pair);
  fmt::print("  chosen event   {}{}\n", w.event.description,
             w.event.swapped ? "  (ratio P[M(D')∈S]/P[M(D)∈S])" : "");
  fmt::print("  counts         {} vs {} of {}  (CP bounds {} / {})\n", w.count_num, w.count_den,
             w.n, accounting::format_rounded_down(w.p_lower, 6),
             accounting::format_rounded_up(w.p_upper, 6));
}

void run_audit_command(audit_options o) {
  o.comm = &world();
  if (o.force && o.work() > audit::builtin_options::max_work && world().is_root())
    std::fprintf(stderr,
                 "dpref audit: --force: %.3g draws per neighbour pair (the bound is 2^30 = "
                 "%.3g); at about 2e7 draws per second and thread, roughly %.0f s per pair\n",
                 o.work(), audit::builtin_options::max_work, o.work() / 2e7);
  std::string sampler;
  const audit::audit_report r = audit::run_builtin(o, sampler);
  if (world().is_root()) {
    print_report(o, r, sampler);
    std::fflush(stdout);
    std::fprintf(stderr, "dpref audit: %.2f s on %d process(es)\n", r.seconds, world().size());
  }
  // Every rank reaches the verdict; none may abort before rank 0 has written the report
  // (MPI_Abort of another rank would kill it mid-print).
  world().barrier();
  if (r.violation)
    throw audit_violation("dpref audit " + o.mechanism +
                          ": epsilon_lb = " + accounting::format_rounded_down(r.eps_lb, 6) +
                          " > claimed epsilon = " + accounting::format_rounded_up(r.epsilon, 6));
}

}  // namespace

void register_audit_command(CLI::App& app) {
  auto t = std::make_shared<audit_text>();
  auto* cmd = app.add_subcommand("audit", "Statistical DP audit of a mechanism (spec/audit.md)");
  cmd->add_option("mechanism", t->mechanism, "Mechanism to audit")
      ->required()
      ->check(CLI::IsMember(audit::builtin_mechanisms()));
  cmd->add_option("--epsilon", t->epsilon, "Claimed (and calibrated) epsilon, in [0.001, 20]");
  cmd->add_option("--delta", t->delta, "Claimed delta (gaussian only), in [1e-12, 0.5]");
  cmd->add_option(
      "--samples", t->samples,
      "Search and test samples per side and pair, in [1000, 2^34] (over 2^28: --force)");
  cmd->add_option("--seed", t->seed, "Seed, an integer in [0, 2^64)");
  cmd->add_option("--alpha", t->alpha, "False-alarm probability, in [1e-15, 0.5]");
  cmd->add_option("--threads", t->threads,
                  "Worker threads, 0 to 1024 (0 = all cores; no effect on results)");
  cmd->add_option("--dim", t->dim, "Dimension (vector-laplace only), in [1, 64]");
  cmd->add_option("--candidates", t->candidates, "Candidates (exponential only), in [2, 10000]");
  cmd->add_flag("--json", t->json, "JSON output");
  cmd->add_flag("--force", t->force,
                "run even when 4 × samples × (dim or candidates) exceeds 2^30 draws per pair");
  cmd->callback([t] { run_audit_command(parse(*t)); });
}

static const command_registrar audit_registrar(register_audit_command);

}  // namespace dpref::cli

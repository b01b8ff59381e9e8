// `dpref audit <mechanism>`: runs the statistical DP auditor (spec/audit.md) on one mechanism
// calibrated to --epsilon (and --delta), audited against that claim. Prints ε_lb, the verdict,
// the chosen event and its counts (JSON with --json). The mechanisms and the report live in
// the library (dpref/audit/builtin.hpp), shared with the Python package. Under mpirun the
// samples are split over the ranks (spec/distributed.md DIST.AUDIT); rank 0 prints. The time
// goes to stderr (identical runs print identical bytes); a violation exits with status 5.
#include <fmt/core.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "dpref/audit/builtin.hpp"
#include "world.hpp"

namespace dpref::cli {
namespace {

struct audit_options : audit::builtin_options {
  bool json = false;
};

void print_report(const audit_options& o, const audit::audit_report& r,
                  const std::string& sampler) {
  const auto& w = r.worst_pair();
  if (o.json) {
    const nlohmann::json j = audit::builtin_report_json(o, r, sampler);
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("dpref audit {}  (sampler: {})\n", o.mechanism, sampler);
  fmt::print("  claimed        eps = {:.6g}, delta = {:.3g}\n", r.epsilon, r.delta);
  fmt::print("  samples        {} search + {} test per side and pair, {} pair(s), seed {}\n",
             o.samples, o.samples, r.pairs.size(), o.seed);
  fmt::print("  eps_lb         {:.4f}   (false-alarm probability {:.1e})\n", r.eps_lb, r.alpha);
  fmt::print("  verdict        {}\n", r.violation ? "VIOLATION" : "no violation");
  fmt::print("  worst pair     {}\n", w.pair);
  fmt::print("  chosen event   {}{}\n", w.event.description,
             w.event.swapped ? "  (ratio P[M(D')∈S]/P[M(D)∈S])" : "");
  fmt::print("  counts         {} vs {} of {}  (CP bounds {:.6g} / {:.6g})\n", w.count_num,
             w.count_den, w.n, w.p_lower, w.p_upper);
}

void run_audit_command(audit_options o) {
  // test hook of spec/distributed.md DIST.ABORT: this rank fails while the others sample
  if (const char* f = std::getenv("DPREF_TEST_FAIL_RANK");
      f && world().size() > 1 && std::to_string(world().rank()) == f)
    throw std::runtime_error("injected failure (DPREF_TEST_FAIL_RANK=" + std::string(f) + ")");
  o.comm = &world();
  std::string sampler;
  const audit::audit_report r = audit::run_builtin(o, sampler);
  if (world().is_root()) {
    print_report(o, r, sampler);
    std::fflush(stdout);
    std::fprintf(stderr, "dpref audit: %.2f s on %d process(es)\n", r.seconds, world().size());
  }
  if (r.violation)
    throw audit_violation("dpref audit " + o.mechanism +
                          ": epsilon_lb = " + std::to_string(r.eps_lb) +
                          " > claimed epsilon = " + std::to_string(r.epsilon));
}

}  // namespace

void register_audit_command(CLI::App& app) {
  auto o = std::make_shared<audit_options>();
  auto* cmd = app.add_subcommand("audit", "Statistical DP audit of a mechanism (spec/audit.md)");
  cmd->add_option("mechanism", o->mechanism, "Mechanism to audit")
      ->required()
      ->check(CLI::IsMember(audit::builtin_mechanisms()));
  cmd->add_option("--epsilon", o->epsilon, "Claimed (and calibrated) epsilon")
      ->check(CLI::Range(1e-3, 20.0));
  cmd->add_option("--delta", o->delta, "Claimed delta (gaussian)")->check(CLI::Range(1e-12, 0.5));
  cmd->add_option("--samples", o->samples, "Search and test samples per side and pair")
      ->check(CLI::Range(std::uint64_t{1000}, std::uint64_t{1} << 34));
  cmd->add_option("--seed", o->seed, "Seed");
  cmd->add_option("--alpha", o->alpha, "False-alarm probability")->check(CLI::Range(1e-15, 0.5));
  cmd->add_option("--threads", o->threads, "Worker threads (0 = all cores; no effect on results)");
  cmd->add_option("--dim", o->dim, "Dimension (vector-laplace)")->check(CLI::Range(1, 64));
  cmd->add_option("--candidates", o->candidates, "Candidates (exponential)")
      ->check(CLI::Range(2, 10000));
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->callback([o] { run_audit_command(*o); });
}

static const command_registrar audit_registrar(register_audit_command);

}  // namespace dpref::cli

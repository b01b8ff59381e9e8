// `dpref audit <mechanism>`: runs the statistical DP auditor (spec/audit.md) on one mechanism
// calibrated to --epsilon (and --delta), audited against that claim. Prints ε_lb, the verdict,
// the chosen event and its counts (JSON with --json). The mechanisms and the report live in
// the library (dpref/audit/builtin.hpp), shared with the Python package.
#include <fmt/core.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "dpref/audit/builtin.hpp"

namespace dpref::cli {
namespace {

struct audit_options : audit::builtin_options {
  bool json = false;
};

void run_audit_command(const audit_options& o) {
  std::string sampler;
  const audit::audit_report r = audit::run_builtin(o, sampler);
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
  fmt::print("  time           {:.2f} s\n", r.seconds);
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

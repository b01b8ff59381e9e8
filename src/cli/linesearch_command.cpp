// `dpref linesearch run|study|mlp` (spec/linesearch.md "JSON and CLI"): thin adapters over the
// library (include/dpref/linesearch/json.hpp, study.hpp, mlp_study.hpp). The flags come from the
// configs' field lists (one vocabulary: --epsilon, --delta, --iterations, --seed, --precision,
// --out, --png-dir); the library reads, validates, runs and writes the JSON. This file adds only
// I/O: progress and budget warnings on stderr, output paths checked and created before the work,
// plotting scripts found next to the installed binary and run without a shell.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "dpref/io/data_path.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "flags.hpp"
#include "output.hpp"
#include "paper_command.hpp"
#include "run_script.hpp"

namespace dpref::cli {
namespace {

namespace ls = dpref::linesearch;

void progress(const std::string& s) { std::fprintf(stderr, "[dpref linesearch] %s\n", s.c_str()); }

/// A run whose certified guarantee exceeds the request (allow_over_budget) is announced.
void warn_if_over_budget(const io::json& privacy, const std::string& what) {
  if (privacy.value("private", false) && !privacy.value("budget_met", true))
    std::fprintf(
        stderr,
        "dpref linesearch: WARNING: %s: the certified guarantee (epsilon = %s) exceeds the "
        "requested budget (epsilon = %s): a paper-reproduction setting "
        "(allow_over_budget); see paper_claim\n",
        what.c_str(), privacy["guarantee"]["epsilon"].dump().c_str(),
        privacy["requested"]["epsilon"].dump().c_str());
}

/// `study` and `mlp`: a config from flags / --params, --out, --png-dir (plots need --out).
template <class Config, class Runner>
void add_json_command(CLI::App& group, const std::string& name, const std::string& help,
                      const std::string& script, Runner runner) {
  struct state {
    flag_set flags;
    std::string out, png_dir;
  };
  auto* cmd = group.add_subcommand(name, help);
  auto st = std::make_shared<state>();
  st->flags.template add<Config>(cmd);
  st->flags.add_params_file(cmd, "configuration");
  cmd->add_option("--out", st->out, "write the JSON result to this file (default: stdout)");
  cmd->add_option("--png-dir", st->png_dir, "also write PNG plots there (needs --out)");
  cmd->callback([st, script, runner] {
    check_output_file(st->out);
    const io::document doc = st->flags.build();
    Config cfg;
    io::read_fields(io::node(doc), cfg);
    std::string plot;
    if (!st->png_dir.empty()) {  // everything the plots need is checked before the work
      if (st->out.empty())
        throw std::invalid_argument("--png-dir needs --out (the plots read the JSON file)");
      if constexpr (requires { cfg.diagnostics; })  // mlp: the plots show the checkpoints
        if (!cfg.diagnostics)
          throw std::invalid_argument(
              "--png-dir needs --diagnostics (the plots show the non-private checkpoints)");
      plot = cfg.plot_script.empty() ? io::find_data_file("scripts/" + script) : cfg.plot_script;
      check_readable(plot, "--plot-script");
      check_executable(cfg.python, "--python");
      prepare_output_dir(st->png_dir);
    }
    const io::json out = runner(doc);
    write_json(out, st->out);
    if (!plot.empty()) run_program({cfg.python, plot, st->out, st->png_dir}, "dpref linesearch");
  });
}

void register_linesearch_command(CLI::App& app) {
  CLI::App* g = app.add_subcommand("linesearch", "DP backtracking line search (linesearch paper)");
  g->require_subcommand(1);
  add_run_command<ls::config<double>>(
      *g, "run",
      "One run of DP-BLSGD, DP-BLSGD-AC, DP-BLGD or a baseline (DP-SGD, DP-AGD, OUTPERT, OBJPERT, "
      "NON-PRIVATE, MAJORITY); JSON result with the ledger",
      []<class Real>(const io::document& d) {
        io::json j = ls::run_json<Real>(d, progress);
        warn_if_over_budget(j["privacy"], j["algorithm"].get<std::string>());
        return j;
      });
  add_json_command<ls::study_config>(
      *g, "study", "Data of Figures 1-4 (K-fold CV x repetitions) as JSON (+ PNG plots)",
      "linesearch_study_plots.py",
      [](const io::document& d) { return ls::study_json(d, progress); });
  add_json_command<ls::mlp_config>(
      *g, "mlp", "Section 5.7: one-hidden-layer MLP on Fashion-MNIST, DP-BLSGD vs DP-SGD",
      "linesearch_mlp_plots.py", [](const io::document& d) {
        io::json j = ls::mlp_json(d, progress);
        for (const auto& r : j["runs"]) warn_if_over_budget(r["privacy"], r["algorithm"]);
        return j;
      });
}

const command_registrar linesearch_registrar(register_linesearch_command);

}  // namespace
}  // namespace dpref::cli

// `dpref ev run|sensitivity|study` (spec/ev.md EV.CLI): thin adapters over the library's JSON
// entry points (include/dpref/ev/json.hpp). The flags are the field lists of ev::config,
// ev::sensitivity_config and ev::study::config; the library reads, validates, computes and
// returns the JSON. Here: output files (checked before the work), progress on stderr, and the
// study's plot script (run without a shell).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "dpref/ev/ev.hpp"
#include "dpref/io/data_path.hpp"
#include "flags.hpp"
#include "output.hpp"
#include "paper_command.hpp"
#include "run_script.hpp"
#include "world.hpp"

namespace dpref::cli {
namespace {

/// `dpref ev sensitivity`: flags of ev::sensitivity_config, --params, --out.
void add_sensitivity_command(CLI::App& group) {
  auto* cmd = group.add_subcommand(
      "sensitivity",
      "Δ of the EV projection: ev Theorem 8, the tight value (errata EV-E1) and a "
      "worst-case search (JSON)");
  struct state {
    flag_set flags;
    std::string out;
  };
  auto st = std::make_shared<state>();
  st->flags.add<ev::sensitivity_config>(cmd);
  st->flags.add_params_file(cmd, "sensitivity configuration");
  cmd->add_option("--out", st->out, "write the JSON to this file (default: stdout)");
  cmd->callback([st] {
    check_output_file(st->out);
    write_json(ev::sensitivity_json(st->flags.build()), st->out);
  });
}

/// `dpref ev study`: flags of ev::study::config, --params, --out, --png-dir (+ the plotter).
void add_ev_study_command(CLI::App& group) {
  auto* cmd = group.add_subcommand(
      "study", "The study of ev §VII (Figures 1-4 and the claims): JSON, and PNG with --png-dir");
  struct state {
    flag_set flags;
    std::string out, png_dir, python = "/usr/bin/python3", plot_script;
  };
  auto st = std::make_shared<state>();
  st->flags.add<ev::study::config>(cmd);
  st->flags.add_params_file(cmd, "study configuration");
  cmd->add_option("--out", st->out, "write the JSON to this file (default: stdout)");
  cmd->add_option("--png-dir", st->png_dir,
                  "also write the PNG plots of the figures there (needs --out)");
  cmd->add_option("--python", st->python, "Python with matplotlib (default: /usr/bin/python3)");
  cmd->add_option("--plot-script", st->plot_script,
                  "plot script (default: the installed share/dpref/scripts/ev_study_plots.py)");
  cmd->callback([st] {
    // every output path is checked before the study starts
    check_output_file(st->out);
    if (!st->png_dir.empty()) {
      if (st->out.empty())
        throw std::invalid_argument("--png-dir needs --out (the plot script reads that file)");
      if (st->plot_script.empty())  // the shipped one, relative to the installation
        st->plot_script = io::find_data_file("scripts/ev_study_plots.py");
      if (!std::filesystem::is_regular_file(st->plot_script))
        throw std::invalid_argument("--plot-script must name an existing file, got '" +
                                    st->plot_script + "'");
      if (st->python.find('/') != std::string::npos && ::access(st->python.c_str(), X_OK) != 0)
        throw std::invalid_argument("--python must name an executable, got '" + st->python + "'");
      prepare_output_dir(st->png_dir);
    }
    write_json(ev::study_json(st->flags.build(), progress_to_stderr), st->out);
    if (!st->png_dir.empty())
      run_program({st->python, st->plot_script, st->out, st->png_dir}, "dpref ev study");
  });
}

void register_ev_command(CLI::App& app) {
  auto* group = app.add_subcommand("ev",
                                   "EV charging (ev paper): private distributed projected "
                                   "gradient, sensitivity, study");
  group->require_subcommand(1);
  add_run_command<ev::config<double>>(
      *group, "run",
      "Run an ev algorithm (private_projected_gradient = ev Algorithm 2, projected_gradient, "
      "projected_sgd, optimum) and print the result JSON",
      []<class Real>(const io::document& d) {
        // under mpirun the users are split over the ranks (spec/distributed.md DIST.EV); rank 0
        // reports progress and writes the result
        const ev::progress_fn progress =
            world().is_root() ? ev::progress_fn(progress_to_stderr) : nullptr;
        return ev::run_json<Real>(d, progress, world());
      });
  add_sensitivity_command(*group);
  add_ev_study_command(*group);
}

const command_registrar ev_registrar(register_ev_command);

}  // namespace
}  // namespace dpref::cli

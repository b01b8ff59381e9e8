// `dpref pwa run|study` (spec/pwa.md PWA.CLI): `run` is the generic run command over the
// library's pwa::run_json (include/dpref/pwa/json.hpp: config, validation, run, result
// document); `study` builds its flags from pwa::study_config's field list and writes the library's
// study_json (pwa §5: Figures 1–3, plus suboptimality vs ε) as JSON and PNG
// (scripts/pwa_study_plots.py). The `pwa` group itself is created by pwa_group() so that other
// files (pwa_sample_command.cpp) can add subcommands to it.
#include "pwa_command.hpp"
#include "json_format.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dpref/io/data_path.hpp"
#include "dpref/pwa/pwa.hpp"
#include "flags.hpp"
#include "output.hpp"
#include "paper_command.hpp"

namespace dpref::cli {

CLI::App* pwa_group(CLI::App& app) {
  for (CLI::App* sc : app.get_subcommands([](CLI::App*) { return true; }))
    if (sc->get_name() == "pwa") return sc;
  CLI::App* g = app.add_subcommand(
      "pwa", "Piecewise-affine objectives (pwa paper): mechanisms, exact LP, study");
  g->require_subcommand(1);
  return g;
}

namespace {

struct pwa_study_options {
  flag_set flags;
  std::string out, png_dir, python = "/usr/bin/python3", plot_script;
};

/// The shipped plot script, found relative to the installation (share/dpref/scripts).
std::string default_plot_script() { return io::find_data_file("scripts/pwa_study_plots.py"); }

void run_study(const pwa_study_options& o) {
  if (!o.png_dir.empty() && o.out.empty())
    throw std::invalid_argument("dpref pwa study: --png-dir needs --out");
  if (!o.out.empty()) check_output_file(o.out);  // before the study starts
  write_json_output(pwa::study_json(o.flags.build()), o.out, "dpref pwa study");
  if (!o.png_dir.empty())
    run_plot_script(o.python, o.plot_script.empty() ? default_plot_script() : o.plot_script, o.out,
                    o.png_dir, "dpref pwa study");
}

}  // namespace

void register_pwa_command(CLI::App& app) {
  CLI::App* pwa_cmd = pwa_group(app);
  // `dpref pwa run`: the generic run command over pwa::run_json (ARCH.CLI): flags from
  // pwa::config's field list, --params, --precision, --out; no defaults or science here
  add_run_command<pwa::config<double>>(
      *pwa_cmd, "run",
      "Run one pwa algorithm (private_subgradient = pwa Algorithms 1-2, perturb_data = M_P, "
      "perturb_solution = M_S, exponential = M_E, regular_subgradient, optimum) and print the "
      "result JSON",
      []<class Real>(const io::document& d) { return pwa::run_json<Real>(d); });

  auto so = std::make_shared<pwa_study_options>();
  auto* study = pwa_cmd->add_subcommand(
      "study", "pwa section 5: Figures 1-3 (+ epsilon sweep) as JSON and PNG");
  so->flags.add<pwa::study_config>(study, "", {"study"});  // flags from the field list
  so->flags.add_params_file(study, "study configuration");
  study->add_option("--out", so->out, "JSON output file (default: stdout)");
  study->add_option("--png-dir", so->png_dir, "also write PNG plots there (needs --out)");
  study->add_option("--python", so->python, "Python with matplotlib")->capture_default_str();
  study->add_option("--plot-script", so->plot_script,
                    "plot script (default: the installed share/dpref/scripts/pwa_study_plots.py)");
  study->callback([so] { run_study(*so); });
}

static const command_registrar pwa_registrar(register_pwa_command);

}  // namespace dpref::cli

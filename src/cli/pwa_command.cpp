// `dpref pwa run|study` (spec/pwa.md PWA.CLI): `run` is the generic run command over the
// library's pwa::run_json (include/dpref/pwa/run_json.hpp: config, validation, run, result
// document); `study` parses its flags into pwa::study_config and writes the library's study_json
// (pwa §5: Figures 1–3, plus suboptimality vs ε) as JSON and PNG (scripts/pwa_study_plots.py). The
// `pwa` group itself is created by pwa_group() so that other files (pwa_sample_command.cpp) can add
// subcommands to it.
#include "pwa_command.hpp"
#include "json_format.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dpref/io/data_path.hpp"
#include "dpref/pwa/run_json.hpp"
#include "dpref/pwa/study_json.hpp"
#include "flags.hpp"
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
  std::string figures = "1,2,3,4";
  int m = 20, d = 2;
  double c = 1, bmax = 1;
  std::string k_list = "1,2,5,10,20,50,100,200,500";
  std::string c_list = "0.25,0.5,1,2,4,8";
  std::string m_list = "5,10,20,50,100,200";
  std::string eps_list = "0.05,0.1,0.2,0.5,1,2";
  pwa::study_options study;
  std::uint64_t data_seed = 1;
  std::string out, png_dir, python = "/usr/bin/python3", plot_script;
};

template <class T>
std::vector<T> parse_list(const std::string& text, const std::string& what) {
  std::vector<T> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::istringstream is(item);
    T x{};
    if (!(is >> x) || !is.eof())
      throw std::invalid_argument("dpref pwa study: " + what + ": bad entry '" + item + "'");
    v.push_back(x);
  }
  if (v.empty()) throw std::invalid_argument("dpref pwa study: " + what + " is empty");
  return v;
}

/// The shipped plot script, found relative to the installation (share/dpref/scripts).
std::string default_plot_script() { return io::find_data_file("scripts/pwa_study_plots.py"); }

void run_study(const pwa_study_options& o) {
  if (!o.png_dir.empty() && o.out.empty())
    throw std::invalid_argument("dpref pwa study: --png-dir needs --out");
  pwa::study_config cfg;  // the flags' lists parsed; the study itself is the library's
  cfg.figures = parse_list<int>(o.figures, "--figures");
  cfg.m = o.m;
  cfg.d = o.d;
  cfg.c = o.c;
  cfg.bmax = o.bmax;
  cfg.k_list = parse_list<long long>(o.k_list, "--k-list");
  cfg.c_list = parse_list<double>(o.c_list, "--c-list");
  cfg.m_list = parse_list<double>(o.m_list, "--m-list");
  cfg.eps_list = parse_list<double>(o.eps_list, "--eps-list");
  cfg.study = o.study;
  cfg.data_seed = o.data_seed;
  write_json_output(pwa::study_json(cfg), o.out, "dpref pwa study");
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
  study->add_option("--figures", so->figures, "1 (k), 2 (c), 3 (m), 4 (epsilon)")
      ->capture_default_str();
  study->add_option("--m", so->m, "pieces (Figures 1, 2, 4)")->capture_default_str();
  study->add_option("--d", so->d, "dimension")->capture_default_str();
  study->add_option("--c", so->c, "box half-width (Figures 1, 3, 4)")->capture_default_str();
  study->add_option("--bmax", so->bmax, "bmax")->capture_default_str();
  study->add_option("--epsilon", so->study.epsilon, "privacy budget (pwa: 0.1)")
      ->capture_default_str();
  study->add_option("--runs", so->study.runs, "runs per point (pwa: 1000)")->capture_default_str();
  study->add_option("--iterations", so->study.iterations, "k (pwa: 100)")->capture_default_str();
  study->add_option("--k-list", so->k_list, "Figure 1 iteration counts")->capture_default_str();
  study->add_option("--c-list", so->c_list, "Figure 2 box sizes")->capture_default_str();
  study->add_option("--m-list", so->m_list, "Figure 3 piece counts (nested)")
      ->capture_default_str();
  study->add_option("--eps-list", so->eps_list, "epsilon sweep")->capture_default_str();
  study
      ->add_option_function<double>(
          "--step", [so](const double& a) { so->study.step = a; },
          "constant step alpha (default 0.01), finite and > 0")
      ->excludes(study->add_flag_callback(
          "--theorem24-step", [so] { so->study.step.reset(); },
          "the step R/(G sqrt(k)) that minimises Theorem 24's first term instead"));
  study->add_flag("--project", so->study.project, "box projection in Algorithm 2 (deviation)");
  study->add_flag(
      "--no-exponential", [so](std::int64_t) { so->study.exponential = false; }, "leave M_E out");
  study->add_option("--seed", so->study.seed, "noise seed")
      ->capture_default_str()
      ->check(unsigned_integer());
  study->add_option("--data-seed", so->data_seed, "data seed")
      ->capture_default_str()
      ->check(unsigned_integer());
  study->add_option("--out", so->out, "JSON output file (default: stdout)");
  study->add_option("--png-dir", so->png_dir, "also write PNG plots there (needs --out)");
  study->add_option("--python", so->python, "Python with matplotlib")->capture_default_str();
  study->add_option("--plot-script", so->plot_script,
                    "plot script (default: the installed share/dpref/scripts/pwa_study_plots.py)");
  study->callback([so] { run_study(*so); });
}

static const command_registrar pwa_registrar(register_pwa_command);

}  // namespace dpref::cli

// `dpref pwa run|study` (spec/pwa.md PWA.CLI): `run` is the generic run command over the
// library's pwa::run_json (include/dpref/pwa/run_json.hpp: config, validation, run, result
// document); `study` runs the experiments of pwa §5 (Figures 1–3, plus suboptimality vs ε) as
// JSON and PNG (scripts/pwa_study_plots.py). The `pwa` group itself is created by pwa_group() so
// that other files (pwa_sample_command.cpp) can add subcommands to it.
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
#include "dpref/pwa/bounds.hpp"
#include "dpref/pwa/laplace_mechanisms.hpp"
#include "dpref/pwa/private_subgradient.hpp"
#include "dpref/pwa/run_json.hpp"
#include "dpref/pwa/solve.hpp"
#include "dpref/pwa/study.hpp"
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

using json = nlohmann::json;

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

json stat_json(const pwa::study_stat& s) {
  return {{"mean", s.mean}, {"two_sigma", s.two_sigma}, {"suboptimality", s.suboptimality}};
}

/// Appends a study point to per-mechanism arrays.
void append_point(json& mech, const pwa::study_point& pt) {
  const auto add = [&](const char* name, const pwa::study_stat& s) {
    for (const char* key : {"mean", "two_sigma", "suboptimality"})
      mech[name][key].push_back(stat_json(s)[key]);
  };
  add("M_P", pt.mp);
  add("M_S", pt.ms);
  add("subgradient", pt.sub);
  if (pt.has_me) add("M_E", pt.me);
  mech["bounds"]["theorem17"].push_back(pt.thm17);
  mech["bounds"]["theorem24_best_iterate"].push_back(pt.thm24);
}

json sweep(const pwa_study_options& o, const char* param, const std::vector<double>& values,
           std::uint64_t point_base) {
  json fig;
  fig["parameter"] = param;
  fig["values"] = values;
  fig["fopt"] = json::array();
  json mech = json::object();
  std::uint64_t id = point_base;
  for (const double v : values) {
    int m = o.m;
    double c = o.c;
    pwa::study_options so = o.study;
    if (std::string(param) == "c") c = v;
    if (std::string(param) == "m") m = static_cast<int>(v);
    if (std::string(param) == "epsilon") so.epsilon = v;
    const auto prob = pwa::gaussian_instance<double>(o.data_seed, m, o.d, c, o.bmax);
    const auto pt = pwa::run_study_point(prob, so, id++);
    fig["fopt"].push_back(pt.fopt);
    append_point(mech, pt);
  }
  fig["mechanisms"] = mech;
  return fig;
}

json study_iterations(const pwa_study_options& o) {
  json fig;
  const auto ks = parse_list<long long>(o.k_list, "--k-list");
  const auto prob = pwa::gaussian_instance<double>(o.data_seed, o.m, o.d, o.c, o.bmax);
  fig["parameter"] = "k";
  fig["values"] = ks;
  fig["fopt"] = pwa::solve(prob).value;
  json priv_mean = json::array(), priv_2s = json::array(), regular = json::array();
  std::uint64_t id = 0;
  for (const long long k : ks) {
    pwa::subgradient_params<double> p;
    p.epsilon = o.study.epsilon;
    p.iterations = k;
    p.rule = pwa::step_rule::constant;
    p.step = o.study.step > 0 ? o.study.step : pwa::theorem24_step(prob, k);
    p.projection = o.study.project ? pwa::projection_mode::box : pwa::projection_mode::none;
    p.trace = false;
    std::vector<double> vals;
    for (long long r = 0; r < o.study.runs; ++r) {
      philox_stream s(o.study.seed, 5000 + id, static_cast<std::uint64_t>(r));
      vals.push_back(pwa::private_subgradient(s, prob, p).objective);
    }
    ++id;
    const auto st = pwa::summarize(vals, 0.0);
    priv_mean.push_back(st.mean);
    priv_2s.push_back(st.two_sigma);
    regular.push_back(pwa::regular_subgradient(prob, p).objective);
  }
  fig["private"] = {{"mean", priv_mean}, {"two_sigma", priv_2s}};
  fig["regular"] = regular;
  return fig;
}

std::string default_plot_script() {
  const std::filesystem::path rel = "scripts/pwa_study_plots.py";
  if (std::filesystem::exists(rel)) return rel.string();
  const auto src = std::filesystem::path(__FILE__).parent_path() / "../.." / rel;
  if (std::filesystem::exists(src)) return src.string();
  throw std::invalid_argument(
      "dpref pwa study: scripts/pwa_study_plots.py not found (--plot-script)");
}

void run_study(const pwa_study_options& o) {
  if (!o.png_dir.empty() && o.out.empty())
    throw std::invalid_argument("dpref pwa study: --png-dir needs --out");
  if (o.study.runs < 2) throw std::invalid_argument("dpref pwa study: --runs must be >= 2");
  json out;
  out["command"] = "dpref pwa study";
  out["setup"] = {
      {"m", o.m},
      {"d", o.d},
      {"c", o.c},
      {"bmax", o.bmax},
      {"epsilon", o.study.epsilon},
      {"runs", o.study.runs},
      {"iterations", o.study.iterations},
      {"step", o.study.step > 0 ? json(o.study.step)
                                : json("constant R/(G sqrt(k)) (public: minimises Theorem 24's "
                                       "first term)")},
      {"projection", o.study.project ? "box" : "none (paper)"},
      {"M_S_noise", "Theorem 9 scale diam(P)/eps (errata pwa Theorem 17)"},
      {"M_E", pwa::study_has_exponential_mechanism && o.study.exponential
                  ? "exact rejection sampler (pwa Theorem 19)"
                  : "not included"},
      {"error_bars", "2 sigma = 2 * sample std / sqrt(runs)"},
      {"seed", o.study.seed},
      {"data_seed", o.data_seed}};
  for (const int f : parse_list<int>(o.figures, "--figures")) {
    if (f == 1)
      out["figure1_iterations"] = study_iterations(o);
    else if (f == 2)
      out["figure2_box_size"] = sweep(o, "c", parse_list<double>(o.c_list, "--c-list"), 100);
    else if (f == 3)
      out["figure3_pieces"] = sweep(o, "m", parse_list<double>(o.m_list, "--m-list"), 200);
    else if (f == 4)
      out["epsilon_sweep"] = sweep(o, "epsilon", parse_list<double>(o.eps_list, "--eps-list"), 300);
    else
      throw std::invalid_argument("dpref pwa study: --figures entries must be 1, 2, 3 or 4");
  }
  write_json_output(out, o.out, "dpref pwa study");
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
  study->add_option("--step", so->study.step, "constant step alpha; 0 = R/(G sqrt(k))")
      ->capture_default_str();
  study->add_flag("--project", so->study.project, "box projection in Algorithm 2 (deviation)");
  study->add_flag(
      "--no-exponential", [so](std::int64_t) { so->study.exponential = false; }, "leave M_E out");
  study->add_option("--seed", so->study.seed, "noise seed")->capture_default_str();
  study->add_option("--data-seed", so->data_seed, "data seed")->capture_default_str();
  study->add_option("--out", so->out, "JSON output file (default: stdout)");
  study->add_option("--png-dir", so->png_dir, "also write PNG plots there (needs --out)");
  study->add_option("--python", so->python, "Python with matplotlib")->capture_default_str();
  study->add_option("--plot-script", so->plot_script,
                    "plot script (default: scripts/pwa_study_plots.py)");
  study->callback([so] { run_study(*so); });
}

static const command_registrar pwa_registrar(register_pwa_command);

}  // namespace dpref::cli

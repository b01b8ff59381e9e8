// `dpref ev run|sensitivity|study`: ev Algorithm 2 (or 1) on the EV-charging problem of ev §VII
// with JSON output (objective trace, relative suboptimality against a certified U*, privacy
// ledger), the projection sensitivity (paper bound, tight value, worst-case search), and the
// study of ev §VII (Figures 1–4, JSON + PNG via scripts/ev_study_plots.py). spec/ev.md.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dpref/ev/bounds.hpp"
#include "dpref/ev/data.hpp"
#include "dpref/ev/optimum.hpp"
#include "dpref/ev/private_projected_gradient.hpp"
#include "dpref/ev/projected_gradient.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/ev/study.hpp"
#include "json_format.hpp"

namespace dpref::cli {
namespace {

using json = nlohmann::json;

struct ev_run_options {
  std::string algorithm = "private";
  long long users = 100000;
  long long groups = 0;  // 0: every user individually
  long long iterations = 20;
  double epsilon = 0.1, step = 10, eta = 1, households = 500000;
  double delta_r = 13.2, delta_e = 12;
  std::string sensitivity = "tight";
  std::string units = "paper";
  int threads = 1;
  std::uint64_t seed = 20261121;
  std::string base_load;
  bool optimum = true;
  long long optimum_iterations = 20000;
  bool schedules = false;
};

struct ev_sensitivity_options {
  double delta_r = 13.2, delta_e = 12;
  long long horizon = 52, search_horizon = 3;
  int restarts = 20, steps = 2000;
  std::uint64_t seed = 20261121;
};

/// A file shipped with the sources: cwd-relative, then source-relative.
std::string shipped_file(const std::string& rel_path, const char* what) {
  const std::filesystem::path rel = rel_path;
  if (std::filesystem::exists(rel)) return rel.string();
  const auto src = std::filesystem::path(__FILE__).parent_path() / "../.." / rel;
  if (std::filesystem::exists(src)) return src.string();
  throw std::invalid_argument(std::string("dpref ev: ") + what + " not given and " + rel_path +
                              " not found");
}

/// The shipped real profile (scripts/ev_base_load.sh).
std::string default_base_load() {
  return shipped_file("data/ev/base_load_taylor.csv", "--base-load");
}

/// λ of the units of U (spec/ev.md EV.UNITS): paper = 1 (ev (7) literally), household = m.
double units_scale(const std::string& units, double households) {
  if (units == "paper") return 1.0;
  if (units == "household") return ev::household_units(households);
  throw std::invalid_argument("dpref ev: --units must be paper or household, got '" + units + "'");
}

json vec_json(const vector<double>& v) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}

void run_ev(const ev_run_options& o) {
  using clock = std::chrono::steady_clock;
  const vector<double> d =
      ev::read_base_load_csv(o.base_load.empty() ? default_base_load() : o.base_load);
  const Eigen::Index t = d.size();
  auto specs = o.groups > 0 ? ev::draw_grouped_specs<double>(o.seed, t, o.users, o.groups)
                            : ev::draw_specs<double>(o.seed, t, static_cast<Eigen::Index>(o.users));
  const ev::charging_problem<double> prob(d, o.households, std::move(specs),
                                          units_scale(o.units, o.households));
  const auto which =
      o.sensitivity == "paper" ? ev::sensitivity_bound::paper : ev::sensitivity_bound::tight;
  const double delta =
      ev::projection_sensitivity(o.delta_r, o.delta_e, static_cast<std::size_t>(t), which);
  philox_stream stream(o.seed, 1);
  const auto t0 = clock::now();
  ev::run_result<double> res;
  if (o.algorithm == "private") {
    ev::private_gradient_params<double> p;
    p.iterations = o.iterations;
    p.epsilon = o.epsilon;
    p.step = o.step;
    p.eta = o.eta;
    p.sensitivity = delta;
    p.threads = o.threads;
    res = ev::run(prob, p, stream);
  } else {
    ev::projected_gradient_params<double> p;
    p.iterations = o.iterations;
    p.step = o.step;
    p.constant_step = false;
    p.threads = o.threads;
    res = ev::run(prob, p, stream);
  }
  const double seconds = std::chrono::duration<double>(clock::now() - t0).count();
  json out;
  out["command"] = "ev run";
  out["algorithm"] = o.algorithm == "private" ? "ev Algorithm 2" : "ev Algorithm 1 (c/sqrt(k))";
  out["params"] = {{"users", prob.users()},
                   {"groups", prob.groups()},
                   {"horizon", t},
                   {"iterations", o.iterations},
                   {"epsilon", o.epsilon},
                   {"step_c", o.step},
                   {"eta", o.eta},
                   {"households", o.households},
                   {"units", o.units},
                   {"objective_scale", prob.objective_scale()},
                   {"threads", o.threads},
                   {"lipschitz", prob.lipschitz()},
                   {"delta_r", o.delta_r},
                   {"delta_e", o.delta_e},
                   {"sensitivity_bound", o.sensitivity},
                   {"sensitivity", delta},
                   {"seed", o.seed}};
  out["status"] = ev::to_string(res.status);
  out["seconds"] = seconds;
  out["objective_trace"] = res.objective_trace;
  out["averaged_trace"] = res.averaged_trace;
  out["final_objective"] = res.final_objective;
  out["averaged_objective"] = res.averaged_objective;
  out["base_load"] = vec_json(d);
  out["averaged_load_per_household"] = vec_json(res.averaged_load / o.households);
  json ledger = json::array();
  for (const auto& e : res.ledger.events()) {
    json je{{"kind", e.kind}, {"eps", std::get<accounting::pure_dp<double>>(e.privacy).eps}};
    for (const auto& [k, v] : e.params) je[k] = v;
    ledger.push_back(je);
  }
  const auto total = res.ledger.total(0.0);
  out["ledger"] = {{"events", ledger}, {"total_eps", total.eps}, {"total_delta", total.delta}};
  if (o.optimum) {
    ev::optimum_params<double> op;
    op.max_iterations = o.optimum_iterations;
    const auto t1 = clock::now();
    const auto opt = ev::solve_optimum(prob, op);
    out["optimum"] = {{"value", opt.value},
                      {"lower", opt.lower},
                      {"gap", opt.gap},
                      {"status", ev::to_string(opt.status)},
                      {"iterations", opt.iterations},
                      {"seconds", std::chrono::duration<double>(clock::now() - t1).count()},
                      {"load_per_household", vec_json(opt.load / o.households)}};
    // relative suboptimality (ev §VII): [U(Σ r̂^(K+1)) − U*]/U*, bracketed by the certificate
    out["relative_suboptimality"] = (res.averaged_objective - opt.value) / opt.value;
    out["relative_suboptimality_upper"] = (res.averaged_objective - opt.lower) / opt.lower;
  }
  std::cout << out.dump(2) << "\n";
}

void run_sensitivity(const ev_sensitivity_options& o) {
  const auto T = static_cast<std::size_t>(o.horizon);
  const double paper =
      ev::projection_sensitivity(o.delta_r, o.delta_e, T, ev::sensitivity_bound::paper);
  const double tight =
      ev::projection_sensitivity(o.delta_r, o.delta_e, T, ev::sensitivity_bound::tight);
  philox_stream s(o.seed, 2);
  const auto st = static_cast<std::size_t>(o.search_horizon);
  const auto w = ev::search_sensitivity(st, o.delta_r, o.delta_e, o.restarts, o.steps, s);
  const double tight_search =
      ev::projection_sensitivity(o.delta_r, o.delta_e, st, ev::sensitivity_bound::tight);
  json out;
  out["command"] = "ev sensitivity";
  out["delta_r"] = o.delta_r;
  out["delta_e"] = o.delta_e;
  out["horizon"] = o.horizon;
  out["paper"] = paper;  // ev (9), Theorem 8: 2δr + δE
  out["tight"] = tight;  // errata EV-E1
  out["paper_over_tight"] = paper / tight;
  out["search"] = {{"horizon", o.search_horizon},
                   {"restarts", o.restarts},
                   {"steps", o.steps},
                   {"distance", w.distance},
                   {"tight_at_search_horizon", tight_search},
                   {"relative_gap_to_tight", (tight_search - w.distance) / tight_search},
                   {"x0", vec_json(w.x0)},
                   {"a", vec_json(w.a)},
                   {"b", w.b},
                   {"a_prime", vec_json(w.a_prime)},
                   {"b_prime", w.b_prime}};
  std::cout << out.dump(2) << "\n";
}

// ---------------------------------------------------------------------------- study -------

struct ev_study_options {
  std::string mode = "grouped";        // sweeps (Figs. 2-4): grouped (ev §VII) | per-user
  std::string fig1_mode = "per-user";  // Fig. 1 and the reference point
  long long users = 100000, groups = 100;
  double households = 500000;
  std::vector<std::string> units{"household", "paper"};
  long long reference_runs = 100;  // per-user vs grouped at the reference point (0: skip)
  std::string figures = "1,2,3,4";
  std::string base_load, out, png_dir, python = "/usr/bin/python3", script;
  ev::study::config cfg;
};

ev::charging_problem<double> study_problem(const ev_study_options& o, const vector<double>& d,
                                           const std::string& mode, double scale) {
  auto specs =
      mode == "grouped"
          ? ev::draw_grouped_specs<double>(o.cfg.seed, d.size(), o.users,
                                           static_cast<Eigen::Index>(o.groups))
          : ev::draw_specs<double>(o.cfg.seed, d.size(), static_cast<Eigen::Index>(o.users));
  return ev::charging_problem<double>(d, o.households, std::move(specs), scale);
}

json stats_json(const ev::study::point_stats& s) {
  return {{"mean", s.mean}, {"se", s.se}, {"seconds", s.seconds}};
}

json stats_list(const std::vector<ev::study::point_stats>& v) {
  json m = json::array(), se = json::array();
  for (const auto& s : v) m.push_back(s.mean), se.push_back(s.se);
  return {{"mean", m}, {"se", se}};
}

json claim_json(const ev::study::claim_result& c) {
  return {{"holds", c.holds},
          {"estimate", c.estimate},
          {"threshold", c.threshold},
          {"se", c.se},
          {"margin_se", c.margin_se}};
}

json fit_json(const ev::study::loglog_fit& f) {
  return {{"slope", f.slope},
          {"intercept", f.intercept},
          {"se_mc", f.se_mc},
          {"se_fit", f.se_fit},
          {"ci95_mc", {f.ci95_mc_lo, f.ci95_mc_hi}},
          {"ci95_fit", {f.ci95_fit_lo, f.ci95_fit_hi}},
          {"paper_slope", -0.698},
          {"corollary9_slope", -0.25}};
}

json optimum_json(const ev::optimum_result<double>& opt, double seconds) {
  return {{"value", opt.value},
          {"lower", opt.lower},
          {"status", ev::to_string(opt.status)},
          {"iterations", opt.iterations},
          {"seconds", seconds}};
}

ev::optimum_result<double> certified_optimum(const ev::charging_problem<double>& prob,
                                             double& seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  ev::optimum_params<double> op;
  op.max_iterations = 20000;
  auto opt = ev::solve_optimum(prob, op);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (opt.status != ev::run_status::certified)
    throw std::runtime_error("dpref ev study: U* not certified in 20000 iterations");
  return opt;
}

/// Fig. 1: one typical run (run 0 of set 0) at (c_ref, K_ref, ε_ref) for both Δ, and the optimum,
/// as per-household loads d + Σ r/m (kW).
json figure1(const ev_study_options& o, const ev::charging_problem<double>& prob,
             const ev::optimum_result<double>& opt) {
  using sb = ev::sensitivity_bound;
  json f;
  const double m = o.households;
  f["base_load"] = vec_json(prob.base_load());
  f["optimum_load"] = vec_json(prob.base_load() + opt.load / m);
  for (const sb which : {sb::tight, sb::paper}) {
    auto p = ev::study::point_params(o.cfg, prob.horizon(), o.cfg.c_ref, o.cfg.K_ref, o.cfg.eps_ref,
                                     which);
    p.threads = o.cfg.threads;
    philox_stream st(o.cfg.seed, ev::study::run_stream_base);
    const auto res = ev::run(prob, p, st);
    f[which == sb::tight ? "private_load_tight" : "private_load_paper"] =
        vec_json(prob.base_load() + res.averaged_load / m);
    f[which == sb::tight ? "relative_suboptimality_tight" : "relative_suboptimality_paper"] =
        (res.averaged_objective - opt.value) / opt.value;
  }
  return f;
}

json sweep_json(const ev::study::sweep& s) {
  return {{"x", s.x},
          {"tight", stats_list(s.tight)},
          {"paper", stats_list(s.paper)},
          {"gain_paper_minus_tight", stats_list(s.gain)}};
}

json run_units(const ev_study_options& o, const vector<double>& d, const std::string& units,
               const std::vector<int>& figs) {
  const double scale = units_scale(units, o.households);
  const auto has = [&](int f) { return std::find(figs.begin(), figs.end(), f) != figs.end(); };
  json out;
  out["objective_scale"] = scale;
  out["c_meaning"] = units == "paper"
                         ? "alpha_k = c/sqrt(k) with U = 1/2||d + x/m||^2 (ev (7) literally)"
                         : "alpha_k = c/sqrt(k) with U = (m/2)||d + x/m||^2, p = d + x/m (kW)";
  const auto sweep_prob = study_problem(o, d, o.mode, scale);
  double sec = 0;
  const auto opt = certified_optimum(sweep_prob, sec);
  out["sweep_optimum"] = optimum_json(opt, sec);
  if (has(1) || o.reference_runs > 0) {
    const auto p1 = o.fig1_mode == o.mode ? sweep_prob : study_problem(o, d, o.fig1_mode, scale);
    double sec1 = 0;
    const auto opt1 = o.fig1_mode == o.mode ? opt : certified_optimum(p1, sec1);
    if (has(1)) {
      out["figure1"] = figure1(o, p1, opt1);
      out["figure1"]["mode"] = o.fig1_mode;
      out["figure1"]["optimum"] = optimum_json(opt1, sec1);
    }
    if (o.reference_runs > 1 && o.fig1_mode != o.mode) {
      // the reference point (c_ref, K_ref, ε_ref, tight Δ) in both modes: agreement and cost
      ev::study::config rc = o.cfg;
      rc.runs = o.reference_runs;
      const auto pp = ev::study::point_params(rc, d.size(), rc.c_ref, rc.K_ref, rc.eps_ref,
                                              ev::sensitivity_bound::tight);
      const auto a = ev::study::relative_suboptimality(sweep_prob, opt.value, pp, rc.runs, rc.seed,
                                                       0, rc.threads);
      const auto b =
          ev::study::relative_suboptimality(p1, opt1.value, pp, rc.runs, rc.seed, 0, rc.threads);
      out["modes"] = {{"runs", rc.runs},
                      {"threads", rc.threads},
                      {o.mode, stats_json(a)},
                      {o.fig1_mode, stats_json(b)},
                      {"seconds_per_run_" + o.mode, a.seconds / static_cast<double>(rc.runs)},
                      {"seconds_per_run_" + o.fig1_mode, b.seconds / static_cast<double>(rc.runs)}};
    }
  }
  ev::study::config cfg = o.cfg;
  cfg.fig2 = has(2);
  cfg.fig3 = has(3);
  cfg.fig4 = has(4);
  const auto r = ev::study::run_study(sweep_prob, opt.value, cfg);
  if (cfg.fig2) {
    out["figure2"] = sweep_json(r.c);
    out["figure2"]["K"] = cfg.K_ref;
    out["figure2"]["eps"] = cfg.eps_ref;
  }
  if (cfg.fig3) {
    out["figure3"] = sweep_json(r.K);
    out["figure3"]["c"] = cfg.c_ref;
    out["figure3"]["eps"] = cfg.eps_ref;
    out["figure3"]["best_K_tight"] = cfg.K_list[r.K_best_tight];
    out["figure3"]["best_K_paper"] = cfg.K_list[r.K_best_paper];
    out["figure3"]["check_set_tight"] = stats_list(r.K_check_tight);
    out["figure3"]["check_set_paper"] = stats_list(r.K_check_paper);
  }
  if (cfg.fig4) {
    out["figure4"] = {{"eps", r.eps.eps},
                      {"c", cfg.c_ref},
                      {"K_grid", cfg.K_opt_list},
                      {"best_K_tight", r.eps.best_K_tight},
                      {"best_K_paper", r.eps.best_K_paper},
                      {"tight", stats_list(r.eps.tight)},
                      {"paper", stats_list(r.eps.paper)},
                      {"gain_paper_minus_tight", stats_list(r.eps.gain)},
                      {"selection_means_tight", r.eps.selection_tight},
                      {"selection_means_paper", r.eps.selection_paper},
                      {"fit_tight", fit_json(r.eps.fit_tight)},
                      {"fit_paper", fit_json(r.eps.fit_paper)}};
  }
  json claims;
  if (cfg.fig2)
    claims["flat_in_c"] = {{"tight", claim_json(r.flat_tight)},
                           {"paper", claim_json(r.flat_paper)},
                           {"band_factor", cfg.flat_band},
                           {"c_lo", cfg.c_flat_lo},
                           {"c_hi", cfg.c_flat_hi}};
  if (cfg.fig3)
    claims["interior_optimum_in_K"] = {{"tight", claim_json(r.interior_tight)},
                                       {"paper", claim_json(r.interior_paper)},
                                       {"z", cfg.z}};
  if (cfg.fig4)
    claims["negative_slope_in_eps"] = {
        {"tight", claim_json(r.slope_tight)}, {"paper", claim_json(r.slope_paper)}, {"z", cfg.z}};
  out["claims"] = claims;
  // Theorem 7's explicit bound and Corollary 16's K* at the reference point (EV.BOUND.*)
  const auto pp = ev::study::point_params(cfg, d.size(), cfg.c_ref, cfg.K_ref, cfg.eps_ref,
                                          ev::sensitivity_bound::tight);
  const double s = ev::noise_scale(cfg.K_ref, sweep_prob.lipschitz(), pp.sensitivity, cfg.eps_ref);
  const auto k = ev::theorem7_constants(sweep_prob, s);
  out["bounds_at_reference"] = {
      {"theorem7_explicit_absolute",
       ev::theorem7_explicit(sweep_prob, cfg.K_ref, cfg.c_ref, cfg.eta, s)},
      {"theorem7_explicit_relative",
       ev::theorem7_explicit(sweep_prob, cfg.K_ref, cfg.c_ref, cfg.eta, s) / opt.value},
      {"corollary16_K_star",
       ev::corollary16_iterations(k.G, static_cast<long long>(d.size()), sweep_prob.lipschitz(),
                                  pp.sensitivity, cfg.eps_ref)},
      {"corollary15_c_star", ev::corollary15_step(k.diameter, k.G_hat)}};
  out["seconds"] = r.seconds;
  return out;
}

void plot_study(const ev_study_options& o) {
  const std::string script =
      o.script.empty() ? shipped_file("scripts/ev_study_plots.py", "--script") : o.script;
  run_plot_script(o.python, script, o.out, o.png_dir, "dpref ev study");
}

void run_study_command(const ev_study_options& o) {
  if (!o.png_dir.empty() && o.out.empty())
    throw std::invalid_argument("dpref ev study: --png-dir needs --out");
  std::vector<int> figs;
  {
    std::stringstream ss(o.figures);
    std::string item;
    while (std::getline(ss, item, ',')) {
      const int f = std::stoi(item);
      if (f < 1 || f > 4)
        throw std::invalid_argument("dpref ev study: --figures entries must be 1, 2, 3 or 4");
      figs.push_back(f);
    }
  }
  const vector<double> d =
      ev::read_base_load_csv(o.base_load.empty() ? default_base_load() : o.base_load);
  const auto t0 = std::chrono::steady_clock::now();
  json out;
  out["command"] = "dpref ev study";
  out["params"] = {{"mode", o.mode},
                   {"fig1_mode", o.fig1_mode},
                   {"users", o.users},
                   {"groups", o.groups},
                   {"households", o.households},
                   {"horizon", d.size()},
                   {"runs", o.cfg.runs},
                   {"seed", o.cfg.seed},
                   {"threads", o.cfg.threads},
                   {"c_ref", o.cfg.c_ref},
                   {"K_ref", o.cfg.K_ref},
                   {"eps_ref", o.cfg.eps_ref},
                   {"eta", o.cfg.eta},
                   {"delta_r", o.cfg.delta_r},
                   {"delta_e", o.cfg.delta_e},
                   {"Delta_paper", ev::projection_sensitivity(o.cfg.delta_r, o.cfg.delta_e,
                                                              static_cast<std::size_t>(d.size()),
                                                              ev::sensitivity_bound::paper)},
                   {"Delta_tight", ev::projection_sensitivity(o.cfg.delta_r, o.cfg.delta_e,
                                                              static_cast<std::size_t>(d.size()),
                                                              ev::sensitivity_bound::tight)}};
  for (const auto& u : o.units) out["units"][u] = run_units(o, d, u, figs);
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  write_json_output(out, o.out, "dpref ev study");
  if (!o.png_dir.empty()) plot_study(o);
}

}  // namespace

void register_ev_command(CLI::App& app) {
  auto* ev = app.add_subcommand("ev",
                                "EV charging (ev paper): private distributed projected "
                                "gradient, sensitivity, study");
  ev->require_subcommand(1);
  auto ro = std::make_shared<ev_run_options>();
  auto* run = ev->add_subcommand("run", "Run ev Algorithm 2 (or 1) and print JSON");
  run->add_option("--algorithm", ro->algorithm, "private (Algorithm 2) | gradient (Algorithm 1)")
      ->check(CLI::IsMember({"private", "gradient"}));
  run->add_option("--users", ro->users, "Number of users n")->check(CLI::PositiveNumber);
  run->add_option("--groups", ro->groups, "Grouped mode with N groups (0: per user)")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--iterations,-K", ro->iterations, "K")->check(CLI::PositiveNumber);
  run->add_option("--epsilon", ro->epsilon, "Total ε");
  run->add_option("--step", ro->step, "c in α_k = c/√k");
  run->add_option("--eta", ro->eta, "η >= 1 (θ_k = (η+1)/(η+k))");
  run->add_option("--households", ro->households, "m");
  run->add_option("--delta-r", ro->delta_r, "δr (adjacency, kW)");
  run->add_option("--delta-e", ro->delta_e, "δE (adjacency, kW)");
  run->add_option("--sensitivity", ro->sensitivity, "tight (errata EV-E1) | paper (Theorem 8)")
      ->check(CLI::IsMember({"tight", "paper"}));
  run->add_option("--seed", ro->seed, "Seed (specs: stream 0x45560001; noise: stream 1)");
  run->add_option("--units", ro->units, "Units of U: paper (ev (7), lambda = 1) | household")
      ->check(CLI::IsMember({"paper", "household"}));
  run->add_option("--threads", ro->threads, "Threads of the distributed step (bit-identical)")
      ->check(CLI::PositiveNumber);
  run->add_option("--base-load", ro->base_load, "CSV base load (default: taylor profile)");
  run->add_flag("!--no-optimum", ro->optimum, "Skip the certified U*");
  run->add_option("--optimum-iterations", ro->optimum_iterations, "Cap of the U* solver");
  run->callback([ro] { run_ev(*ro); });

  auto so = std::make_shared<ev_sensitivity_options>();
  auto* sens = ev->add_subcommand("sensitivity", "Δ: paper bound, tight value, search");
  sens->add_option("--delta-r", so->delta_r, "δr");
  sens->add_option("--delta-e", so->delta_e, "δE");
  sens->add_option("--horizon", so->horizon, "T")->check(CLI::PositiveNumber);
  sens->add_option("--search-horizon", so->search_horizon, "T of the worst-case search")
      ->check(CLI::PositiveNumber);
  sens->add_option("--restarts", so->restarts, "Search restarts")->check(CLI::PositiveNumber);
  sens->add_option("--steps", so->steps, "Search steps per restart")->check(CLI::PositiveNumber);
  sens->add_option("--seed", so->seed, "Search seed");
  sens->callback([so] { run_sensitivity(*so); });
  auto yo = std::make_shared<ev_study_options>();
  auto* study = ev->add_subcommand("study", "The study of ev §VII (Figures 1-4): JSON (+ PNG)");
  study->add_option("--mode", yo->mode, "Sweeps: grouped (N groups, ev §VII) | per-user")
      ->check(CLI::IsMember({"grouped", "per-user"}))
      ->capture_default_str();
  study->add_option("--fig1-mode", yo->fig1_mode, "Figure 1 and reference point mode")
      ->check(CLI::IsMember({"grouped", "per-user"}))
      ->capture_default_str();
  study->add_option("--users", yo->users, "n")->check(CLI::PositiveNumber)->capture_default_str();
  study->add_option("--groups", yo->groups, "N (grouped mode)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  study->add_option("--households", yo->households, "m")->capture_default_str();
  study->add_option("--units", yo->units, "Units of U: household (lambda = m), paper (lambda = 1)")
      ->delimiter(',')
      ->capture_default_str();
  study->add_option("--runs", yo->cfg.runs, "Runs per point (>= 2)")->capture_default_str();
  study
      ->add_option("--reference-runs", yo->reference_runs,
                   "Runs of the per-user vs grouped comparison (0: skip)")
      ->capture_default_str();
  study->add_option("--seed", yo->cfg.seed, "Seed (specs and runs)")->capture_default_str();
  study->add_option("--threads", yo->cfg.threads, "Threads (runs split over them)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  study->add_option("--c", yo->cfg.c_ref, "c of Figs. 1, 3, 4")->capture_default_str();
  study->add_option("-K", yo->cfg.K_ref, "K of Figs. 1, 2")->capture_default_str();
  study->add_option("--epsilon", yo->cfg.eps_ref, "eps of Figs. 1-3")->capture_default_str();
  study->add_option("--c-list", yo->cfg.c_list, "Fig. 2 grid")->delimiter(',');
  study->add_option("--K-list", yo->cfg.K_list, "Fig. 3 grid")->delimiter(',');
  study->add_option("--eps-list", yo->cfg.eps_list, "Fig. 4 grid")->delimiter(',');
  study->add_option("--K-opt-list", yo->cfg.K_opt_list, "Fig. 4: K grid optimised per eps")
      ->delimiter(',');
  study->add_option("--figures", yo->figures, "Subset of 1,2,3,4")->capture_default_str();
  study->add_option("--base-load", yo->base_load, "CSV base load (default: taylor profile)");
  study->add_option("--out", yo->out, "JSON output file (default: stdout)");
  study->add_option("--png-dir", yo->png_dir, "Also write PNG plots there (needs --out)");
  study->add_option("--python", yo->python, "Python with matplotlib")->capture_default_str();
  study->add_option("--script", yo->script, "Plot script (default scripts/ev_study_plots.py)");
  study->callback([yo] { run_study_command(*yo); });
}

static const command_registrar ev_registrar(register_ev_command);

}  // namespace dpref::cli

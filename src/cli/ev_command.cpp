// `dpref ev run|sensitivity`: ev Algorithm 2 (or 1) on the EV-charging problem of ev §VII with
// JSON output (objective trace, relative suboptimality against a certified U*, privacy ledger),
// and the projection sensitivity (paper bound, tight value, worst-case search). spec/ev.md.
#include <fmt/core.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "dpref/algorithms/ev/data.hpp"
#include "dpref/algorithms/ev/optimum.hpp"
#include "dpref/algorithms/ev/private_projected_gradient.hpp"
#include "dpref/algorithms/ev/projected_gradient.hpp"
#include "dpref/algorithms/ev/sensitivity.hpp"

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

/// The shipped real profile (scripts/ev_base_load.sh): cwd-relative, then source-relative.
std::string default_base_load() {
  const std::filesystem::path rel = "data/ev/base_load_taylor.csv";
  if (std::filesystem::exists(rel)) return rel.string();
  const auto src = std::filesystem::path(__FILE__).parent_path() / "../.." / rel;
  if (std::filesystem::exists(src)) return src.string();
  throw std::invalid_argument(
      "dpref ev: --base-load not given and data/ev/base_load_taylor.csv not found");
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
  const ev::charging_problem<double> prob(d, o.households, std::move(specs));
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
    res = ev::run(prob, p, stream);
  } else {
    ev::projected_gradient_params<double> p;
    p.iterations = o.iterations;
    p.step = o.step;
    p.constant_step = false;
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

}  // namespace

void register_ev_command(CLI::App& app) {
  auto* ev = app.add_subcommand("ev",
                                "EV charging (ev paper): private distributed projected "
                                "gradient, sensitivity");
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
}

static const command_registrar ev_registrar(register_ev_command);

}  // namespace dpref::cli

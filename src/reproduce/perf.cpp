// Performance rows of `dpref reproduce` (spec/reproduce.md REPRO.PERF): ev throughput
// (users·iterations/s), dda and accel iterations/s, each as a ratio measured in the same run
// (ev: 2 threads vs 1 thread, bytes identical; dda and accel: double vs mp50). The papers run
// through their run_json entry points (src/papers/papers.hpp) on the shipped examples. The PLD
// rows (spec/accounting_pld.md ACC.PLD.ADAPTIVE) time the certified PLD accountant at default
// options on the eight DP-SGD configurations against dp_accounting's recorded ε and time
// (bench/data/dp_accounting_pld.json; dp_accounting cannot run here), with the load average.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "dpref/accounting/accountant.hpp"

#include "dpref/io/json.hpp"
#include "dpref/io/precision.hpp"
#include "papers/papers.hpp"
#include "reproduce/claims.hpp"

namespace dpref::reproduce {
namespace {

const conformance::paper_runner& runner(const std::string& name) {
  for (const auto& r : papers::runners())
    if (r.name == name) return r;
  throw std::logic_error("dpref reproduce: no runner for " + name);
}

io::json example(const options& o, const std::string& paper) {
  const std::string path = o.source_dir + "/examples/" + paper + ".json";
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("example configuration not found: " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return io::json::parse(ss.str());
}

/// Runs the configuration `reps` times at precision p; returns (seconds per run, result).
std::pair<double, io::json> timed(const std::string& paper, const io::json& cfg,
                                  const std::string& precision, int reps) {
  const auto doc = io::document::parse(cfg.dump(), "dpref reproduce (" + paper + ")");
  const auto p = io::parse_precision(precision);
  io::json res;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) res = runner(paper).run(doc, p);
  return {since(t0) / reps, res};
}

void ev_throughput(const options& o, results& out) {
  auto cfg = example(o, "ev");
  const long long users = o.quick ? 5000 : 100000;
  cfg["problem"]["mode"] = "per_user";
  cfg["problem"]["users"] = users;
  cfg["problem"].erase("groups");  // HARD.APPLIES: grouped mode only
  cfg["params"]["optimum"] = false;
  cfg["params"].erase("optimum_max_iterations");  // apply only with the optimum
  cfg["params"].erase("optimum_relative_gap");
  cfg["params"]["threads"] = 1;
  const auto [t1, r1] = timed("ev", cfg, "double", o.quick ? 2 : 3);
  cfg["params"]["threads"] = 2;
  const auto [t2, r2] = timed("ev", cfg, "double", o.quick ? 2 : 3);
  const double K = r1["iterations"].get<double>();
  const double v1 = static_cast<double>(users) * K / t1, v2 = static_cast<double>(users) * K / t2;
  out.perf.push_back({"ev Algorithm 2 throughput (per user, T = 52)", "users*iterations/s", v2,
                      "1 thread, same run (2 threads measured)", v1, v2 / v1,
                      std::string("n = ") + std::to_string(users) + ", K = " + fmt(K) +
                          "; released bytes identical across threads: " +
                          (r1["iterates"] == r2["iterates"] ? "yes" : "NO"),
                      t1 + t2});
}

void iterations_per_second(const options& o, results& out, const std::string& paper) {
  auto cfg = example(o, paper);
  if (paper == "dda") {
    cfg["params"]["optimum"] = false;
    cfg["params"]["iterations"] = o.quick ? 300 : 3000;
  } else {
    cfg["params"]["algorithm"] = "nag";  // T = iterations (the -opt variants stop at T')
    cfg["params"].erase("E0");           // HARD.APPLIES: the -opt variants only
    cfg["params"]["trace"] = false;
    cfg["params"]["iterations"] = o.quick ? 200 : 2000;
  }
  const auto [td, rd] = timed(paper, cfg, "double", 3);
  const auto [tm, rm] = timed(paper, cfg, "mp50", 1);
  const double it = rd["iterations"].get<double>();
  out.perf.push_back({paper + " " + rd["algorithm"].get<std::string>() + " iterations/s",
                      "iterations/s", it / td, "mp50 (50 digits), same configuration", it / tm,
                      tm / td, "examples/" + paper + ".json, " + fmt(it) + " iterations", td + tm});
}

/// The 1-minute load average ("?" if unknown).
std::string load1() {
  double l[1];
  return ::getloadavg(l, 1) == 1 ? fmt(l[0]) : std::string("?");
}

void pld_vs_dp_accounting(const options& o, results& out) {
  const std::string path = o.source_dir + "/bench/data/dp_accounting_pld.json";
  std::ifstream f(path);
  if (o.source_dir.empty() || !f) {
    out.perf.push_back({"PLD accountant vs dp_accounting (recorded)", "queries/s", NAN,
                        "dp_accounting 0.6 PLD (recorded)", NAN, NAN,
                        "absent: the recorded values " + path + " are not readable", 0});
    return;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  const io::json rec = io::json::parse(ss.str());
  const double delta = rec["delta"].get<double>();
  const int reps = o.quick ? 3 : 7;
  for (const auto& r : rec["rows"]) {
    const double q = r["q"].get<double>(), sigma = r["sigma"].get<double>();
    const auto steps = r["steps"].get<long long>();
    accounting::event<double> e =
        accounting::make_event<double>(accounting::gaussian_mechanism<double>{1.0, sigma}, steps);
    if (q < 1) {
      accounting::subsampling<double> smp;
      smp.rate = q;
      e.sampling = smp;
    }
    accounting::accounting_options<double> opt;  // defaults: adaptive interval, work bounds
    opt.method = accounting::accounting_method::pld;
    opt.delta = delta;
    std::vector<double> times;
    double eps = 0;
    const std::string load_before = load1();
    for (int i = 0; i < reps; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      eps = accounting::account<double>({e}, opt).epsilon;
      times.push_back(since(t0));
    }
    std::sort(times.begin(), times.end());
    const double t = times[times.size() / 2];
    const double dp_eps = r["epsilon"].get<double>(), dp_t = r["seconds"].get<double>();
    const double rel = eps / dp_eps - 1;
    double total = 0;
    for (const double x : times) total += x;
    out.perf.push_back({"PLD (q " + fmt(q) + ", sigma " + fmt(sigma) + ", " +
                            fmt(static_cast<double>(steps)) + " steps), delta " + fmt(delta),
                        "queries/s", 1 / t,
                        "dp_accounting 0.6 PLD, pessimistic, interval 1e-4 (recorded " +
                            r["seconds"].dump() + " s, load " + r["load1"].dump() + ")",
                        1 / dp_t, dp_t / t,
                        "eps " + std::to_string(eps) + " vs dp_accounting " +
                            std::to_string(dp_eps) + " (" + (rel >= 0 ? "+" : "") + fmt(100 * rel) +
                            " %); dpref median of " + std::to_string(reps) + " runs " +
                            fmt(t * 1e3) + " ms; load " + load_before + " -> " + load1() +
                            "; recorded " + rec["date"].get<std::string>() +
                            " (bench/data/dp_accounting_pld.json)",
                        total});
  }
}

}  // namespace

std::vector<job> perf_jobs() {
  return {{"perf", "ev throughput", true, ev_throughput},
          {"perf", "dda iterations/s", true,
           [](const options& o, results& r) { iterations_per_second(o, r, "dda"); }},
          {"perf", "accel iterations/s", true,
           [](const options& o, results& r) { iterations_per_second(o, r, "accel"); }},
          {"perf", "PLD vs dp_accounting", true, pld_vs_dp_accounting}};
}

}  // namespace dpref::reproduce

// `dpref audit <mechanism>`: runs the statistical DP auditor (spec/audit.md) on one mechanism
// calibrated to --epsilon (and --delta), audited against that claim. Prints ε_lb, the verdict,
// the chosen event and its counts (JSON with --json).
#include <fmt/core.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/negative_controls.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/mechanisms/above_threshold.hpp"
#include "dpref/mechanisms/exponential.hpp"
#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/random/secure/snapping.hpp"
#include "world.hpp"

namespace dpref::cli {
namespace {

struct audit_options {
  std::string mechanism;
  double epsilon = 1;
  double delta = 1e-3;
  std::uint64_t samples = 1u << 20;
  std::uint64_t seed = 20261121;
  double alpha = 1e-6;
  unsigned threads = 0;
  std::size_t dim = 2;
  std::size_t candidates = 10;
  bool json = false;
};

const std::vector<std::string>& mechanism_names() {
  static const std::vector<std::string> names = {
      "laplace",          "laplace-fast",          "gaussian",        "vector-laplace",
      "exponential",      "above-threshold",       "snapped-laplace", "laplace-half-scale",
      "textbook-laplace", "svt-no-threshold-noise"};
  return names;
}

double identity(double y) { return y; }

std::vector<audit::event_family<double>> scalar_families(double scale, bool lowbits) {
  std::vector<audit::event_family<double>> f = {
      audit::threshold_family<double>("threshold", identity, -8 * scale, 9 * scale, 136)};
  if (lowbits) f.push_back(audit::lowbits_family<double>("low-order bits", identity, {-40, 4, 52}));
  return f;
}

audit::audit_report run(const audit_options& o, std::string& sampler) {
  audit::audit_config cfg;
  cfg.seed = o.seed;
  cfg.search_samples = cfg.test_samples = o.samples;
  cfg.alpha = o.alpha;
  cfg.epsilon = o.epsilon;
  cfg.delta = 0;
  cfg.threads = o.threads;
  cfg.comm = &world();  // mpirun: the samples are split over the ranks, counts summed exactly
  const double sens = 1;
  const std::string& m = o.mechanism;
  if (m == "laplace" || m == "laplace-fast" || m == "laplace-half-scale") {
    double b = accounting::laplace_scale(sens, o.epsilon);
    if (m == "laplace-half-scale") b /= 2;
    sampler = m == "laplace-fast" ? "dpref::fast::laplace" : "dpref::laplace<double>";
    const bool fast = m == "laplace-fast";
    const auto mech = [b, fast](const double& x, philox_stream& s) {
      return fast ? mechanisms::laplace_mechanism_fast(s, x, b)
                  : mechanisms::laplace_mechanism<double>(s, x, b);
    };
    return audit::run_audit<double, double>(mech, audit::scalar_pairs(sens),
                                            scalar_families(b, false), cfg);
  }
  if (m == "textbook-laplace" || m == "snapped-laplace") {
    const double b = accounting::laplace_scale(sens, o.epsilon);
    const bool snapped = m == "snapped-laplace";
    const int k = static_cast<int>(std::floor(std::log2(b))) - 10;
    if (snapped) cfg.epsilon = accounting::snapped_laplace_privacy(sens, b, k).eps;
    sampler = snapped ? "dpref::secure::snapped_laplace (grid 2^" + std::to_string(k) + ")"
                      : "textbook x - b sgn(u) ln(1 - 2|u|) in double";
    const auto mech = [b, k, snapped](const double& x, philox_stream& s) {
      return snapped ? secure::snapped_laplace(s, x, b, k) : audit::textbook_laplace(s, x, b);
    };
    return audit::run_audit<double, double>(mech, audit::scalar_pairs(sens),
                                            scalar_families(b, true), cfg);
  }
  if (m == "gaussian") {
    cfg.delta = o.delta;
    const double sigma = accounting::analytic_gaussian_sigma(sens, o.epsilon, o.delta);
    sampler = "dpref::gaussian<double>, analytic sigma = " + fmt::format("{:.6g}", sigma);
    const auto mech = [sigma](const double& x, philox_stream& s) {
      return mechanisms::gaussian_mechanism<double>(s, x, sigma);
    };
    return audit::run_audit<double, double>(mech, audit::scalar_pairs(sens),
                                            scalar_families(sigma, false), cfg);
  }
  if (m == "vector-laplace") {
    using vec = Eigen::VectorXd;
    const double b = accounting::laplace_scale(sens, o.epsilon);
    sampler = "dpref::vector_laplace<double>, d = " + std::to_string(o.dim);
    const auto mech = [b](const vec& x, philox_stream& s) {
      return mechanisms::vector_laplace_mechanism<double>(s, x, b);
    };
    const auto fams = [](const audit::neighbour_pair<vec>& p) {
      const vec a = p.first, c = p.second;
      const double d = (c - a).norm();
      return std::vector<audit::event_family<vec>>{audit::threshold_family<vec>(
          "likelihood-ratio statistic",
          [a, c](const vec& y) { return (y - c).norm() - (y - a).norm(); }, -d, d, 100)};
    };
    return audit::run_audit_per_pair<vec, vec>(mech, audit::vector_pairs(o.dim, sens), fams, cfg);
  }
  if (m == "exponential") {
    sampler =
        "exact rejection (secure::uniform_int + bernoulli), m = " + std::to_string(o.candidates);
    const double eps = o.epsilon;
    const auto mech = [eps, sens](const std::vector<double>& u, philox_stream& s) {
      return mechanisms::exponential_mechanism<double>(s, std::span<const double>(u), eps, sens);
    };
    const std::size_t mc = o.candidates;
    return audit::run_audit<std::vector<double>, std::size_t>(
        mech, audit::utility_pairs(mc, sens),
        {audit::index_family<std::size_t>(
            "candidate", [](std::size_t i) { return i; }, mc, false)},
        cfg);
  }
  // sparse vector: AboveThreshold (linesearch Algorithm 1) or a broken variant
  constexpr std::size_t k = 8;
  const bool broken = m == "svt-no-threshold-noise";
  const auto [b1, b2] = mechanisms::above_threshold_laplace_scales(sens, o.epsilon);
  if (!broken) cfg.epsilon = accounting::svt_laplace_privacy(sens, b1, b2).eps;
  sampler = broken ? "sparse vector without threshold noise (NOT private)"
                   : "AboveThreshold, Laplace noise, max_it = 8";
  const double eps = o.epsilon;
  const auto mech = [=](const std::vector<double>& q, philox_stream& s) -> std::size_t {
    if (broken) {
      const auto t = audit::sparse_vector(s, std::span<const double>(q), 0.0, sens, eps, 1,
                                          audit::svt_variant::no_threshold_noise);
      return t.answers == 0 ? k : static_cast<std::size_t>(std::countr_zero(t.answers));
    }
    const auto r = mechanisms::above_threshold<double>(s, std::span<const double>(q), 0.0,
                                                       mechanisms::svt_noise::laplace, b1, b2);
    return r.found ? r.index : k;
  };
  return audit::run_audit<std::vector<double>, std::size_t>(
      mech, audit::query_pairs(k, sens),
      {audit::index_family<std::size_t>(
          "first TOP", [](std::size_t i) { return i; }, k + 1, true,
          [](std::size_t j) { return j == k ? std::string("fail") : std::to_string(j); })},
      cfg);
}

void print_report(const audit_options& o, const audit::audit_report& r,
                  const std::string& sampler) {
  const auto& w = r.worst_pair();
  if (o.json) {
    nlohmann::json j;
    j["mechanism"] = o.mechanism;
    j["sampler"] = sampler;
    j["epsilon_claimed"] = r.epsilon;
    j["delta_claimed"] = r.delta;
    j["epsilon_lower_bound"] =
        std::isfinite(r.eps_lb) ? nlohmann::json(r.eps_lb) : nlohmann::json();
    j["verdict"] = r.violation ? "violation" : "no violation";
    j["alpha"] = r.alpha;
    j["seed"] = o.seed;
    j["samples_per_side"] = {{"search", o.samples}, {"test", o.samples}};
    nlohmann::json pairs = nlohmann::json::array();
    for (const auto& p : r.pairs)
      pairs.push_back(
          {{"pair", p.pair},
           {"event", p.event.description},
           {"direction", p.event.swapped ? "P[M(D')∈S] / P[M(D)∈S]" : "P[M(D)∈S] / P[M(D')∈S]"},
           {"count_numerator", p.count_num},
           {"count_denominator", p.count_den},
           {"test_samples", p.n},
           {"p_lower", p.p_lower},
           {"p_upper", p.p_upper},
           {"epsilon_lower_bound",
            std::isfinite(p.eps_lb) ? nlohmann::json(p.eps_lb) : nlohmann::json()},
           {"violation", p.violation}});
    j["pairs"] = pairs;
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

/// Prints the report on rank 0, the time on stderr (identical runs give identical output), and
/// throws audit_violation (exit code 5) when the audit found a violation.
void run_audit_command(const audit_options& o) {
  // test hook of spec/distributed.md DIST.ABORT: this rank fails while the others sample
  if (const char* f = std::getenv("DPREF_TEST_FAIL_RANK");
      f && world().size() > 1 && std::to_string(world().rank()) == f)
    throw std::runtime_error("injected failure (DPREF_TEST_FAIL_RANK=" + std::string(f) + ")");
  std::string sampler;
  const audit::audit_report r = run(o, sampler);
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
      ->check(CLI::IsMember(mechanism_names()));
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

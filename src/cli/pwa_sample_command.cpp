// `dpref pwa sample`: samples of the continuous exponential mechanism M_E (pwa Theorem 19) on a
// generated instance (pwa §5.1: i.i.d. N(0, 1) pieces), by an exact sampler (rejection,
// envelope, inverse-cdf for d = 1) or the paper's approximate Metropolis chain; JSON with the
// samples, the method and its exactness and the privacy ledger; the acceptance counts (functions
// of the private b, not covered by the guarantee) only with --diagnostics (spec/privacy_bounds.md
// PRIV.RELEASE). spec/pwa_sampler.md (section CLI).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/pwa/pwa.hpp"
#include "flags.hpp"
#include "json_format.hpp"
#include "pwa_command.hpp"
#include "scalar_format.hpp"

namespace dpref::cli {

void register_pwa_sample_command(CLI::App& app);

namespace {

using json = nlohmann::json;

struct pwa_sample_options {
  std::string method = "rejection", precision = "double", f_lower = "lp";
  int m = 20, d = 2;
  std::string c = "1", bmax = "1", epsilon = "0.1", eta = "0.1";
  long long n = 1, steps = 5000, max_attempts = 100'000'000;
  bool diagnostics = false;
  std::uint64_t seed = 20261121, data_seed = 1;
  bool force = false;
};

/// Work bound of `pwa sample` (HARD.WORK): samples × (Metropolis steps, or 1) × m × d
/// multiply-adds of the objective, at most 1e10 without --force.
constexpr double max_sample_work = 1e10;

template <real_scalar Real>
void run_sample(const pwa_sample_options& o) {
  const Real c = parse_scalar<Real>(o.c, "--c"), bmax = parse_scalar<Real>(o.bmax, "--bmax");
  const Real eps = parse_scalar<Real>(o.epsilon, "--epsilon");
  const auto method = pwa::parse_me_method(o.method);
  // every flag checked before the instance is built (HARD.WORK: no allocation of an absurd d)
  pwa::problem_spec<Real> spec;
  spec.m = o.m;
  spec.d = o.d;
  spec.c = c;
  spec.bmax = bmax;
  spec.validate();  // m in [1, 1e5], d in [1, 1000], m·d <= 1e7, c, bmax
  const param_checker chk("pwa sample");
  chk.positive("epsilon", eps);
  chk.require(eps <= Real(1e6), "epsilon", "finite and in (0, 1e6]", eps);
  chk.at_least<long long>("samples", o.n, 1, 10000000);
  chk.at_least<long long>("steps", o.steps, 1, 10000000);
  chk.at_least<long long>("max_attempts", o.max_attempts, 1, 1000000000000LL);
  if (o.f_lower != "lp" && o.f_lower != "dual")
    throw std::invalid_argument("dpref pwa sample: --f-lower must be lp or dual, got '" +
                                o.f_lower + "'");
  const double work = static_cast<double>(o.n) *
                      (method == pwa::me_method::metropolis ? static_cast<double>(o.steps) : 1.0) *
                      static_cast<double>(o.m) * static_cast<double>(o.d);
  if (!o.force && work > max_sample_work)
    chk.fail("samples",
             "such that samples × (steps with metropolis) × m × d <= 1e10, or give --force "
             "(work " +
                 std::to_string(static_cast<long long>(work)) + ")",
             o.n);
  const auto F = pwa::gaussian_instance<Real>(o.data_seed, o.m, o.d, c, bmax);
  pwa::me_config<Real> cfg;
  cfg.max_attempts = o.max_attempts;
  cfg.metropolis_steps = o.steps;
  cfg.metropolis_eta = parse_scalar<Real>(o.eta, "--eta");
  if (o.f_lower == "lp")
    cfg.f_lower = pwa::lp_lower_bound(F);
  else if (o.f_lower != "dual")
    throw std::invalid_argument("dpref pwa sample: --f-lower must be lp or dual, got '" +
                                o.f_lower + "'");
  const pwa::exponential_mechanism<Real> M(F, eps, cfg);
  // Bounded work: the samples are held in memory (each is d reals) and each costs epsilon.
  if (o.n > 10'000'000)
    throw std::invalid_argument("dpref pwa sample: --samples must be <= 10000000, got " +
                                std::to_string(o.n));
  const auto r = M.sample(philox_stream(o.seed), method, o.n);
  json out;
  out["command"] = "pwa sample";
  out["precision"] = scalar_name<Real>();
  out["instance"] = {{"m", o.m},
                     {"d", o.d},
                     {"c", num(c)},
                     {"bmax", num(bmax)},
                     {"source", "gaussian (pwa 5.1), data seed " + std::to_string(o.data_seed)}};
  out["method"] = pwa::to_string(method);
  out["exactness"] = r.exactness == pwa::me_exactness::exact ? "exact" : "approximate";
  out["epsilon"] = num(eps);
  out["seed"] = o.seed;
  if (method == pwa::me_method::metropolis)
    out["metropolis"] = {{"steps", o.steps},
                         {"eta", num(cfg.metropolis_eta)},
                         {"covariance", "eta * c * I (pwa 5.1)"},
                         {"start", "origin"}};
  json xs = json::array();
  for (const auto& x : r.samples) {
    json v = json::array();
    for (Eigen::Index j = 0; j < x.size(); ++j) v.push_back(num(x[j]));
    xs.push_back(v);
  }
  out["samples"] = xs;
  out["f_lower"] = o.f_lower == "lp" ? "LP dual certificate minus rounding slack"
                                     : "dual bound without LP (d = 1: segment minimum)";
  if (o.diagnostics)  // PRIV.RELEASE: the counts depend on b, printed only when asked
    out["diagnostics"] = {{"attempts", r.counts.attempts},
                          {"accepted", r.counts.accepted},
                          {"acceptance_rate", r.counts.acceptance_rate()},
                          {"note",
                           "attempts and acceptance rate depend on the private b: NOT covered by "
                           "the privacy guarantee of the samples"}};
  // the typed ledger (the input of `dpref account`) and its certified total; the approximate
  // Metropolis path has no event and no guarantee
  json ledger = json::parse(accounting::ledger_value(r.ledger).dump());
  ledger["total"] = r.certified ? json::parse(accounting::guarantee_value(r.ledger.total()).dump())
                                : json(nullptr);
  ledger["certified"] = r.certified;
  ledger["guarantee"] = r.guarantee;
  out["ledger"] = ledger;
  std::cout << out.dump(2) << "\n";
}

}  // namespace

void register_pwa_sample_command(CLI::App& app) {
  auto o = std::make_shared<pwa_sample_options>();
  auto* cmd = pwa_group(app)->add_subcommand(
      "sample", "Samples of the exponential mechanism M_E (pwa Theorem 19) as JSON");
  cmd->add_option("--method", o->method, "rejection | envelope | inverse-cdf (d = 1) | metropolis")
      ->capture_default_str();
  cmd->add_option("--precision", o->precision, "double | mp50")->capture_default_str();
  cmd->add_option("--m", o->m, "pieces of the generated instance")->capture_default_str();
  cmd->add_option("--d", o->d, "dimension")->capture_default_str();
  cmd->add_option("--c", o->c, "box half-width c")->capture_default_str();
  cmd->add_option("--bmax", o->bmax, "neighbouring distance bmax of pwa (4)")
      ->capture_default_str();
  cmd->add_option("--epsilon", o->epsilon, "privacy budget per sample")->capture_default_str();
  cmd->add_option("-n,--samples", o->n, "number of samples, 1 to 10^7 (each costs epsilon)")
      ->capture_default_str();
  cmd->add_option("--f-lower", o->f_lower,
                  "rejection sampler's lower bound: lp (exact LP) | dual (no LP)")
      ->capture_default_str();
  cmd->add_option("--max-attempts", o->max_attempts, "proposals per sample before giving up")
      ->capture_default_str();
  cmd->add_option("--steps", o->steps, "Metropolis steps (pwa: 5000)")->capture_default_str();
  cmd->add_flag("--diagnostics", o->diagnostics,
                "also print the proposal counts (functions of the private b: NOT covered by the "
                "privacy guarantee)");
  cmd->add_option("--eta", o->eta, "Metropolis covariance eta * c * I (pwa: 0.1)")
      ->capture_default_str();
  cmd->add_flag("--force", o->force,
                "run even when samples × (steps) × m × d exceeds 1e10 multiply-adds");
  cmd->add_option("--seed", o->seed, "noise seed")
      ->capture_default_str()
      ->check(unsigned_integer());
  cmd->add_option("--data-seed", o->data_seed, "seed of the generated instance")
      ->capture_default_str()
      ->check(unsigned_integer());
  cmd->callback([o] {
    if (o->precision == "double")
      run_sample<double>(*o);
    else if (o->precision == "mp50")
      run_sample<mp50>(*o);
    else
      throw std::invalid_argument("dpref pwa sample: --precision must be double or mp50, got '" +
                                  o->precision + "'");
  });
}

static const command_registrar pwa_sample_registrar(register_pwa_sample_command);

}  // namespace dpref::cli

// `dpref linesearch mlp`: the small-network experiment of linesearch §5.7 (issue 7) — a
// one-hidden-layer ReLU MLP (problems::mlp_classifier, softmax cross-entropy, μ = 0.001 on all
// parameters, pixels in [−1, 1]) trained on Fashion-MNIST by DP-BLSGD and DP-SGD at the same
// per-iteration budget ρ_iter: DP-SGD adds N(0, C²/(2ρ_iter)) to the clipped sum; DP-BLSGD spends
// 90% of ρ_iter on the gradient and 10% on the Gaussian NOISYBTLS, which returns β^max_it·η0
// instead of 0 (no failed search, so no CHEB / budget increase). q = 1/200, C_grad = C_obj = 3,
// α = 0.001, β = 0.8, DP-SGD η = 0.2 (§5.4). Both start from the same random, data-independent
// w_0. JSON: per checkpoint the training objective F(w) (full training set, or its first
// --objective-rows examples), test accuracy and the last selected step; the accountant's
// certified (ε, δ) per algorithm. spec/linesearch.md LS.MLP (section "MLP (§5.7)").
#include <chrono>
#include <cmath>
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
#include "dpref/accounting/conversion.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "dpref/problems/mlp.hpp"
#include "dpref/random/uniform.hpp"
#include "json_format.hpp"

namespace dpref::cli {

CLI::App* linesearch_group(CLI::App& app);  // linesearch_command.cpp
void register_linesearch_mlp_command(CLI::App& app);

namespace {

using json = nlohmann::json;
namespace ls = dpref::linesearch;
using problems::mlp_classifier;
using clock_type = std::chrono::steady_clock;

struct mlp_options {
  std::string data_dir = "data/real/fashion-mnist";
  long long synthetic_n = 0, synthetic_d = 16;  // > 0: synthetic 10-class data (CI smoke test)
  long long hidden = 256, iterations = 1000, eval_every = 50, early_until = 100, early_every = 10;
  long long max_train = 0, max_test = 0, objective_rows = 0;
  double rho_iter = 0, eps = 0, delta = 1e-5, q = 1.0 / 200, C_grad = 3, C_obj = 3;
  double alpha = 0.001, beta = 0.8, eta0 = 1, sgd_eta = 0.2, mu = 0.001, ls_share = 0.1;
  long max_it = 20;
  int max_order = 500;
  std::string algorithms = "blsgd,dpsgd", svt_bound = "proven", out, png_dir;
  std::string python = "/usr/bin/python3", plot_script = "scripts/linesearch_mlp_plots.py";
  std::uint64_t seed = 20261122;
};

/// Synthetic 10-class data in [−1, 1]^d: class centres uniform in [−1/2, 1/2]^d, inputs the
/// centre plus uniform noise of half-width 1/2 (CI smoke test only).
std::pair<mlp_classifier<double>, mlp_classifier<double>> synthetic_data(const mlp_options& o) {
  philox_stream s(o.seed ^ 0x5EEDull, 0x717);
  const Eigen::Index d = o.synthetic_d;
  matrix<double> centres(d, 10);
  for (Eigen::Index j = 0; j < centres.size(); ++j) centres.data()[j] = uniform01<double>(s) - 0.5;
  const auto make = [&](long long n) {
    matrix<double> X(d, n);
    std::vector<int> y(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
      const int c = static_cast<int>(uniform01<double>(s) * 10.0) % 10;
      y[static_cast<std::size_t>(i)] = c;
      for (Eigen::Index j = 0; j < d; ++j) X(j, i) = centres(j, c) + uniform01<double>(s) - 0.5;
    }
    return mlp_classifier<double>(std::move(X), std::move(y), o.hidden, 10, o.mu);
  };
  auto train = make(o.synthetic_n);
  auto test = make(std::max<long long>(o.synthetic_n / 4, 10));
  return {std::move(train), std::move(test)};
}

std::pair<mlp_classifier<double>, mlp_classifier<double>> load_data(const mlp_options& o) {
  if (o.synthetic_n > 0) return synthetic_data(o);
  namespace fs = std::filesystem;
  const fs::path dir(o.data_dir);
  for (const char* f : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                        "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"})
    if (!fs::exists(dir / f))
      throw std::invalid_argument("dpref linesearch mlp: --data-dir '" + o.data_dir + "' lacks " +
                                  f + " (run scripts/real_data.sh, or use --synthetic-n)");
  auto train = problems::mlp_from_idx<double>((dir / "train-images-idx3-ubyte").string(),
                                              (dir / "train-labels-idx1-ubyte").string(), o.hidden,
                                              o.max_train, o.mu);
  auto test = problems::mlp_from_idx<double>((dir / "t10k-images-idx3-ubyte").string(),
                                             (dir / "t10k-labels-idx1-ubyte").string(), o.hidden,
                                             o.max_test, o.mu);
  return {std::move(train), std::move(test)};
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) v.push_back(item);
  return v;
}

/// Checkpoints: every eval_every iterations, the last one, and every early_every up to
/// early_until (the early phase of "high accuracy in fewer iterations").
bool is_checkpoint(const mlp_options& o, long long t) {
  return t % o.eval_every == 0 || t == o.iterations ||
         (o.early_every > 0 && t <= o.early_until && t % o.early_every == 0);
}

json guarantee_json(const accounting::rdp_curve<double>& spent, double delta) {
  const auto g = accounting::rdp_to_dp(spent, delta).guarantee;
  return {{"eps", g.eps}, {"delta", g.delta}};
}

/// Runs one algorithm with evaluation checkpoints every eval_every iterations (and at 0, T).
json run_one(const std::string& algo, const mlp_options& o, const mlp_classifier<double>& train,
             const mlp_classifier<double>& objective_set, const mlp_classifier<double>& test,
             const vector<double>& w0, double rho_iter) {
  json checkpoints = json::array();
  double eval_seconds = 0;
  long long updates = 0;  // updates seen by the observer
  const auto t_start = clock_type::now();
  const auto checkpoint = [&](long long t, const vector<double>& w) {
    const auto e0 = clock_type::now();
    const double obj = objective_set.value(w), acc = test.accuracy(w);
    eval_seconds += std::chrono::duration<double>(clock_type::now() - e0).count();
    const double elapsed = std::chrono::duration<double>(clock_type::now() - t_start).count();
    const double wsq = w.squaredNorm();
    checkpoints.push_back({{"iteration", t},
                           {"objective", obj},
                           {"cross_entropy", obj - o.mu * wsq / 2},  // F(w) − (μ/2)‖w‖²
                           {"w_squared_norm", wsq},
                           {"test_accuracy", acc},
                           {"updates", updates},
                           {"train_seconds", elapsed - eval_seconds}});
    std::fprintf(stderr,
                 "[linesearch mlp] %s t=%lld objective=%.4f cross_entropy=%.4f test_acc=%.4f\n",
                 algo.c_str(), t, obj, obj - o.mu * wsq / 2, acc);
  };
  checkpoint(0, w0);
  const philox_stream stream(o.seed, algo == "blsgd" ? 1 : 2);
  ls::result<double> r;
  json extra;
  if (algo == "blsgd") {
    ls::params<double> p;
    p.eps = 1e6;  // no halting: the run length is --iterations; ε is certified afterwards
    p.delta = o.delta;
    p.max_order = o.max_order;
    p.q = o.q;
    p.C_grad = o.C_grad;
    p.C_obj = o.C_obj;
    p.eta0 = o.eta0;
    p.btls.alpha = o.alpha;
    p.btls.beta = o.beta;
    p.btls.max_it = o.max_it;
    p.btls.noise = ls::btls_noise::gaussian;
    p.btls.fallback_min_step = true;  // §5.7: β^max_it·η0 instead of 0
    p.strategy = ls::budget_strategy::none;
    p.rho_grad0 = (1 - o.ls_share) * rho_iter;
    p.ls_budget0 = o.ls_share * rho_iter;
    p.max_iterations = o.iterations;
    if (o.svt_bound == "paper")
      p.svt_bound = accounting::svt_bound::paper_eq4_5;
    else if (o.svt_bound != "proven")
      throw std::invalid_argument("dpref linesearch mlp: --svt-bound must be proven or paper");
    p.w0 = w0;
    p.observer = [&](long long t, const vector<double>& w) {
      ++updates;
      if (is_checkpoint(o, t)) checkpoint(t, w);
    };
    r = ls::dp_blsgd(train, p, stream);
    extra["rho_grad"] = p.rho_grad0;
    extra["rho_bt"] = p.ls_budget0;
    extra["gradient_sigma_over_C"] = 1 / std::sqrt(2 * p.rho_grad0);
    extra["btls_sigma1_sigma2_times_C_obj"] = {o.C_obj * std::sqrt(3 / (2 * p.ls_budget0)),
                                               o.C_obj * std::sqrt(3 / p.ls_budget0)};
    // What the paper's accounting (Theorem 3: (α, αρ_iter) per iteration) would certify for the
    // same calls: joint Lemma 4 of the base α·ρ_grad + α·ρ_BT over the iterations.
    if (r.calls.line_searches == r.calls.iterations && r.calls.cheb == 0) {
      auto pp = p;
      pp.svt_bound = accounting::svt_bound::paper_eq4_5;
      ls::detail::cost_model<double> model(pp, ls::batch_accounting::joint);
      const ls::detail::batch_state<double> empty;
      const auto g = ls::detail::propose(model, empty, model.tag('g', p.rho_grad0),
                                         model.gradient_base(p.rho_grad0));
      const auto l = ls::detail::propose(model, g.second, model.tag('l', p.ls_budget0),
                                         model.btls_base(p.ls_budget0));
      const auto per_iter = accounting::compose_rdp(g.first, l.first);
      const auto total = accounting::compose_rdp_steps(per_iter, r.calls.iterations);
      extra["paper_accounting_guarantee"] = guarantee_json(total, o.delta);
      extra["paper_accounting_guarantee_delta_1e-8"] = guarantee_json(total, 1e-8);
    }
  } else if (algo == "dpsgd") {
    ls::dp_sgd_params<double> p;
    p.delta = o.delta;
    p.max_order = o.max_order;
    p.q = o.q;
    p.C_grad = o.C_grad;
    p.eta = o.sgd_eta;
    p.T = o.iterations;
    p.noise_multiplier = 1 / std::sqrt(2 * rho_iter);  // σ = C/√(2ρ_iter)
    p.w0 = w0;
    p.observer = [&](long long t, const vector<double>& w) {
      ++updates;
      if (is_checkpoint(o, t)) checkpoint(t, w);
    };
    r = ls::dp_sgd(train, p, stream);
    extra["noise_multiplier"] = p.noise_multiplier;
    // The same steps amplified by Lemma 4 (Zhu–Wang) as DP-BLSGD is, for comparison.
    const auto orders = accounting::integer_orders<double>(2, o.max_order);
    accounting::rdp_curve<double> base{orders, {}};
    for (const double a : orders) base.eps.push_back(a * rho_iter);
    const auto zw = accounting::compose_rdp_steps(accounting::poisson_subsampled_rdp_zw(base, o.q),
                                                  o.iterations);
    extra["lemma4_accounting_guarantee"] = guarantee_json(zw, o.delta);
  } else {
    throw std::invalid_argument(
        "dpref linesearch mlp: --algorithms entries must be blsgd or dpsgd");
  }
  const double total = std::chrono::duration<double>(clock_type::now() - t_start).count();
  for (auto& c : checkpoints) {  // the step of the last update before the checkpoint
    const auto u = c["updates"].get<long long>();
    c["step"] = u < 1
                    ? json(nullptr)
                    : json(algo == "blsgd" ? r.steps[static_cast<std::size_t>(u - 1)] : o.sgd_eta);
  }
  json st = json::array();
  for (const double e : r.steps) st.push_back(e);
  json out;
  out["algorithm"] = algo;
  out["checkpoints"] = checkpoints;
  out["steps"] = algo == "blsgd" ? st : json(nullptr);
  out["calls"] = {{"iterations", r.calls.iterations},
                  {"updates", r.calls.updates},
                  {"gradients", r.calls.gradients},
                  {"line_searches", r.calls.line_searches},
                  {"cheb", r.calls.cheb},
                  {"objective_queries", r.calls.objective_queries}};
  out["guarantee"] = guarantee_json(r.spent, o.delta);
  out["guarantee_delta_1e-8"] = guarantee_json(r.spent, 1e-8);
  out["seconds_per_iteration"] =
      (total - eval_seconds) / static_cast<double>(std::max<long long>(1, r.calls.iterations));
  out["evaluation_seconds"] = eval_seconds;
  out["accounting"] = extra;
  json ev = json::array();
  for (const auto& e : r.ledger.events()) {
    json pj = json::object();
    for (const auto& [k, v] : e.params) pj[k] = v;
    ev.push_back({{"kind", e.kind}, {"count", e.count}, {"params", pj}});
  }
  out["ledger"] = ev;
  return out;
}

void run_mlp(const mlp_options& o) {
  if (!o.png_dir.empty() && o.out.empty())
    throw std::invalid_argument("dpref linesearch mlp: --png-dir needs --out");
  if (o.iterations < 1) throw std::invalid_argument("dpref linesearch mlp: --iterations >= 1");
  if (o.eval_every < 1) throw std::invalid_argument("dpref linesearch mlp: --eval-every >= 1");
  if (!(o.ls_share > 0 && o.ls_share < 1))
    throw std::invalid_argument("dpref linesearch mlp: --ls-share must be in (0, 1)");
  const auto [train, test] = load_data(o);
  double rho_iter = o.rho_iter;
  if (!(rho_iter > 0)) {  // calibrate: DP-SGD's T-step exact subsampled Gaussian RDP <= (ε, δ)
    if (!(o.eps > 0))
      throw std::invalid_argument("dpref linesearch mlp: give --rho-iter > 0 or --eps > 0");
    ls::dp_sgd_params<double> p;
    p.eps = o.eps;
    p.delta = o.delta;
    p.q = o.q;
    p.max_order = o.max_order;
    p.T = o.iterations;
    const double s = ls::dp_sgd_noise_multiplier(p);
    rho_iter = 1 / (2 * s * s);
  }
  std::unique_ptr<mlp_classifier<double>> objective_subset;
  if (o.objective_rows > 0 && o.objective_rows < train.size()) {
    std::vector<int> y(train.labels().begin(), train.labels().begin() + o.objective_rows);
    objective_subset = std::make_unique<mlp_classifier<double>>(
        train.features().leftCols(o.objective_rows), std::move(y), o.hidden, 10, o.mu);
  }
  const mlp_classifier<double>& objective_set = objective_subset ? *objective_subset : train;
  philox_stream init(o.seed, 0x1417);
  const vector<double> w0 = train.initial_point(init);
  json out;
  out["command"] = "dpref linesearch mlp";
  out["data"] = o.synthetic_n > 0 ? std::string("synthetic") : o.data_dir;
  out["n_train"] = train.size();
  out["n_test"] = test.size();
  out["input_dimension"] = train.input_dimension();
  out["hidden"] = o.hidden;
  out["parameters"] = train.dimension();
  out["activation"] = "relu";
  out["objective_on"] = objective_subset
                            ? "first " + std::to_string(o.objective_rows) + " training examples"
                            : std::string("full training set");
  out["settings"] = {{"q", o.q},
                     {"C_grad", o.C_grad},
                     {"C_obj", o.C_obj},
                     {"alpha", o.alpha},
                     {"beta", o.beta},
                     {"max_it", o.max_it},
                     {"eta0", o.eta0},
                     {"sgd_eta", o.sgd_eta},
                     {"mu", o.mu},
                     {"rho_iter", rho_iter},
                     {"ls_share", o.ls_share},
                     {"iterations", o.iterations},
                     {"delta", o.delta},
                     {"max_order", o.max_order},
                     {"svt_bound", o.svt_bound},
                     {"seed", o.seed},
                     {"eval_every", o.eval_every},
                     {"early_until", o.early_until},
                     {"early_every", o.early_every},
                     {"eps_calibration", o.rho_iter > 0 ? 0.0 : o.eps}};
  json runs = json::array();
  for (const auto& a : split_list(o.algorithms))
    runs.push_back(run_one(a, o, train, objective_set, test, w0, rho_iter));
  out["runs"] = runs;
  write_json_output(out, o.out, "dpref linesearch mlp");
  if (!o.png_dir.empty())
    run_plot_script(o.python, o.plot_script, o.out, o.png_dir, "dpref linesearch mlp");
}

}  // namespace

void register_linesearch_mlp_command(CLI::App& app) {
  auto o = std::make_shared<mlp_options>();
  auto* c = linesearch_group(app)->add_subcommand(
      "mlp", "Section 5.7: one-hidden-layer MLP on Fashion-MNIST, DP-BLSGD vs DP-SGD");
  c->add_option("--data-dir", o->data_dir, "directory with the four IDX files")
      ->capture_default_str();
  c->add_option("--synthetic-n", o->synthetic_n,
                "use synthetic 10-class data with this many training rows instead")
      ->capture_default_str();
  c->add_option("--synthetic-d", o->synthetic_d, "synthetic input dimension")
      ->capture_default_str();
  c->add_option("--hidden", o->hidden, "hidden width")
      ->capture_default_str()
      ->check(CLI::Range(1LL, 1000000LL));
  c->add_option("--iterations", o->iterations, "iterations T per algorithm")->capture_default_str();
  c->add_option("--rho-iter", o->rho_iter, "per-iteration budget rho_iter (> 0)");
  c->add_option("--eps", o->eps,
                "instead of --rho-iter: rho_iter = 1/(2 s^2) with s DP-SGD's calibrated noise "
                "multiplier for (eps, delta) after T iterations");
  c->add_option("--delta", o->delta, "delta of the reported guarantee")->capture_default_str();
  c->add_option("--q", o->q, "Poisson sampling ratio")->capture_default_str();
  c->add_option("--C-grad", o->C_grad, "gradient clipping threshold")->capture_default_str();
  c->add_option("--C-obj", o->C_obj, "objective clipping threshold")->capture_default_str();
  c->add_option("--alpha", o->alpha, "Armijo alpha")->capture_default_str();
  c->add_option("--beta", o->beta, "backtracking beta")->capture_default_str();
  c->add_option("--max-it", o->max_it, "NOISYBTLS max_it")->capture_default_str();
  c->add_option("--eta0", o->eta0, "initial step size of DP-BLSGD")->capture_default_str();
  c->add_option("--sgd-eta", o->sgd_eta, "DP-SGD step size")->capture_default_str();
  c->add_option("--mu", o->mu, "L2 regularisation")->capture_default_str();
  c->add_option("--ls-share", o->ls_share, "share of rho_iter for NOISYBTLS")
      ->capture_default_str();
  c->add_option("--max-order", o->max_order, "RDP orders 2..max-order")->capture_default_str();
  c->add_option("--svt-bound", o->svt_bound, "NOISYBTLS RDP: proven (default) | paper")
      ->capture_default_str();
  c->add_option("--eval-every", o->eval_every, "checkpoint period (iterations)")
      ->capture_default_str();
  c->add_option("--early-until", o->early_until, "also checkpoint every --early-every up to here")
      ->capture_default_str();
  c->add_option("--early-every", o->early_every, "early checkpoint period (0 = none)")
      ->capture_default_str();
  c->add_option("--objective-rows", o->objective_rows,
                "objective on the first N training rows (0 = full training set)")
      ->capture_default_str();
  c->add_option("--max-train", o->max_train, "first N training rows only (0 = all)")
      ->capture_default_str();
  c->add_option("--max-test", o->max_test, "first N test rows only (0 = all)")
      ->capture_default_str();
  c->add_option("--algorithms", o->algorithms, "blsgd,dpsgd")->capture_default_str();
  c->add_option("--seed", o->seed, "seed")->capture_default_str();
  c->add_option("--out", o->out, "JSON output file (default: stdout)");
  c->add_option("--png-dir", o->png_dir, "also write PNG plots there (needs --out)");
  c->add_option("--python", o->python, "Python with matplotlib")->capture_default_str();
  c->add_option("--plot-script", o->plot_script, "plotting script")->capture_default_str();
  c->callback([o] { run_mlp(*o); });
}

static const command_registrar linesearch_mlp_registrar(register_linesearch_mlp_command);

}  // namespace dpref::cli

// `dpref linesearch run`: one run of DP-BLSGD / DP-BLSGD-AC / DP-BLGD or a baseline (DP-SGD,
// DP-AGD, output / objective perturbation, non-private, majority) on a real data file or a
// synthetic problem; JSON with the objective, accuracy, counts, selected steps, ledger and the
// certified (ε, δ).
// `dpref linesearch study`: the data of the paper's Figures 1–4 (effect of α, β, noise type, q,
// budget strategy, ζ at ε ∈ {0.05, 0.2}; call counts vs q; accuracy and objective vs ε for all
// algorithms) with K-fold cross-validation × repetitions, JSON (+ PNG through
// scripts/linesearch_study_plots.py). spec/linesearch.md, section "CLI".
// The `linesearch` group is created by linesearch_group() so that other files
// (linesearch_mlp_command.cpp: `dpref linesearch mlp`) can add subcommands to it.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dpref/io/dataset.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "dpref/random/uniform.hpp"
#include "json_format.hpp"
#include "scalar_format.hpp"

namespace dpref::cli {

void register_linesearch_command(CLI::App& app);
CLI::App* linesearch_group(CLI::App& app);

/// The `linesearch` subcommand of `app`, created (with require_subcommand(1)) if absent; the
/// order of the command_registrars of different files is unspecified.
CLI::App* linesearch_group(CLI::App& app) {
  for (CLI::App* sc : app.get_subcommands([](CLI::App*) { return true; }))
    if (sc->get_name() == "linesearch") return sc;
  CLI::App* g = app.add_subcommand("linesearch", "DP backtracking line search (linesearch paper)");
  g->require_subcommand(1);
  return g;
}

namespace {

using json = nlohmann::json;
namespace ls = dpref::linesearch;

struct common_options {
  std::string data;        // CSV (label,features) or LIBSVM (.svm)
  long long max_rows = 0;  // keep every k-th row so that at most max_rows remain (0 = all)
  long long synth_n = 5000, synth_d = 10;
  std::string loss = "logistic";
  double mu = 0.001, eps = 0.2, delta = 1e-8, q = 0.1, alpha = 0.5, beta = 0.8, eta0 = 1;
  double xi = 0.3, zeta = 0.05, C_grad = 3, C_obj = 1, R = 0;
  long max_it = 20;
  int max_order = 500;
  std::string noise = "laplace", strategy = "adap", svt_bound = "proven",
              batch_accounting = "joint";
  double sgd_eta = 1;
  long long sgd_T = 50;
  std::uint64_t seed = 20261121;
};

template <real_scalar Real>
problems::margin_loss<Real> loss_of(const std::string& s) {
  if (s == "logistic") return problems::margin_loss<Real>::logistic();
  if (s == "hinge") return problems::margin_loss<Real>::hinge();
  if (s == "huber") return problems::margin_loss<Real>::huberized_hinge();
  throw std::invalid_argument("dpref linesearch: --loss must be logistic, hinge or huber, got '" +
                              s + "'");
}

/// Data as a dense problem (d×n), thinned to at most max_rows rows by a fixed stride.
template <real_scalar Real>
problems::linear_erm<Real> load(const common_options& o) {
  matrix<Real> X;
  vector<Real> y;
  if (o.data.empty()) {  // synthetic: x ∈ [0, 1]^d, planted w, 10% flipped labels
    philox_stream s(o.seed ^ 0x5EEDull, 77);
    X.resize(o.synth_d, o.synth_n);
    y.resize(o.synth_n);
    vector<Real> w0(o.synth_d);
    for (auto& v : w0) v = Real(4) * uniform01<Real>(s) - Real(2);
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
      for (Eigen::Index j = 0; j < X.rows(); ++j) X(j, i) = uniform01<Real>(s);
      Real m = X.col(i).dot(w0) - w0.sum() / 2;
      if (uniform01<Real>(s) < Real(1) / 10) m = -m;
      y[i] = m > Real(0) ? Real(1) : Real(-1);
    }
  } else if (o.data.size() > 4 && o.data.substr(o.data.size() - 4) == ".svm") {
    auto d = io::read_libsvm<Real>(o.data);
    X = matrix<Real>(d.X);
    y = d.y;
  } else {
    auto d = io::read_csv_binary<Real>(o.data);
    X = std::move(d.X);
    y = std::move(d.y);
  }
  if (o.max_rows > 0 && X.cols() > o.max_rows) {
    const Eigen::Index stride = (X.cols() + o.max_rows - 1) / o.max_rows;
    const Eigen::Index m = (X.cols() + stride - 1) / stride;
    matrix<Real> X2(X.rows(), m);
    vector<Real> y2(m);
    for (Eigen::Index k = 0; k < m; ++k) {
      X2.col(k) = X.col(k * stride);
      y2[k] = y[k * stride];
    }
    X = std::move(X2);
    y = std::move(y2);
  }
  return problems::linear_erm<Real>(std::move(X), std::move(y), loss_of<Real>(o.loss), Real(o.mu));
}

template <real_scalar Real>
ls::params<Real> blsgd_params(const common_options& o) {
  ls::params<Real> p;
  p.eps = Real(o.eps);
  p.delta = Real(o.delta);
  p.q = Real(o.q);
  p.max_order = o.max_order;
  p.C_grad = Real(o.C_grad);
  p.C_obj = Real(o.C_obj);
  p.xi = Real(o.xi);
  p.zeta = Real(o.zeta);
  p.eta0 = Real(o.eta0);
  p.btls.alpha = Real(o.alpha);
  p.btls.beta = Real(o.beta);
  p.btls.max_it = o.max_it;
  if (o.noise == "gaussian")
    p.btls.noise = ls::btls_noise::gaussian;
  else if (o.noise != "laplace")
    throw std::invalid_argument("dpref linesearch: --noise must be laplace or gaussian");
  if (o.strategy == "must")
    p.strategy = ls::budget_strategy::must;
  else if (o.strategy == "no")
    p.strategy = ls::budget_strategy::none;
  else if (o.strategy != "adap")
    throw std::invalid_argument("dpref linesearch: --strategy must be adap, must or no");
  if (o.svt_bound == "paper")
    p.svt_bound = accounting::svt_bound::paper_eq4_5;
  else if (o.svt_bound != "proven")
    throw std::invalid_argument("dpref linesearch: --svt-bound must be proven or paper");
  return p;
}

ls::batch_accounting batch_mode(const common_options& o) {
  if (o.batch_accounting == "joint") return ls::batch_accounting::joint;
  if (o.batch_accounting == "per-call") return ls::batch_accounting::per_call;
  throw std::invalid_argument("dpref linesearch: --batch-accounting must be joint or per-call");
}

const std::vector<std::string> kAlgorithms = {
    "blsgd", "blsgd-ac", "blgd", "dpsgd", "dpagd", "outpert", "objpert", "nonprivate", "majority"};

/// Runs one algorithm on the training problem. Baselines that need a smooth loss (outpert,
/// objpert, nonprivate) use the Huberized hinge for the hinge (linesearch §5.3).
template <real_scalar Real>
ls::result<Real> run_algorithm(const std::string& a, const problems::linear_erm<Real>& P,
                               const common_options& o, const philox_stream& st) {
  if (a == "blsgd" || a == "blsgd-ac" || a == "blgd") {
    auto p = blsgd_params<Real>(o);
    if (a == "blsgd-ac") p.adaptive_clipping = true;
    if (a == "blgd") {
      p.q = Real(1);
      p.increase = ls::budget_increase::gradavg;
    }
    return ls::dp_blsgd(P, p, st, batch_mode(o));
  }
  if (a == "dpsgd") {
    ls::dp_sgd_params<Real> p;
    p.eps = Real(o.eps);
    p.delta = Real(o.delta);
    p.q = Real(o.q);
    p.max_order = o.max_order;
    p.C_grad = Real(o.C_grad);
    p.eta = Real(o.sgd_eta);
    p.T = o.sgd_T;
    return ls::dp_sgd(P, p, st);
  }
  if (a == "dpagd") {
    ls::dp_agd_params<Real> p;
    p.eps = Real(o.eps);
    p.delta = Real(o.delta);
    p.max_order = o.max_order;
    p.C_grad = Real(o.C_grad);
    p.C_obj = Real(o.C_obj);
    return ls::dp_agd(P, p, st);
  }
  const bool hinge = P.loss().kind == problems::margin_loss_kind::hinge;
  const problems::linear_erm<Real> S =
      hinge ? problems::linear_erm<Real>(P.features(), P.labels(),
                                         problems::margin_loss<Real>::huberized_hinge(), P.mu())
            : P;
  using std::sqrt;
  const Real R = o.R > 0 ? Real(o.R) : Real(sqrt(Real(static_cast<long long>(P.dimension()))));
  if (a == "outpert") return ls::output_perturbation(S, Real(o.eps), R, st);
  if (a == "objpert") return ls::objective_perturbation(S, Real(o.eps), R, st);
  if (a == "nonprivate" || a == "majority") {
    ls::result<Real> r;
    r.w = ls::non_private(P);
    return r;
  }
  throw std::invalid_argument("dpref linesearch: unknown --algorithm '" + a + "'");
}

// ------------------------------------------------------------------------------ run -------

struct run_options : common_options {
  std::string algorithm = "blsgd", precision = "double";
  bool no_steps = false;
};

template <real_scalar Real>
json run_json(const run_options& o) {
  const auto P = load<Real>(o);
  const auto r = run_algorithm<Real>(o.algorithm, P, o, philox_stream(o.seed));
  json out;
  out["command"] = "dpref linesearch run";
  out["algorithm"] = o.algorithm;
  out["precision"] = o.precision;
  out["n"] = P.size();
  out["d"] = P.dimension();
  out["loss"] = o.loss;
  out["objective"] = num(P.value(r.w));
  out["accuracy"] =
      o.algorithm == "majority" ? ls::majority_accuracy(P.labels(), P.labels()) : P.accuracy(r.w);
  json w = json::array();
  for (Eigen::Index j = 0; j < r.w.size(); ++j) w.push_back(num(r.w[j]));
  out["w"] = w;
  out["status"] = r.status == ls::run_status::budget_exhausted ? "budget_exhausted"
                  : r.status == ls::run_status::iteration_cap  ? "iteration_cap"
                                                               : "completed";
  out["calls"] = {{"iterations", r.calls.iterations},
                  {"updates", r.calls.updates},
                  {"gradients", r.calls.gradients},
                  {"line_searches", r.calls.line_searches},
                  {"cheb", r.calls.cheb},
                  {"objective_queries", r.calls.objective_queries}};
  if (!o.no_steps) {
    json steps = json::array();
    for (const auto& e : r.steps) steps.push_back(num(e));
    out["steps"] = steps;
  }
  json ev = json::array();
  for (const auto& e : r.ledger.events()) {
    json p = json::object();
    for (const auto& [k, v] : e.params) p[k] = num(v);
    ev.push_back({{"kind", e.kind}, {"count", e.count}, {"params", p}});
  }
  out["ledger"] = ev;
  out["guarantee"] = {{"eps", num(r.guarantee.eps)}, {"delta", num(r.guarantee.delta)}};
  out["final"] = {{"rho_grad", num(r.final_rho_grad)},
                  {"line_search_budget", num(r.final_ls_budget)},
                  {"C_grad", num(r.final_C_grad)}};
  return out;
}

// ------------------------------------------------------------------------------ study -----

struct study_options : common_options {
  std::string figures = "1,2,3", datasets, out, png_dir, python = "/usr/bin/python3";
  std::string plot_script = "scripts/linesearch_study_plots.py";
  std::string losses = "logistic,hinge";
  int folds = 10, reps = 5;
  std::string eps_list = "0.05,0.1,0.2,0.4,0.8,1.6";
  std::string algorithms = "blsgd,blsgd-ac,blgd,dpsgd,dpagd,outpert,objpert,nonprivate,majority";
};

template <class T>
std::vector<T> parse_list(const std::string& s, const std::string& what) {
  std::vector<T> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    std::stringstream is(item);
    T x{};
    if (!(is >> x))
      throw std::invalid_argument("dpref linesearch study: bad " + what + " '" + item + "'");
    v.push_back(x);
  }
  if (v.empty()) throw std::invalid_argument("dpref linesearch study: empty " + what);
  return v;
}
template <>
std::vector<std::string> parse_list<std::string>(const std::string& s, const std::string& what) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) v.push_back(item);
  if (v.empty()) throw std::invalid_argument("dpref linesearch study: empty " + what);
  return v;
}

/// Fold of every example: a seeded permutation (sort by Philox keys), example of rank r in fold
/// r mod K.
std::vector<int> folds_of(Eigen::Index n, int K, std::uint64_t seed) {
  philox_stream s(seed, 0xF01D);
  std::vector<std::pair<std::uint64_t, Eigen::Index>> key(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) key[static_cast<std::size_t>(i)] = {s(), i};
  std::sort(key.begin(), key.end());
  std::vector<int> f(static_cast<std::size_t>(n));
  for (std::size_t r = 0; r < key.size(); ++r)
    f[static_cast<std::size_t>(key[r].second)] = static_cast<int>(r % static_cast<std::size_t>(K));
  return f;
}

struct cv_result {
  double accuracy = 0, objective = 0, accuracy_sd = 0, objective_sd = 0, eps_max = 0;
  double gradients = 0, objective_queries = 0;
};

/// K-fold CV × reps of one configuration: test accuracy and training objective (mean, sd).
cv_result cross_validate(const problems::linear_erm<double>& P, const std::string& algorithm,
                         const common_options& o, int K, int reps) {
  std::vector<double> acc, obj;
  cv_result r;
  for (int rep = 0; rep < reps; ++rep) {
    const auto f = folds_of(P.size(), K, o.seed + static_cast<std::uint64_t>(rep));
    for (int k = 0; k < K; ++k) {
      std::vector<Eigen::Index> tr, te;
      for (Eigen::Index i = 0; i < P.size(); ++i)
        (f[static_cast<std::size_t>(i)] == k ? te : tr).push_back(i);
      if (K == 1) te = tr;
      const auto Ptr = P.subset(tr), Pte = P.subset(te);
      const philox_stream st(o.seed, static_cast<std::uint64_t>(rep * 1000 + k));
      const auto res = run_algorithm<double>(algorithm, Ptr, o, st);
      acc.push_back(algorithm == "majority" ? ls::majority_accuracy(Ptr.labels(), Pte.labels())
                                            : Pte.accuracy(res.w));
      obj.push_back(algorithm == "majority" ? std::nan("") : Ptr.value(res.w));
      r.eps_max = std::max(r.eps_max, static_cast<double>(res.guarantee.eps));
      r.gradients += static_cast<double>(res.calls.gradients);
      r.objective_queries += static_cast<double>(res.calls.objective_queries);
    }
  }
  const auto ms = [](const std::vector<double>& v, double& m, double& sd) {
    m = 0;
    for (double x : v) m += x / static_cast<double>(v.size());
    sd = 0;
    for (double x : v)
      sd += (x - m) * (x - m) / static_cast<double>(std::max<std::size_t>(1, v.size() - 1));
    sd = std::sqrt(sd);
  };
  ms(acc, r.accuracy, r.accuracy_sd);
  ms(obj, r.objective, r.objective_sd);
  r.gradients /= static_cast<double>(acc.size());
  r.objective_queries /= static_cast<double>(acc.size());
  return r;
}

json cv_json(const cv_result& r) {
  return {{"accuracy", r.accuracy},
          {"accuracy_sd", r.accuracy_sd},
          {"objective", r.objective},
          {"objective_sd", r.objective_sd},
          {"eps_max", r.eps_max},
          {"gradients", r.gradients},
          {"objective_queries", r.objective_queries}};
}

/// Figure 1: effect of α, β, noise, q, strategy, ζ (DP-BLSGD, logistic) at ε ∈ {0.05, 0.2}.
json study_figure1(const study_options& o, const problems::linear_erm<double>& P) {
  json out = json::array();
  struct sweep {
    std::string name;
    std::vector<std::string> values;
  };
  const std::vector<sweep> sweeps = {{"alpha", {"0.1", "0.3", "0.5", "0.7", "0.9"}},
                                     {"beta", {"0.5", "0.6", "0.7", "0.8", "0.9"}},
                                     {"noise", {"laplace", "gaussian"}},
                                     {"q", {"0.01", "0.05", "0.1", "0.5", "1"}},
                                     {"strategy", {"no", "must", "adap"}},
                                     {"zeta", {"0", "0.05", "0.1", "0.2"}}};
  for (const double eps : {0.05, 0.2})
    for (const auto& sw : sweeps)
      for (const auto& v : sw.values) {
        common_options c = o;
        c.eps = eps;
        std::string algo = "blsgd";
        if (sw.name == "alpha") c.alpha = std::stod(v);
        if (sw.name == "beta") c.beta = std::stod(v);
        if (sw.name == "noise") c.noise = v;
        if (sw.name == "q") c.q = std::stod(v);
        if (sw.name == "strategy") c.strategy = v;
        if (sw.name == "zeta") {
          c.zeta = std::stod(v);
          if (c.zeta > 0) algo = "blsgd-ac";
        }
        json j = cv_json(cross_validate(P, algo, c, o.folds, o.reps));
        j["eps"] = eps;
        j["parameter"] = sw.name;
        j["value"] = v;
        out.push_back(j);
        std::fprintf(stderr, "[linesearch study] fig1 eps=%g %s=%s acc=%.4f obj=%.4f\n", eps,
                     sw.name.c_str(), v.c_str(), j["accuracy"].get<double>(),
                     j["objective"].get<double>());
      }
  return out;
}

/// Figure 2: gradient and objective evaluations vs q at ε = 0.4.
json study_figure2(const study_options& o, const problems::linear_erm<double>& P) {
  json out = json::array();
  for (const double q : {0.01, 0.05, 0.1, 0.2, 0.5, 1.0}) {
    common_options c = o;
    c.eps = 0.4;
    c.q = q;
    json j = cv_json(cross_validate(P, "blsgd", c, o.folds, o.reps));
    j["q"] = q;
    out.push_back(j);
  }
  return out;
}

/// Figures 3–4: accuracy and objective vs ε for every algorithm.
json study_figure34(const study_options& o, const problems::linear_erm<double>& P) {
  json out = json::array();
  for (const double eps : parse_list<double>(o.eps_list, "--eps-list"))
    for (const auto& a : parse_list<std::string>(o.algorithms, "--algorithms")) {
      common_options c = o;
      c.eps = eps;
      json j = cv_json(cross_validate(P, a, c, o.folds, o.reps));
      j["eps"] = eps;
      j["algorithm"] = a;
      out.push_back(j);
      std::fprintf(stderr, "[linesearch study] fig34 %s eps=%g %s acc=%.4f obj=%.4f\n",
                   o.loss.c_str(), eps, a.c_str(), j["accuracy"].get<double>(),
                   j["objective"].get<double>());
    }
  return out;
}

void run_study(const study_options& o) {
  if (!o.png_dir.empty() && o.out.empty())
    throw std::invalid_argument("dpref linesearch study: --png-dir needs --out");
  const auto figs = parse_list<int>(o.figures, "--figures");
  const auto sets = o.datasets.empty() ? std::vector<std::string>{""}
                                       : parse_list<std::string>(o.datasets, "--data");
  json out;
  out["command"] = "dpref linesearch study";
  out["folds"] = o.folds;
  out["reps"] = o.reps;
  out["max_rows"] = o.max_rows;
  out["defaults"] = {{"delta", o.delta},       {"q", o.q},           {"C_grad", o.C_grad},
                     {"C_obj", o.C_obj},       {"xi", o.xi},         {"alpha", o.alpha},
                     {"beta", o.beta},         {"max_it", o.max_it}, {"eta0", o.eta0},
                     {"dpsgd_eta", o.sgd_eta}, {"dpsgd_T", o.sgd_T}};
  json ds = json::array();
  for (const auto& path : sets) {
    json d;
    d["data"] = path.empty() ? "synthetic" : path;
    for (const int f : figs) {
      if (f == 1 || f == 2) {
        study_options c = o;
        c.data = path;
        c.loss = "logistic";
        const auto P = load<double>(c);
        d["n"] = P.size();
        d["d"] = P.dimension();
        if (f == 1) d["figure1"] = study_figure1(c, P);
        if (f == 2) d["figure2"] = study_figure2(c, P);
      } else if (f == 3) {
        json per_loss = json::object();
        for (const auto& l : parse_list<std::string>(o.losses, "--losses")) {
          study_options c = o;
          c.data = path;
          c.loss = l;
          const auto P = load<double>(c);
          d["n"] = P.size();
          d["d"] = P.dimension();
          per_loss[l] = study_figure34(c, P);
        }
        d["figure34"] = per_loss;
      } else {
        throw std::invalid_argument("dpref linesearch study: --figures entries must be 1, 2 or 3");
      }
    }
    ds.push_back(d);
  }
  out["datasets"] = ds;
  write_json_output(out, o.out, "dpref linesearch study");
  if (!o.png_dir.empty())
    run_plot_script(o.python, o.plot_script, o.out, o.png_dir, "dpref linesearch study");
}

void add_common(CLI::App* c, common_options& o) {
  c->add_option("--loss", o.loss, "logistic | hinge | huber")->capture_default_str();
  c->add_option("--max-rows", o.max_rows, "keep every k-th row, at most this many (0 = all)")
      ->capture_default_str();
  c->add_option("--synthetic-n", o.synth_n, "synthetic examples (without --data)")
      ->capture_default_str();
  c->add_option("--synthetic-d", o.synth_d, "synthetic dimension")->capture_default_str();
  c->add_option("--mu", o.mu, "L2 regularisation mu")->capture_default_str();
  c->add_option("--delta", o.delta, "delta")->capture_default_str();
  c->add_option("--q", o.q, "Poisson sampling ratio")->capture_default_str();
  c->add_option("--alpha", o.alpha, "Armijo alpha")->capture_default_str();
  c->add_option("--beta", o.beta, "backtracking beta")->capture_default_str();
  c->add_option("--max-it", o.max_it, "NOISYBTLS max_it")->capture_default_str();
  c->add_option("--eta0", o.eta0, "initial step size")->capture_default_str();
  c->add_option("--xi", o.xi, "budget increase rate")->capture_default_str();
  c->add_option("--zeta", o.zeta, "clipping decay (blsgd-ac)")->capture_default_str();
  c->add_option("--C-grad", o.C_grad, "gradient clipping threshold")->capture_default_str();
  c->add_option("--C-obj", o.C_obj, "objective clipping threshold")->capture_default_str();
  c->add_option("--R", o.R, "public bound on ||x||_2 for outpert/objpert (0 = sqrt(d))")
      ->capture_default_str();
  c->add_option("--max-order", o.max_order, "RDP orders 2..max-order")->capture_default_str();
  c->add_option("--noise", o.noise, "NOISYBTLS noise: laplace | gaussian")->capture_default_str();
  c->add_option("--strategy", o.strategy, "CHEB budget strategy: adap | must | no")
      ->capture_default_str();
  c->add_option("--svt-bound", o.svt_bound,
                "NOISYBTLS RDP: proven (default, errata LS-E1) | paper (Theorems 2-3)")
      ->capture_default_str();
  c->add_option("--batch-accounting", o.batch_accounting,
                "calls sharing a Poisson sample: joint (default, sound) | per-call (paper 4.3)")
      ->capture_default_str();
  c->add_option("--sgd-eta", o.sgd_eta, "DP-SGD step size")->capture_default_str();
  c->add_option("--sgd-T", o.sgd_T, "DP-SGD iterations")->capture_default_str();
  c->add_option("--seed", o.seed, "seed")->capture_default_str();
}

}  // namespace

void register_linesearch_command(CLI::App& app) {
  auto* cmd = linesearch_group(app);
  auto o = std::make_shared<run_options>();
  auto* run = cmd->add_subcommand("run", "One run of an algorithm; JSON result and ledger");
  run->add_option("--algorithm", o->algorithm,
                  "blsgd | blsgd-ac | blgd | dpsgd | dpagd | outpert | objpert | nonprivate | "
                  "majority")
      ->capture_default_str();
  run->add_option("--data", o->data, "CSV or LIBSVM (.svm) file (default: synthetic)");
  run->add_option("--eps", o->eps, "target epsilon")->capture_default_str();
  run->add_option("--precision", o->precision, "double | mp50")->capture_default_str();
  run->add_flag("--no-steps", o->no_steps, "omit the selected step sizes");
  add_common(run, *o);
  run->callback([o] {
    if (std::find(kAlgorithms.begin(), kAlgorithms.end(), o->algorithm) == kAlgorithms.end())
      throw std::invalid_argument("dpref linesearch run: unknown --algorithm '" + o->algorithm +
                                  "'");
    json j;
    if (o->precision == "double")
      j = run_json<double>(*o);
    else if (o->precision == "mp50")
      j = run_json<mp50>(*o);
    else
      throw std::invalid_argument("dpref linesearch run: --precision must be double or mp50");
    std::cout << j.dump(1) << "\n";
  });

  auto so = std::make_shared<study_options>();
  auto* study = cmd->add_subcommand(
      "study", "Data of Figures 1-4 (10-fold CV x 5 repetitions by default) as JSON (+ PNG)");
  study->add_option("--figures", so->figures, "subset of 1,2,3 (3 = Figures 3 and 4)")
      ->capture_default_str();
  study->add_option("--data", so->datasets, "comma-separated data files (default: synthetic)");
  study->add_option("--losses", so->losses, "Figures 3-4 losses: logistic,hinge")
      ->capture_default_str();
  study->add_option("--eps-list", so->eps_list, "Figures 3-4 epsilons")->capture_default_str();
  study->add_option("--algorithms", so->algorithms, "Figures 3-4 algorithms")
      ->capture_default_str();
  study->add_option("--folds", so->folds, "cross-validation folds (1 = train = test)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  study->add_option("--reps", so->reps, "repetitions")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  study->add_option("--out", so->out, "JSON output file (default: stdout)");
  study->add_option("--png-dir", so->png_dir, "also write PNG plots there (needs --out)");
  study->add_option("--python", so->python, "Python with matplotlib")->capture_default_str();
  study->add_option("--plot-script", so->plot_script, "plotting script (run from the repository)")
      ->capture_default_str();
  add_common(study, *so);
  study->callback([so] { run_study(*so); });
}

static const command_registrar linesearch_registrar(register_linesearch_command);

}  // namespace dpref::cli

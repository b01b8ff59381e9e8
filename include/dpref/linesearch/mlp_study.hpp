// `dpref linesearch mlp`: the small-network experiment of linesearch §5.7 — a one-hidden-layer
// ReLU MLP (problems::mlp_classifier, softmax cross-entropy, μ on all parameters, pixels in
// [−1, 1]) trained on Fashion-MNIST by DP-BLSGD and DP-SGD from the same random, data-independent
// w_0. DP-SGD adds N(0, C²/(2ρ)) to the clipped sum; DP-BLSGD spends (1 − ls_share)ρ on the
// gradient and ls_share·ρ on the Gaussian NOISYBTLS, which returns β^max_it·η0 instead of 0 (no
// failed search, no CHEB): both are fixed plans of T iterations, checked by plan_privacy.
// The requested (ε, δ) is a bound (ARCH.BUDGET). calibration = certified (default): per-iteration
// ρ whose certified guarantee over T iterations is <= the request (DP-SGD: exact subsampled-
// Gaussian RDP; DP-BLSGD: the joint sample event, proven SVT bound LS-E1, Zhu–Wang). calibration
// = paper_same_rho reproduces §5.7 (DP-BLSGD gets DP-SGD's ρ under Theorem 3): needs
// allow_over_budget; budget_met = false and the paper's claim under paper_claim, not a guarantee.
// Checkpoints (training objective, test accuracy) are non-private: only with `diagnostics`, under
// "non_private" (PRIV.RELEASE; objective_rows, max_test refused without it). No timings in the
// JSON (stderr only). spec/linesearch.md "MLP (§5.7)", LS.MLP.RUN.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dpref/io/json.hpp"
#include "dpref/linesearch/json.hpp"
#include "dpref/linesearch/mlp_config.hpp"
#include "dpref/linesearch/run.hpp"
#include "dpref/problems/mlp.hpp"

namespace dpref::linesearch {

namespace detail {

/// Synthetic 10-class data in [−1, 1]^d: class centres uniform in [−1/2, 1/2]^d, inputs the
/// centre plus uniform noise of half-width 1/2 (CI smoke test only).
inline std::pair<problems::mlp_classifier<double>, problems::mlp_classifier<double>> mlp_synthetic(
    const mlp_config& o) {
  philox_stream s(o.seed ^ 0x5EEDull, 0x717);
  const Eigen::Index d = o.synthetic_d;
  matrix<double> centres(d, 10);
  // not privacy noise: synthetic data generation (public seed)
  for (Eigen::Index j = 0; j < centres.size(); ++j) centres.data()[j] = uniform01<double>(s) - 0.5;
  const auto make = [&](long long n) {
    matrix<double> X(d, n);
    std::vector<int> y(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
      // not privacy noise: synthetic data generation (public seed)
      const int c = static_cast<int>(uniform01<double>(s) * 10.0) % 10;
      y[static_cast<std::size_t>(i)] = c;
      // not privacy noise: synthetic data generation (public seed)
      for (Eigen::Index j = 0; j < d; ++j) X(j, i) = centres(j, c) + uniform01<double>(s) - 0.5;
    }
    return problems::mlp_classifier<double>(std::move(X), std::move(y), o.hidden, 10, o.mu);
  };
  auto train = make(*o.synthetic_n);
  auto test = make(std::max<long long>(*o.synthetic_n / 4, 10));
  return {std::move(train), std::move(test)};
}

inline std::pair<problems::mlp_classifier<double>, problems::mlp_classifier<double>> mlp_data(
    const mlp_config& o) {
  if (o.synthetic_n) return mlp_synthetic(o);
  namespace fs = std::filesystem;
  const fs::path dir(o.data_dir);
  for (const char* f : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                        "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"})
    if (!fs::is_regular_file(dir / f))
      throw std::invalid_argument("--data-dir must hold the Fashion-MNIST IDX files, got '" +
                                  o.data_dir + "' without " + f +
                                  " (run scripts/real_data.sh, or give --synthetic-n)");
  auto train = problems::mlp_from_idx<double>((dir / "train-images-idx3-ubyte").string(),
                                              (dir / "train-labels-idx1-ubyte").string(), o.hidden,
                                              o.max_train.value_or(0), o.mu);
  auto test = problems::mlp_from_idx<double>((dir / "t10k-images-idx3-ubyte").string(),
                                             (dir / "t10k-labels-idx1-ubyte").string(), o.hidden,
                                             o.max_test.value_or(0), o.mu);
  param_checker("linesearch::mlp")
      .require(train.dimension() <= (1LL << 26), "hidden",
               "such that the network has <= 2^26 parameters", o.hidden);
  return {std::move(train), std::move(test)};
}

/// What both §5.7 algorithms take from the configuration: the request, the accountant, the
/// sampling rate, the gradient clip, T and the work bound.
inline params<double> section57_common(const mlp_config& o, algorithm a) {
  params<double> p;
  p.algorithm = a;
  p.epsilon = o.epsilon;
  p.delta = o.delta;
  p.allow_over_budget = o.allow_over_budget;
  p.max_order = o.max_order;
  p.q = o.q;
  p.C_grad = o.C_grad;
  p.iterations = o.iterations;
  p.force = o.force;
  return p;
}

/// The §5.7 parameters of DP-BLSGD with per-iteration budget ρ.
inline params<double> section57_blsgd(const mlp_config& o, double rho) {
  params<double> p = section57_common(o, algorithm::blsgd);
  p.C_obj = o.C_obj;
  p.alpha = o.alpha;
  p.beta = o.beta;
  p.max_it = o.max_it;
  p.eta0 = o.eta0;
  p.noise = btls_noise::gaussian;
  p.fallback_min_step = true;  // §5.7: β^max_it·η0 instead of 0
  p.strategy = budget_strategy::none;
  p.rho_grad0 = (1 - o.ls_share) * rho;
  p.ls_budget0 = o.ls_share * rho;
  if (o.calibration == mlp_calibration::paper_same_rho)
    p.svt_bound = accounting::svt_bound::paper_eq4_5;  // the claim of §5.7 (Theorem 3)
  return p;
}

inline params<double> section57_dpsgd(const mlp_config& o) {
  params<double> p = section57_common(o, algorithm::dpsgd);
  p.sgd_eta = o.sgd_eta;
  return p;
}

/// The certified (ε, δ) of DP-BLSGD's §5.7 plan with per-iteration budget ρ.
inline accounting::guarantee<double> section57_plan_total(const mlp_config& o, double rho) {
  const params<double> p = section57_blsgd(o, rho);
  accounting::event<double> e = accounting::make_event<double>(
      gradient_event(p.C_grad, *p.rho_grad0), p.iterations, "DP-BLSGD iteration (§5.7 plan)");
  e.sampling = poisson_sampling(p.q);
  e.joint.push_back(accounting::make_event<double>(
      btls_event(p.noise, *p.ls_budget0, p.C_obj, static_cast<long>(p.max_it))));
  accounting::ledger<double> l(ledger_options(p));
  l.record(std::move(e));
  return l.total();
}

}  // namespace detail

/// The largest per-iteration budget ρ (to the bisection's resolution, rounded down) whose
/// DP-BLSGD §5.7 plan of T iterations certifies the requested (ε, δ). @spec LS.MLP.RUN
inline double section57_blsgd_rho(const mlp_config& o) {
  const auto ok_inv = [&](double inv) {  // x = 1/ρ: larger x, smaller ρ, smaller ε
    const auto g = detail::section57_plan_total(o, 1 / inv);
    return !(g.epsilon > o.epsilon) && !(g.delta > o.delta);
  };
  // The proven Gaussian SVT bound charges ln(max_it)/(α−1) per line search whatever the noise
  // (errata LS-E1), so the plan's ε has a floor as ρ → 0: a request below it is refused naming ε
  // and the floor, before the search (whose own failure could only name its starting point).
  const auto floor = detail::section57_plan_total(o, 1e-200);
  param_checker("linesearch::mlp")
      .require(!(floor.epsilon > o.epsilon) && !(floor.delta > o.delta), "epsilon",
               "above " + io::format_real(double(floor.epsilon)) +
                   ", the certified ε of DP-BLSGD's plan as ρ → 0 at iterations = " +
                   std::to_string(o.iterations) + ", max_it = " + std::to_string(o.max_it) +
                   " (the proven Gaussian SVT bound charges ln(max_it)/(α−1) per line search, "
                   "errata LS-E1; fewer iterations, a larger epsilon, algorithms = dpsgd, or "
                   "calibration = paper_same_rho with allow_over_budget)",
               o.epsilon);
  const double inv =
      accounting::smallest_satisfying<double>(ok_inv, 1.0, "linesearch::mlp", "epsilon");
  double rho = 1 / inv;
  while (!ok_inv(1 / rho)) rho = std::nextafter(rho, 0.0);  // 1/(1/x) may round up
  return rho;
}

/// Runs the §5.7 experiment of `doc` (an mlp_config document). `progress` receives checkpoint
/// lines and timings (stderr in the CLI; never in the JSON).
/// @throws invalid_parameter / std::invalid_argument naming the field before any training;
/// accounting::budget_exceeded when an explicit rho_iter exceeds the request
/// @spec LS.MLP.RUN
inline io::json mlp_json(const io::document& doc,
                         const std::function<void(const std::string&)>& progress = {}) {
  mlp_config o;
  io::read_fields(io::node(doc), o);
  detail::located(doc, {{"linesearch::mlp", ""}}, [&] { o.validate(); });
  const auto say = [&](const std::string& s) {
    if (progress) progress(s);
  };
  // not a structured binding: the lambdas below capture train and test (clang 14 refuses
  // capturing a binding, the fuzz preset's compiler)
  const auto data = detail::mlp_data(o);
  const auto& train = data.first;
  const auto& test = data.second;
  // budgets: DP-SGD's noise multiplier and DP-BLSGD's ρ (before any training)
  params<double> sgd = detail::section57_dpsgd(o);
  double rho_sgd = 0, rho_blsgd = 0;
  if (o.rho_iter) {
    rho_sgd = rho_blsgd = *o.rho_iter;
  } else {
    say("calibrating DP-SGD's noise to the request");
    const double sigma = dp_sgd_sigma(sgd);
    const double s = sigma / o.C_grad;
    rho_sgd = 1 / (2 * s * s);
    if (o.calibration == mlp_calibration::paper_same_rho) {
      rho_blsgd = rho_sgd;
    } else {
      say("calibrating DP-BLSGD's per-iteration budget to the request (proven SVT bound)");
      rho_blsgd = section57_blsgd_rho(o);
    }
  }
  sgd.noise_multiplier = 1 / std::sqrt(2 * rho_sgd);
  // Both plans are checked against the request before any training (ARCH.BUDGET).
  for (const algorithm a : o.algorithms) {
    const privacy_budget_request<double> req{o.epsilon, o.delta, o.allow_over_budget};
    if (a == algorithm::blsgd) {
      const params<double> pb = detail::section57_blsgd(o, rho_blsgd);
      accounting::ledger<double> l(detail::ledger_options(pb));
      accounting::event<double> e = accounting::make_event<double>(
          gradient_event(pb.C_grad, *pb.rho_grad0), pb.iterations, "DP-BLSGD iteration (§5.7)");
      e.sampling = detail::poisson_sampling(pb.q);
      e.joint.push_back(accounting::make_event<double>(
          btls_event(pb.noise, *pb.ls_budget0, pb.C_obj, static_cast<long>(pb.max_it))));
      l.record(std::move(e));
      (void)plan_privacy(std::move(l), req, "linesearch mlp (DP-BLSGD plan)");
    } else {
      accounting::certifier<double> c;
      (void)plan_privacy(dp_sgd_plan(sgd, c.up(c.in(*sgd.noise_multiplier) * c.in(sgd.C_grad))),
                         req, "linesearch mlp (DP-SGD plan)");
    }
  }
  std::unique_ptr<problems::mlp_classifier<double>> objective_subset;
  if (o.objective_rows && *o.objective_rows < train.size()) {
    std::vector<int> y(train.labels().begin(), train.labels().begin() + *o.objective_rows);
    objective_subset = std::make_unique<problems::mlp_classifier<double>>(
        train.features().leftCols(*o.objective_rows), std::move(y), o.hidden, 10, o.mu);
  }
  const problems::mlp_classifier<double>& objective_set =
      objective_subset ? *objective_subset : train;
  philox_stream init(o.seed, 0x1417);
  const vector<double> w0 = train.initial_point(init);
  const auto is_checkpoint = [&](long long t) {
    return t % o.eval_every == 0 || t == o.iterations ||
           (o.early_every && t <= o.early_until && t % *o.early_every == 0);
  };

  io::json out = io::json::object();
  out["schema"] = "dpref.linesearch.mlp/1";
  out["config"] = io::fields_value(o);
  out["data"] = o.synthetic_n ? std::string("synthetic") : o.data_dir;
  out["n_train"] = train.size();
  out["n_test"] = test.size();
  out["input_dimension"] = train.input_dimension();
  out["parameters"] = train.dimension();
  if (o.diagnostics)
    out["objective_on"] = objective_subset
                              ? "first " + std::to_string(*o.objective_rows) + " training examples"
                              : std::string("full training set");
  io::json runs = io::json::array();
  for (const algorithm a : o.algorithms) {
    const std::string name(io::enum_to_string(a));
    io::json checkpoints = io::json::array();
    long long updates = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double eval_seconds = 0;
    const auto checkpoint = [&](long long t, const vector<double>& w) {
      const auto e0 = std::chrono::steady_clock::now();
      const double obj = objective_set.value(w), acc = test.accuracy(w);
      eval_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
      const double wsq = w.squaredNorm();
      checkpoints.push_back({{"iteration", t},
                             {"objective", obj},
                             {"cross_entropy", obj - o.mu * wsq / 2},  // F(w) − (μ/2)‖w‖²
                             {"w_squared_norm", wsq},
                             {"test_accuracy", acc},
                             {"updates", updates}});
      say(name + " t=" + std::to_string(t) + " objective=" + io::format_real(obj) +
          " test_accuracy=" + io::format_real(acc));
    };
    params<double> p = a == algorithm::blsgd ? detail::section57_blsgd(o, rho_blsgd) : sgd;
    p.w0 = w0;
    if (o.diagnostics) {  // PRIV.RELEASE: the checkpoints read the data without noise
      checkpoint(0, w0);
      p.observer = [&](long long t, const vector<double>& w) {
        ++updates;
        if (is_checkpoint(t)) checkpoint(t, w);
      };
    }
    const philox_stream stream(o.seed, a == algorithm::blsgd ? 1 : 2);
    const result<double> r = run(train, p, stream);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    say(name + ": " +
        io::format_real((seconds - eval_seconds) /
                        static_cast<double>(std::max<long long>(1, r.iterations))) +
        " s per iteration (training), " + io::format_real(eval_seconds) + " s evaluating");
    io::json run_out = io::json::object();
    run_out["algorithm"] = name;
    run_out["status"] = std::string(to_string(r.status));
    run_out["message"] = r.message;
    run_out["rho_iter"] = a == algorithm::blsgd ? rho_blsgd : rho_sgd;
    run_out["privacy"] = privacy_value(r.privacy);
    run_out["calls"] = io::fields_value(r.calls);
    run_out["steps"] = a == algorithm::blsgd ? io::to_value(r.steps) : io::json(nullptr);
    if (a == algorithm::blsgd)
      run_out["noise"] = {
          {"gradient_sigma_over_C", 1 / std::sqrt(2 * *p.rho_grad0)},
          {"btls_sigma1_sigma2",
           {o.C_obj * std::sqrt(3 / (2 * *p.ls_budget0)), o.C_obj * std::sqrt(3 / *p.ls_budget0)}}};
    else
      run_out["noise"] = {{"noise_multiplier", *r.noise_multiplier}};
    if (r.claim)  // the paper's accounting of the calls made (paper_same_rho): not a guarantee
      run_out["paper_claim"] = paper_claim_value(*r.claim);
    if (o.diagnostics)
      run_out["non_private"] = {
          {"note",
           "checkpoints computed from the data without noise: not covered by any "
           "guarantee"},
          {"checkpoints", std::move(checkpoints)}};
    runs.push_back(std::move(run_out));
  }
  out["runs"] = std::move(runs);
  return out;
}

}  // namespace dpref::linesearch

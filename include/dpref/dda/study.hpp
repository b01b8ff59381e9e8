// The study of dda §5 as a library function shared by `dpref dda study` (spec/dda.md
// DDA.STUDY): on each data set, for the ℓ2-SVM (§5.2) and the ℓ1-SVM (§5.3), for 1 or 2 edges
// per round of K_20 (ι = 0.1, 0.2), one non-private run and, for every ε, the three calibrations
// of spec/dda.md (paper Theorem 1 σ as printed, the errata's sound chain, the RDP accountant)
// side by side. Every run goes through dda::run (σ, ledger and budget check in the library).
// `config` (with its field list) is the configuration of `dpref dda study`; the §5 settings that
// the paper fixes are the named constants below. The document is deterministic (same seed, same
// bytes); progress and timings go to `progress`.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "dpref/dda/calibration.hpp"
#include "dpref/dda/data.hpp"
#include "dpref/dda/run.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/io/json.hpp"
#include "dpref/params.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref::dda::study {

/// Receives progress lines (the CLI prints them on stderr; timings never go into the document).
using progress_fn = std::function<void(std::string_view)>;

// dda §5's settings (spec/dda.md DDA.STUDY)
inline constexpr int nodes = 20;                         ///< K_20 supergraph
inline constexpr double l2_weight = 5e-4;                ///< μ of the ℓ2-SVM (§5.2)
inline constexpr double l1_weight = 5e-4;                ///< φ of the ℓ1-SVM (§5.3)
inline constexpr double l2_gamma = 20, l1_gamma = 0.01;  ///< γ of γ_t (§5.2: 20; §5.3: 0.01√t)
inline constexpr double delta = 1e-5, delta0 = 0.01, delta_prime = 1e-6;
inline constexpr long long trace_points = 30;         ///< trace snapshots per run
inline constexpr long long synthetic_records = 2000;  ///< the synthetic stand-in
inline constexpr int synthetic_dimension = 20;

/// The configuration of the study (field list: JSON keys and `dpref dda study` flags).
/// @spec DDA.STUDY
struct config {
  /// Work bound: runs × epochs passes over the data (lifted by force).
  static constexpr double max_passes = 2000;

  std::string data_dir = "data/real";
  std::vector<dataset> datasets{dataset::fashion, dataset::grants};
  std::vector<double> eps{0.2, 0.4, 0.6, 0.8, 1.0};
  std::vector<int> edges{1, 2};
  double epochs = 3;
  std::uint64_t seed = 20261121;
  bool hidden_active_set = false;
  int max_order = 64;
  bool force = false;

  template <class V>
  void fields(V&& v) {
    v("data_dir", data_dir, "fashion, grants: folder written by scripts/real_data.sh");
    v("datasets", datasets, "data sets to run: fashion, grants, synthetic (no files)");
    v("eps", eps, "ε of the private runs, each in [1e-6, 1e6]");
    v("edges", edges, "edges per round of K_20, each in [1, 10] (1: ι = 0.1, 2: ι = 0.2)");
    v("epochs", epochs, "passes over the data per run, in [0.001, 1000]");
    v("seed", seed, "seed of the runs and of the synthetic data");
    v("hidden_active_set", hidden_active_set, "ι/q accounting model (not Definition 1)");
    v("max_order", max_order, "largest RDP order, in [2, 256]");
    v("force", force, "lift the work bound (runs × epochs <= 2000 passes over the data)");
  }

  /// Runs: per data set, 2 regularisers × |edges| × (1 non-private + 3 calibrations × |eps|).
  [[nodiscard]] double passes() const {
    return static_cast<double>(datasets.size()) * 2.0 * static_cast<double>(edges.size()) *
           (1.0 + 3.0 * static_cast<double>(eps.size())) * epochs;
  }

  /// Every field checked before the first data file is read (HARD.WORK).
  /// @throws invalid_parameter "dda::study::config.<field> must be ..., got ..."
  void validate() const {
    const param_checker c("dda::study::config");
    c.require(!data_dir.empty() && data_dir.size() <= 4096, "data_dir",
              "a folder name of 1 to 4096 characters", data_dir.size());
    c.require(!datasets.empty() && datasets.size() <= 3, "datasets",
              "1 to 3 of fashion, grants, synthetic", datasets.size());
    for (std::size_t i = 0; i < datasets.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (datasets[j] == datasets[i]) {
          std::string quoted(1, '\'');  // (not "'" + string: GCC 12's -Wrestrict false positive)
          quoted.append(io::enum_to_string(datasets[i])).push_back('\'');
          c.require(false, "datasets", "without repetitions", quoted);
        }
    c.require(!eps.empty() && eps.size() <= 100, "eps", "a list of 1 to 100 values", eps.size());
    for (const double e : eps) c.in_closed("eps", e, 1e-6, 1e6, "finite and in [1e-6, 1e6]");
    c.require(!edges.empty() && edges.size() <= 10, "edges", "a list of 1 to 10 values",
              edges.size());
    for (const int e : edges) c.at_least<int>("edges", e, 1, nodes / 2);  // disjoint edges of K_20
    c.in_closed("epochs", epochs, 1e-3, 1000.0, "finite and in [0.001, 1000]");
    c.at_least<int>("max_order", max_order, 2, 256);
    if (!force)
      c.require(passes() <= max_passes, "epochs",
                "such that runs × epochs <= 2000 passes over the data (runs = datasets × 2 × "
                "|edges| × (1 + 3 |eps|)), or give force (got " +
                    std::to_string(static_cast<long long>(passes())) + " passes)",
                epochs);
  }
};

namespace detail {

inline io::json calibration_value(const calibration_report<double>& r) {
  io::json j{{"calibration", r.name},
             {"sigma", r.sigma},
             {"hidden_active_set", r.hidden},
             {"paper_precondition_T", r.paper_precondition},
             {"rdp", {{"eps", r.rdp.eps}, {"delta", r.rdp.delta}}},
             {"active_rounds_bound", r.active_rounds},
             {"binomial_tail", r.tail}};
  j["paper_chain"] = r.paper_chain_ok
                         ? io::json{{"eps", r.paper_chain.eps}, {"delta", r.paper_chain.delta}}
                         : io::json("not applicable (eps'_t > 0.9)");
  j["sound_chain"] = r.sound_chain_ok
                         ? io::json{{"eps", r.sound_chain.eps}, {"delta", r.sound_chain.delta}}
                         : io::json("not applicable (eps_t > 1)");
  return j;
}

/// T of a run: `epochs` passes over the `used` records, 2 · edges records per round.
inline long long rounds(const config& cfg, long long used, int edges) {
  return static_cast<long long>(cfg.epochs * double(used) / double(2 * edges));
}

/// The privacy part of a run's parameters: ε, the δs of §5, the accounting model and order, T.
inline params<double> accounting_params(const config& cfg, double eps, long long T) {
  params<double> p;
  p.epsilon = eps;
  p.delta = delta;
  p.delta0 = delta0;
  p.delta_prime = delta_prime;
  p.active_set_hidden = cfg.hidden_active_set;
  p.max_order = cfg.max_order;
  p.iterations = T;
  return p;
}

/// One run of the study: `calibration` none is the non-private run; otherwise `reports` are the
/// three calibrations at this (data, ι, ε), reported side by side.
template <class F>
io::json one_run(const labelled_split<F>& data, const problem<double, F>& prob,
                 const optimum_bracket<double>& opt, const config& cfg, regularizer_choice reg,
                 int edges, calibration_kind calibration, double eps,
                 const std::vector<calibration_report<double>>& reports) {
  network net;  // K_20, `edges` disjoint edges per round (dda §5)
  net.nodes = nodes;
  net.activation = activation_mode::edges;
  net.per_step = edges;
  const long long T = rounds(cfg, prob.used(), edges);
  const bool l2 = reg == regularizer_choice::l2;
  params<double> p = accounting_params(cfg, eps, T);
  p.calibration = calibration;
  p.allow_over_budget = calibration == calibration_kind::paper_theorem1;
  p.a_schedule = l2 ? weight_schedule::linear : weight_schedule::constant;  // a_t = t or 1
  p.g_schedule = l2 ? gamma_schedule::constant : gamma_schedule::sqrt_t;    // γ or γ√t
  p.gamma = l2 ? l2_gamma : l1_gamma;
  p.threads = 1;
  p.fast_noise = true;
  p.trace_every = std::max<long long>(1, T / trace_points);
  p.diagnostics = true;  // the study evaluates the releases on the data (PRIV.RELEASE: on request)
  io::json out;
  if (calibration != calibration_kind::none) {
    io::json all = io::json::array();
    for (const auto& r : reports) all.push_back(calibration_value(r));
    out["calibrations"] = all;
  }
  const auto res = run(prob, net, p, philox_stream(cfg.seed, 1));
  out["calibration_used"] = res.calibration;
  out["privacy"] = privacy_value(res.privacy);
  io::json tr = io::json::array();
  for (const auto& sn : res.trace)
    tr.push_back({{"t", sn.t},
                  {"subopt_xbar", prob.objective(sn.x_bar) - opt.upper},
                  {"subopt_ytilde", prob.objective(sn.y_tilde) - opt.upper},
                  {"test_accuracy", accuracy<double>(data.Xtest, data.ytest, sn.x_bar)},
                  {"consensus", sn.consensus}});
  out["command"] = "dda study";
  out["data"] = data.name;
  out["params"] = {{"nodes", nodes},
                   {"graph", "complete"},
                   {"mode", "edges"},
                   {"per_step", edges},
                   {"iota", res.iota},
                   {"q", prob.per_node()},
                   {"records", prob.used()},
                   {"dimension", prob.dimension()},
                   {"reg", l2 ? "l2" : "l1"},
                   {"mu", l2_weight},
                   {"phi", l1_weight},
                   {"a_t", l2 ? "t" : "1"},
                   {"gamma_t", l2 ? "const" : "sqrt"},
                   {"gamma", p.gamma},
                   {"T", T},
                   {"eps", eps},
                   {"delta0", delta0},
                   {"delta", delta},
                   {"delta_prime", delta_prime},
                   {"hidden_active_set", cfg.hidden_active_set},
                   {"sigma", res.sigma},
                   {"seed", cfg.seed},
                   {"threads", 1}};
  out["F_star"] = {{"upper", opt.upper}, {"lower", opt.lower}, {"epochs", opt.epochs}};
  out["final"] = {{"subopt_xbar", prob.objective(res.x_bar) - opt.upper},
                  {"subopt_ytilde", prob.objective(res.y_tilde) - opt.upper},
                  {"test_accuracy", accuracy<double>(data.Xtest, data.ytest, res.x_bar)}};
  out["trace"] = tr;
  return out;
}

/// The runs of one data set, appended to `runs`.
template <class F>
void one_dataset(const labelled_split<F>& data, const config& cfg, io::json& runs,
                 const progress_fn& progress) {
  const auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  for (const regularizer_choice reg : {regularizer_choice::l2, regularizer_choice::l1}) {
    const bool l2 = reg == regularizer_choice::l2;
    const std::string reg_name(io::enum_to_string(reg));
    const problem<double, F> prob(data.X, data.y, nodes,
                                  l2 ? problems::regularizer<double>::l2(l2_weight)
                                     : problems::regularizer<double>::l1(l1_weight));
    philox_stream os(cfg.seed, 0xF5);
    const auto opt = solve_optimum(prob, 1e-7, 3000, os, l2 ? 0.0 : 1e-5);
    say("[dda study] " + data.name + " " + reg_name + ": F* in [" + io::format_real(opt.lower) +
        ", " + io::format_real(opt.upper) + "] (" + std::to_string(opt.epochs) + " epochs)");
    for (const int e : cfg.edges) {
      const auto t0 = std::chrono::steady_clock::now();
      // (dda::params needs some ε > 0; no noise is calibrated from it: "eps" is null below)
      io::json np =
          one_run(data, prob, opt, cfg, reg, e, calibration_kind::none, cfg.eps.front(), {});
      np["params"]["eps"] = nullptr;
      np["reg"] = reg_name;
      np["variant"] = "non-private";
      runs.push_back(np);
      for (const double eps : cfg.eps) {
        // the three calibrations once per (data, ι, ε) from the library's public setup: they do
        // not depend on the regulariser
        const params<double> cp = accounting_params(cfg, eps, rounds(cfg, prob.used(), e));
        const auto s = setup_of(cp, 2.0 * e / nodes, prob.per_node());
        std::vector<calibration_report<double>> reps;
        for (const auto k :
             {calibration::paper_theorem1, calibration::sound_chain, calibration::rdp})
          reps.push_back(calibrate(s, k));
        for (const auto& [kind, variant] : {std::pair{calibration_kind::paper_theorem1, "paper"},
                                            std::pair{calibration_kind::sound_chain, "sound"},
                                            std::pair{calibration_kind::rdp, "rdp"}}) {
          io::json r = one_run(data, prob, opt, cfg, reg, e, kind, eps, reps);
          r["reg"] = reg_name;
          r["variant"] = variant;
          say("[dda study] " + data.name + " " + reg_name + " iota=" + io::format_real(s.iota) +
              " eps=" + io::format_real(eps) + " " + variant + ": sigma=" +
              r["params"]["sigma"].dump() + " subopt=" + r["final"]["subopt_xbar"].dump() +
              " acc=" + r["final"]["test_accuracy"].dump());
          runs.push_back(std::move(r));
        }
      }
      say("[dda study] " + data.name + " " + reg_name + " " + std::to_string(e) + " edge(s): " +
          io::format_real(
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()) +
          " s");
    }
  }
}

}  // namespace detail

/// The study document: {"command", "paper", "note", "runs": [...]}, one run per (data set,
/// regulariser, edges, variant, ε). @spec DDA.STUDY
inline io::json run_study(const config& cfg, const progress_fn& progress = {}) {
  cfg.validate();
  io::json runs = io::json::array();
  for (const dataset d : cfg.datasets) {
    switch (d) {
      case dataset::fashion:
        detail::one_dataset(fashion_data(cfg.data_dir, 0, 1), cfg, runs, progress);
        break;
      case dataset::grants:
        detail::one_dataset(grants_data(cfg.data_dir), cfg, runs, progress);
        break;
      case dataset::synthetic:
        detail::one_dataset(synthetic_data(synthetic_records, synthetic_dimension, cfg.seed), cfg,
                            runs, progress);
        break;
    }
  }
  return {{"command", "dda study"},
          {"paper", "dda (Liu-Johansson-Shi) section 5"},
          {"note",
           "calibrations: paper = Theorem 1 sigma as printed (its own chain certifies nothing at "
           "these T, DDA-E1/E4); sound = errata chain (public active set: 1/q over the node's "
           "active rounds); rdp = WBK subsampled-Gaussian RDP, delta = 1e-5. The 'rdp' entry of "
           "every calibration is what the accountant certifies for that sigma."},
          {"runs", runs}};
}

/// `dpref dda study`: the configuration read from `doc` (field list of config), validated with
/// the JSON pointer of the offending field, then run_study.
inline io::json study_json(const io::document& doc, const progress_fn& progress = {}) {
  config cfg;
  io::read_fields(io::node(doc), cfg);
  at_path(doc, "", [&] { cfg.validate(); });
  return run_study(cfg, progress);
}

}  // namespace dpref::dda::study

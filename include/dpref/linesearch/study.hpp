// `dpref linesearch study`: the data of the paper's Figures 1–4 (effect of α, β, noise type, q,
// budget strategy and ζ at ε ∈ {0.05, 0.2}; gradient / objective evaluations vs q at ε = 0.4;
// test accuracy and training objective vs ε for every algorithm and loss) with K-fold
// cross-validation × repetitions, in double precision. Every run goes through run() (so every
// private run's certified ε <= its ε, reported per cell as eps_max). The study's numbers are an
// evaluation (test accuracy, training objective): non-private by nature, labelled so.
// spec/linesearch.md "Study run", LS.STUDY.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dpref/io/json.hpp"
#include "dpref/linesearch/json.hpp"
#include "dpref/linesearch/run.hpp"

namespace dpref::linesearch {

/// Configuration of the study (double precision). @spec LS.STUDY
struct study_config {
  std::vector<std::string> data;  ///< CSV / LIBSVM files; empty: the synthetic problem
  std::vector<long long> figures{1, 2, 3};
  std::vector<loss_kind> losses{loss_kind::logistic, loss_kind::hinge};
  std::vector<double> eps_list{0.05, 0.1, 0.2, 0.4, 0.8, 1.6};
  std::vector<linesearch::algorithm> algorithms{
      algorithm::blsgd,   algorithm::blsgd_ac,   algorithm::blgd,
      algorithm::dpsgd,   algorithm::dpagd,      algorithm::outpert,
      algorithm::objpert, algorithm::nonprivate, algorithm::majority};
  long long folds = 10, reps = 5;
  std::optional<long long> max_rows;  ///< keep every k-th row so that at most this many remain
  long long synthetic_n = 250000, synthetic_d = 10;
  std::uint64_t synthetic_seed = 20261121;
  double mu = 0.001;
  linesearch::params<double> params{};  ///< base parameters (epsilon, algorithm set per cell)
  std::uint64_t seed = 20261121;
  std::string plot_script;  ///< "" = the shipped scripts/linesearch_study_plots.py
  std::string python = "/usr/bin/python3";

  template <class V>
  void fields(V&& v) {
    v("data", data, "CSV (label,features) or LIBSVM (.svm) files (empty: synthetic data)");
    v("figures", figures, "subset of 1, 2, 3 (3 = Figures 3 and 4)");
    v("losses", losses, "Figures 3-4 losses: logistic, hinge, huberized_hinge");
    v("eps_list", eps_list, "Figures 3-4 epsilons");
    v("algorithms", algorithms, "Figures 3-4 algorithms");
    v("folds", folds, "cross-validation folds in [1, 100] (1: train = test)");
    v("reps", reps, "repetitions in [1, 100]");
    v("max_rows", max_rows, "keep every k-th row so that at most max_rows >= 1 remain");
    v("synthetic_n", synthetic_n, "synthetic examples (without data) in [1, 1e7]");
    v("synthetic_d", synthetic_d, "synthetic dimension in [1, 100000]");
    v("synthetic_seed", synthetic_seed, "seed of the synthetic data generator");
    v("mu", mu, "L2 regularisation μ in [0, 1e6]");
    params.study_algorithms = algorithms;  // HARD.APPLIES: the fields of the study's algorithms
    v("params", params, "base parameters of every run (epsilon and algorithm set per cell)");
    v("seed", seed, "seed of the folds and runs");
    v("plot_script", plot_script,
      "plotting script (empty: the installed share/dpref/scripts/linesearch_study_plots.py)");
    v("python", python, "Python with matplotlib that runs the plotting script");
  }
  /// Work bound (lifted by params.force): folds × reps × cells <= 20000 runs.
  static constexpr long long max_runs = 20000;
  [[nodiscard]] long long cells() const;
  /// The problem description of one cell.
  [[nodiscard]] problem_spec<double> problem_for(const std::string& path, loss_kind loss) const {
    problem_spec<double> s;
    s.data = path;
    s.max_rows = max_rows;
    s.synthetic_n = synthetic_n;
    s.synthetic_d = synthetic_d;
    s.synthetic_seed = synthetic_seed;
    s.loss = loss;
    s.mu = mu;
    return s;
  }
  /// @throws invalid_parameter "linesearch::study.<field> must be ..., got ..."
  void validate() const {
    const param_checker c("linesearch::study");
    c.require(data.size() <= 100, "data", "at most 100 files", data.size());
    c.require(!figures.empty() && figures.size() <= 3, "figures", "1 to 3 entries", figures.size());
    for (const long long f : figures) c.at_least<long long>("figures", f, 1, 3);
    c.require(!losses.empty() && losses.size() <= 3, "losses", "1 to 3 entries", losses.size());
    c.require(!eps_list.empty() && eps_list.size() <= 100, "eps_list", "1 to 100 entries",
              eps_list.size());
    for (const double e : eps_list)
      c.require(std::isfinite(e) && e > 0 && e <= 1e6, "eps_list", "entries in (0, 1e6]", e);
    c.require(!algorithms.empty() && algorithms.size() <= 9, "algorithms", "1 to 9 entries",
              algorithms.size());
    c.at_least<long long>("folds", folds, 1, 100);
    c.at_least<long long>("reps", reps, 1, 100);
    c.require(params.force || folds * reps * cells() <= max_runs, "folds",
              "such that folds × reps × cells <= 20000 runs (or params.force)",
              folds * reps * cells());
    c.require(python.size() <= 4096 && !python.empty(), "python", "a non-empty path", python);
    problem_for("", loss_kind::logistic).validate();
    for (const std::string& f : data)
      c.require(!f.empty() && f.size() <= 4096, "data", "non-empty paths", f);
    // the base parameters and every cell's, before the first run
    params.validate();
    for (const double e : eps_list) {
      linesearch::params<double> p = params;
      p.epsilon = e;
      p.validate();
    }
    for (const double e : {0.05, 0.2, 0.4}) {
      linesearch::params<double> p = params;
      p.epsilon = e;
      p.validate();
    }
  }
};

inline long long study_config::cells() const {
  long long n = 0;
  for (const long long f : figures)
    n += f == 1   ? 48
         : f == 2 ? 6
                  : static_cast<long long>(losses.size() * eps_list.size() * algorithms.size());
  return n * std::max<long long>(1, static_cast<long long>(data.size()));
}

namespace detail {

/// Fold of every example: a seeded permutation (sort by Philox keys), example of rank r in fold
/// r mod K.
inline std::vector<int> folds_of(Eigen::Index n, int K, std::uint64_t seed) {
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
  bool budget_met = true;
};

/// K-fold CV × reps of one configuration: test accuracy and training objective (mean, sd).
inline cv_result cross_validate(const problem<double>& P, const params<double>& prm,
                                const study_config& cfg) {
  std::vector<double> acc, obj;
  cv_result r;
  const int K = static_cast<int>(cfg.folds);
  for (long long rep = 0; rep < cfg.reps; ++rep) {
    const auto f = folds_of(P.size(), K, cfg.seed + static_cast<std::uint64_t>(rep));
    for (int k = 0; k < K; ++k) {
      std::vector<Eigen::Index> tr, te;
      for (Eigen::Index i = 0; i < P.size(); ++i)
        (f[static_cast<std::size_t>(i)] == k ? te : tr).push_back(i);
      if (K == 1) te = tr;
      const auto Ptr = P.subset(tr), Pte = P.subset(te);
      const philox_stream st(cfg.seed, static_cast<std::uint64_t>(rep * 1000 + k));
      const auto res = run(Ptr, prm, st);
      if (prm.algorithm == algorithm::majority) {
        acc.push_back(majority_accuracy(Ptr.labels(), Pte.labels()));
        obj.push_back(std::nan(""));
      } else {
        const vector<double>& w =
            prm.algorithm == algorithm::nonprivate ? *res.diagnostics.minimiser : res.w;
        acc.push_back(Pte.accuracy(w));
        obj.push_back(Ptr.value(w));
      }
      if (res.privacy.is_private) {
        r.eps_max = std::max(r.eps_max, res.privacy.guarantee.epsilon);
        r.budget_met = r.budget_met && res.privacy.budget_met;
      }
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

inline io::json cv_value(const cv_result& r) {
  io::json j = io::json::object();
  j["accuracy"] = r.accuracy;
  j["accuracy_sd"] = r.accuracy_sd;
  j["objective"] = std::isfinite(r.objective) ? io::json(r.objective) : io::json(nullptr);
  j["objective_sd"] = std::isfinite(r.objective_sd) ? io::json(r.objective_sd) : io::json(nullptr);
  j["eps_max"] = r.eps_max;
  j["budget_met"] = r.budget_met;
  j["gradients"] = r.gradients;
  j["objective_queries"] = r.objective_queries;
  return j;
}

}  // namespace detail

/// Runs the study of `doc` (a study_config document). `progress` receives one line per cell.
/// @throws invalid_parameter / std::invalid_argument naming the field before any run
/// @spec LS.STUDY
inline io::json study_json(const io::document& doc,
                           const std::function<void(const std::string&)>& progress = {}) {
  study_config cfg;
  io::read_fields(io::node(doc), cfg);
  detail::located(
      doc,
      {{"linesearch::study", ""}, {"linesearch::params", "/params"}, {"linesearch::problem", ""}},
      [&] { cfg.validate(); });
  const auto say = [&](const std::string& s) {
    if (progress) progress(s);
  };
  const auto load = [&](const std::string& path, loss_kind loss) {
    return make_problem(cfg.problem_for(path, loss));
  };
  const auto cell = [&](const problem<double>& P, params<double> p) {
    p.progress = {};
    return detail::cross_validate(P, p, cfg);
  };
  io::json out = io::json::object();
  out["schema"] = "dpref.linesearch.study/1";
  out["config"] = io::fields_value(cfg);
  out["note"] =
      "test accuracy and training objective are evaluations on the data (non-private); "
      "eps_max is the largest certified epsilon of the cell's runs";
  io::json ds = io::json::array();
  const std::vector<std::string> sets = cfg.data.empty() ? std::vector<std::string>{""} : cfg.data;
  for (const auto& path : sets) {
    io::json d = io::json::object();
    d["data"] = path.empty() ? "synthetic" : path;
    for (const long long f : cfg.figures) {
      if (f == 1 || f == 2) {
        const auto P = load(path, loss_kind::logistic);
        d["n"] = P.size();
        d["d"] = P.dimension();
        io::json rows = io::json::array();
        if (f == 1) {  // Figure 1: DP-BLSGD hyper-parameters at ε ∈ {0.05, 0.2}
          struct sweep {
            std::string name;
            std::vector<std::string> values;
          };
          const std::vector<sweep> sweeps = {{"alpha", {"0.1", "0.3", "0.5", "0.7", "0.9"}},
                                             {"beta", {"0.5", "0.6", "0.7", "0.8", "0.9"}},
                                             {"noise", {"laplace", "gaussian"}},
                                             {"q", {"0.01", "0.05", "0.1", "0.5", "1"}},
                                             {"strategy", {"none", "must", "adaptive"}},
                                             {"zeta", {"0", "0.05", "0.1", "0.2"}}};
          for (const double eps : {0.05, 0.2})
            for (const auto& sw : sweeps)
              for (const auto& v : sw.values) {
                params<double> p = cfg.params;
                p.epsilon = eps;
                p.algorithm = algorithm::blsgd;
                if (sw.name == "alpha") p.alpha = io::parse_real<double>(v, "alpha");
                if (sw.name == "beta") p.beta = io::parse_real<double>(v, "beta");
                if (sw.name == "noise") p.noise = io::enum_from_string<btls_noise>(v, "noise");
                if (sw.name == "q") p.q = io::parse_real<double>(v, "q");
                if (sw.name == "strategy")
                  p.strategy = io::enum_from_string<budget_strategy>(v, "strategy");
                if (sw.name == "zeta") {
                  p.zeta = io::parse_real<double>(v, "zeta");
                  if (p.zeta > 0) p.algorithm = algorithm::blsgd_ac;
                }
                io::json j = detail::cv_value(cell(P, p));
                j["eps"] = eps;
                j["parameter"] = sw.name;
                j["value"] = v;
                say("figure 1: eps=" + io::format_real(eps) + " " + sw.name + "=" + v +
                    " accuracy=" + io::format_real(j["accuracy"].get<double>()));
                rows.push_back(std::move(j));
              }
          d["figure1"] = std::move(rows);
        } else {  // Figure 2: evaluations vs q at ε = 0.4
          for (const double q : {0.01, 0.05, 0.1, 0.2, 0.5, 1.0}) {
            params<double> p = cfg.params;
            p.epsilon = 0.4;
            p.algorithm = algorithm::blsgd;
            p.q = q;
            io::json j = detail::cv_value(cell(P, p));
            j["q"] = q;
            say("figure 2: q=" + io::format_real(q));
            rows.push_back(std::move(j));
          }
          d["figure2"] = std::move(rows);
        }
      } else {  // Figures 3–4: accuracy and objective vs ε
        io::json per_loss = io::json::object();
        for (const loss_kind l : cfg.losses) {
          const auto P = load(path, l);
          d["n"] = P.size();
          d["d"] = P.dimension();
          io::json rows = io::json::array();
          for (const double eps : cfg.eps_list)
            for (const algorithm a : cfg.algorithms) {
              params<double> p = cfg.params;
              p.epsilon = eps;
              p.algorithm = a;
              io::json j = detail::cv_value(cell(P, p));
              j["eps"] = eps;
              j["algorithm"] = std::string(io::enum_to_string(a));
              say("figures 3-4: " + std::string(io::enum_to_string(l)) +
                  " eps=" + io::format_real(eps) + " " + std::string(io::enum_to_string(a)) +
                  " accuracy=" + io::format_real(j["accuracy"].get<double>()));
              rows.push_back(std::move(j));
            }
          per_loss[std::string(io::enum_to_string(l))] = std::move(rows);
        }
        d["figure34"] = std::move(per_loss);
      }
    }
    ds.push_back(std::move(d));
  }
  out["datasets"] = std::move(ds);
  return out;
}

}  // namespace dpref::linesearch

// The experiments of accel §5 as one JSON document (spec/accel.md ACCEL.STUDY): Figure 1
// (Theorem 3.5 rate and bound of DP-SHB on a quadratic), Figure 2 (optimal b_t of DP-MASG,
// Prop 4.2 with the weights (4.8)) and Figures 3-4 (the six algorithms on synthetic or real
// logistic regression, mean F(x_t) − F* over runs). study_config has a field list: the CLI
// (`dpref accel study`) builds its flags from it, passes the values as a document to
// study_json(doc), writes the result and runs the plot script.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dpref/accel/bounds_hb.hpp"
#include "dpref/accel/bounds_masg.hpp"
#include "dpref/accel/run.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/io/json.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref::accel {

/// What `dpref accel study` computes (defaults: accel §5 where the paper gives them).
struct study_config {
  std::vector<int>
      figures;       ///< subset of 1, 2, 3 (= Figures 3 and 4); empty: 1, 2, 3 or, with data, 3
  std::string data;  ///< Figures 3-4 on a real CSV (empty: synthetic)
  long long n = 100000, d = 20, runs = 20, T_fig1 = 100, T_fig2 = 1000;
  std::vector<long long> T_list{100, 200, 500, 1000};
  std::vector<long long> m_list{0, 1000};  ///< 0 (or >= n): the full batch
  std::vector<double> c_list{0.1, 1};
  double eps = 1, lambda = 0.01, E0 = 10;
  /// Public bound B on ‖u‖₁; absent: 20 (synthetic) or the CSV schema bound.
  std::optional<double> l1_bound;
  std::uint64_t seed = 20261121, data_seed = 1;
  /// Use the data's certified L as the paper does (reproduction only: declared public although
  /// it is computed from the data, so NOT private); default: the public bound B²/4 + 2λ.
  bool paper_L = false;
  bool intercept = false;
  bool force = false;  ///< lift the work bound (memory bounds stay); progress on stderr then

  template <class V>
  void fields(V&& v) {
    v("figures", figures, "subset of 1, 2, 3 (3 = Figures 3-4); empty: 1,2,3, with --data: 3");
    v("data", data,
      "Figures 3-4 on a real data CSV from scripts/real_data.sh instead of synthetic");
    v("n", n, "examples of the synthetic data (Figures 3-4), in [1, 1e7]");
    v("d", d, "dimension, in [1, 1e4]");
    v("runs", runs, "runs averaged, in [1, 1e5]");
    v("T_fig1", T_fig1, "T of Figure 1, in [1, 1e6]");
    v("T_fig2", T_fig2, "T of Figure 2, in [1, 1e6]");
    v("T_list", T_list, "iteration counts of Figures 3-4, each in [1, 1e6]");
    v("m_list", m_list, "minibatch sizes (0 or >= n: the full batch)");
    v("c_list", c_list, "step scales c (α = c/L), each > 0");
    v("eps", eps, "privacy budget ε in (0, 1e6]");
    v("lambda", lambda, "regularisation λ >= 0");
    v("E0", E0, "E0 of Remark 4.1 for the -opt variants, >= 0");
    v("l1_bound", l1_bound, "public bound B on ‖u‖₁ (absent: 20 synthetic, the CSV schema bound)");
    v("seed", seed, "noise seed (run r uses stream r)");
    v("data_seed", data_seed, "seed of the synthetic data");
    v("paper_L", paper_L,
      "use the data's certified L as the paper does (reproduction only: not private)");
    v("intercept", intercept, "with data: append a constant-1 feature (the l1 bound grows by 1)");
    v("force", force, "run even when the work of Figures 3-4 exceeds 1e13 (progress on stderr)");
  }

  /// The figures to compute: `figures`, or when empty 1, 2, 3 (synthetic) or 3 (with data).
  [[nodiscard]] std::vector<int> resolved_figures() const {
    if (!figures.empty()) return figures;
    return data.empty() ? std::vector<int>{1, 2, 3} : std::vector<int>{3};
  }

  /// Work bound (HARD.WORK): Figures 3-4 cost about 6 algorithms × runs × Σ_m Σ_c Σ_T T ×
  /// (m + n) × d multiply-adds (the minibatch gradient plus the objective trace of every
  /// iterate, over the full data); more than this needs force.
  static constexpr double max_work = 1e13;
  [[nodiscard]] double work() const {
    const std::vector<int> f = resolved_figures();
    if (std::find(f.begin(), f.end(), 3) == f.end()) return 0;
    double sum_T = 0, sum_m = 0;
    for (const long long T : T_list) sum_T += static_cast<double>(T);
    for (const long long m : m_list)
      sum_m += static_cast<double>(m <= 0 || m >= n ? n : m) + static_cast<double>(n);
    return 6.0 * static_cast<double>(runs) * sum_m * static_cast<double>(c_list.size()) * sum_T *
           static_cast<double>(d);
  }

  /// @throws invalid_parameter "accel::study_config.<field> must be <condition>, got <value>"
  /// (every list entry and count, before any work; the work bound unless force)
  /// @spec ACCEL.STUDY HARD.WORK
  void validate() const {
    const param_checker ch("accel::study_config");
    ch.require(figures.size() <= 3, "figures", "a subset of 1, 2, 3", figures.size());
    for (std::size_t i = 0; i < figures.size(); ++i) {
      ch.at_least<int>("figures", figures[i], 1, 3);
      for (std::size_t j = 0; j < i; ++j)
        ch.require(figures[j] != figures[i], "figures", "without repetitions", figures[i]);
    }
    ch.at_least<long long>("n", n, 1, 10000000);
    ch.at_least<long long>("d", d, 1, 10000);
    ch.require(n <= 100000000 / d, "n", "such that n·d <= 1e8 (memory bound)", n);
    ch.at_least<long long>("runs", runs, 1, 100000);
    ch.at_least<long long>("T_fig1", T_fig1, 1, 1000000);
    ch.at_least<long long>("T_fig2", T_fig2, 1, 1000000);
    const auto list = [&](std::string_view name, std::size_t size) {
      ch.require(size >= 1 && size <= 100, name, "a list of 1 to 100 values", size);
    };
    list("T_list", T_list.size());
    for (const long long T : T_list) ch.at_least<long long>("T_list", T, 1, 1000000);
    list("m_list", m_list.size());
    for (const long long m : m_list)
      ch.require(m >= 0, "m_list",
                 "entries >= 0 (n, 0 or >= n: the full batch; 1..n-1: a minibatch)", m);
    list("c_list", c_list.size());
    for (const double c : c_list) ch.positive("c_list", c);
    ch.positive("eps", eps);
    ch.require(eps <= 1e6, "eps", "finite and in (0, 1e6]", eps);
    ch.nonnegative("lambda", lambda);
    ch.nonnegative("E0", E0);
    if (!force)
      ch.require(work() <= max_work, "runs",
                 "such that the work of Figures 3-4 (6 × runs × Σm (m + n) × |c_list| × ΣT × d "
                 "multiply-adds) is <= 1e13, or give --force (got work " +
                     format_work(work()) + ")",
                 runs);
  }
  static std::string format_work(double w) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", w);
    return buf;
  }
};

/// Figure 1: Theorem 3.5 on the 2-D quadratic Q = diag(μ, L) = diag(0.5, 1): ρ (3.18) and the
/// bound (3.17) at t = T with C_t = t, σ_T² = (T c_w)², ‖ξ0 − ξ*‖² = 4 (x0 − x* = (1, 1),
/// x_{−1} = x0), over a 40×40 (α, β) grid, α ∈ (0, 1/L], β ∈ [0, 1).
/// @spec ACCEL.STUDY
inline io::json study_figure1(const study_config& o) {
  const double mu = 0.5, L = 1;
  const std::vector<double> lam{mu, L};
  io::json fig;
  fig["description"] = "accel Figure 1: Theorem 3.5 rate and bound, Q = diag(0.5, 1)";
  fig["T"] = o.T_fig1;
  io::json alphas = io::json::array(), betas = io::json::array();
  const int na = 40, nb = 40;
  for (int i = 1; i <= na; ++i) alphas.push_back(i / (na * L));
  for (int j = 0; j < nb; ++j) betas.push_back(static_cast<double>(j) / nb);
  fig["alpha"] = alphas;
  fig["beta"] = betas;
  io::json rho = io::json::array();
  for (int i = 1; i <= na; ++i) {
    io::json row = io::json::array();
    for (int j = 0; j < nb; ++j)
      row.push_back(bounds::hb_rate(i / (na * L), double(j) / nb, mu, L));
    rho.push_back(row);
  }
  fig["rho"] = rho;
  for (const double cw : {1e-4, 1e-2}) {
    const double s2 = std::pow(static_cast<double>(o.T_fig1) * cw, 2);
    io::json b = io::json::array();
    for (int i = 1; i <= na; ++i) {
      io::json row = io::json::array();
      for (int j = 0; j < nb; ++j) {
        const double a = i / (na * L), be = double(j) / nb;
        row.push_back(bounds::hb_rate(a, be, mu, L) < 1
                          ? io::json(bounds::hb_theorem35_bound(o.T_fig1, 4.0, a, be, lam, s2))
                          : io::json(nullptr));
      }
      b.push_back(row);
    }
    fig[cw == 1e-4 ? "bound_cw_1e-4" : "bound_cw_1e-2"] = b;
  }
  return fig;
}

/// Figure 2: optimal b_t of DP-MASG (Prop 4.2 with the weights of (4.8)), μ = 1, L = 20, p = 1,
/// c = 1, S₁ = 1, n = 1, ε = 1, T = T_fig2. @spec ACCEL.STUDY
inline io::json study_figure2(const study_config& o) {
  const double mu = 1, L = 20;
  const auto s = make_masg_schedule<double>(o.T_fig2, mu, L, 1, 0, 1.0);
  const auto w = bounds::masg_weights(s, o.T_fig2, mu, L);
  const auto opt = prop42(w.a, 1.0, 1, 1.0);
  io::json fig;
  fig["description"] = "accel Figure 2: optimal b_t of DP-MASG (mu = 1, L = 20, p = 1)";
  fig["T"] = o.T_fig2;
  fig["stage_length"] = s.stage_length;
  fig["b"] = opt.b;
  fig["eps_t"] = opt.eps;
  return fig;
}

/// Figures 3–4: the six algorithms on synthetic (or real, `data`) logistic regression; mean over
/// runs of F(x_t) − F*, F* from a certified non-private solve (ACCEL.FSTAR; §5 uses 1000 NAG
/// steps), for every (m, c, T). Run r reads stream r of `seed`. @spec ACCEL.STUDY
using study_progress = std::function<void(std::string_view)>;

inline io::json study_figure34(const study_config& o, const study_progress& progress = {}) {
  problem_spec<double> ps;
  ps.data = o.data;
  ps.n = o.n;
  ps.d = o.d;
  if (o.l1_bound) ps.l1_bound = *o.l1_bound;  // make_problem validates it
  ps.lambda = o.lambda;
  ps.data_seed = o.data_seed;
  ps.intercept = o.intercept;
  const auto P = make_problem(ps);
  const long long n = P.size();
  const auto ref = certified_minimum(P, 1e-12);
  const double Fs = ref.value;
  io::json fig;
  fig["description"] = "accel Figures 3-4: mean F(x_t) - F* over runs";
  fig["data"] = o.data.empty() ? std::string("synthetic (ACCEL.DATA)") : o.data;
  fig["n"] = n;
  fig["d"] = P.dimension();
  fig["l1_bound"] = P.l1_sensitivity() / 2;
  fig["lambda"] = o.lambda;
  fig["eps"] = o.eps;
  fig["runs"] = o.runs;
  fig["F_star"] = Fs;
  fig["F_star_gap_bound"] = ref.gap_bound;
  fig["F_star_certified"] = ref.certified;
  fig["F_star_iterations"] = ref.iterations;
  fig["tag"] =
      o.data.empty() ? std::string("synthetic") : std::filesystem::path(o.data).stem().string();
  fig["L_certified"] = P.smoothness();
  fig["L_public"] = P.public_smoothness();
  fig["uses_data_L"] = o.paper_L;
  fig["mu"] = P.strong_convexity();
  io::json cases = io::json::array();
  // progress with an estimate when the work bound was lifted (HARD.WORK)
  const auto t0 = std::chrono::steady_clock::now();
  const double total_cases = static_cast<double>(
      o.m_list.size() * o.c_list.size() * o.T_list.size() * enum_names(algorithm_kind{}).size());
  for (const long long m : o.m_list)
    for (const double c : o.c_list)
      for (const long long T : o.T_list)
        for (const auto& [alg, name] : enum_names(algorithm_kind{})) {
          std::vector<double> mean;
          long long Tused = 0;
          for (long long r = 0; r < o.runs; ++r) {
            params<double> p;
            p.algorithm = alg;
            p.iterations = T;
            if (m > 0 && m < n) p.m = m;
            p.c = c;
            if (o.paper_L) p.L = P.smoothness();  // declared public: reproduction only
            p.epsilon = o.eps;
            p.trace = true;
            p.diagnostics = true;  // the study evaluates F(x_t): a non-private analysis
            if (alg == algorithm_kind::nag_opt || alg == algorithm_kind::masg_opt) p.E0 = o.E0;
            const philox_stream st(o.seed, static_cast<std::uint64_t>(r));
            const auto res = run(P, p, st);
            Tused = res.iterations;
            if (mean.empty()) mean.assign(res.trace.size(), 0.0);
            for (std::size_t t = 0; t < res.trace.size() && t < mean.size(); ++t)
              mean[t] += (res.trace[t] - Fs) / static_cast<double>(o.runs);
          }
          cases.push_back({{"algorithm", std::string(name)},
                           {"m", m <= 0 || m >= n ? n : m},
                           {"c", c},
                           {"T", T},
                           {"T_used", Tused},
                           {"mean_excess", mean}});
          if (o.force && progress) {
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const double done = static_cast<double>(cases.size());
            char line[160];
            std::snprintf(
                line, sizeof line,
                "accel study: figure 3-4 case %.0f of %.0f, %.0f s elapsed, about %.0f s left",
                done, total_cases, s, s / done * (total_cases - done));
            progress(line);
          }
        }
  fig["cases"] = cases;
  return fig;
}

/// The study document: {"command", "figure1"?, "figure2"?, "figure34"?}; progress (with force)
/// receives one line per Figures 3-4 case.
/// @throws std::invalid_argument for a figure other than 1, 2, 3 @spec ACCEL.STUDY
inline io::json study_json(const study_config& o, const study_progress& progress = {}) {
  o.validate();
  io::json out;
  out["command"] = "dpref accel study";
  for (const int f : o.resolved_figures()) {
    if (f == 1)
      out["figure1"] = study_figure1(o);
    else if (f == 2)
      out["figure2"] = study_figure2(o);
    else if (f == 3)
      out["figure34"] = study_figure34(o, progress);
    else
      throw std::invalid_argument("accel::study_config.figures entries must be 1, 2 or 3, got " +
                                  std::to_string(f));
  }
  return out;
}

/// `dpref accel study`: the configuration read from `doc` (field list of study_config),
/// validated with the JSON pointer of the offending field, then study_json.
/// @spec ACCEL.STUDY
inline io::json study_json(const io::document& doc, const study_progress& progress = {}) {
  study_config cfg;
  io::read_fields(io::node(doc), cfg);
  at_path(doc, "", [&] { cfg.validate(); });
  return study_json(cfg, progress);
}

}  // namespace dpref::accel

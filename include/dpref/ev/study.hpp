// The numerical study of ev §VII (Figures 1–4) as library functions shared by `dpref ev study`
// and the regression tests: mean relative suboptimality [U(Σ r̂^(K+1)) − U*]/U* of Algorithm 2
// over independent runs with its standard error, sweeps over c, K and ε (K optimised per ε on
// one set of runs and evaluated on a fresh set), the log-log slope with its Monte Carlo and
// regression confidence intervals, and the three qualitative claims as statistical checks.
// `config` (with its field list) is also the configuration of `dpref ev study` (study_json in
// json.hpp). spec/ev.md EV.STUDY.*.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "dpref/ev/data.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/ev/study_statistics.hpp"
#include "dpref/parallel/worker_scope.hpp"

namespace dpref::ev::study {

/// Stream ids of the study's runs: run r of evaluation set `set` uses stream
/// (seed, run_stream_base + set·2^20 + r); its noise w_k is substream k (Algorithm 2). The same
/// run index gives the same noise draws at every grid point (common random numbers).
inline constexpr std::uint64_t run_stream_base = 0x45565300ULL << 24;

/// Runs Algorithm 2 `runs` times (runs r = 0..runs−1 of evaluation set `set`) and returns the
/// relative suboptimality [U(Σ r̂^(K+1)) − U*]/U* of each. The runs are split over `threads`
/// workers; each result depends only on its run index, so the output does not depend on threads.
/// @spec EV.STUDY.CLAIMS
inline point_stats relative_suboptimality(const problem<double>& prob, double u_star,
                                          params<double> params, long long runs, std::uint64_t seed,
                                          std::uint64_t set = 0, int threads = 1) {
  if (runs < 2) fail_domain("dpref::ev::study::relative_suboptimality", "runs", ">= 2", runs);
  require_positive("dpref::ev::study::relative_suboptimality", "u_star", u_star);
  params.algorithm = algorithm_kind::private_projected_gradient;
  params.trace = false;
  params.optimum = false;
  params.threads = 1;
  point_stats s;
  s.values.assign(static_cast<std::size_t>(runs), 0.0);
  const auto t0 = std::chrono::steady_clock::now();
  auto work = [&](long long r0, long long r1) {
    for (long long r = r0; r < r1; ++r) {
      philox_stream st(seed, run_stream_base + (set << 20) + static_cast<std::uint64_t>(r));
      const auto res = run(prob, params, st);
      s.values[static_cast<std::size_t>(r)] = (res.averaged_objective - u_star) / u_star;
    }
  };
  const long long w = std::max(1LL, std::min<long long>(threads, runs));
  {
    std::vector<std::jthread> pool;
    const parallel::thread_numerics numerics = parallel::thread_numerics::current();
    for (long long i = 1; i < w; ++i)
      pool.emplace_back([&work, i, w, runs, numerics] {
        const parallel::worker_scope scope(numerics);
        work(runs * i / w, runs * (i + 1) / w);
      });
    work(0, runs / w);
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  finish_stats(s);
  return s;
}

/// How the noise is calibrated. Only `correct` is Algorithm 2 for the study's adjacency; the
/// others are the negative controls of the regression tests (NOT private for that adjacency):
/// the adjacency (δr, δE), hence Δ and the noise scale, is multiplied by
/// K_ref(K_ref−1)/(K(K−1)) (noise frozen at its K_ref scale) or by ε/ε_ref (frozen at its ε_ref
/// scale); each such run is Algorithm 2 for a smaller adjacency, with its own ledger.
enum class calibration { correct, noise_independent_of_K, noise_independent_of_eps };

/// Configuration of the study (defaults: the full study of spec/ev.md EV.STUDY.FULL); its field
/// list is the `--params` document and the flags of `dpref ev study`.
/// @spec EV.STUDY.CONFIG
struct config {
  /// Work bound: Σ over the runs of iterations × columns × T (lifted by force).
  static constexpr double max_work = 1e11;
  /// Memory bound of the study: one T × N matrix of double at most 512 MiB (the study holds
  /// several problems and runs at once; `ev run` allows problem_spec::max_matrix_bytes).
  static constexpr std::size_t max_matrix_bytes = std::size_t(512) << 20;

  // the instances (one per units setting; specs from `seed`)
  std::string base_load = std::string(shipped_base_load);
  double households = 500000;
  long long users = 100000;
  long long groups = 100;
  spec_mode mode = spec_mode::grouped;        ///< sweeps (Figs. 2-4): grouped as ev §VII
  spec_mode fig1_mode = spec_mode::per_user;  ///< Fig. 1 and the reference point
  std::vector<ev::units> units{ev::units::household, ev::units::paper};
  long long reference_runs = 100;  ///< per-user vs grouped at the reference point (0: none)
  std::vector<long long> figures{1, 2, 3, 4};
  long long optimum_max_iterations = 20000;
  // the runs
  long long runs = 100;
  std::uint64_t seed = 20261121;
  int threads = 1;
  double step = 10, epsilon = 0.1, eta = 1;
  long long iterations = 6;
  double delta_r = 13.2, delta_e = 12;
  std::vector<double> step_list{1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25, 30, 40};
  std::vector<long long> iterations_list{2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 30, 40};
  std::vector<double> epsilon_list{0.01,  0.0178, 0.0316, 0.0562, 0.1,  0.178, 0.316,
                                   0.562, 1,      1.78,   3.16,   5.62, 10};
  std::vector<long long> iterations_opt_list{2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50, 64};
  double flat_band = 2;  ///< claim EV.STUDY.C: m(20)/m(10) within a factor flat_band
  double flat_step_lo = 10, flat_step_hi = 20;
  double z = 5;             ///< claims EV.STUDY.K, EV.STUDY.EPS: margin in standard errors
  bool paper_delta = true;  ///< also run every point with the paper's Δ (and the paired gain)
  bool force = false;
  // not fields: negative controls of the regression tests, and the figures of run_study
  calibration calib = calibration::correct;
  bool fig2 = true, fig3 = true, fig4 = true;

  template <class V>
  void fields(V&& v) {
    v("base_load", base_load, "base-load CSV, or shipped:<name> (default: the taylor profile)");
    v("households", households, "m, in [1, 1e12]");
    v("users", users, "n, in [1, 1e9]");
    v("groups", groups, "N of the grouped mode, in [1, min(n, 1e7)]");
    v("mode", mode, "mode of the sweeps (Figs. 2-4): grouped (ev §VII) or per_user");
    v("fig1_mode", fig1_mode, "mode of Fig. 1 and the reference point");
    v("units", units, "units settings to run: household (λ = m), paper (λ = 1) (EV.UNITS)");
    v("reference_runs", reference_runs,
      "runs of the per-user vs grouped comparison at the reference point: 0 (none) or [2, 1e5]");
    v("figures", figures, "figures to make: a subset of 1, 2, 3, 4");
    v("optimum_max_iterations", optimum_max_iterations,
      "iteration cap of the certified optimum, in [1, 1e7]");
    v("runs", runs, "runs per point, in [2, 1e5]");
    v("seed", seed, "seed of the specs and of the runs");
    v("threads", threads, "threads (runs split over them; the output does not depend on it)");
    v("step", step, "c of Figs. 1, 3, 4, in (0, 1e15]");
    v("epsilon", epsilon, "ε of Figs. 1-3, in (0, 1e6]");
    v("eta", eta, "η of every run, in [1, 1e6]");
    v("iterations", iterations, "K of Figs. 1, 2, in [2, 1e5]");
    v("delta_r", delta_r, "adjacency δr in [0, 1e6]");
    v("delta_e", delta_e, "adjacency δE in [0, 1e6]");
    v("step_list", step_list, "Fig. 2 grid of c");
    v("iterations_list", iterations_list, "Fig. 3 grid of K (at least 3 values)");
    v("epsilon_list", epsilon_list, "Fig. 4 grid of ε (at least 3 values)");
    v("iterations_opt_list", iterations_opt_list, "Fig. 4: grid of K optimised per ε");
    v("flat_band", flat_band, "claim EV.STUDY.C: the band factor, in (1, 1e6]");
    v("flat_step_lo", flat_step_lo, "claim EV.STUDY.C: lower c");
    v("flat_step_hi", flat_step_hi, "claim EV.STUDY.C: upper c (> flat_step_lo)");
    v("z", z, "margin of the claims in standard errors, in (0, 100]");
    v("paper_delta", paper_delta, "also run every point with the paper's Δ (ev Theorem 8)");
    v("force", force, "lift the work bound (Σ iterations × columns × T <= 1e11)");
  }

  /// groups applies when some part of the study runs the grouped mode (HARD.APPLIES).
  template <class A>
  void applicability(A&& a) const {
    a("groups", mode == spec_mode::grouped || fig1_mode == spec_mode::grouped || reference_runs > 0,
      "applies only when mode or fig1_mode is grouped or reference_runs > 0 (the per-user vs "
      "grouped comparison)");
  }

  /// @throws invalid_parameter "ev::study::config.<field> must be ..., got ..."
  /// @spec EV.STUDY.CONFIG
  void validate() const {
    const param_checker c("ev::study::config");
    c.require(!base_load.empty() && base_load.size() <= 4096 && base_load != "shipped:",
              "base_load", "a file name (1 to 4096 characters) or shipped:<name>",
              "'" + base_load.substr(0, 80) + "'");
    c.in_closed("households", households, 1.0, 1e12, "finite and in [1, 1e12]");
    c.at_least<long long>("users", users, 1, 1000000000LL);
    c.at_least<long long>("groups", groups, 1, 10000000LL);
    if (mode == spec_mode::grouped || fig1_mode == spec_mode::grouped)
      c.require(groups <= users, "groups", "<= users (n = " + std::to_string(users) + ")", groups);
    c.require(
        !units.empty() && std::set<ev::units>(units.begin(), units.end()).size() == units.size(),
        "units", "a non-empty list without repetitions", units.size());
    c.require(!figures.empty() && figures.size() <= 4, "figures",
              "a non-empty subset of 1, 2, 3, 4", figures.size());
    std::set<long long> seen;
    for (const long long f : figures) {
      c.at_least<long long>("figures", f, 1, 4);
      c.require(seen.insert(f).second, "figures", "without repetitions", f);
    }
    c.require(reference_runs == 0 || (reference_runs >= 2 && reference_runs <= 100000),
              "reference_runs", "0 or in [2, 100000]", reference_runs);
    c.at_least<long long>("optimum_max_iterations", optimum_max_iterations, 1, 10000000LL);
    c.at_least<long long>("runs", runs, 2, 100000);
    c.at_least<int>("threads", threads, 1, 256);
    c.positive("step", step);
    c.require(step <= 1e15, "step", "finite and in (0, 1e15]", step);
    c.positive("epsilon", epsilon);
    c.require(epsilon <= 1e6, "epsilon", "finite and in (0, 1e6]", epsilon);
    c.in_closed("eta", eta, 1.0, 1e6, "finite and in [1, 1e6]");
    c.at_least<long long>("iterations", iterations, 2, 100000);
    c.in_closed("delta_r", delta_r, 0.0, 1e6, "finite and in [0, 1e6]");
    c.in_closed("delta_e", delta_e, 0.0, 1e6, "finite and in [0, 1e6]");
    c.require(delta_r > 0 || delta_e > 0, "delta_e", "> 0 when delta_r = 0 (Δ > 0)", delta_e);
    const auto list_size = [&](std::string_view name, std::size_t n, std::size_t lo) {
      c.require(n >= lo && n <= 1000, name, "a list of " + std::to_string(lo) + " to 1000 values",
                n);
    };
    list_size("step_list", step_list.size(), 1);
    for (const double x : step_list) {
      c.positive("step_list", x);
      c.require(x <= 1e15, "step_list", "values in (0, 1e15]", x);
    }
    list_size("iterations_list", iterations_list.size(), 3);
    for (const long long k : iterations_list)
      c.at_least<long long>("iterations_list", k, 2, 100000);
    list_size("epsilon_list", epsilon_list.size(), 3);
    for (const double e : epsilon_list) {
      c.positive("epsilon_list", e);
      c.require(e <= 1e6, "epsilon_list", "values in (0, 1e6]", e);
    }
    list_size("iterations_opt_list", iterations_opt_list.size(), 1);
    for (const long long k : iterations_opt_list)
      c.at_least<long long>("iterations_opt_list", k, 2, 100000);
    c.require(is_finite_value(flat_band) && flat_band > 1 && flat_band <= 1e6, "flat_band",
              "finite and in (1, 1e6]", flat_band);
    c.positive("flat_step_lo", flat_step_lo);
    c.require(is_finite_value(flat_step_hi) && flat_step_hi > flat_step_lo && flat_step_hi <= 1e15,
              "flat_step_hi", "finite, > flat_step_lo and <= 1e15", flat_step_hi);
    c.require(is_finite_value(z) && z > 0 && z <= 100, "z", "finite and in (0, 100]", z);
  }

  /// Whether figure f (1..4) is requested.
  [[nodiscard]] bool has_figure(long long f) const {
    return std::find(figures.begin(), figures.end(), f) != figures.end();
  }

  /// Estimated work Σ iterations × columns × T of the study's runs of Algorithm 2 at horizon T
  /// (the bound).
  [[nodiscard]] double work(long long horizon) const {
    const double deltas = paper_delta ? 2 : 1;
    double sweep_iters = 0;  // iterations of one run set over the sweep grids
    if (has_figure(2))
      sweep_iters += static_cast<double>(step_list.size() + 2) * static_cast<double>(iterations);
    if (has_figure(3)) {
      for (const long long k : iterations_list) sweep_iters += static_cast<double>(k);
      sweep_iters += 3.0 * static_cast<double>(iterations_list.back());
    }
    if (has_figure(4)) {
      double opt = 0, mx = 0;
      for (const long long k : iterations_opt_list)
        opt += static_cast<double>(k), mx = std::max(mx, static_cast<double>(k));
      sweep_iters += static_cast<double>(epsilon_list.size()) * (opt + mx);
    }
    const auto cols = [&](spec_mode m) {
      return static_cast<double>(m == spec_mode::per_user ? users : groups);
    };
    double w = deltas * static_cast<double>(runs) * sweep_iters * cols(mode);
    w += static_cast<double>(reference_runs) * static_cast<double>(iterations) *
         (cols(mode) + cols(fig1_mode));
    w += 2.0 * static_cast<double>(iterations) * cols(fig1_mode);  // Fig. 1
    // (the certified optimum stops at its certificate; its cap is optimum_max_iterations)
    return w * static_cast<double>(units.size()) * static_cast<double>(horizon);
  }
};

/// Parameters of one grid point of Algorithm 2; Δ from `which` (paper: 2δr + δE; tight: errata
/// EV-E1) at the configuration's adjacency, scaled for the negative-control calibrations.
inline params<double> point_params(const config& cfg, double c, long long K, double eps,
                                   sensitivity_bound which) {
  params<double> p;
  p.algorithm = algorithm_kind::private_projected_gradient;
  p.iterations = K;
  p.epsilon = eps;
  p.step = c;
  p.eta = cfg.eta;
  p.sensitivity_bound = which;
  p.trace = false;
  p.optimum = false;
  double f = 1;  // Δ is homogeneous of degree 1 in (δr, δE) for both bounds
  if (cfg.calib == calibration::noise_independent_of_K)
    f = static_cast<double>(cfg.iterations * (cfg.iterations - 1)) /
        static_cast<double>(K * (K - 1));
  else if (cfg.calib == calibration::noise_independent_of_eps)
    f = eps / cfg.epsilon;
  p.delta_r = cfg.delta_r * f;
  p.delta_e = cfg.delta_e * f;
  return p;
}

/// A sweep over one parameter, for both Δ (same run indices: paired).
struct sweep {
  std::vector<double> x;
  std::vector<point_stats> tight, paper, gain;  ///< gain = paper − tight (paired)
};

/// The ε sweep of Fig. 4: K chosen on set 0 over K_opt_list, evaluated on set 1.
struct eps_sweep {
  std::vector<double> eps;
  std::vector<long long> best_K_tight, best_K_paper;
  std::vector<point_stats> tight, paper, gain;  ///< evaluation set at the chosen K
  std::vector<std::vector<double>> selection_tight, selection_paper;  ///< set-0 means per K
  loglog_fit fit_tight, fit_paper;
};

/// Results of the three figures and the claims (for the tight Δ, dpref's default; the paper's
/// Δ is reported alongside).
struct result {
  sweep c, K;
  std::vector<point_stats> K_check_tight, K_check_paper;  ///< set 1 at first, best, last K
  std::size_t K_best_tight = 0, K_best_paper = 0;
  eps_sweep eps;
  claim_result flat_tight, flat_paper, interior_tight, interior_paper, slope_tight, slope_paper;
  double seconds = 0;
};

namespace detail {
inline point_stats at(const problem<double>& prob, double u_star, const config& cfg, double c,
                      long long K, double eps, sensitivity_bound which, std::uint64_t set) {
  return relative_suboptimality(prob, u_star, point_params(cfg, c, K, eps, which), cfg.runs,
                                cfg.seed, set, cfg.threads);
}
}  // namespace detail

/// Runs Figures 2–4 on one problem with certified optimum u_star and checks the claims.
/// @spec EV.STUDY.CLAIMS
inline result run_study(const problem<double>& prob, double u_star, const config& cfg,
                        const progress_fn& progress = {}) {
  using sb = sensitivity_bound;
  const auto t0 = std::chrono::steady_clock::now();
  result r;
  std::vector<sb> deltas{sb::tight};
  if (cfg.paper_delta) deltas.push_back(sb::paper);
  progress_meter meter(progress, 5.0);
  long long points = 0;
  auto point = [&](double c, long long K, double eps, sb which, std::uint64_t set) {
    meter.report([&] {
      return "ev study: point " + std::to_string(points) + " (c = " + ::dpref::detail::to_text(c) +
             ", K = " + std::to_string(K) + ", epsilon = " + ::dpref::detail::to_text(eps) + ")";
    });
    ++points;
    return detail::at(prob, u_star, cfg, c, K, eps, which, set);
  };
  if (cfg.fig2) {  // Fig. 2: c sweep at (K_ref, ε_ref)
    std::vector<double> cs = cfg.step_list;
    for (const double c : {cfg.flat_step_lo, cfg.flat_step_hi})
      if (std::find(cs.begin(), cs.end(), c) == cs.end()) cs.push_back(c);
    std::sort(cs.begin(), cs.end());
    for (const double c : cs) {
      r.c.x.push_back(c);
      r.c.tight.push_back(point(c, cfg.iterations, cfg.epsilon, sb::tight, 0));
      if (!cfg.paper_delta) continue;
      r.c.paper.push_back(point(c, cfg.iterations, cfg.epsilon, sb::paper, 0));
      r.c.gain.push_back(paired_difference(r.c.paper.back(), r.c.tight.back()));
    }
    const auto idx = [&](double c) {
      return static_cast<std::size_t>(std::find(cs.begin(), cs.end(), c) - cs.begin());
    };
    const std::size_t lo = idx(cfg.flat_step_lo), hi = idx(cfg.flat_step_hi);
    r.flat_tight = check_flat(r.c.tight[lo], r.c.tight[hi], cfg.flat_band);
    if (cfg.paper_delta) r.flat_paper = check_flat(r.c.paper[lo], r.c.paper[hi], cfg.flat_band);
  }
  if (cfg.fig3) {  // Fig. 3: K sweep at (c_ref, ε_ref); claim on a fresh set
    for (const long long K : cfg.iterations_list) {
      r.K.x.push_back(static_cast<double>(K));
      r.K.tight.push_back(point(cfg.step, K, cfg.epsilon, sb::tight, 0));
      if (!cfg.paper_delta) continue;
      r.K.paper.push_back(point(cfg.step, K, cfg.epsilon, sb::paper, 0));
      r.K.gain.push_back(paired_difference(r.K.paper.back(), r.K.tight.back()));
    }
    r.K_best_tight = argmin_mean(r.K.tight);
    if (cfg.paper_delta) r.K_best_paper = argmin_mean(r.K.paper);
    for (const sb which : deltas) {
      const std::size_t b = which == sb::tight ? r.K_best_tight : r.K_best_paper;
      auto& chk = which == sb::tight ? r.K_check_tight : r.K_check_paper;
      for (const std::size_t i : {std::size_t(0), b, cfg.iterations_list.size() - 1})
        chk.push_back(point(cfg.step, cfg.iterations_list[i], cfg.epsilon, which, 1));
      (which == sb::tight ? r.interior_tight : r.interior_paper) =
          check_interior(chk[0], chk[1], chk[2], cfg.z);
    }
  }
  if (cfg.fig4) {  // Fig. 4: ε sweep, K optimised per ε (ev §VII) on set 0, evaluated on set 1
    for (const double eps : cfg.epsilon_list) {
      r.eps.eps.push_back(eps);
      for (const sb which : deltas) {
        std::vector<point_stats> sel;
        std::vector<double> means;
        for (const long long K : cfg.iterations_opt_list) {
          sel.push_back(point(cfg.step, K, eps, which, 0));
          means.push_back(sel.back().mean);
        }
        const long long K = cfg.iterations_opt_list[argmin_mean(sel)];
        (which == sb::tight ? r.eps.best_K_tight : r.eps.best_K_paper).push_back(K);
        (which == sb::tight ? r.eps.selection_tight : r.eps.selection_paper).push_back(means);
        (which == sb::tight ? r.eps.tight : r.eps.paper)
            .push_back(point(cfg.step, K, eps, which, 1));
      }
      if (cfg.paper_delta)
        r.eps.gain.push_back(paired_difference(r.eps.paper.back(), r.eps.tight.back()));
    }
    for (const sb which : deltas) {
      const auto& pts = which == sb::tight ? r.eps.tight : r.eps.paper;
      std::vector<double> m, se;
      for (const auto& p : pts) m.push_back(p.mean), se.push_back(p.se);
      const loglog_fit f = fit_loglog(r.eps.eps, m, se);
      (which == sb::tight ? r.eps.fit_tight : r.eps.fit_paper) = f;
      (which == sb::tight ? r.slope_tight : r.slope_paper) = check_negative_slope(f, cfg.z);
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace dpref::ev::study

// JSON entry points of the ev module (spec/architecture.md ARCH.JSON, spec/ev.md EV.JSON):
//   run_json<Real>(doc)      `dpref ev run`: config<Real> read strictly through its field list,
//                            the problem built from its public description, `run`, and the
//                            result document (schema dpref.result/1);
//   sensitivity_json(doc)    `dpref ev sensitivity`: Δ of ev Theorem 8, the tight value (errata
//                            EV-E1) and the worst-case search;
//   study_json(doc)          `dpref ev study`: the study of ev §VII (Figures 1–4 and the claims).
// Every document is deterministic (no timings: progress and timings go to `progress`).
//
// Result of `run` (ARCH.JSON): "iterates": {"released": [p̂^(1), …, p̂^(K)]} — the broadcast
// sequence, the only output Theorem 6 covers (Algorithm 1: p^(k); Algorithm 3: ĝ_k); for the
// optimum {"load", "value", "lower", "gap"}. "trace": null. "non_private": the loads, the
// objectives, the exact gradients, the objective traces, the certified optimum and the relative
// suboptimality of ev §VII — functions of every user's constraints, not covered by the guarantee:
// always for the non-private algorithms, for Algorithm 2 only with params.diagnostics (otherwise
// the document has no "non_private" key and they are not computed: PRIV.RELEASE).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dpref/ev/bounds.hpp"
#include "dpref/ev/data.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/ev/study.hpp"
#include "dpref/io/json.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref::ev {

/// The label of non-private sections.
inline constexpr const char* non_private_note =
    "not covered by the privacy guarantee: functions of every user's constraints (loads, "
    "objectives, exact gradients, U*)";

/// The result document of a run (see the file comment).
/// @spec EV.JSON ARCH.RESULT
template <real_scalar Real>
io::json result_json(const result<Real>& res, const config<Real>& cfg, const problem<Real>& prob) {
  result_parts parts;
  parts.paper = "ev";
  parts.algorithm = std::string(io::enum_to_string(res.algorithm));
  parts.config = io::fields_value(cfg);
  parts.trace = nullptr;
  parts.diagnostics = cfg.params.diagnostics;
  if (res.privacy.is_private) parts.iterates = {{"released", io::to_value(res.released)}};
  // PRIV.RELEASE: a private run's document carries the released p̂^(k) only, unless the caller
  // asked for the non-private diagnostics
  if (res.privacy.is_private && !cfg.params.diagnostics) return result_value(res, std::move(parts));
  io::json np = io::json::object();
  np["note"] = non_private_note;
  if (res.algorithm == algorithm_kind::optimum) {
    parts.iterates = {{"load", io::to_value(res.final_load)},
                      {"value", io::real_value(res.optimum->value)},
                      {"lower", io::real_value(res.optimum->lower)},
                      {"gap", io::real_value(res.optimum->gap)}};
    np["load_per_household"] = io::to_value(vector<Real>(res.final_load / prob.households()));
  } else {
    parts.iterates = {{"released", io::to_value(res.released)}};
    np["final_load"] = io::to_value(res.final_load);
    np["averaged_load"] = io::to_value(res.averaged_load);
    np["averaged_load_per_household"] =
        io::to_value(vector<Real>(res.averaged_load / prob.households()));
    np["final_objective"] = io::real_value(res.final_objective);
    np["averaged_objective"] = io::real_value(res.averaged_objective);
    np["exact_gradients"] = io::to_value(res.gradients);
    np["trace"] = res.trace ? io::fields_value(*res.trace) : io::json(nullptr);
    if (res.optimum) {
      np["optimum"] = io::fields_value(*res.optimum);
      const auto rel = *res.relative_suboptimality();
      // ev §VII: [U(Σ r̂^(K+1)) − U*]/U*, bracketed by the certificate
      np["relative_suboptimality"] = io::real_value(rel.first);
      np["relative_suboptimality_upper"] = io::real_value(rel.second);
    }
  }
  parts.non_private = std::move(np);
  return result_value(res, std::move(parts));
}

/// `dpref ev run`: reads config<Real> from `doc` (unknown keys, wrong types and invalid values
/// refused with the JSON path or flag), builds the problem, runs, returns the result document.
/// @throws std::invalid_argument / invalid_parameter for invalid input;
/// accounting::budget_exceeded (nothing released)
/// @spec EV.JSON ARCH.JSON
template <real_scalar Real>
io::json run_json(const io::document& doc, const progress_fn& progress = {},
                  const parallel::communicator& comm = parallel::serial()) {
  const auto cfg = read_run_config<config<Real>>(doc);
  if (progress)
    progress("ev: building the problem (base load, " + std::to_string(cfg.problem.columns()) +
             " specs)");
  // DIST.EV: each rank draws only its owned columns' specs, unless the certified optimum (not
  // distributed) needs the whole problem on every rank
  const bool whole = cfg.params.optimum || cfg.params.algorithm == algorithm_kind::optimum;
  const problem<Real> prob = at_path(doc, "/problem", [&] {
    return whole ? make_problem(cfg.problem) : make_problem(cfg.problem, comm);
  });
  at_path(doc, "/params", [&] { detail::validate_against(prob, cfg.params); });
  const philox_stream stream(cfg.seed, cfg.stream);
  if (progress) progress("ev: running " + std::string(io::enum_to_string(cfg.params.algorithm)));
  const result<Real> res = run(prob, cfg.params, stream, progress, comm);  // DIST.EV
  return result_json(res, cfg, prob);
}

// ------------------------------------------------------------------------------ sensitivity --

/// `dpref ev sensitivity`: {"schema": "dpref.ev.sensitivity/1", "config", "paper", "tight",
/// "paper_over_tight", "search": {...witness}} (double; the search is a certified LOWER bound).
/// @spec EV.SENS.CONFIG
inline io::json sensitivity_json(const io::document& doc) {
  sensitivity_config cfg;
  io::read_fields(io::node(doc), cfg);
  at_path(doc, "", [&] { cfg.validate(); });
  const auto T = static_cast<std::size_t>(cfg.horizon);
  const double paper =
      projection_sensitivity(cfg.delta_r, cfg.delta_e, T, sensitivity_bound::paper);
  const double tight =
      projection_sensitivity(cfg.delta_r, cfg.delta_e, T, sensitivity_bound::tight);
  philox_stream s(cfg.seed, 2);
  const auto st = static_cast<std::size_t>(cfg.search_horizon);
  const auto w = search_sensitivity(st, cfg.delta_r, cfg.delta_e, static_cast<int>(cfg.restarts),
                                    static_cast<int>(cfg.steps), s);
  const double tight_search =
      projection_sensitivity(cfg.delta_r, cfg.delta_e, st, sensitivity_bound::tight);
  io::json out = io::json::object();
  out["schema"] = "dpref.ev.sensitivity/1";
  out["config"] = io::fields_value(cfg);
  out["paper"] = paper;  // ev (9), Theorem 8: 2δr + δE
  out["tight"] = tight;  // errata EV-E1
  out["paper_over_tight"] = tight > 0 ? io::json(paper / tight) : io::json(nullptr);
  out["search"] = {
      {"distance", w.distance},
      {"tight_at_search_horizon", tight_search},
      {"relative_gap_to_tight",
       tight_search > 0 ? io::json((tight_search - w.distance) / tight_search) : io::json(nullptr)},
      {"x0", io::to_value(w.x0)},
      {"a", io::to_value(w.a)},
      {"b", w.b},
      {"a_prime", io::to_value(w.a_prime)},
      {"b_prime", w.b_prime}};
  return out;
}

// ------------------------------------------------------------------------------------ study --

namespace detail {

inline problem<double> study_problem(const study::config& o, const vector<double>& d,
                                     spec_mode mode, double scale) {
  auto specs = mode == spec_mode::grouped
                   ? draw_grouped_specs<double>(o.seed, d.size(), o.users,
                                                static_cast<Eigen::Index>(o.groups))
                   : draw_specs<double>(o.seed, d.size(), static_cast<Eigen::Index>(o.users));
  return problem<double>(d, o.households, std::move(specs), scale);
}

inline io::json stats_list(const std::vector<study::point_stats>& v) {
  io::json m = io::json::array(), se = io::json::array();
  for (const auto& s : v) m.push_back(s.mean), se.push_back(s.se);
  return {{"mean", m}, {"se", se}};
}

inline io::json claim_json(const study::claim_result& c) {
  return {{"holds", c.holds},
          {"estimate", c.estimate},
          {"threshold", c.threshold},
          {"se", c.se},
          {"margin_se", c.margin_se}};
}

inline io::json fit_json(const study::loglog_fit& f) {
  return {{"slope", f.slope},
          {"intercept", f.intercept},
          {"se_mc", f.se_mc},
          {"se_fit", f.se_fit},
          {"ci95_mc", {f.ci95_mc_lo, f.ci95_mc_hi}},
          {"ci95_fit", {f.ci95_fit_lo, f.ci95_fit_hi}},
          {"paper_slope", -0.698},
          {"corollary9_slope", -0.25}};
}

inline io::json optimum_json(const result<double>& opt) {
  return {{"value", opt.optimum->value},
          {"lower", opt.optimum->lower},
          {"certified", opt.optimum->certified},
          {"iterations", opt.optimum->iterations}};
}

/// The certified U* of a study instance. @throws std::runtime_error if not certified
inline result<double> study_optimum(const problem<double>& prob, const study::config& o,
                                    const progress_fn& progress) {
  auto opt = solve_optimum(prob, o.optimum_max_iterations, 1e-10, progress);
  if (opt.status != status::converged)
    throw std::runtime_error("dpref ev study: U* not certified in " +
                             std::to_string(o.optimum_max_iterations) +
                             " iterations (raise optimum_max_iterations)");
  return opt;
}

/// Fig. 1: one typical run (run 0 of set 0) at (c, K, ε) of the configuration for both Δ, and
/// the optimum, as per-household loads d + Σ r/m (kW).
inline io::json figure1(const study::config& o, const problem<double>& prob,
                        const result<double>& opt) {
  using sb = sensitivity_bound;
  io::json f = io::json::object();
  const double m = o.households;
  f["base_load"] = io::to_value(prob.base_load());
  f["optimum_load"] = io::to_value(vector<double>(prob.base_load() + opt.final_load / m));
  for (const sb which : {sb::tight, sb::paper}) {
    auto p = study::point_params(o, o.step, o.iterations, o.epsilon, which);
    p.threads = o.threads;
    const philox_stream st(o.seed, study::run_stream_base);
    const auto res = run(prob, p, st);
    f[which == sb::tight ? "private_load_tight" : "private_load_paper"] =
        io::to_value(vector<double>(prob.base_load() + res.averaged_load / m));
    f[which == sb::tight ? "relative_suboptimality_tight" : "relative_suboptimality_paper"] =
        (res.averaged_objective - opt.optimum->value) / opt.optimum->value;
  }
  return f;
}

inline io::json sweep_json(const study::sweep& s) {
  return {{"x", s.x},
          {"tight", stats_list(s.tight)},
          {"paper", stats_list(s.paper)},
          {"gain_paper_minus_tight", stats_list(s.gain)}};
}

inline io::json study_units(const study::config& o, const vector<double>& d, units u,
                            const progress_fn& progress) {
  const double scale = u == units::paper ? 1.0 : household_units(o.households);
  io::json out = io::json::object();
  out["objective_scale"] = scale;
  out["c_meaning"] = u == units::paper
                         ? "alpha_k = c/sqrt(k) with U = 1/2||d + x/m||^2 (ev (7) literally)"
                         : "alpha_k = c/sqrt(k) with U = (m/2)||d + x/m||^2, p = d + x/m (kW)";
  const auto sweep_prob = study_problem(o, d, o.mode, scale);
  if (progress) progress("ev study: certified optimum of the sweep instance");
  const auto opt = study_optimum(sweep_prob, o, progress);
  out["sweep_optimum"] = optimum_json(opt);
  if (o.has_figure(1) || o.reference_runs > 0) {
    const bool same = o.fig1_mode == o.mode;
    const auto p1 = same ? sweep_prob : study_problem(o, d, o.fig1_mode, scale);
    if (!same && progress) progress("ev study: certified optimum of the Figure 1 instance");
    const auto opt1 = same ? opt : study_optimum(p1, o, progress);
    if (o.has_figure(1)) {
      if (progress) progress("ev study: Figure 1");
      out["figure1"] = figure1(o, p1, opt1);
      out["figure1"]["mode"] = std::string(io::enum_to_string(o.fig1_mode));
      out["figure1"]["optimum"] = optimum_json(opt1);
    }
    if (o.reference_runs > 1 && !same) {
      // the reference point (c, K, ε, tight Δ) in both modes: agreement
      if (progress) progress("ev study: reference point in both modes");
      const auto pp =
          study::point_params(o, o.step, o.iterations, o.epsilon, sensitivity_bound::tight);
      const auto a = study::relative_suboptimality(sweep_prob, opt.optimum->value, pp,
                                                   o.reference_runs, o.seed, 0, o.threads);
      const auto b = study::relative_suboptimality(p1, opt1.optimum->value, pp, o.reference_runs,
                                                   o.seed, 0, o.threads);
      out["modes"] = {
          {"runs", o.reference_runs},
          {std::string(io::enum_to_string(o.mode)), {{"mean", a.mean}, {"se", a.se}}},
          {std::string(io::enum_to_string(o.fig1_mode)), {{"mean", b.mean}, {"se", b.se}}}};
    }
  }
  study::config cfg = o;
  cfg.fig2 = o.has_figure(2);
  cfg.fig3 = o.has_figure(3);
  cfg.fig4 = o.has_figure(4);
  const auto r = study::run_study(sweep_prob, opt.optimum->value, cfg, progress);
  if (cfg.fig2) {
    out["figure2"] = sweep_json(r.c);
    out["figure2"]["K"] = cfg.iterations;
    out["figure2"]["eps"] = cfg.epsilon;
  }
  if (cfg.fig3) {
    out["figure3"] = sweep_json(r.K);
    out["figure3"]["c"] = cfg.step;
    out["figure3"]["eps"] = cfg.epsilon;
    out["figure3"]["best_K_tight"] = cfg.iterations_list[r.K_best_tight];
    out["figure3"]["best_K_paper"] = cfg.iterations_list[r.K_best_paper];
    out["figure3"]["check_set_tight"] = stats_list(r.K_check_tight);
    out["figure3"]["check_set_paper"] = stats_list(r.K_check_paper);
  }
  if (cfg.fig4) {
    out["figure4"] = {{"eps", r.eps.eps},
                      {"c", cfg.step},
                      {"K_grid", cfg.iterations_opt_list},
                      {"best_K_tight", r.eps.best_K_tight},
                      {"best_K_paper", r.eps.best_K_paper},
                      {"tight", stats_list(r.eps.tight)},
                      {"paper", stats_list(r.eps.paper)},
                      {"gain_paper_minus_tight", stats_list(r.eps.gain)},
                      {"selection_means_tight", r.eps.selection_tight},
                      {"selection_means_paper", r.eps.selection_paper},
                      {"fit_tight", fit_json(r.eps.fit_tight)},
                      {"fit_paper", fit_json(r.eps.fit_paper)}};
  }
  io::json claims = io::json::object();
  if (cfg.fig2)
    claims["flat_in_c"] = {{"tight", claim_json(r.flat_tight)},
                           {"paper", claim_json(r.flat_paper)},
                           {"band_factor", cfg.flat_band},
                           {"c_lo", cfg.flat_step_lo},
                           {"c_hi", cfg.flat_step_hi}};
  if (cfg.fig3)
    claims["interior_optimum_in_K"] = {{"tight", claim_json(r.interior_tight)},
                                       {"paper", claim_json(r.interior_paper)},
                                       {"z", cfg.z}};
  if (cfg.fig4)
    claims["negative_slope_in_eps"] = {
        {"tight", claim_json(r.slope_tight)}, {"paper", claim_json(r.slope_paper)}, {"z", cfg.z}};
  out["claims"] = claims;
  // Theorem 7's explicit bound and Corollary 16's K* at the reference point (EV.BOUND.*)
  const auto plan = calibrate_algorithm2(
      cfg.iterations, sweep_prob.objective_scale(), sweep_prob.households(), cfg.delta_r,
      cfg.delta_e, static_cast<std::size_t>(d.size()), sensitivity_bound::tight, cfg.epsilon);
  const double s = plan.scale;
  const auto k = theorem7_constants(sweep_prob, s);
  const double t7 = theorem7_explicit(sweep_prob, cfg.iterations, cfg.step, cfg.eta, s);
  out["bounds_at_reference"] = {
      {"theorem7_explicit_absolute", t7},
      {"theorem7_explicit_relative", t7 / opt.optimum->value},
      {"corollary16_K_star",
       corollary16_iterations(k.G, static_cast<long long>(d.size()), sweep_prob.lipschitz(),
                              plan.sensitivity, cfg.epsilon)},
      {"corollary15_c_star", corollary15_step(k.diameter, k.G_hat)}};
  return out;
}

}  // namespace detail

/// `dpref ev study`: reads study::config strictly, checks the memory and work bounds before any
/// run, runs every requested units setting and returns {"schema": "dpref.ev.study/1",
/// "config", "horizon", "Delta_paper", "Delta_tight", "units": {<units>: {figures, claims,
/// bounds}}} (double; no timings).
/// @throws std::invalid_argument / invalid_parameter for invalid input
/// @spec EV.STUDY.CONFIG
inline io::json study_json(const io::document& doc, const progress_fn& progress = {}) {
  study::config cfg;
  io::read_fields(io::node(doc), cfg);
  at_path(doc, "", [&] { cfg.validate(); });
  const vector<double> d = read_base_load_csv<double>(base_load_path(cfg.base_load));
  const param_checker c("ev::study::config");
  const auto t = static_cast<std::size_t>(d.size());
  const std::size_t max_columns = study::config::max_matrix_bytes / (t * sizeof(double));
  for (const spec_mode m : {cfg.mode, cfg.fig1_mode}) {
    const long long cols = m == spec_mode::per_user ? cfg.users : cfg.groups;
    at_path(doc, "", [&] {
      c.require(static_cast<std::size_t>(cols) <= max_columns,
                m == spec_mode::per_user ? "users" : "groups",
                "<= " + std::to_string(max_columns) +
                    " (memory bound: 512 MiB per T × N matrix at T = " + std::to_string(t) + ")",
                cols);
    });
  }
  at_path(doc, "", [&] {
    c.require(cfg.force || cfg.work(static_cast<long long>(t)) <= study::config::max_work, "runs",
              "such that the study's Σ iterations × columns × T <= 1e11 (work bound, estimated " +
                  ::dpref::detail::to_text(cfg.work(static_cast<long long>(t))) +
                  "; set force to lift it)",
              cfg.runs);
  });
  io::json out = io::json::object();
  out["schema"] = "dpref.ev.study/1";
  out["config"] = io::fields_value(cfg);
  out["horizon"] = d.size();
  out["Delta_paper"] =
      projection_sensitivity(cfg.delta_r, cfg.delta_e, t, sensitivity_bound::paper);
  out["Delta_tight"] =
      projection_sensitivity(cfg.delta_r, cfg.delta_e, t, sensitivity_bound::tight);
  out["units"] = io::json::object();
  for (const units u : cfg.units) {
    if (progress) progress("ev study: units " + std::string(io::enum_to_string(u)));
    out["units"][std::string(io::enum_to_string(u))] = detail::study_units(cfg, d, u, progress);
  }
  return out;
}

// Explicit instances, compiled once in src/papers/ev_runner.cpp (ARCH.INSTANCES); the
// consumers that link dpref_papers (the CLI, the Python module) see the extern declarations.
#define DPREF_EV_RUN_JSON_INSTANCES(EXT, R)                                  \
  EXT template io::json run_json<R>(const io::document&, const progress_fn&, \
                                    const parallel::communicator&);
#ifdef DPREF_PAPER_INSTANCES
#define DPREF_EV_EXTERN_RUN_JSON(R) DPREF_EV_RUN_JSON_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_EV_EXTERN_RUN_JSON)
#undef DPREF_EV_EXTERN_RUN_JSON
#endif

}  // namespace dpref::ev

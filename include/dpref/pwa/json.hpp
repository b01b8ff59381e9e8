// JSON entry point of the pwa paper (spec/architecture.md ARCH.JSON, spec/pwa.md PWA.JSON):
//   run_json<Real>(doc)   `dpref pwa run`: config<Real> read strictly through its field list
//                         (every number converted once from its decimal text at Real), the
//                         problem built from its public description, `run`, and the result
//                         document (schema dpref.result/1).
// Result: "iterates": {"x": the released output, "selected": Algorithm 2's i* (released),
// "sensitivity", "noise_scale", "step", "bounds": {theorem17 | theorem24_best_iterate}} — public
// quantities only; "privacy.enforced": how each public constant holds (PRIV.BOUNDS).
// "non_private": f(x), the suboptimality, the best iterate's objective (errata PWA-E3: Theorem
// 24's object, not an output), the certified optimum and M_E's proposal counts — functions of
// the private b, not covered by the guarantee: always for the non-private algorithms, for a
// private one only with params.diagnostics (PRIV.RELEASE), then with its objective trace
// ("objective_trace"; a non-private run's trace is "trace": {"objective"}).
#pragma once

#include <string>

#include "dpref/io/json.hpp"
#include "dpref/pwa/run.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref::pwa {

/// The label of the non-private section.
inline constexpr const char* non_private_note =
    "not covered by the privacy guarantee: functions of the private b (objective values, the "
    "best iterate, the exact optimum, the objective trace, M_E's proposal counts)";

/// The result document of a run (see the file comment).
/// @spec PWA.JSON ARCH.RESULT
template <real_scalar Real>
io::json result_json(const result<Real>& res, const config<Real>& cfg) {
  result_parts parts;
  parts.paper = "pwa";
  parts.algorithm = std::string(io::enum_to_string(res.algorithm));
  parts.config = io::fields_value(cfg);
  io::json it = io::json::object();
  it["x"] = io::to_value(res.x);
  it["selected"] = io::to_value(res.selected);
  it["sensitivity"] = io::to_value(res.sensitivity);
  it["noise_scale"] = io::to_value(res.noise_scale);
  it["step"] = io::to_value(res.step);
  it["bounds"] = {{"theorem17", io::to_value(res.bound_theorem17)},
                  {"theorem24_best_iterate", io::to_value(res.bound_theorem24_best_iterate)}};
  parts.iterates = std::move(it);
  const auto& d = res.diagnostics;
  const bool priv = res.privacy.is_private;
  // a private run's "trace" could only hold released or public values: f(x^(i)) is neither
  parts.trace = cfg.params.trace && !priv ? io::json{{"objective", io::to_value(d.objective_trace)}}
                                          : io::json(nullptr);
  parts.diagnostics = cfg.params.diagnostics;
  if (priv && !cfg.params.diagnostics) return result_value(res, std::move(parts));  // PRIV.RELEASE
  io::json np = io::json::object();
  np["note"] = non_private_note;
  np["objective"] = io::to_value(d.objective);
  np["suboptimality"] = io::to_value(d.suboptimality);
  np["best_iterate_objective"] = io::to_value(d.best_iterate_objective);
  if (d.optimum)
    np["optimum"] = {{"x", io::to_value(d.optimum->x)},
                     {"value", io::real_value(d.optimum->value)},
                     {"lower_bound", io::real_value(d.optimum->lower_bound)},
                     {"certificate_gap", io::to_value(d.optimum_gap)},
                     {"lambda", io::to_value(d.optimum->certificate.lambda)},
                     {"mu", io::to_value(d.optimum->certificate.mu)},
                     {"simplex_iterations", d.optimum->iterations}};
  else
    np["optimum"] = nullptr;
  if (d.sampler_counts)
    np["sampler"] = {{"attempts", d.sampler_counts->attempts},
                     {"accepted", d.sampler_counts->accepted}};
  if (priv && cfg.params.trace) np["objective_trace"] = io::to_value(d.objective_trace);
  parts.non_private = std::move(np);
  return result_value(res, std::move(parts));
}

/// `dpref pwa run`: reads config<Real> from `doc` (unknown keys, wrong types and invalid values
/// refused with the JSON path or flag), builds the problem, runs, returns the result document.
/// @throws std::invalid_argument / invalid_parameter for invalid input;
/// accounting::budget_exceeded (nothing released)
/// @spec PWA.JSON ARCH.JSON
template <real_scalar Real>
io::json run_json(const io::document& doc) {
  const auto cfg = read_run_config<config<Real>>(doc);
  const problem<Real> prob = at_path(doc, "/problem", [&] { return make_problem(cfg.problem); });
  at_path(doc, "/params", [&] { detail::validate_against(prob, cfg.params); });
  const philox_stream stream(cfg.seed, cfg.stream);
  // validated above, once: the run itself (refusals during it, e.g. M_E's max_attempts, name the
  // flag / JSON path too)
  const result<Real> res =
      at_path(doc, "/params", [&] { return detail::run_validated(prob, cfg.params, stream); });
  return result_json(res, cfg);
}

// Explicit instances, compiled once in src/papers/pwa_runner.cpp (ARCH.INSTANCES); the
// consumers that link dpref_papers (the CLI, the Python module) see the extern declarations.
#define DPREF_PWA_RUN_JSON_INSTANCES(EXT, R) EXT template io::json run_json<R>(const io::document&);
#ifdef DPREF_PAPER_INSTANCES
#define DPREF_PWA_EXTERN_RUN_JSON(R) DPREF_PWA_RUN_JSON_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_PWA_EXTERN_RUN_JSON)
#undef DPREF_PWA_EXTERN_RUN_JSON
#endif

}  // namespace dpref::pwa

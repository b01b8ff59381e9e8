// JSON entry point of the accel paper (spec/architecture.md ARCH.JSON, spec/accel.md ACCEL.JSON):
//   run_json<Real>(doc)   `dpref accel run`: config<Real> read strictly through its field list
//                         (every number converted once from its decimal text at Real), the
//                         problem built from its public description, `run`, and the result
//                         document (schema dpref.result/1).
// Result: "iterates": {"x": x_{T′} (released), "noise_scales": b_t, "alpha", "beta", "batch",
// "smoothness" (the public L), "S1" (the public sensitivity 2B)} — public quantities and the
// release; "privacy.enforced": the public bounds and their enforcement (PRIV.BOUNDS).
// Non-private diagnostics — F(x_{T′}), the objective trace F(x_t), the F* estimate of a certified
// non-private solve and the data's certified L (NOT used by the run), functions of the private
// data not covered by the guarantee — appear (PRIV.RELEASE):
//   private run: only with params.diagnostics, all under "non_private" (with its "note"; the
//     trace as non_private.trace.objective); "trace" is null;
//   non-private run (noise = none): "trace": {"objective": F(x_t)} or null and "non_private".
#pragma once

#include <string>

#include "dpref/accel/run.hpp"
#include "dpref/io/json.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref::accel {

/// The label of the non-private section.
inline constexpr const char* non_private_note =
    "not covered by the privacy guarantee: functions of the private data without noise (the "
    "objective, its trace, the F* estimate, the data's certified smoothness, which the run does "
    "not use)";

/// The result document of a run (see the file comment).
/// @spec ACCEL.JSON ARCH.RESULT
template <real_scalar Real>
io::json result_json(const run_result<Real>& res, const config<Real>& cfg,
                     const problem<Real>& prob) {
  result_parts parts;
  parts.paper = "accel";
  parts.algorithm = std::string(io::enum_to_string(res.algorithm));
  parts.config = io::fields_value(cfg);
  io::json it = io::json::object();
  it["x"] = io::to_value(res.x);
  it["noise_scales"] = io::to_value(res.noise_scales);
  it["alpha"] = io::real_value(res.alpha);
  it["beta"] = io::real_value(res.beta);
  it["batch"] = res.batch;
  it["n"] = prob.size();
  it["d"] = prob.dimension();
  it["smoothness"] = io::real_value(res.smoothness);
  it["S1"] = io::real_value(prob.l1_sensitivity());
  it["mu"] = io::real_value(prob.strong_convexity());
  parts.iterates = std::move(it);
  const bool priv = res.privacy.is_private;
  parts.diagnostics = cfg.params.diagnostics;
  const io::json trace =
      cfg.params.trace ? io::json{{"objective", io::to_value(res.trace)}} : io::json(nullptr);
  parts.trace = priv ? io::json(nullptr) : trace;  // F(x_t) is data-dependent without noise
  if (priv && !cfg.params.diagnostics) return result_value(res, std::move(parts));
  const auto& d = res.diagnostics;
  io::json np = io::json::object();
  np["note"] = non_private_note;
  np["objective"] = io::to_value(d.objective);
  if (d.fstar)
    np["F_star"] = {{"value", io::real_value(d.fstar->value)},
                    {"gap_bound", io::real_value(d.fstar->gap_bound)},
                    {"certified", d.fstar->certified},
                    {"iterations", d.fstar->iterations}};
  else
    np["F_star"] = nullptr;
  np["smoothness_certified"] = io::to_value(d.smoothness_certified);
  if (priv) np["trace"] = trace;
  parts.non_private = std::move(np);
  return result_value(res, std::move(parts));
}

/// `dpref accel run`: reads config<Real> from `doc` (unknown keys, wrong types and invalid values
/// refused with the JSON path or flag), builds the problem, runs, returns the result document.
/// @throws std::invalid_argument / invalid_parameter for invalid input;
/// accounting::budget_exceeded (nothing released)
/// @spec ACCEL.JSON ARCH.JSON
template <real_scalar Real>
io::json run_json(const io::document& doc) {
  const auto cfg = read_run_config<config<Real>>(doc);
  const problem<Real> prob = at_path(doc, "/problem", [&] { return make_problem(cfg.problem); });
  const philox_stream stream(cfg.seed, cfg.stream);
  const run_result<Real> res =
      at_path(doc, "/params", [&] { return run(prob, cfg.params, stream); });
  return result_json(res, cfg, prob);
}

// Explicit instances, compiled once in src/papers/accel_runner.cpp (ARCH.INSTANCES); the
// consumers that link dpref_papers (the CLI, the Python module) see the extern declarations.
#define DPREF_ACCEL_RUN_JSON_INSTANCES(EXT, R) \
  EXT template io::json run_json<R>(const io::document&);
#ifdef DPREF_PAPER_INSTANCES
#define DPREF_ACCEL_EXTERN_RUN_JSON(R) DPREF_ACCEL_RUN_JSON_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACCEL_EXTERN_RUN_JSON)
#undef DPREF_ACCEL_EXTERN_RUN_JSON
#endif

}  // namespace dpref::accel

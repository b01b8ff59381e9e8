// Library-side JSON of the linesearch paper (spec/architecture.md ARCH.JSON, migration guide
// step 7): run_json reads a config document strictly through the field lists (unknown keys
// refused, every number converted once from its decimal text at Real's precision), validates it
// (a refused value is named by its flag or JSON path and the field), builds the problem, runs
// and returns the result document {"schema": "dpref.result/1", ...}. Deterministic: no timings.
// spec/linesearch.md LS.API, "JSON and CLI".
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "dpref/io/json.hpp"
#include "dpref/linesearch/run.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref::linesearch {

namespace detail {

/// Calls f(); an invalid_parameter of one of the sections is re-thrown with the flag or JSON
/// path of the value it names when the document gave it, e.g.
///   "--epsilon: linesearch::params.epsilon must be finite and in (0, 1e6], got -1".
template <class F>
decltype(auto) located(const io::document& doc,
                       std::initializer_list<std::pair<const char*, const char*>> sections,
                       F&& f) {  // sections: owner -> JSON pointer of its object
  try {
    return f();
  } catch (const invalid_parameter& e) {
    const std::string what = e.what();
    for (const auto& [owner, ptr] : sections) {
      if (what.rfind(std::string(owner) + ".", 0) != 0) continue;
      const std::string pointer = std::string(ptr) + "/" + io::pointer_escape(e.field());
      if (doc.root().contains(io::json::json_pointer(pointer)))
        throw std::domain_error(doc.display(pointer) + ": " + what);
    }
    throw;
  }
}

}  // namespace detail

/// The paper's own accounting of a paper-reproduction run, labelled: NOT a guarantee.
template <real_scalar Real>
io::json paper_claim_value(const paper_claim<Real>& c) {
  return {{"epsilon", io::real_value(c.guarantee.eps)},
          {"delta", io::real_value(c.guarantee.delta)},
          {"accounting", c.accounting},
          {"note",
           "the paper's unproven accounting of the calls made: NOT a guarantee (the guarantee "
           "is privacy.guarantee)"}};
}

/// The released parts of a result: the iterate, call counts, final budgets and scales, and in
/// the paper-reproduction modes the paper's own accounting of the calls made (a function of
/// the transcript and the public budgets, like the ledger; NOT a guarantee).
template <real_scalar Real>
io::json iterates_value(const result<Real>& r) {
  io::json out = io::json::object();
  if (!r.privacy.is_private) return out;
  out["w"] = io::to_value(r.w);
  out["calls"] = io::fields_value(r.calls);
  io::json fin = io::json::object();
  if (r.final_rho_grad) fin["rho_grad"] = io::real_value(*r.final_rho_grad);
  if (r.final_ls_budget) fin["line_search_budget"] = io::real_value(*r.final_ls_budget);
  if (r.final_C_grad) fin["C_grad"] = io::real_value(*r.final_C_grad);
  if (r.final_C_obj) fin["C_obj"] = io::real_value(*r.final_C_obj);
  if (!fin.empty()) out["final"] = std::move(fin);
  if (r.noise_multiplier) out["noise_multiplier"] = io::real_value(*r.noise_multiplier);
  if (r.noise_scale) out["noise_scale"] = io::real_value(*r.noise_scale);
  if (r.claim) out["paper_claim"] = paper_claim_value(*r.claim);
  return out;
}

/// The non-private diagnostics, labelled (of a private run only with params.diagnostics).
template <real_scalar Real>
io::json non_private_value(const result<Real>& r) {
  io::json out = io::json::object();
  const auto& d = r.diagnostics;
  out["note"] = "computed from the private data without noise: not covered by any guarantee";
  if (d.objective) out["objective"] = io::real_value(*d.objective);
  if (d.accuracy) out["training_accuracy"] = io::real_value(*d.accuracy);
  if (!d.objective_trace.empty()) out["objective_trace"] = io::to_value(d.objective_trace);
  if (d.minimiser) out["minimiser"] = io::to_value(*d.minimiser);
  if (d.majority_class) out["majority_class"] = *d.majority_class;
  return out;
}

/// The result document of one run.
/// @spec ARCH.RESULT LS.API
template <real_scalar Real>
io::json result_json(const config<Real>& cfg, const result<Real>& r) {
  result_parts parts;
  parts.paper = "linesearch";
  parts.algorithm = std::string(io::enum_to_string(cfg.params.algorithm));
  parts.config = io::fields_value(cfg);
  parts.iterates = iterates_value(r);
  parts.trace = cfg.params.trace && r.privacy.is_private
                    ? io::json{{"steps", io::to_value(r.steps)}}
                    : io::json(nullptr);
  // PRIV.RELEASE: a private run writes "non_private" only when it asked for diagnostics
  parts.diagnostics = cfg.params.diagnostics;
  if (!r.privacy.is_private || cfg.params.diagnostics) parts.non_private = non_private_value(r);
  return result_value(r, std::move(parts));
}

/// Reads a config strictly (read_fields), validates it (messages name the flag or the JSON
/// path), builds the problem and runs. @spec LS.API
template <real_scalar Real>
std::pair<config<Real>, result<Real>> run_config(
    const io::document& doc, std::function<void(const std::string&)> progress = {}) {
  config<Real> cfg;
  io::read_fields(io::node(doc), cfg);
  const std::initializer_list<std::pair<const char*, const char*>> sections = {
      {"linesearch::params", "/params"}, {"linesearch::problem", "/problem"}};
  detail::located(doc, sections, [&] { cfg.validate(); });
  cfg.params.progress = std::move(progress);
  return detail::located(doc, sections, [&] {
    const problem<Real> P = make_problem(cfg.problem);
    result<Real> r = run(P, cfg.params, philox_stream(cfg.seed, cfg.stream));
    cfg.params.progress = {};
    return std::pair<config<Real>, result<Real>>(cfg, std::move(r));
  });
}

/// `dpref linesearch run`: the result document of the config document `doc`; `progress`
/// receives a line every ~2 s of a long run (the CLI prints it on stderr).
/// @spec LS.API ARCH.JSON
template <real_scalar Real>
io::json run_json(const io::document& doc, std::function<void(const std::string&)> progress) {
  const auto [cfg, r] = run_config<Real>(doc, std::move(progress));
  return result_json(cfg, r);
}

/// The paper's entry point of spec/architecture.md ARCH.RUN (src/papers/papers.hpp).
/// @spec LS.API ARCH.JSON
template <real_scalar Real>
io::json run_json(const io::document& doc) {
  return run_json<Real>(doc, std::function<void(const std::string&)>{});
}

// Explicit instances, compiled once in src/papers/linesearch_runner.cpp (ARCH.INSTANCES); the
// consumers that link dpref_papers (the CLI, the Python module) see the extern declarations.
#define DPREF_LINESEARCH_RUN_JSON_INSTANCES(EXT, R)                                                \
  EXT template io::json run_json<R>(const io::document&, std::function<void(const std::string&)>); \
  EXT template io::json run_json<R>(const io::document&);
#ifdef DPREF_PAPER_INSTANCES
#define DPREF_LINESEARCH_EXTERN_RUN_JSON(R) DPREF_LINESEARCH_RUN_JSON_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_LINESEARCH_EXTERN_RUN_JSON)
#undef DPREF_LINESEARCH_EXTERN_RUN_JSON
#endif

}  // namespace dpref::linesearch

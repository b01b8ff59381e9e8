// JSON entry point of the dda module (spec/architecture.md ARCH.JSON, spec/dda.md DDA.JSON):
//   run_json<Real>(doc)   `dpref dda run`, `dpref.run("dda", ...)`: config<Real> read strictly
//                         through its field list, the problem and the network built from their
//                         public descriptions, `run`, and the result document (dpref.result/1).
// Deterministic: no timings.
//
// "iterates": the outputs of dda Algorithm 1 — x̃_i^(T) of every node ("x_tilde", d×n as columns),
// their average x̄ ("x_bar", the point evaluated in dda §5) and ỹ^(T) of (8) (post-processing of
// the noisy messages) — with σ, ι, q and the calibration (public). "trace": null.
// "non_private" (PRIV.RELEASE: a private run has it only with params.diagnostics): functions of
// every record without noise — F(x̄), the certified bracket of F* and the suboptimality
// (params.optimum), test accuracy, the objective and consensus error per snapshot, and the
// data-dependent empirical_lipschitz() (a diagnostic: the calibration uses params.lipschitz,
// enforced by clipping, PRIV.DDA.LIPSCHITZ).
#pragma once

#include <cstdint>
#include <string>

#include "dpref/dda/data.hpp"
#include "dpref/dda/run.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/io/json.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref::dda {

namespace detail {

inline constexpr const char* non_private_note =
    "not covered by the privacy guarantee: functions of every record without noise (objective, "
    "F* bracket, accuracy, consensus, empirical Lipschitz constant)";

template <real_scalar Real, class F>
io::json run_on(const io::document& doc, const config<Real>& cfg, const labelled_split<F>& data,
                const parallel::communicator& comm) {
  using FR = std::conditional_t<is_sparse_v<F>, Eigen::SparseMatrix<Real>, matrix<Real>>;
  const problem<Real, FR> prob = at_path(doc, "/problem", [&] {
    return problem<Real, FR>(FR(data.X.template cast<Real>()),
                             vector<Real>(data.y.template cast<Real>()), cfg.network.nodes,
                             cfg.problem.make_regularizer());
  });
  at_path(doc, "/params", [&] { validate_params_against(prob, cfg.params); });
  at_path(doc, "/network", [&] {
    validate_network_against(prob, cfg.network, cfg.params);
    (void)cfg.network.template sampler<Real>();
  });
  const philox_stream stream(cfg.seed, cfg.stream);
  const result<Real> res = run(prob, cfg.network, cfg.params, stream, comm);  // DIST.DDA
  if (!comm.is_root()) return io::json(nullptr);  // the document is rank 0's (DIST.DDA)

  result_parts parts;
  parts.paper = "dda";
  parts.algorithm = "dp_dda";
  parts.config = io::fields_value(cfg);
  // released: x̃_i, x̄ and ỹ (post-processing of the noisy messages ζ, dda (8)) and public values
  parts.iterates = {{"x_bar", io::to_value(res.x_bar)},     {"x_tilde", io::to_value(res.x_tilde)},
                    {"y_tilde", io::to_value(res.y_tilde)}, {"sigma", io::real_value(res.sigma)},
                    {"iota", io::real_value(res.iota)},     {"records_per_node", prob.per_node()},
                    {"calibration", res.calibration}};
  parts.trace = nullptr;
  // PRIV.RELEASE: functions of the data without noise only for non-private runs or on request
  parts.diagnostics = cfg.params.diagnostics;
  if (res.privacy.is_private && !cfg.params.diagnostics) return result_value(res, std::move(parts));
  const FR Xtest = data.Xtest.template cast<Real>();
  const vector<Real> ytest = data.ytest.template cast<Real>();
  io::json np = io::json::object();
  np["note"] = non_private_note;
  np["data"] = data.name;
  np["records_used"] = static_cast<long long>(prob.used());
  np["empirical_lipschitz"] = io::real_value(prob.empirical_lipschitz());
  np["objective_x_bar"] = io::real_value(prob.objective(res.x_bar));
  np["test_accuracy"] = io::real_value(accuracy<Real>(Xtest, ytest, res.x_bar));
  io::json tr = io::json::array();
  for (const auto& sn : res.trace)
    tr.push_back({{"t", sn.t},
                  {"objective_x_bar", io::real_value(prob.objective(sn.x_bar))},
                  {"consensus", io::real_value(sn.consensus)}});
  if (cfg.params.optimum) {
    // certified bracket of F* (dda §5 reports F(x̄) − F*); its own stream, not the run's
    philox_stream os = stream.substream(std::uint64_t(1) << 40);
    const Real ridge = cfg.problem.regularizer == regularizer_choice::l1
                           ? Real(1) / 100000  // elastic-net iterates for the ℓ1 dual bound
                           : Real(0);
    const auto opt =
        solve_optimum(prob, cfg.params.optimum_tolerance, cfg.params.optimum_max_epochs, os, ridge);
    np["F_star"] = {{"upper", io::real_value(opt.upper)},
                    {"lower", io::real_value(opt.lower)},
                    {"epochs", opt.epochs}};
    np["suboptimality_x_bar"] = io::real_value(Real(prob.objective(res.x_bar) - opt.upper));
    for (std::size_t k = 0; k < res.trace.size(); ++k)
      tr[k]["suboptimality_x_bar"] =
          io::real_value(Real(prob.objective(res.trace[k].x_bar) - opt.upper));
  }
  np["trace"] = std::move(tr);
  parts.non_private = std::move(np);
  return result_value(res, std::move(parts));
}
}  // namespace detail

/// `dpref dda run`: reads config<Real> from `doc` (unknown keys, wrong types and invalid values
/// refused with the JSON path or flag), builds the problem and the network, runs, returns the
/// result document.
/// @throws std::invalid_argument / invalid_parameter for invalid input;
/// accounting::budget_exceeded (nothing released)
/// @spec DDA.JSON ARCH.JSON
template <real_scalar Real>
io::json run_json(const io::document& doc,
                  const parallel::communicator& comm = parallel::serial()) {
  config<Real> cfg;
  io::read_fields(io::node(doc), cfg);
  at_path(doc, "/params", [&] { cfg.params.validate(); });
  at_path(doc, "/network", [&] { cfg.network.validate(); });
  at_path(doc, "/problem", [&] { cfg.problem.validate(); });
  const problem_spec<Real>& ps = cfg.problem;
  switch (ps.data) {
    case dataset::fashion:
      return detail::run_on(
          doc, cfg, fashion_data(ps.data_dir, ps.fashion_negative, ps.fashion_positive), comm);
    case dataset::grants:
      return detail::run_on(doc, cfg, grants_data(ps.data_dir), comm);
    case dataset::synthetic:
      break;
  }
  return detail::run_on(doc, cfg, synthetic_data(ps.records, ps.dimension, ps.data_seed), comm);
}

// Explicit instances, compiled once in src/papers/dda_runner.cpp (ARCH.INSTANCES); the
// consumers that link dpref_papers (the CLI, the Python module) see the extern declarations.
#define DPREF_DDA_RUN_JSON_INSTANCES(EXT, R) \
  EXT template io::json run_json<R>(const io::document&, const parallel::communicator&);
#ifdef DPREF_PAPER_INSTANCES
#define DPREF_DDA_EXTERN_RUN_JSON(R) DPREF_DDA_RUN_JSON_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_DDA_EXTERN_RUN_JSON)
#undef DPREF_DDA_EXTERN_RUN_JSON
#endif

}  // namespace dpref::dda

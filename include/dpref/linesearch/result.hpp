// Result of a linesearch run (spec/architecture.md ARCH.RESULT): the shared run_report (status,
// message, iterations, privacy with the ledger, the certified guarantee = ledger.total() and the
// enforced public constants) plus the released iterate, the call counts, the selected steps, the
// final budgets, the paper's own accounting in paper modes (a function of the calls made: no
// data beyond the ledger's releases), and the non-private diagnostics (objective, accuracy; of a
// private run only with params.diagnostics, spec/privacy_bounds.md PRIV.RELEASE) kept apart
// under `diagnostics` (the JSON's "non_private"). spec/linesearch.md LS.API.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpref/accounting/types.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::linesearch {

/// Counts of mechanism calls (part of the released transcript).
struct call_counts {
  long long iterations = 0, updates = 0, gradients = 0, line_searches = 0, cheb = 0,
            objective_queries = 0;
  template <class V>
  void fields(V&& v) {
    v("iterations", iterations, "iterations started (Algorithm 2 line 3)");
    v("updates", updates, "iterate updates (a step was selected)");
    v("gradients", gradients, "noisy gradients (line 6, CHEB, GradAvg)");
    v("line_searches", line_searches, "NOISYBTLS calls (DP-AGD: NoisyMin calls)");
    v("cheb", cheb, "CHEB calls (Algorithm 3)");
    v("objective_queries", objective_queries, "clipped-objective queries answered");
  }
};

/// The paper's own accounting of a paper-reproduction run (svt_bound unproven_eq4_5 or
/// batch_accounting per_call, §4.3 as printed): NOT a guarantee (errata LS-E1, LS.BATCH).
template <real_scalar Real>
struct paper_claim {
  accounting::approx_dp<Real> guarantee{};  ///< the paper's (ε, δ) for the calls made
  accounting::rdp_curve<Real> rdp;          ///< the paper's spent RDP curve (orders 2..max)
  std::string accounting;                   ///< which rules produced it
};

/// Non-private diagnostics of a run (computed from the private data without noise): always for
/// NON-PRIVATE and MAJORITY, for a private run only with params.diagnostics (PRIV.RELEASE).
template <real_scalar Real>
struct diagnostics {
  std::optional<Real> objective;          ///< F(w) on the training data
  std::optional<Real> accuracy;           ///< training accuracy of w (or of MAJORITY)
  std::vector<Real> objective_trace;      ///< F(w_t) after each update (trace + diagnostics)
  std::optional<vector<Real>> minimiser;  ///< NON-PRIVATE's w (not released privately)
  std::optional<int> majority_class;      ///< MAJORITY's class (±1)
};

/// @spec ARCH.RESULT LS.API
template <real_scalar Real>
struct result : run_report<Real> {
  vector<Real> w;  ///< the released iterate (empty for non-private algorithms)
  call_counts calls;
  std::vector<Real> steps;  ///< selected η per update (released; in the trace)
  std::optional<Real> final_rho_grad, final_ls_budget, final_C_grad, final_C_obj;
  std::optional<Real> noise_multiplier;  ///< DP-SGD's s (σ = s·C_grad)
  std::optional<Real> noise_scale;       ///< outpert / objpert: scale of the noise density
  /// The paper's own accounting in the paper-reproduction modes (NOT a guarantee; JSON
  /// iterates.paper_claim): a function of the calls made and the public budgets.
  std::optional<paper_claim<Real>> claim;
  linesearch::diagnostics<Real> diagnostics;
};

}  // namespace dpref::linesearch

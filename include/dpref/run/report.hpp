// What every run of every algorithm reports besides its iterates (spec/architecture.md
// ARCH.RESULT): how it ended (status + message), how many iterations ran, and its privacy —
// whether the algorithm is private at all, the budget the caller asked for, the ledger of every
// mechanism call and the certified guarantee the accountant derives from that ledger.
//
// Paper results derive from run_report:
//     template <real_scalar Real> struct result : run_report<Real> {
//       <iterates>;  std::optional<<trace>> trace;  ...
//     };
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/noise_mode.hpp"
#include "dpref/params.hpp"
#include "dpref/status.hpp"

namespace dpref {

/// The budget a caller asks for. A run whose certified guarantee would exceed it fails before
/// releasing anything, unless `allow_over_budget` is set (only for modes that reproduce a
/// paper's unsound calibration on purpose); then the report says budget_met = false.
/// @spec ARCH.BUDGET
template <real_scalar Real>
struct privacy_budget_request {
  Real epsilon = Real(1);
  Real delta = Real(0);
  bool allow_over_budget = false;

  template <class V>
  void fields(V&& v) {
    v("epsilon", epsilon, "privacy budget ε > 0 (a bound: the run fails rather than exceed it)");
    v("delta", delta, "privacy budget δ in [0, 1)");
    v("allow_over_budget", allow_over_budget,
      "run even if the certified guarantee exceeds the budget (paper-reproduction modes only)");
  }
  void validate(const param_checker& c) const {
    c.positive("epsilon", epsilon);
    c.delta("delta", delta);
  }
};

/// How a public constant that the ledger's sensitivity relies on is made true of the data the
/// run actually processes (spec/privacy_bounds.md PRIV.BOUNDS):
///   clip     the per-record quantity is clipped in the norm of the sensitivity before it enters
///            the released statistic (a record-wise, data-independent map);
///   refuse   a record that violates the constant is refused before anything is released;
///   derived  the constant is computed from public structure only (a loss class and a public
///            feature bound), and a declared value below it is refused.
/// @spec PRIV.BOUNDS
enum class enforcement { clip, refuse, derived };
DPREF_ENUM_NAMES(enforcement, clip, refuse, derived)

/// One public constant of a private run and how it is enforced (the result says which, never
/// how many records were clipped: that count is data-dependent). @spec PRIV.BOUNDS
template <real_scalar Real>
struct enforced_bound {
  std::string constant;  ///< the params field (or public-description field), e.g. "lipschitz"
  Real value{};          ///< its value in the run
  enforcement kind = enforcement::clip;
  std::string how;  ///< one sentence: what is clipped / refused, in which norm
};

/// Privacy of one run. `is_private == false` (non-private baselines) means NO guarantee is
/// claimed: the JSON then says "private": false and carries no ε.
/// @spec ARCH.RESULT
template <real_scalar Real>
struct privacy_report {
  bool is_private = true;
  accounting::approx_dp<Real> requested{};
  accounting::ledger<Real> ledger;
  accounting::guarantee<Real> guarantee{};
  bool budget_met = true;
  /// How the noise was released (SEC.MODE): only `secure` makes the guarantee hold for the
  /// released doubles.
  noise_mode noise = noise_mode::idealised;
  /// Every public constant the ledger's sensitivities rely on, with its enforcement (a private
  /// run lists at least one; PRIV.BOUNDS).
  std::vector<enforced_bound<Real>> enforced;
};

/// Shared part of every result. @spec ARCH.RESULT
template <real_scalar Real>
struct run_report {
  dpref::status status = dpref::status::completed;
  std::string message;
  long long iterations = 0;
  privacy_report<Real> privacy;
};

/// Accounts `plan` (the ledger of every mechanism call the run WILL make, built before any
/// noise is drawn) against the request: returns the certified guarantee, or throws
/// accounting::budget_exceeded naming both when it exceeds the budget and
/// `allow_over_budget` is not set. Call it before the first release.
/// @spec ARCH.BUDGET
template <real_scalar Real>
privacy_report<Real> plan_privacy(accounting::ledger<Real> plan,
                                  const privacy_budget_request<Real>& req, std::string_view who) {
  privacy_report<Real> r;
  r.requested = {req.epsilon, req.delta};
  r.guarantee = plan.total();
  r.ledger = std::move(plan);
  r.budget_met = !(r.guarantee.epsilon > req.epsilon) && !(r.guarantee.delta > req.delta);
  if (!r.budget_met && !req.allow_over_budget)
    throw accounting::budget_exceeded(
        std::string(who) +
        ": the certified guarantee (epsilon = " + ::dpref::detail::to_text(r.guarantee.epsilon) +
        ", delta = " + ::dpref::detail::to_text(r.guarantee.delta) +
        ") exceeds the requested budget (epsilon = " + ::dpref::detail::to_text(req.epsilon) +
        ", delta = " + ::dpref::detail::to_text(req.delta) +
        "); nothing was released (set allow_over_budget to reproduce an over-budget paper "
        "setting)");
  return r;
}

/// A non-private run: no ledger, no guarantee.
template <real_scalar Real>
privacy_report<Real> non_private() {
  privacy_report<Real> r;
  r.is_private = false;
  return r;
}

}  // namespace dpref

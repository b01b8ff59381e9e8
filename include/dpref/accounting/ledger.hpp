// Privacy ledger and budget (spec/accounting.md): a ledger records every mechanism event of a run; a
// budget refuses — by throwing budget_exceeded BEFORE recording, hence before any noise is
// drawn — the event that would overspend.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

/// One mechanism event: what ran, with which parameters, and its guarantee (per repetition).
template <real_scalar Real>
struct privacy_event {
  std::string kind;
  std::vector<std::pair<std::string, Real>> params;
  std::variant<pure_dp<Real>, approx_dp<Real>, rdp_curve<Real>> privacy;
  long long count = 1;  ///< number of identical repetitions
};

/// Records mechanism events and composes them: pure and approximate events by sequential
/// composition, RDP events by RDP composition converted to (ε, δ) at a chosen δ.
/// @spec ACC.LEDGER
template <real_scalar Real>
class privacy_ledger {
 public:
  /// Appends an event (validated). @throws std::domain_error / std::invalid_argument
  void record(privacy_event<Real> e) {
    validate(e);
    events_.push_back(std::move(e));
  }
  [[nodiscard]] const std::vector<privacy_event<Real>>& events() const { return events_; }
  [[nodiscard]] bool empty() const { return events_.empty(); }

  /// Pointwise sum of the RDP events (count-weighted), if any.
  [[nodiscard]] std::optional<rdp_curve<Real>> total_rdp() const { return total_rdp_of(events_); }

  /// Composed guarantee: Σ(ε, δ) of pure/approx events + RDP part converted at delta_rdp.
  /// @param delta_rdp δ spent on converting the RDP part (ignored without RDP events)
  [[nodiscard]] approx_dp<Real> total(const Real& delta_rdp,
                                      conversion_method m = conversion_method::balle2020) const {
    return total_of(events_, delta_rdp, m);
  }

  /// Composition of a list of events (used by privacy_budget to test a charge first).
  static approx_dp<Real> total_of(const std::vector<privacy_event<Real>>& evs,
                                  const Real& delta_rdp, conversion_method m) {
    std::vector<approx_dp<Real>> parts;
    for (const auto& e : evs) {
      if (const auto* p = std::get_if<pure_dp<Real>>(&e.privacy))
        parts.push_back(compose_homogeneous(approx_dp<Real>{p->eps, Real(0)}, e.count));
      else if (const auto* a = std::get_if<approx_dp<Real>>(&e.privacy))
        parts.push_back(compose_homogeneous(*a, e.count));
    }
    if (auto r = total_rdp_of(evs)) parts.push_back(rdp_to_dp(*r, delta_rdp, m).guarantee);
    if (parts.empty()) return {Real(0), Real(0)};
    return compose_sequential(parts);
  }

 private:
  static void validate(const privacy_event<Real>& e) {
    if (e.count < 1) fail_domain("privacy_ledger::record", "event.count", ">= 1", e.count);
    if (const auto* p = std::get_if<pure_dp<Real>>(&e.privacy))
      require_nonnegative("privacy_ledger::record", "event.eps", p->eps);
    else if (const auto* a = std::get_if<approx_dp<Real>>(&e.privacy)) {
      require_nonnegative("privacy_ledger::record", "event.eps", a->eps);
      require_delta("privacy_ledger::record", "event.delta", a->delta);
    } else {
      validate_curve("privacy_ledger::record", std::get<rdp_curve<Real>>(e.privacy));
    }
  }
  static std::optional<rdp_curve<Real>> total_rdp_of(const std::vector<privacy_event<Real>>& evs) {
    std::optional<rdp_curve<Real>> acc;
    for (const auto& e : evs) {
      if (const auto* r = std::get_if<rdp_curve<Real>>(&e.privacy)) {
        rdp_curve<Real> term = e.count == 1 ? *r : compose_rdp_steps(*r, e.count);
        acc = acc ? compose_rdp(*acc, term) : term;
      }
    }
    return acc;
  }

  std::vector<privacy_event<Real>> events_;
};

/// A spending limit (ε, δ) over a ledger. charge() composes the ledger with the new event and
/// throws budget_exceeded — without recording it — if the result would exceed the limit.
/// RDP events are converted at delta_rdp, which counts against limit.delta.
/// @spec ACC.LEDGER ACC.BUDGET
template <real_scalar Real>
class privacy_budget {
 public:
  /// @param limit total (ε, δ) allowed @param delta_rdp δ reserved for converting RDP events
  /// (default: half of limit.delta) @throws std::domain_error for an invalid limit
  explicit privacy_budget(approx_dp<Real> limit, std::optional<Real> delta_rdp = std::nullopt)
      : limit_(limit), delta_rdp_(delta_rdp ? *delta_rdp : limit.delta / 2) {
    require_nonnegative("privacy_budget", "limit.eps", limit.eps);
    require_delta("privacy_budget", "limit.delta", limit.delta);
    require_delta("privacy_budget", "delta_rdp", delta_rdp_);
  }
  /// Whether charging e keeps the total within the limit.
  [[nodiscard]] bool can_afford(const privacy_event<Real>& e) const { return within(with(e)); }
  /// Records e, or throws budget_exceeded (recording nothing) if it would overspend.
  /// @throws budget_exceeded
  void charge(privacy_event<Real> e) {
    const approx_dp<Real> t = with(e);
    if (!within(t)) {
      std::string msg = "privacy_budget::charge: event '" + e.kind +
                        "' would spend eps = " + ::dpref::detail::to_text(t.eps) +
                        ", delta = " + ::dpref::detail::to_text(t.delta) +
                        " > limit eps = " + ::dpref::detail::to_text(limit_.eps) +
                        ", delta = " + ::dpref::detail::to_text(limit_.delta);
      throw budget_exceeded(msg);
    }
    ledger_.record(std::move(e));
  }
  [[nodiscard]] approx_dp<Real> spent() const {
    return privacy_ledger<Real>::total_of(ledger_.events(), delta_rdp_,
                                          conversion_method::balle2020);
  }
  [[nodiscard]] const privacy_ledger<Real>& ledger() const { return ledger_; }
  [[nodiscard]] const approx_dp<Real>& limit() const { return limit_; }

 private:
  approx_dp<Real> with(const privacy_event<Real>& e) const {
    std::vector<privacy_event<Real>> evs = ledger_.events();
    evs.push_back(e);
    return privacy_ledger<Real>::total_of(evs, delta_rdp_, conversion_method::balle2020);
  }
  bool within(const approx_dp<Real>& t) const {
    return !(t.eps > limit_.eps) && !(t.delta > limit_.delta);
  }

  approx_dp<Real> limit_;
  Real delta_rdp_;
  privacy_ledger<Real> ledger_;
};

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_LEDGER_INSTANCES(EXT, R) \
  EXT template class privacy_ledger<R>;    \
  EXT template class privacy_budget<R>;
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_LEDGER(R) DPREF_ACC_LEDGER_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_LEDGER)
#undef DPREF_ACC_EXTERN_LEDGER
#endif

}  // namespace dpref::accounting

// The accountant: events -> certified (ε, δ) (spec/accounting.md ACC.ACCOUNT), and the ledger
// of a run (events + the options it is accounted with; ACC.LEDGER).
//
// RDP method (the default). Each event is analysed once (event.hpp says how per kind) and
// falls in one of three parts:
//   pure part    Σ count·ε of events analysed as ε-DP (amplified by subsampling first);
//   approx part  Σ count·(ε, δ) of declared (ε, δ) events (amplified by subsampling first);
//   Rényi part   Σ count·ε(α) of events analysed in RDP, on the grid 2, 3, …, max_order,
//                converted to (ε, δ) at options.delta (Balle et al. 2020 by default).
// The guarantee is the sequential composition of the three parts (ε and δ added, δ capped at
// 1). Every value is an upper bound of the exact one, rounded up (ACC.CERT.UP).
//
// PLD method (ACC.ACCOUNT.PLD): every event that has a privacy-loss distribution (laplace,
// gaussian, discrete laplace / gaussian, randomized response, pure — as binary randomized
// response, the dominating pair of every ε-DP mechanism —, vector laplace — as pure —,
// exponential — as the bounded-range worst case —, with Poisson or without-replacement (m of n)
// subsampling) is discretised pessimistically (pld/, certified in double) and composed; ε is
// read at options.delta. Declared (ε, δ) events are added sequentially; events without a PLD
// (declared RDP curves, the sparse vector) make the method refuse the ledger. Parameters are
// rounded to double in the direction that can only weaken the guarantee (sensitivities up,
// noise scales down, rates up). `best` computes both and reports the smaller certified ε (the
// RDP value when the PLD method refuses the ledger), naming the method that produced it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dpref/accounting/accounting_options.hpp"
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/event.hpp"
#include "dpref/accounting/gaussian.hpp"
#include "dpref/accounting/laplace.hpp"
#include "dpref/accounting/pld.hpp"
#include "dpref/accounting/pld_method.hpp"
#include "dpref/accounting/rdp_fractional.hpp"
#include "dpref/accounting/rdp_method.hpp"
#include "dpref/accounting/snapped.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/subsampling_wor.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/params.hpp"

namespace dpref::accounting {

/// Certified guarantee of a list of events by options.method (see the file comment).
/// @throws invalid_parameter for an invalid event or option, a Rényi / PLD part with
/// options.delta = 0, or a ledger the PLD method cannot account (method pld)
/// @spec ACC.ACCOUNT ACC.ACCOUNT.PLD
template <real_scalar Real>
guarantee<Real> account(const std::vector<event<Real>>& events,
                        const accounting_options<Real>& opt) {
  opt.validate();
  for (const auto& e : events) validate(e);
  switch (opt.method) {
    case accounting_method::rdp:
      return detail::account_rdp(events, opt);
    case accounting_method::pld:
      return detail::account_pld(events, opt);
    case accounting_method::best: {
      const guarantee<Real> r = detail::account_rdp(events, opt);
      std::string why;
      if (!detail::pld_supported(events, why)) return r;
      const guarantee<Real> p = detail::account_pld(events, opt);
      return p.epsilon < r.epsilon ? p : r;
    }
  }
  return detail::account_rdp(events, opt);
}

/// The events of a run and the options they are accounted with; its JSON is the input of
/// `dpref account` (ACC.LEDGER.ROUNDTRIP).
/// @spec ACC.LEDGER
template <real_scalar Real>
class ledger {
 public:
  ledger() = default;
  explicit ledger(accounting_options<Real> opt) : options_(std::move(opt)) { options_.validate(); }

  /// Appends a validated event. @throws invalid_parameter
  void record(event<Real> e) {
    validate(e);
    events_.push_back(std::move(e));
  }
  /// Appends e, or throws budget_exceeded (recording nothing) if the total with e would exceed
  /// `limit` in ε or δ. Call it BEFORE drawing the noise of e.
  /// @spec ACC.BUDGET
  void charge(event<Real> e, const approx_dp<Real>& limit) {
    validate(e);
    events_.push_back(e);
    guarantee<Real> t;
    try {
      t = total();
    } catch (...) {
      events_.pop_back();
      throw;
    }
    if (t.epsilon > limit.eps || t.delta > limit.delta) {
      events_.pop_back();
      throw budget_exceeded("privacy budget: event " + std::string(e.kind()) +
                            (e.label.empty() ? "" : " (" + e.label + ")") +
                            " would spend epsilon = " + ::dpref::detail::to_text(t.epsilon) +
                            ", delta = " + ::dpref::detail::to_text(t.delta) +
                            " > limit epsilon = " + ::dpref::detail::to_text(limit.eps) +
                            ", delta = " + ::dpref::detail::to_text(limit.delta));
    }
  }
  [[nodiscard]] guarantee<Real> total() const { return account(events_, options_); }
  [[nodiscard]] const std::vector<event<Real>>& events() const { return events_; }
  [[nodiscard]] const accounting_options<Real>& options() const { return options_; }
  void set_options(accounting_options<Real> opt) {
    opt.validate();
    options_ = std::move(opt);
  }
  [[nodiscard]] bool empty() const { return events_.empty(); }

 private:
  accounting_options<Real> options_{};
  std::vector<event<Real>> events_;
};

// Explicit instances of the accountant (src/instances/accounting.cpp); EXT is `extern` for
// consumers, so that the translation units that account a ledger (every paper's run, the CLI,
// the Python module, the tests) stop generating the RDP and PLD methods at four precisions each
// (spec/architecture.md ARCH.INSTANCES).
#define DPREF_ACC_ACCOUNT_INSTANCES(EXT, R) \
  EXT template guarantee<R> account<R>(const std::vector<event<R>>&, const accounting_options<R>&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_ACCOUNT(R) DPREF_ACC_ACCOUNT_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_ACCOUNT)
#undef DPREF_ACC_EXTERN_ACCOUNT
#endif

}  // namespace dpref::accounting

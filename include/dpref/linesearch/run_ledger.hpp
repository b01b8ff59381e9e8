// The ledger of an adaptive linesearch run and its budget filter (spec/linesearch.md LS.LEDGER,
// spec/architecture.md ARCH.BUDGET).
//
// Every mechanism call is a typed event (accounting/event.hpp): a noisy gradient is `gaussian`
// {C_grad, σ}, a NOISYBTLS call is `sparse_vector` {noise, C_obj, b1/σ1, b2/σ2, max_it, proven}.
// Calls that read the same Poisson sample B (the gradient of Algorithm 2 line 6, every NOISYBTLS
// retry of line 10, DP-BLGD's GradAvg gradients) form ONE subsampled mechanism: the sample's
// event is the first call with the later calls as its `joint` parts (ACC.EVENT.JOINT), amplified
// once by the accountant. CHEB's gradient reads its own fresh sample and is an event of its own.
// Identical events are merged into one with a count; the ledger's JSON is the run's "ledger" and
// `dpref account` reproduces the run's guarantee from it bit for bit (ACC.LEDGER.ROUNDTRIP).
//
// The filter (charge BEFORE the noise is drawn): the per-call analogue of ledger::charge. Calling
// the accountant on the whole ledger at every call would recompute every event's amplified curve
// (Zhu–Wang, O(α_max²) per event) thousands of times, so the filter keeps the running RDP curve
// S(α) = Σ of the cached single-call curves of the accountant itself (accounting::detail::part_of)
// and admits a call iff some order α keeps S(α) <= ε_tot(α), the per-order budget of the request
// (rdp_budget_for_dp: the Balle 2020 conversion solved for ε(α), shrunk by 2^-(p−24) relative).
// A growing sample is charged amp(S_k) − amp(S_{k−1}) rounded up (telescoping, LS.BATCH). The
// shrink covers the rounding differences between this running sum and the accountant's merged
// sum; the run then reports ledger.total() and refuses to return (budget_exceeded, nothing
// released) if it ever exceeded the request — a check that never fired in the tests
// (LS.PROP.BUDGET).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/linesearch/calibration.hpp"

namespace dpref::linesearch {

namespace detail {

/// Exact text of a field value (reals with every digit: format_real round-trips).
template <class T>
void append_key(std::string& key, const T& x) {
  if constexpr (std::is_same_v<T, bool>) {
    key += x ? "1" : "0";
  } else if constexpr (io::named_enum<T>) {
    key += io::enum_to_string(x);
  } else if constexpr (std::is_integral_v<T>) {
    key += std::to_string(x);
  } else if constexpr (real_scalar<T>) {
    key += io::format_real(x);
  } else {
    for (const auto& e : x) {
      append_key(key, e);
      key += ',';
    }
  }
}

/// A text that identifies an event up to its count and label (mechanism, parameters, sampling,
/// analysis, joint parts with their counts).
template <real_scalar Real>
std::string event_key(const accounting::event<Real>& e) {
  std::string key(e.kind());
  std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        const_cast<M&>(m).fields([&](std::string_view name, auto& field, std::string_view = {}) {
          key += '|';
          key += name;
          key += '=';
          append_key(key, field);
        });
      },
      e.what);
  if (e.sampling) {
    key += "|s=";
    append_key(key, e.sampling->scheme);
    append_key(key, e.sampling->rate);
    key += '/';
    key += std::to_string(e.sampling->sample_size) + "/" + std::to_string(e.sampling->population);
  }
  key += "|a=";
  append_key(key, e.how);
  for (const auto& part : e.joint) key += "|+" + std::to_string(part.count) + "x" + event_key(part);
  return key;
}

}  // namespace detail

/// Ledger of a run with its budget filter (see the file comment). @spec LS.LEDGER
template <real_scalar Real>
class run_ledger {
 public:
  using event = accounting::event<Real>;

  /// @param opt accounting options of the ledger (δ = the requested δ, orders 2..max_order)
  /// @param limit the requested (ε, δ) @param enforce false: record only (paper-reproduction
  /// filters and fixed plans checked beforehand by plan_privacy)
  run_ledger(accounting::accounting_options<Real> opt, const accounting::approx_dp<Real>& limit,
             bool enforce)
      : opt_(std::move(opt)),
        orders_(accounting::integer_orders<Real>(2, static_cast<int>(opt_.max_order))),
        enforce_(enforce) {
    opt_.validate();
    spent_ = {orders_, std::vector<Real>(orders_.size(), Real(0))};
    if (enforce_) budget_ = rdp_budget_for_dp(limit.eps, limit.delta, orders_, 24);
  }

  /// Whether a new event e (count 1: a fresh sample or an unsampled call) fits the budget.
  [[nodiscard]] bool can_add(const event& e) {
    return fits(accounting::compose_rdp(spent_, curve(e)));
  }
  /// Records e (count 1). Call only after can_add (or with enforce == false).
  void add(const event& e) {
    spent_ = accounting::compose_rdp(spent_, curve(e));
    bump(e, +1);
  }
  /// Whether replacing one occurrence of `from` by `to` (the same sample with one more joint
  /// part) fits: the increment amp(to) − amp(from), rounded up (LS.BATCH).
  [[nodiscard]] bool can_grow(const event& from, const event& to) {
    return fits(accounting::compose_rdp(spent_, increment(from, to)));
  }
  void grow(const event& from, const event& to) {
    spent_ = accounting::compose_rdp(spent_, increment(from, to));
    bump(from, -1);
    bump(to, +1);
  }

  /// The merged ledger (events in order of first appearance, counts > 0).
  [[nodiscard]] accounting::ledger<Real> build() const {
    accounting::ledger<Real> l(opt_);
    for (std::size_t i = 0; i < events_.size(); ++i)
      if (counts_[i] > 0) {
        event e = events_[i];
        e.count = counts_[i];
        l.record(std::move(e));
      }
    return l;
  }
  /// The running RDP curve of the filter (an upper bound of every charged call).
  [[nodiscard]] const accounting::rdp_curve<Real>& spent() const { return spent_; }
  [[nodiscard]] const std::vector<Real>& orders() const { return orders_; }

 private:
  /// The accountant's own curve of one occurrence of e (count 1), cached by event_key.
  const accounting::rdp_curve<Real>& curve(const event& e) {
    const std::string k = detail::event_key(e);
    auto it = curves_.find(k);
    if (it == curves_.end()) {
      event one = e;
      one.count = 1;
      accounting::validate(one);
      auto part = accounting::detail::part_of(one, orders_);
      if (!part.curve)  // every event of the algorithms is analysed in RDP
        param_checker("linesearch::run_ledger")
            .fail("event", "an event analysed in RDP", std::string(e.kind()));
      it = curves_.emplace(k, std::move(*part.curve)).first;
    }
    return it->second;
  }
  accounting::rdp_curve<Real> increment(const event& from, const event& to) {
    const accounting::rdp_curve<Real> a = curve(to);  // copy: curve() may rehash
    return rdp_increment(a, curve(from));
  }
  [[nodiscard]] bool fits(const accounting::rdp_curve<Real>& s) const {
    if (!enforce_) return true;
    for (std::size_t i = 0; i < s.eps.size(); ++i)
      if (!(s.eps[i] > budget_.eps[i])) return true;
    return false;
  }
  void bump(const event& e, long long by) {
    const std::string k = detail::event_key(e);
    auto it = index_.find(k);
    if (it == index_.end()) {
      it = index_.emplace(k, events_.size()).first;
      events_.push_back(e);
      counts_.push_back(0);
    }
    counts_[it->second] += by;
  }

  accounting::accounting_options<Real> opt_;
  std::vector<Real> orders_;
  bool enforce_;
  accounting::rdp_curve<Real> budget_, spent_;
  std::map<std::string, accounting::rdp_curve<Real>> curves_;
  std::map<std::string, std::size_t> index_;
  std::vector<event> events_;
  std::vector<long long> counts_;
};

}  // namespace dpref::linesearch

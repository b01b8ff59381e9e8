// How a ledger is accounted (the method and its options) and the certified guarantee it yields
// (spec/accounting.md ACC.ACCOUNT); the methods are accounting/rdp_method.hpp and
// accounting/pld_method.hpp, the entry point accounting/accountant.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/event.hpp"
#include "dpref/accounting/gaussian.hpp"
#include "dpref/accounting/laplace.hpp"
#include "dpref/accounting/pld.hpp"
#include "dpref/accounting/rdp_fractional.hpp"
#include "dpref/accounting/snapped.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/subsampling_wor.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/params.hpp"

namespace dpref::accounting {

enum class accounting_method {
  rdp,  ///< pure / approx / Rényi parts as in the file comment
  pld,  ///< privacy-loss distributions (certified pessimistic discretisation)
  best  ///< both; the smaller certified ε
};
DPREF_ENUM_NAMES(accounting_method, rdp, pld, best)
DPREF_ENUM_NAMES(conversion_method, balle2020, mironov)

/// How a ledger is accounted. @spec ACC.ACCOUNT
template <real_scalar Real>
struct accounting_options {
  accounting_method method = accounting_method::rdp;
  Real delta = Real(0);  ///< δ at which the Rényi (or PLD) part is converted (> 0 if present)
  long long max_order = 256;       ///< RDP orders 2, 3, …, max_order
  bool fractional_orders = false;  ///< add 1.1, 1.2, …, 10.9 to the RDP grid (slow)
  conversion_method conversion = conversion_method::balle2020;
  double pld_interval = 1e-3;            ///< PLD grid spacing of the privacy loss (the coarsest)
  bool pld_adaptive = true;              ///< refine pld_interval per ledger (ACC.PLD.ADAPTIVE)
  long long pld_max_points = 1LL << 23;  ///< PLD work bound (ACC.WORK.BOUND)
  long long rdp_max_evaluations = 100000000;  ///< RDP work bound (ACC.WORK.BOUND)

  template <class V>
  void fields(V&& v) {
    v("method", method, "accounting method: rdp, pld or best (the smaller certified ε)");
    v("delta", delta, "δ in [0, 1) at which the Rényi / PLD part is converted (> 0 if present)");
    v("max_order", max_order, "largest integer RDP order, in [2, 4096]");
    v("fractional_orders", fractional_orders,
      "also the orders 1.1, 1.2, ..., 10.9 (certified; about 50 ms per order and subsampled "
      "event)");
    v("conversion", conversion, "RDP -> (ε, δ) rule: balle2020 or mironov");
    v("pld_interval", pld_interval,
      "PLD discretisation interval, in [1e-5, 0.1] (the coarsest one with pld_adaptive)");
    v("pld_adaptive", pld_adaptive,
      "refine the PLD interval down to pld_interval/16 from each event's loss variance");
    v("pld_max_points", pld_max_points,
      "PLD work bound: grid points over all discretisations and per composition, in [64, "
      "2^28]");
    v("rdp_max_evaluations", rdp_max_evaluations,
      "RDP work bound: events x orders evaluated (fractional orders of subsampled events count "
      "100), >= 1");
  }
  /// @throws invalid_parameter naming the field
  void validate() const {
    const param_checker c("accounting");
    c.delta("delta", delta);
    c.at_least<long long>("max_order", max_order, 2, 4096);
    c.in_closed("pld_interval", pld_interval, 1e-5, 0.1, "in [1e-5, 0.1]");
    c.at_least<long long>("pld_max_points", pld_max_points, 64, 1LL << 28);
    c.at_least<long long>("rdp_max_evaluations", rdp_max_evaluations, 1,
                          std::numeric_limits<long long>::max());
  }
  /// The RDP order grid: 2..max_order, with 1.1..10.9 (integers excluded) if fractional_orders.
  [[nodiscard]] std::vector<Real> orders() const {
    std::vector<Real> frac;
    if (fractional_orders)
      for (int x = 11; x < 110; ++x)
        if (x % 10 != 0) frac.push_back(Real(x) / 10);  // 1.1 … 10.9
    const std::vector<Real> ints = integer_orders<Real>(2, static_cast<int>(max_order));
    std::vector<Real> merged;
    merged.reserve(frac.size() + ints.size());
    std::merge(frac.begin(), frac.end(), ints.begin(), ints.end(), std::back_inserter(merged));
    return merged;
  }
};

/// A certified guarantee and how it was obtained.
template <real_scalar Real>
struct guarantee {
  Real epsilon = Real(0);
  Real delta = Real(0);
  accounting_method method = accounting_method::rdp;
  Real pure_epsilon = Real(0);                      ///< ε of the pure part
  approx_dp<Real> approx_part{};                    ///< (ε, δ) of the approx part
  std::optional<conversion_result<Real>> rdp_part;  ///< conversion of the Rényi part, if any

  template <class V>
  void fields(V&& v) {
    v("epsilon", epsilon, "certified ε (rounded up)");
    v("delta", delta, "certified δ (rounded up)");
    v("method", method, "accounting method that produced it (rdp or pld)");
  }
};

}  // namespace dpref::accounting

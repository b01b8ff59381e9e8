// The report of `dpref account --json` (spec/accounting.md ACC.LEDGER.JSON, schema
// spec/schema/account.schema.json): a ledger read with the strict reader, its certified
// guarantee and the guarantee of every event alone. Shared by the CLI
// (src/cli/account_command.cpp, which also prints it as text) and the Python package
// (`dpref.account`), so both give the same document bit for bit.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dpref/accounting/ledger_json.hpp"

namespace dpref::accounting {

/// A ledger, its guarantee and the guarantee of each event alone, and their JSON.
template <real_scalar Real>
struct account_report {
  ledger<Real> l;
  guarantee<Real> total;
  std::vector<guarantee<Real>> alone;
  io::json json;  ///< {"schema": "dpref.account/1", "precision", "ledger", "guarantee", ...}
};

/// Reads the ledger at `n` (strict: read_ledger) and accounts it.
/// @throws std::invalid_argument naming the JSON path (also for a vacuous guarantee: δ >= 1
/// or ε = ∞, HARD.VACUOUS); invalid_parameter, std::domain_error
/// for invalid values (the messages of read_ledger and account)
/// @spec ACC.LEDGER.JSON
template <real_scalar Real>
account_report<Real> account_document(const io::node& n) {
  account_report<Real> r{read_ledger<Real>(n), {}, {}, {}};
  r.total = r.l.total();
  // HARD.VACUOUS: δ >= 1 or ε = ∞ holds for every mechanism; it is not a result to print
  if (!(r.total.delta < Real(1)) || !is_finite_value(r.total.epsilon))
    throw std::invalid_argument(
        n.where() +
        " must be a ledger with a non-vacuous guarantee (δ < 1 and ε finite), got "
        "(epsilon, delta) = (" +
        io::format_real(r.total.epsilon) + ", " + io::format_real(r.total.delta) +
        "): the δ terms of its events add up to >= 1 or its ε is unbounded, which any "
        "mechanism satisfies");
  io::json events = io::json::array();
  // ACC.LEDGER.ALONE: the guarantee of an event alone is computed once per distinct event, and
  // not at all for a one-event ledger (it is the total): a query does its PLD / RDP work once
  std::map<std::string, std::size_t> seen;
  for (const auto& e : r.l.events()) {
    io::json je = event_value(e);
    const std::string key = je.dump();
    if (r.l.events().size() == 1) {
      r.alone.push_back(r.total);
    } else if (const auto it = seen.find(key); it != seen.end()) {
      r.alone.push_back(r.alone[it->second]);
    } else {
      seen.emplace(key, r.alone.size());
      r.alone.push_back(account<Real>({e}, r.l.options()));
    }
    je["alone"] = guarantee_value(r.alone.back());
    events.push_back(je);
  }
  io::json out = io::json::object();
  out["schema"] = "dpref.account/1";
  out["precision"] = scalar_name<Real>();
  out["ledger"] = ledger_value(r.l);
  out["guarantee"] = guarantee_value(r.total);
  out["events"] = std::move(events);
  if (r.total.rdp_part) {
    const auto& c = *r.total.rdp_part;
    out["rdp"] = {{"order", io::real_value(c.order)},
                  {"max_order", r.l.options().max_order},
                  {"order_at_grid_edge", c.at_grid_edge}};
  }
  r.json = std::move(out);
  return r;
}

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_REPORT_INSTANCES(EXT, R) \
  EXT template account_report<R> account_document<R>(const io::node&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_REPORT(R) DPREF_ACC_REPORT_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_REPORT)
#undef DPREF_ACC_EXTERN_REPORT
#endif

}  // namespace dpref::accounting

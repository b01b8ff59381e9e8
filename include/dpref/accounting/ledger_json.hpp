// JSON of events, ledgers and guarantees (spec/accounting.md ACC.LEDGER.JSON): the ledger a
// run writes is exactly what `dpref account` reads.
//
//   ledger     {"accounting": {"method": "rdp", "delta": δ, "max_order": 256,
//                              "conversion": "balle2020"},
//               "events": [event, ...]}
//   event      {"mechanism": "<name>", <the mechanism's fields>,
//               ["sampling": {"scheme": ..., "rate" | "sample_size" + "population",
//                             "neighbouring": ...},]
//               ["analysis": "pure" | "rdp",] "count": n, ["label": "..."],
//               ["joint": [event without sampling, ...]]}   (ACC.EVENT.JOINT)
//   guarantee  {"epsilon": ε, "delta": δ, "method": "rdp"}
// Reals are JSON numbers (double) or decimal strings with every digit (other precisions), and
// are read from their decimal text at the reader's precision, so a ledger round-trips bit for
// bit at every precision. Unknown or duplicate keys, wrong types and invalid values are refused
// with the JSON path.
#pragma once

#include <string>
#include <variant>

#include "dpref/accounting/accountant.hpp"
#include "dpref/io/json.hpp"

namespace dpref::accounting {

/// @spec ACC.LEDGER.JSON
template <real_scalar Real>
io::json event_value(const event<Real>& e) {
  io::json out = io::json::object();
  out["mechanism"] = std::string(e.kind());
  std::visit(
      [&](const auto& m) {
        const io::json f = io::fields_value(m);
        for (auto it = f.begin(); it != f.end(); ++it) out[it.key()] = it.value();
      },
      e.what);
  if (e.sampling) {
    const auto& s = *e.sampling;
    io::json js = io::json::object();
    js["scheme"] = std::string(io::enum_to_string(s.scheme));
    if (s.population > 0) {
      js["sample_size"] = s.sample_size;
      js["population"] = s.population;
    } else {
      js["rate"] = io::real_value(s.rate);
    }
    js["neighbouring"] = std::string(io::enum_to_string(s.relation));
    out["sampling"] = std::move(js);
  }
  if (e.how != analysis::automatic) out["analysis"] = std::string(io::enum_to_string(e.how));
  out["count"] = e.count;
  if (!e.label.empty()) out["label"] = e.label;
  if (!e.joint.empty()) {
    io::json parts = io::json::array();
    for (const auto& part : e.joint) parts.push_back(event_value(part));
    out["joint"] = std::move(parts);
  }
  return out;
}

namespace detail {
template <real_scalar Real, std::size_t I = 0>
mechanism<Real> mechanism_named(const std::string& name, const io::node& where) {
  if constexpr (I < std::variant_size_v<mechanism<Real>>) {
    using M = std::variant_alternative_t<I, mechanism<Real>>;
    if (name == M::name) return M{};
    return mechanism_named<Real, I + 1>(name, where);
  } else {
    std::string valid;
    [&]<std::size_t... J>(std::index_sequence<J...>) {
      ((valid +=
        (J ? ", " : "") + std::string(std::variant_alternative_t<J, mechanism<Real>>::name)),
       ...);
    }
    (std::make_index_sequence<std::variant_size_v<mechanism<Real>>>{});
    where.fail("one of " + valid);
  }
}
}  // namespace detail

/// Reads one event (strict: only the mechanism's fields and the common keys).
/// @throws std::invalid_argument naming the JSON path; invalid_parameter for invalid values
/// @spec ACC.LEDGER.JSON
template <real_scalar Real>
event<Real> read_event(const io::node& n) {
  if (!n.is_object()) n.fail("an object");
  event<Real> e;
  const io::node mech = n.at("mechanism");
  e.what = detail::mechanism_named<Real>(mech.string(), mech);
  std::set<std::string> known{"mechanism", "sampling", "analysis", "count", "label", "joint"};
  std::visit(
      [&](auto& m) {
        m.fields([&](std::string_view key, auto& field, std::string_view = {}) {
          known.insert(std::string(key));
          io::read_value(n.at(key), field);  // every mechanism parameter is required
        });
      },
      e.what);
  for (const std::string& k : n.keys())
    if (!known.count(k)) {
      std::string valid;
      for (const auto& v : known) valid.append(valid.empty() ? "" : ", ").append(v);
      throw std::invalid_argument(n.where() + " has unknown key \"" + k + "\" for mechanism " +
                                  std::string(e.kind()) + " (valid keys: " + valid + ")");
    }
  e.count = n.at("count").template integer<long long>(1, 1000000000000000000LL);
  if (const auto a = n.find("analysis")) e.how = a->template enumeration<analysis>();
  if (const auto l = n.find("label")) e.label = l->string(4096);
  if (const auto s = n.find("sampling")) {
    subsampling<Real> sub;
    sub.scheme = s->at("scheme").template enumeration<sampling_scheme>();
    sub.relation = s->at("neighbouring").template enumeration<neighbouring>();
    io::read_fields(*s, sub);
    e.sampling = sub;
  }
  if (const auto j = n.find("joint"))  // ACC.EVENT.JOINT: plain events on the same sample
    for (const io::node& part : j->elements(10000)) e.joint.push_back(read_event<Real>(part));
  validate(e);
  return e;
}

/// @spec ACC.LEDGER.JSON
template <real_scalar Real>
io::json ledger_value(const ledger<Real>& l) {
  io::json ev = io::json::array();
  for (const auto& e : l.events()) ev.push_back(event_value(e));
  io::json out = io::json::object();
  out["accounting"] = io::fields_value(l.options());
  // the work bounds and pld_adaptive are written only when they differ from their defaults
  // (ledgers of default runs keep the keys they had before these options existed)
  const accounting_options<Real> def{};
  if (l.options().pld_adaptive == def.pld_adaptive) out["accounting"].erase("pld_adaptive");
  if (l.options().pld_max_points == def.pld_max_points) out["accounting"].erase("pld_max_points");
  if (l.options().rdp_max_evaluations == def.rdp_max_evaluations)
    out["accounting"].erase("rdp_max_evaluations");
  out["events"] = std::move(ev);
  return out;
}

/// Reads a ledger {"accounting": {...}, "events": [...]} (both keys required).
/// @spec ACC.LEDGER.JSON
template <real_scalar Real>
ledger<Real> read_ledger(const io::node& n, std::size_t max_events = 1000000) {
  if (!n.is_object()) n.fail("an object with keys \"accounting\" and \"events\"");
  for (const std::string& k : n.keys())
    if (k != "accounting" && k != "events")
      throw std::invalid_argument(n.where() + " has unknown key \"" + k +
                                  "\" (valid keys: accounting, events)");
  accounting_options<Real> opt;
  io::read_fields(n.at("accounting"), opt);
  ledger<Real> l(opt);
  for (const io::node& e : n.at("events").elements(max_events)) l.record(read_event<Real>(e));
  return l;
}

/// @spec ACC.LEDGER.JSON
template <real_scalar Real>
io::json guarantee_value(const guarantee<Real>& g) {
  return io::fields_value(g);
}

}  // namespace dpref::accounting

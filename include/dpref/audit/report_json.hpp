// The JSON of an audit report, the one writer behind `dpref audit --json` (audit/builtin.hpp)
// and dpref.audit of the Python module: the claim, the verdict, the false-alarm probability, the
// seed and sample counts, and for every neighbour pair its chosen event, test counts,
// Clopper–Pearson bounds and the lower bounds of ε and of the hockey-stick divergence
// (spec/audit.md).
#pragma once

#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "dpref/audit/auditor.hpp"

namespace dpref::audit {

/// A lower bound as JSON: null when it is −∞ (no event separated the pair).
inline nlohmann::json lower_bound_value(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

/// The report of an audit run with `seed`, `search` and `test` samples per side.
inline nlohmann::json report_json(const audit_report& r, std::uint64_t seed, std::uint64_t search,
                                  std::uint64_t test) {
  nlohmann::json j;
  j["epsilon_claimed"] = r.epsilon;
  j["delta_claimed"] = r.delta;
  j["epsilon_lower_bound"] = lower_bound_value(r.eps_lb);
  j["verdict"] = r.violation ? "violation" : "no violation";
  j["alpha"] = r.alpha;
  j["seed"] = seed;
  j["samples_per_side"] = {{"search", search}, {"test", test}};
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& p : r.pairs)
    pairs.push_back(
        {{"pair", p.pair},
         {"event", p.event.description},
         {"direction", p.event.swapped ? "P[M(D')∈S] / P[M(D)∈S]" : "P[M(D)∈S] / P[M(D')∈S]"},
         {"count_numerator", p.count_num},
         {"count_denominator", p.count_den},
         {"test_samples", p.n},
         {"p_lower", p.p_lower},
         {"p_upper", p.p_upper},
         {"epsilon_lower_bound", lower_bound_value(p.eps_lb)},
         {"delta_lower_bound", p.delta_lb},
         {"violation", p.violation}});
  j["pairs"] = std::move(pairs);
  return j;
}

}  // namespace dpref::audit

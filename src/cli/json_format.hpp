// JSON output of scalars shared by the CLI subcommands: double as a JSON number (17 significant
// digits round-trip), every other scalar as a decimal string carrying all its digits.
#pragma once

#include <nlohmann/json.hpp>
#include <type_traits>

#include "dpref/accounting/ledger.hpp"
#include "scalar_format.hpp"

namespace dpref::cli {

template <real_scalar Real>
nlohmann::json num(const Real& x) {
  if constexpr (std::is_same_v<Real, double>)
    return x;
  else
    return to_text(x);
}

template <real_scalar Real>
nlohmann::json vec_json(const vector<Real>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(num(v[i]));
  return a;
}

/// A pure-DP ledger: its events (kind, ε, count, parameters) and the composed total.
template <real_scalar Real>
nlohmann::json ledger_json(const accounting::privacy_ledger<Real>& l) {
  nlohmann::json ev = nlohmann::json::array();
  for (const auto& e : l.events()) {
    nlohmann::json je{{"kind", e.kind},
                      {"eps", num(std::get<accounting::pure_dp<Real>>(e.privacy).eps)},
                      {"count", e.count}};
    for (const auto& [k, v] : e.params) je[k] = num(v);
    ev.push_back(je);
  }
  const auto t = l.total(Real(0));
  return {{"events", ev}, {"total_eps", num(t.eps)}, {"total_delta", num(t.delta)}};
}

}  // namespace dpref::cli

// JSON of a run (spec/architecture.md ARCH.JSON): the shared envelope every `run` command and
// every binding writes — schema, paper, algorithm, precision, the complete configuration, the
// status, the privacy report (ledger included) and the paper's iterates / trace / non-private
// diagnostics.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "dpref/accounting/ledger_json.hpp"
#include "dpref/io/json.hpp"
#include "dpref/params.hpp"
#include "dpref/run/report.hpp"

namespace dpref {

/// Runs f; an invalid_parameter it throws is re-thrown as std::invalid_argument prefixed with how
/// the user wrote the field: its flag ("--epsilon") or its JSON path ("f.json: /params/epsilon").
/// Every paper's run_json reads its sections through this (ARCH.JSON).
template <class F>
decltype(auto) at_path(const io::document& doc, const std::string& section, F&& f) {
  try {
    return f();
  } catch (const invalid_parameter& e) {
    std::string ptr = section + "/";
    for (const char ch : e.field()) ptr += ch == '.' ? '/' : ch;
    throw std::invalid_argument(doc.display(ptr) + ": " + e.what());
  }
}

/// "privacy" object: {"private": false} for non-private runs; otherwise requested budget,
/// certified guarantee, whether the budget was met, and the ledger (the input of
/// `dpref account`).
/// @spec ARCH.RESULT
template <real_scalar Real>
io::json privacy_value(const privacy_report<Real>& p) {
  io::json out = io::json::object();
  out["private"] = p.is_private;
  if (!p.is_private) return out;
  out["requested"] = {{"epsilon", io::real_value(p.requested.eps)},
                      {"delta", io::real_value(p.requested.delta)}};
  out["guarantee"] = accounting::guarantee_value(p.guarantee);
  out["budget_met"] = p.budget_met;
  out["noise"] = std::string(enum_names(noise_mode{})[static_cast<std::size_t>(p.noise)].second);
  out["released_doubles"] = std::string(released_doubles_statement(p.noise));
  out["ledger"] = accounting::ledger_value(p.ledger);
  return out;
}

/// The parts of a result document a paper supplies.
struct result_parts {
  std::string paper;      ///< "ev", "pwa", "accel", "linesearch", "dda"
  std::string algorithm;  ///< the algorithm's name (params.algorithm)
  io::json config;        ///< complete configuration after defaults (feeds back via --params)
  io::json iterates;      ///< the released output(s)
  io::json trace;         ///< per-iteration trace or null
  io::json non_private = io::json::object();  ///< labelled non-private diagnostics
};

/// The result document {"schema": "dpref.result/1", ...} (spec/architecture.md).
/// @spec ARCH.RESULT
template <real_scalar Real>
io::json result_value(const run_report<Real>& r, result_parts parts) {
  io::json out = io::json::object();
  out["schema"] = "dpref.result/1";
  out["paper"] = std::move(parts.paper);
  out["algorithm"] = std::move(parts.algorithm);
  out["precision"] = scalar_name<Real>();
  out["config"] = std::move(parts.config);
  out["status"] = std::string(to_string(r.status));
  out["message"] = r.message;
  out["iterations"] = r.iterations;
  out["privacy"] = privacy_value(r.privacy);
  out["iterates"] = std::move(parts.iterates);
  out["trace"] = std::move(parts.trace);
  out["non_private"] = std::move(parts.non_private);
  return out;
}

}  // namespace dpref

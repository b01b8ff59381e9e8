// JSON of a run (spec/architecture.md ARCH.JSON): the shared envelope every `run` command and
// every binding writes — schema, paper, algorithm, precision, the complete configuration, the
// status, the privacy report (ledger and enforced public bounds included) and the paper's
// iterates / trace, plus non-private diagnostics only where they are allowed (PRIV.RELEASE):
// a non-private run always has them; a private run only when the caller asked for them
// (params.diagnostics), labelled by their "note". A private run's document carries nothing the
// ledger does not cover by default: result_value refuses (std::logic_error) to write diagnostics
// a private run computed without the request.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// "enforced": [{"constant", "value", "enforcement", "how"}, ...] of a private run.
/// @spec PRIV.BOUNDS
template <real_scalar Real>
io::json enforced_value(const std::vector<enforced_bound<Real>>& bounds) {
  io::json out = io::json::array();
  for (const auto& b : bounds)
    out.push_back(
        {{"constant", b.constant},
         {"value", io::real_value(b.value)},
         {"enforcement",
          std::string(enum_names(enforcement{})[static_cast<std::size_t>(b.kind)].second)},
         {"how", b.how}});
  return out;
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
  out["enforced"] = enforced_value(p.enforced);
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
  /// The caller asked for non-private diagnostics (params.diagnostics). A private run writes
  /// "non_private" only then (PRIV.RELEASE).
  bool diagnostics = false;
};

/// The result document {"schema": "dpref.result/1", ...} (spec/architecture.md).
/// "non_private" is written for non-private runs and for private runs that asked for
/// diagnostics (with its "note" saying it is not covered); a private run that did not ask has
/// no "non_private" key, and one that computed diagnostics anyway is a programming error.
/// @throws std::logic_error for a private run without enforced bounds, or with diagnostics it
/// was not asked for, or with diagnostics that carry no "note"
/// @spec ARCH.RESULT PRIV.RELEASE PRIV.BOUNDS
template <real_scalar Real>
io::json result_value(const run_report<Real>& r, result_parts parts) {
  const bool np_empty =
      parts.non_private.is_null() || (parts.non_private.is_object() && parts.non_private.empty());
  if (r.privacy.is_private) {
    if (r.privacy.enforced.empty())
      throw std::logic_error("dpref::result_value: the private " + parts.paper + " run (" +
                             parts.algorithm +
                             ") lists no enforced public bound (spec/privacy_bounds.md)");
    if (!parts.diagnostics && !np_empty)
      throw std::logic_error("dpref::result_value: the private " + parts.paper + " run (" +
                             parts.algorithm +
                             ") computed non-private diagnostics it was not asked for");
    if (parts.diagnostics && !np_empty && !parts.non_private.contains("note"))
      throw std::logic_error("dpref::result_value: non-private diagnostics of " + parts.paper +
                             " carry no note");
  }
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
  if (!r.privacy.is_private || parts.diagnostics)
    out["non_private"] = np_empty ? io::json::object() : std::move(parts.non_private);
  return out;
}

}  // namespace dpref

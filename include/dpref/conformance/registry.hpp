// Registries of the conformance kit and of the papers' run entry points (spec/conformance.md
// CONF.CORPUS, CONF.TRAJECTORY; spec/python.md PY.RUN).
//
// A *family* is one file of the corpus (`<area>/<name>.json`) produced by a generator. The
// generic families are listed by generic_families() (generate.hpp); families that need a paper
// (one short deterministic trajectory per algorithm) are listed in src/papers/papers.hpp, one
// line per paper, because generic headers never include a paper folder (ARCH.LAYOUT).
//
// A paper_runner holds a paper's `run_json<Real>(const io::document&) -> io::json` entry point
// (ARCH.RUN) at the four precisions; DPREF_PAPER_RUNNER("ev", ::dpref::ev) builds one. The
// Python package (`dpref.run`) and the "run" op of the protocol dispatch through the table of
// src/papers/papers.hpp.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "dpref/io/json.hpp"
#include "dpref/io/precision.hpp"

namespace dpref::conformance {

/// One file of the corpus: its path below the corpus root without ".json" (e.g.
/// "accounting/events"), a one-line description and its vectors.
struct family {
  std::string path;
  std::string description;
  std::vector<io::json> vectors;
};

/// A generator of one family (deterministic: the same bytes on every run).
struct family_entry {
  std::string path;
  std::function<family()> generate;
};

/// A paper's run_json entry point at each precision.
struct paper_runner {
  std::string name;
  io::json (*run_double)(const io::document&) = nullptr;
  io::json (*run_long_double)(const io::document&) = nullptr;
  io::json (*run_mp50)(const io::document&) = nullptr;
  io::json (*run_mpfr)(const io::document&) = nullptr;

  /// run_json at precision p (mpfr: inside an mpfr_precision_scope, as io::with_precision).
  [[nodiscard]] io::json run(const io::document& config, const io::precision& p) const {
    switch (p.k) {
      case io::precision::kind::double_:
        return run_double(config);
      case io::precision::kind::long_double:
        return run_long_double(config);
      case io::precision::kind::mp50:
        return run_mp50(config);
      case io::precision::kind::mpfr: {
        const mpfr_precision_scope scope(p.digits);
        return run_mpfr(config);
      }
    }
    return run_double(config);
  }
};

/// The runner named `name` in `runners`.
/// @throws std::invalid_argument "dpref.run: paper must be one of <names>, got '<name>'"
inline const paper_runner& find_runner(const std::vector<paper_runner>& runners,
                                       const std::string& name) {
  std::string names;
  for (const auto& r : runners) {
    if (r.name == name) return r;
    names.append(names.empty() ? "" : ", ").append(r.name);
  }
  throw std::invalid_argument("dpref.run: paper must be one of " +
                              (names.empty() ? std::string("(none registered yet)") : names) +
                              ", got '" + name + "'");
}

}  // namespace dpref::conformance

/// A paper_runner for the paper in namespace `ns` with a template run_json<Real>(doc) (extra
/// defaulted parameters, such as a progress callback, are allowed: each entry is a lambda).
#define DPREF_PAPER_RUNNER(name, ns)                                                       \
  ::dpref::conformance::paper_runner {                                                     \
    name, [](const ::dpref::io::document& d) { return ns::run_json<double>(d); },          \
        [](const ::dpref::io::document& d) { return ns::run_json<long double>(d); },       \
        [](const ::dpref::io::document& d) { return ns::run_json<::dpref::mp50>(d); },     \
        [](const ::dpref::io::document& d) { return ns::run_json<::dpref::mpfr_real>(d); } \
  }

// The papers' entry points for the tools (ARCH.RUN; spec/python.md PY.RUN, spec/conformance.md
// CONF.TRAJECTORY). Generic code never includes a paper folder (ARCH.LAYOUT), so the tools that
// dispatch by paper name — `dpref.run(paper, config)` in Python, the "run" op of
// `dpref check-vectors`, the trajectory families of `dpref vectors` — find the papers here.
//
// The table is compiled once, in the library dpref_papers (src/papers/*.cpp, ARCH.INSTANCES):
// <paper>_runner.cpp holds the explicit instantiations of that paper's run_json<Real> for every
// dpref scalar, and every consumer (the CLI's `<paper> run` commands, `dpref vectors`, the Python
// module) sees the matching `extern template` declarations (DPREF_PAPER_INSTANCES) instead of
// instantiating the papers' algorithms again at four precisions.
//
// Adding a paper:
//   1. its run_json<Real>(const io::document&) -> io::json (include/dpref/<paper>/run_json.hpp)
//      with the DPREF_PAPER_INSTANCES extern declarations at the end of that header;
//   2. src/papers/<paper>_runner.cpp: the explicit instantiations and
//        conformance::paper_runner <paper>_runner() { return DPREF_PAPER_RUNNER("<paper>", ...); }
//      declared in detail below and listed in runners() (papers.cpp);
//   3. optionally its conformance trajectories in trajectory_families() (papers.cpp).
// Nothing else changes: `dpref vectors` writes trajectories/<paper>.json, `dpref check-vectors`
// and `dpref.conformance.check` check it, and `dpref.run("<paper>", ...)` works.
#pragma once

#include <vector>

#include "dpref/conformance/registry.hpp"

namespace dpref::papers {

/// run_json entry points, one per paper, in the order ev, linesearch, dda, pwa, accel.
const std::vector<conformance::paper_runner>& runners();

/// Conformance trajectory families, one per paper that defines them.
std::vector<conformance::family_entry> trajectory_families();

namespace detail {
conformance::paper_runner ev_runner();
conformance::paper_runner linesearch_runner();
conformance::paper_runner dda_runner();
conformance::paper_runner pwa_runner();
conformance::paper_runner accel_runner();
}  // namespace detail

}  // namespace dpref::papers

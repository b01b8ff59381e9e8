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
//   1. its run_json<Real>(const io::document&) -> io::json (include/dpref/<paper>/json.hpp)
//      with the DPREF_PAPER_INSTANCES extern declarations at the end of that header;
//   2. src/papers/<paper>_runner.cpp: the explicit instantiations and
//        conformance::paper_runner <paper>_runner() { return DPREF_PAPER_RUNNER("<paper>", ...); }
//   3. its conformance trajectories: <paper>::conformance_trajectories in
//      include/dpref/<paper>/conformance.hpp;
//   4. its name in DPREF_PAPERS (cmake/papers.cmake, the one list of papers): the declarations
//      below, runners() and trajectory_families() (papers.cpp) expand DPREF_FOR_EACH_PAPER.
// Nothing else changes: `dpref vectors` writes trajectories/<paper>.json, `dpref check-vectors`
// and `dpref.conformance.check` check it, and `dpref.run("<paper>", ...)` works.
#pragma once

#include <vector>

#include "dpref/conformance/registry.hpp"
#include "papers/paper_list.hpp"

namespace dpref::papers {

/// run_json entry points, one per paper, in the order of DPREF_PAPERS.
const std::vector<conformance::paper_runner>& runners();

/// Conformance trajectory families, one per paper.
std::vector<conformance::family_entry> trajectory_families();

namespace detail {
#define DPREF_DECLARE_PAPER_RUNNER(paper) conformance::paper_runner paper##_runner();
DPREF_FOR_EACH_PAPER(DPREF_DECLARE_PAPER_RUNNER)
#undef DPREF_DECLARE_PAPER_RUNNER
}  // namespace detail

}  // namespace dpref::papers

// The papers' entry points for the tools (ARCH.RUN; spec/python.md PY.RUN, spec/conformance.md
// CONF.TRAJECTORY). Generic code never includes a paper folder (ARCH.LAYOUT), so the tools that
// dispatch by paper name — `dpref.run(paper, config)` in Python, the "run" op of
// `dpref check-vectors`, the trajectory families of `dpref vectors` — find the papers here.
//
// Adding a paper is two lines, each optional until its code exists:
//   1. its run_json<Real>(const io::document&) -> io::json (include/dpref/<paper>/run_json.hpp):
//        #include "dpref/ev/run_json.hpp"
//        DPREF_PAPER_RUNNER("ev", ::dpref::ev),                      // in runners()
//   2. its conformance trajectories, a function returning a conformance::family whose vectors
//      are made by conformance::trajectory_vector (one short run per algorithm):
//        {"trajectories/ev", &::dpref::ev::conformance_trajectories},  // in trajectory_families()
// Nothing else changes: `dpref vectors` writes trajectories/<paper>.json, `dpref check-vectors`
// and `dpref.conformance.check` check it, and `dpref.run("ev", ...)` works.
#pragma once

#include <vector>

#include "dpref/accel/run_json.hpp"
#include "dpref/conformance/registry.hpp"
#include "dpref/dda/run_json.hpp"
#include "dpref/ev/json.hpp"
#include "dpref/linesearch/run_json.hpp"
#include "dpref/pwa/run_json.hpp"

namespace dpref::papers {

/// run_json entry points, one line per paper.
inline const std::vector<conformance::paper_runner>& runners() {
  static const std::vector<conformance::paper_runner> table = {
      DPREF_PAPER_RUNNER("ev", ::dpref::ev),
      DPREF_PAPER_RUNNER("linesearch", ::dpref::linesearch),
      DPREF_PAPER_RUNNER("dda", ::dpref::dda),
      DPREF_PAPER_RUNNER("pwa", ::dpref::pwa),
      DPREF_PAPER_RUNNER("accel", ::dpref::accel),
  };
  return table;
}

/// Conformance trajectory families, one line per paper.
inline std::vector<conformance::family_entry> trajectory_families() {
  return {
      // {"trajectories/ev", &::dpref::ev::conformance_trajectories},
  };
}

}  // namespace dpref::papers

// The papers' table for the tools (src/papers/papers.hpp), expanded from DPREF_PAPERS.
#include "papers/papers.hpp"

#include "papers/paper_conformance.hpp"

namespace dpref::papers {

const std::vector<conformance::paper_runner>& runners() {
#define DPREF_PAPER_RUNNER_ENTRY(paper) detail::paper##_runner(),
  static const std::vector<conformance::paper_runner> table = {
      DPREF_FOR_EACH_PAPER(DPREF_PAPER_RUNNER_ENTRY)};
#undef DPREF_PAPER_RUNNER_ENTRY
  return table;
}

std::vector<conformance::family_entry> trajectory_families() {
#define DPREF_PAPER_TRAJECTORIES(paper) \
  {"trajectories/" #paper, &::dpref::paper::conformance_trajectories},
  return {DPREF_FOR_EACH_PAPER(DPREF_PAPER_TRAJECTORIES)};
#undef DPREF_PAPER_TRAJECTORIES
}

}  // namespace dpref::papers

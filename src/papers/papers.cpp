// The papers' table for the tools (src/papers/papers.hpp).
#include "papers/papers.hpp"

namespace dpref::papers {

const std::vector<conformance::paper_runner>& runners() {
  static const std::vector<conformance::paper_runner> table = {
      detail::ev_runner(),
      detail::linesearch_runner(),
      detail::dda_runner(),
      detail::pwa_runner(),
  };
  return table;
}

std::vector<conformance::family_entry> trajectory_families() {
  return {
      // {"trajectories/ev", &::dpref::ev::conformance_trajectories},
  };
}

}  // namespace dpref::papers

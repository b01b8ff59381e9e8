// The papers' table for the tools (src/papers/papers.hpp).
#include "papers/papers.hpp"

#include "dpref/accel/conformance.hpp"
#include "dpref/dda/conformance.hpp"
#include "dpref/ev/conformance.hpp"
#include "dpref/linesearch/conformance.hpp"
#include "dpref/pwa/conformance.hpp"

namespace dpref::papers {

const std::vector<conformance::paper_runner>& runners() {
  static const std::vector<conformance::paper_runner> table = {
      detail::ev_runner(),  detail::linesearch_runner(), detail::dda_runner(),
      detail::pwa_runner(), detail::accel_runner(),
  };
  return table;
}

std::vector<conformance::family_entry> trajectory_families() {
  return {
      {"trajectories/ev", &::dpref::ev::conformance_trajectories},
      {"trajectories/linesearch", &::dpref::linesearch::conformance_trajectories},
      {"trajectories/dda", &::dpref::dda::conformance_trajectories},
      {"trajectories/pwa", &::dpref::pwa::conformance_trajectories},
      {"trajectories/accel", &::dpref::accel::conformance_trajectories},
  };
}

}  // namespace dpref::papers

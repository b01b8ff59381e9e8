// The linesearch paper's run_json<Real> for every dpref scalar, compiled once
// (src/papers/papers.hpp).
#include "dpref/linesearch/linesearch.hpp"
#include "papers/papers.hpp"

namespace dpref::linesearch {
#define DPREF_LINESEARCH_INSTANTIATE(R) DPREF_LINESEARCH_RUN_JSON_INSTANCES(, R)
DPREF_FOR_EACH_SCALAR(DPREF_LINESEARCH_INSTANTIATE)
#undef DPREF_LINESEARCH_INSTANTIATE
}  // namespace dpref::linesearch

namespace dpref::papers::detail {
conformance::paper_runner linesearch_runner() {
  return DPREF_PAPER_RUNNER("linesearch", ::dpref::linesearch);
}
}  // namespace dpref::papers::detail

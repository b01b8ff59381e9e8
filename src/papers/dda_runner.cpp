// The dda paper's run_json<Real> for every dpref scalar, compiled once (src/papers/papers.hpp).
#include "dpref/dda/dda.hpp"
#include "papers/papers.hpp"

namespace dpref::dda {
#define DPREF_DDA_INSTANTIATE(R) DPREF_DDA_RUN_JSON_INSTANCES(, R)
DPREF_FOR_EACH_SCALAR(DPREF_DDA_INSTANTIATE)
#undef DPREF_DDA_INSTANTIATE
}  // namespace dpref::dda

namespace dpref::papers::detail {
conformance::paper_runner dda_runner() { return DPREF_PAPER_RUNNER("dda", ::dpref::dda); }
}  // namespace dpref::papers::detail

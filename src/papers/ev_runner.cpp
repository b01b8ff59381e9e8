// The ev paper's run_json<Real> for every dpref scalar, compiled once (src/papers/papers.hpp).
#include "dpref/ev/ev.hpp"
#include "papers/papers.hpp"

namespace dpref::ev {
#define DPREF_EV_INSTANTIATE(R) DPREF_EV_RUN_JSON_INSTANCES(, R)
DPREF_FOR_EACH_SCALAR(DPREF_EV_INSTANTIATE)
#undef DPREF_EV_INSTANTIATE
}  // namespace dpref::ev

namespace dpref::papers::detail {
conformance::paper_runner ev_runner() { return DPREF_PAPER_RUNNER("ev", ::dpref::ev); }
}  // namespace dpref::papers::detail

// The pwa paper's run_json<Real> for every dpref scalar, compiled once (src/papers/papers.hpp).
#include "dpref/pwa/pwa.hpp"
#include "papers/papers.hpp"

namespace dpref::pwa {
#define DPREF_PWA_INSTANTIATE(R) DPREF_PWA_RUN_JSON_INSTANCES(, R)
DPREF_FOR_EACH_SCALAR(DPREF_PWA_INSTANTIATE)
#undef DPREF_PWA_INSTANTIATE
}  // namespace dpref::pwa

namespace dpref::papers::detail {
conformance::paper_runner pwa_runner() { return DPREF_PAPER_RUNNER("pwa", ::dpref::pwa); }
}  // namespace dpref::papers::detail

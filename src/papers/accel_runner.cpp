// The accel paper's run_json<Real> for every dpref scalar, compiled once (src/papers/papers.hpp).
#include "dpref/accel/accel.hpp"
#include "papers/papers.hpp"

namespace dpref::accel {
#define DPREF_ACCEL_INSTANTIATE(R) DPREF_ACCEL_RUN_JSON_INSTANCES(, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACCEL_INSTANTIATE)
#undef DPREF_ACCEL_INSTANTIATE
}  // namespace dpref::accel

namespace dpref::papers::detail {
conformance::paper_runner accel_runner() { return DPREF_PAPER_RUNNER("accel", ::dpref::accel); }
}  // namespace dpref::papers::detail

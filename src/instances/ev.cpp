// Explicit instantiations of the ev privacy calibration templates for every dpref scalar
// (spec/ev.md). Consumers see matching `extern template` declarations.
#include "dpref/ev/calibration.hpp"

namespace dpref::ev {

#define DPREF_EV_INSTANTIATE(R) DPREF_EV_CALIBRATION_INSTANCES(, R)

DPREF_FOR_EACH_SCALAR(DPREF_EV_INSTANTIATE)

#undef DPREF_EV_INSTANTIATE

}  // namespace dpref::ev

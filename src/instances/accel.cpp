// Explicit instantiations of the accel privacy calibration templates for every dpref scalar
// (spec/accel.md). Consumers see matching `extern template` declarations.
#include "dpref/accel/calibration.hpp"

namespace dpref::accel {

#define DPREF_ACCEL_INSTANTIATE(R) DPREF_ACCEL_CALIBRATION_INSTANCES(, R)

DPREF_FOR_EACH_SCALAR(DPREF_ACCEL_INSTANTIATE)

#undef DPREF_ACCEL_INSTANTIATE

}  // namespace dpref::accel

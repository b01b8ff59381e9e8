// Explicit instantiations of the dda privacy templates (Lemmas 4.1-4.3, Theorem 1 calibrators)
// for every dpref scalar (spec/dda.md). Consumers see matching `extern template` declarations.
#include "dpref/dda/calibration.hpp"
#include "dpref/dda/composition.hpp"

namespace dpref::dda {

#define DPREF_DDA_INSTANTIATE(R)       \
  DPREF_DDA_COMPOSITION_INSTANCES(, R) \
  DPREF_DDA_CALIBRATION_INSTANCES(, R)

DPREF_FOR_EACH_SCALAR(DPREF_DDA_INSTANTIATE)

#undef DPREF_DDA_INSTANTIATE

}  // namespace dpref::dda

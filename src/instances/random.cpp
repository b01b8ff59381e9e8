// Explicit instantiations of the samplers (see include/dpref/random/instances.hpp).
#include "dpref/random.hpp"

namespace dpref {
#define DPREF_RANDOM_DEFINE(R) DPREF_RANDOM_INSTANCES(, R)
DPREF_FOR_EACH_SCALAR(DPREF_RANDOM_DEFINE)
#undef DPREF_RANDOM_DEFINE
}  // namespace dpref

// Explicit instantiations of the linesearch RDP accountant for every dpref scalar
// (spec/linesearch.md). Consumers see matching `extern template` declarations.
#include "dpref/linesearch/accountant.hpp"

namespace dpref::linesearch {

#define DPREF_LINESEARCH_INSTANTIATE(R) DPREF_LINESEARCH_ACCOUNTANT_INSTANCES(, R)

DPREF_FOR_EACH_SCALAR(DPREF_LINESEARCH_INSTANTIATE)

#undef DPREF_LINESEARCH_INSTANTIATE

}  // namespace dpref::linesearch

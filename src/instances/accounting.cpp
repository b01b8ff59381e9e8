// Explicit instantiations of the privacy-accounting templates for every dpref scalar
// (spec/accounting.md). Consumers see matching `extern template` declarations.
#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/account_report.hpp"
#include "dpref/accounting/accountant.hpp"

namespace dpref::accounting {

#define DPREF_ACC_INSTANTIATE(R)       \
  DPREF_ACC_LAPLACE_INSTANCES(, R)     \
  DPREF_ACC_GAUSSIAN_INSTANCES(, R)    \
  DPREF_ACC_ANALYTIC_INSTANCES(, R)    \
  DPREF_ACC_CONVERSION_INSTANCES(, R)  \
  DPREF_ACC_SVT_INSTANCES(, R)         \
  DPREF_ACC_COMPOSITION_INSTANCES(, R) \
  DPREF_ACC_SUBSAMPLING_INSTANCES(, R) \
  DPREF_ACC_ACCOUNT_INSTANCES(, R)     \
  DPREF_ACC_REPORT_INSTANCES(, R)

DPREF_FOR_EACH_SCALAR(DPREF_ACC_INSTANTIATE)

#undef DPREF_ACC_INSTANTIATE

}  // namespace dpref::accounting

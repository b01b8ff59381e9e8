// The secure release of one accel step's gradient (spec/accel.md SEC.ACCEL, spec/secure_release.md
// SEC.LAPLACE.SUM): g̃ = mechanisms::snapped_laplace_sum over the step's examples, so that the
// lattice itself enforces the ledger's Δ1 = S₁/m whatever floating-point error the gradient
// carries.
//   logistic regression (5.1): record i is ∇ℓ(x; u_i, z_i)/m (the loss part, ‖·‖₁ <= B/m), put in
//     the l1 ball of radius Δ1/2 >= B/m on the grid; the regulariser's 2λy is the public offset
//     (y is a post-processing of earlier releases and the public x0);
//   quadratic (3.16): no records; the whole gradient Qy − a is the public offset.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>

#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel::detail {

/// g̃ of one step at the gradient point y: batch = the m example indices (empty: all n).
/// @spec SEC.ACCEL SEC.LAPLACE.SUM
template <class Problem>
vector<double> secure_gradient(const Problem& P, const vector<double>& y,
                               std::span<const long long> batch, philox_stream& s,
                               const mechanisms::snapped_laplace_params& sp,
                               vector<double>& offset) {
  if constexpr (requires {
                  P.l1_bound();
                  P.loss_gradient_into(y, 0LL, offset);
                }) {
    const std::size_t m = batch.empty() ? static_cast<std::size_t>(P.size()) : batch.size();
    const double inv_m = 1.0 / static_cast<double>(m);  // the ball, not this product, bounds Δ1
    P.regulariser_gradient_into(y, offset);
    return mechanisms::snapped_laplace_sum(
        s, m,
        [&](std::size_t r, vector<double>& v) {
          P.loss_gradient_into(y, batch.empty() ? static_cast<long long>(r) : batch[r], v);
          v *= inv_m;
        },
        offset, sp);
  } else if constexpr (requires {
                         P.Q();
                         P.minimiser();
                       }) {
    P.gradient_into(y, offset);  // no records: the gradient is public
    return mechanisms::snapped_laplace_sum(
        s, 0, [](std::size_t, vector<double>&) {}, offset, sp);
  } else {  // unreachable: enforced_bounds refuses a private run on any other problem first
    (void)P, (void)y, (void)batch, (void)s, (void)sp, (void)offset;
    throw std::logic_error(
        "accel: release = secure needs problems::logistic_regression or problems::quadratic");
  }
}

}  // namespace dpref::accel::detail

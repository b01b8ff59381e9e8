// Higher-power audits of the secure (lattice) releases (ctest label `slow`; spec/secure_release.md
// SEC.AUDIT.SLOW). Same plan as secure_release_audit.cpp (false alarm 1e-6 per audit, claims from
// the request and independent computations, fixed seeds); larger samples or dimensions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "audit_support.hpp"
#include "dpref/accounting/analytic_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "secure_audit_support.hpp"

namespace {

using namespace dpref::audit;
using namespace dpref::audit::secure_support;
namespace mech = dpref::mechanisms;
namespace acc = dpref::accounting;

// 2^22 samples per side: the coarse-grid Laplace claim is tight, so ε_lb must come within 10%.
TEST(SEC_AUDIT_SLOW, CoarseGridLaplaceTightToTenPercent) {
  const double eps = 1;
  const mech::snapped_laplace_params p{1.0, 2.0, 1, 64.0, 0};
  const auto r = coarse_tie_audit(lattice_release<double>(p), 30, config(29001, eps, 0, 1u << 22));
  EXPECT_TRUE(audit_passes("SEC slow: snapped Laplace coarse grid, 2^22", r, 0.9 * eps));
}

// d = 20, fine grid, requested ε = 1, 2^17 samples per side (the lattice l2-Laplace at d = 20
// costs ~15 µs per draw). No power requirement: in d = 20 the events that carry the worst-case
// loss of the l2-Laplace are rare (ε_lb ≈ 0.3 at this sample size, as for the real-valued one).
TEST(SEC_AUDIT_SLOW, FineGridL2LaplaceD20) {
  const double sens = 1, eps = 1;
  const auto p = mech::snapped_vector_laplace_for(sens, eps, 20, 64.0);
  const int k = p.grid_exponent;
  const auto r = run_audit_per_pair<vec, vec>(
      lattice_release<vec>(p), vector_pairs(20, sens),
      [k](const neighbour_pair<vec>& pr) { return lattice_l2_families(pr, k, 64.0); },
      config(29002, eps, 0, 1u << 17));
  EXPECT_TRUE(audit_passes("SEC slow: lattice l2-Laplace d=20", r));
}

// requested (1, 1e-6), 2^21 samples: the fine-grid Gaussian at a realistic δ.
TEST(SEC_AUDIT_SLOW, FineGridGaussianDeltaOneMillionth) {
  const double sens = 1, eps = 1, delta = 1e-6;
  const double sigma0 = acc::analytic_gaussian_sigma(sens, eps, delta);
  const int k = mech::snapped_gaussian_grid_exponent(sens, sigma0, 1, 64.0);
  const double sigma = acc::analytic_gaussian_sigma(sens + std::ldexp(1.0, k), eps, delta);
  const mech::snapped_gaussian_params p{sens, sigma, 1, 64.0, k};
  const auto v = p.grid_variance();
  const long double var = static_cast<long double>(v.num) / static_cast<long double>(v.den);
  const auto shift = static_cast<long long>(std::floor(std::ldexp(sens, -k))) + 1;
  ASSERT_LE(discrete_gaussian_delta_equal_shift(var, shift, 1, eps), delta * (1 + 1e-6));
  const auto r = run_audit<double, double>(lattice_release<double>(p), scalar_pairs(sens),
                                           scalar_families(-25, 26, 204, kLowBits),
                                           config(29003, eps, delta, 1u << 21));
  EXPECT_TRUE(audit_passes("SEC slow: snapped Gaussian (1, 1e-6), 2^21", r, 0.5 * eps));
}

}  // namespace

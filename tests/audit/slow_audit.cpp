// Higher-power audits (ctest label `slow`, not run in CI):
//   ctest --test-dir build/release -L slow -R audit_slow --output-on-failure
// Same plan as mechanisms_audit.cpp (fixed seeds, false alarm 1e-6 per audit) with 16x more
// samples: 2^24 (scalar) or 2^22 (vector, SVT) per side, per pair, per phase.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "audit_support.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/mechanisms/above_threshold.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"

namespace {

using namespace dpref::audit;
using dpref::philox_stream;
namespace acc = dpref::accounting;
namespace mech = dpref::mechanisms;

TEST(AUDIT_MECH_LAPLACE, SlowHighPower) {
  const double b = acc::laplace_scale(1.0, 1.0);
  const double claimed = acc::laplace_privacy(1.0, b).eps;
  const auto r = run_audit<double, double>(
      test_support::laplace_release(b), scalar_pairs(1.0),
      {threshold_family<double>("threshold", test_support::identity, -8, 9, 136)},
      test_support::make_config(1101, 1u << 24, claimed));
  EXPECT_TRUE(test_support::audit_passes("SLOW Laplace reference", r, 0.95 * claimed));
}

TEST(AUDIT_MECH_VLAPLACE, SlowDimension5HighPower) {
  using vec = Eigen::VectorXd;
  const double b = acc::laplace_scale(1.0, 1.0);
  const double claimed = acc::vector_laplace_privacy(1.0, b).eps;
  const auto fams = [](const neighbour_pair<vec>& p) {
    const vec a = p.first, c = p.second;
    return std::vector<event_family<vec>>{threshold_family<vec>(
        "likelihood-ratio statistic",
        [a, c](const vec& y) { return (y - c).norm() - (y - a).norm(); }, -1.0, 1.0, 200)};
  };
  const auto r =
      run_audit_per_pair<vec, vec>(test_support::vector_laplace_release(b), vector_pairs(5, 1.0),
                                   fams, test_support::make_config(1102, 1u << 22, claimed));
  EXPECT_TRUE(test_support::audit_passes("SLOW l2-Laplace d=5", r, 0.7 * claimed));
}

TEST(AUDIT_MECH_SVT_LAPLACE, SlowHighPower) {
  const auto [b1, b2] = mech::above_threshold_laplace_scales(1.0, 1.0);
  const double claimed = acc::svt_laplace_privacy(1.0, b1, b2).eps;
  constexpr std::size_t k = 8;
  const auto m = [b1 = b1, b2 = b2](const std::vector<double>& q, philox_stream& s) {
    const auto r = mech::above_threshold<double>(s, std::span<const double>(q), 0.0,
                                                 mech::svt_noise::laplace, b1, b2);
    return r.found ? r.index : k;
  };
  const auto r = run_audit<std::vector<double>, std::size_t>(
      m, query_pairs(k, 1.0),
      {index_family<std::size_t>(
          "first TOP", [](std::size_t i) { return i; }, k + 1)},
      test_support::make_config(1103, 1u << 22, claimed));
  EXPECT_TRUE(test_support::audit_passes("SLOW AboveThreshold Laplace", r));
}

}  // namespace

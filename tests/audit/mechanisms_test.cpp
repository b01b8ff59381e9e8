// Unit tests of the mechanisms (input validation, exactness facts, determinism); their privacy
// is audited in mechanisms_audit.cpp (label `audit`).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "dpref/mechanisms/above_threshold.hpp"
#include "dpref/mechanisms/exponential.hpp"
#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/subsampled_laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"

namespace {

using dpref::philox_stream;
namespace mech = dpref::mechanisms;

TEST(MECH_LAPLACE, ValidatesAndAddsReferenceNoise) {
  philox_stream s(1), t(1);
  EXPECT_EQ(mech::laplace_mechanism<double>(s, 3.0, 2.0), 3.0 + dpref::laplace<double>(t, 2.0));
  EXPECT_THROW(mech::laplace_mechanism<double>(s, 0.0, 0.0), std::domain_error);
  EXPECT_THROW(mech::laplace_mechanism<double>(s, std::nan(""), 1.0), std::domain_error);
  EXPECT_THROW(mech::laplace_mechanism_fast(s, INFINITY, 1.0), std::domain_error);
}

TEST(MECH_GAUSSIAN, Validates) {
  philox_stream s(2);
  EXPECT_TRUE(std::isfinite(mech::gaussian_mechanism<double>(s, 1.0, 1.0)));
  EXPECT_THROW(mech::gaussian_mechanism<double>(s, 1.0, -1.0), std::domain_error);
}

TEST(MECH_VLAPLACE, ValidatesAndShifts) {
  philox_stream s(3), t(3);
  dpref::vector<double> x(3);
  x << 1, 2, 3;
  const auto y = mech::vector_laplace_mechanism<double>(s, x, 0.5);
  const auto w = dpref::vector_laplace<double>(t, 3, 0.5);
  EXPECT_EQ(y, (x + w).eval());
  EXPECT_THROW(mech::vector_laplace_mechanism<double>(s, dpref::vector<double>(0), 1.0),
               std::domain_error);
  EXPECT_THROW(mech::vector_laplace_mechanism<double>(s, x, 0.0), std::domain_error);
}

TEST(MECH_EXPONENTIAL, Validates) {
  philox_stream s(4);
  const std::vector<double> u = {0.0, 1.0};
  EXPECT_THROW(mech::exponential_mechanism<double>(s, std::span<const double>(), 1.0, 1.0),
               std::domain_error);
  EXPECT_THROW(mech::exponential_mechanism<double>(s, std::span<const double>(u), 0.0, 1.0),
               std::domain_error);
  const std::vector<double> far = {0.0, 1e6};
  EXPECT_THROW(mech::exponential_mechanism_scaled<double>(s, std::span<const double>(far), 1.0),
               std::domain_error);  // exp(-1e6) underflows: unbounded likelihood ratio
}

TEST(MECH_EXPONENTIAL_EXACT, FrequenciesMatchTheEvaluatedWeights) {
  // P(i) ∝ exp(u_i/scale) for u = (0, 1, 2), scale 1; 60000 draws, 6-sigma tolerance.
  philox_stream s(5);
  const std::vector<double> u = {0.0, 1.0, 2.0};
  std::array<int, 3> hits{};
  const int n = 60000;
  for (int i = 0; i < n; ++i)
    ++hits[mech::exponential_mechanism_scaled<double>(s, std::span<const double>(u), 1.0)];
  const double z = 1 + std::exp(1.0) + std::exp(2.0);
  for (int i = 0; i < 3; ++i) {
    const double p = std::exp(double(i)) / z;
    EXPECT_NEAR(hits[std::size_t(i)] / double(n), p, 6 * std::sqrt(p * (1 - p) / n));
  }
  // one candidate: always 0
  const std::vector<double> one = {5.0};
  EXPECT_EQ(mech::exponential_mechanism_scaled<double>(s, std::span<const double>(one), 1.0), 0u);
}

TEST(MECH_SVT, FirstTopOrFail) {
  philox_stream s(6);
  // queries far above / below the threshold relative to tiny noise
  const std::vector<double> q = {-100.0, -100.0, 100.0, 100.0};
  const auto r = mech::above_threshold<double>(s, std::span<const double>(q), 0.0,
                                               mech::svt_noise::laplace, 1e-3, 1e-3);
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.index, 2u);
  const std::vector<double> low = {-100.0, -100.0};
  const auto f = mech::above_threshold<double>(s, std::span<const double>(low), 0.0,
                                               mech::svt_noise::gaussian, 1e-3, 1e-3);
  EXPECT_FALSE(f.found);
  EXPECT_THROW(mech::above_threshold<double>(s, std::span<const double>(), 0.0,
                                             mech::svt_noise::laplace, 1.0, 1.0),
               std::domain_error);
  const auto [b1, b2] = mech::above_threshold_laplace_scales(1.0, 0.5);
  EXPECT_EQ(b1, 4.0);
  EXPECT_EQ(b2, 8.0);
  const auto [s1, s2] = mech::above_threshold_gaussian_scales(1.0, 1.5);
  EXPECT_DOUBLE_EQ(s1, 1.0);
  EXPECT_DOUBLE_EQ(s2, std::sqrt(2.0));
}

TEST(MECH_SUBSAMPLED_LAPLACE, SubsetIsUniformAndValidated) {
  // record 0 is in the subsample with probability m/n = 3/10: mean of data = e_0 is 1/3 then
  philox_stream s(7);
  std::vector<double> d(10, 0.0);
  d[0] = 3.0;
  int in = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i)
    in += mech::subsampled_mean_laplace<double>(s, std::span<const double>(d), 3, 1e-9) > 0.5;
  EXPECT_NEAR(in / double(n), 0.3, 6 * std::sqrt(0.21 / n));
  EXPECT_THROW(mech::subsampled_mean_laplace<double>(s, std::span<const double>(d), 0, 1.0),
               std::domain_error);
  EXPECT_THROW(mech::subsampled_mean_laplace<double>(s, std::span<const double>(d), 11, 1.0),
               std::domain_error);
}

}  // namespace

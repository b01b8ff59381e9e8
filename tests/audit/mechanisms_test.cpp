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
#include "dpref/mechanisms/report_noisy_max.hpp"
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

TEST(MECH_NOISY_MAX, SelectsTheNoisyArgminAndChargesDeltaOverB) {
  namespace acc = dpref::accounting;
  const std::vector<double> scores = {5.0, 1.0, 3.0, 1.0 + 1e-9};
  // one Lap(b) draw per candidate in index order: argmin of score + noise, ties to the first
  philox_stream s(11), t(11);
  const std::size_t k = mech::report_noisy_min<double>(s, scores, 0.5);
  std::size_t best = 0;
  double best_v = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const double v = scores[i] + dpref::laplace<double>(t, 0.5);
    if (i == 0 || v < best_v) {
      best = i;
      best_v = v;
    }
  }
  EXPECT_EQ(k, best);
  EXPECT_EQ(s(), t());  // the same number of stream reads
  philox_stream u(12);
  EXPECT_EQ(mech::report_noisy_min<double>(u, scores, 1e-12), 1u);  // noise-free argmin
  const mech::report_noisy_max<double> mono{2.0, 0.5, true}, plain{2.0, 0.5, false};
  philox_stream a(13), b(13);
  EXPECT_EQ(mono.select_min(a, scores), mech::report_noisy_min<double>(b, scores, 0.5));
  const auto e = mono.event(3, "label");
  EXPECT_EQ(e.count, 3);
  EXPECT_EQ(e.label, "label");
  EXPECT_EQ(std::get<acc::pure_mechanism<double>>(e.what).epsilon, 4.0);              // Δ/b
  EXPECT_EQ(std::get<acc::pure_mechanism<double>>(plain.event().what).epsilon, 8.0);  // 2Δ/b
  EXPECT_THROW((void)mech::report_noisy_min<double>(u, scores, 0.0), std::domain_error);
}

// ARCH.MEASUREMENTS: each measurement draws with the reference sampler in the same order as a
// direct call, and its event carries exactly its members (negative control: another σ differs).
TEST(ARCH_MEASUREMENTS, DrawsAreTheSamplersAndEventsAreTheMembers) {
  namespace acc = dpref::accounting;
  dpref::vector<double> v = dpref::vector<double>::Constant(4, 1.0), w = v;
  const mech::gaussian_noise<double> g(2.0, 0.75);
  philox_stream s(21), t(21);
  g.add_to(s, v);
  for (Eigen::Index j = 0; j < w.size(); ++j) w[j] += dpref::gaussian<double>(t, 0.75);
  EXPECT_EQ(v, w);
  philox_stream f(21), f2(21);
  dpref::vector<double> vf = dpref::vector<double>::Zero(3);
  g.add_to_fast(f, vf);
  EXPECT_EQ(vf[0], dpref::fast::gaussian(f2, 0.75));
  const auto ge = g.event(5, "g", acc::subsampling<double>{});
  const auto& gm = std::get<acc::gaussian_mechanism<double>>(ge.what);
  EXPECT_EQ(gm.sensitivity, 2.0);
  EXPECT_EQ(gm.sigma, 0.75);
  EXPECT_EQ(ge.count, 5);
  EXPECT_TRUE(ge.sampling.has_value());
  EXPECT_EQ(mech::gaussian_noise<double>(gm).sigma, 0.75);
  philox_stream s3(21);
  dpref::vector<double> other = dpref::vector<double>::Constant(4, 1.0);
  mech::gaussian_noise<double>(2.0, 0.5).add_to(s3, other);
  EXPECT_NE(other, v);  // negative control

  const mech::laplace_noise<double> l(1.0, 0.25);
  philox_stream a(22), b(22);
  dpref::vector<double> x = dpref::vector<double>::Zero(3), y = x;
  l.add_to(a, x);
  for (Eigen::Index j = 0; j < y.size(); ++j) y[j] += dpref::laplace<double>(b, 0.25);
  EXPECT_EQ(x, y);
  const auto le = l.event();
  const auto& lm = std::get<acc::laplace_mechanism<double>>(le.what);
  EXPECT_EQ(lm.sensitivity, 1.0);
  EXPECT_EQ(lm.scale, 0.25);
  EXPECT_FALSE(le.sampling.has_value());

  const mech::vector_laplace_noise<double> vl(3.0, 0.5);
  philox_stream c(23), d(23);
  EXPECT_EQ(vl.draw(c, 4), dpref::vector_laplace<double>(d, 4, 0.5));
  const auto ve = vl.event(2);
  const auto& vm = std::get<acc::vector_laplace_mechanism<double>>(ve.what);
  EXPECT_EQ(vm.sensitivity, 3.0);
  EXPECT_EQ(vm.scale, 0.5);

  acc::sparse_vector_mechanism<double> sm;
  sm.noise = acc::svt_noise::gaussian;
  sm.sensitivity = 1.0;
  sm.threshold_scale = 0.5;
  sm.query_scale = 0.7;
  sm.max_queries = 6;
  const mech::sparse_vector<double> sv(sm);
  const std::array<double, 6> q = {-3, -2, -1, 0, 1, 2};
  philox_stream e(24), e2(24);
  const auto r = sv.run(
      e, [&](std::size_t i) { return q[i]; }, 0.0);
  const auto r2 = mech::above_threshold<double>(e2, std::span<const double>(q), 0.0,
                                                mech::svt_noise::gaussian, 0.5, 0.7);
  EXPECT_EQ(r.found, r2.found);
  EXPECT_EQ(r.index, r2.index);
  EXPECT_EQ(e(), e2());
  const auto se = sv.event();
  const auto& back = std::get<acc::sparse_vector_mechanism<double>>(se.what);
  EXPECT_EQ(back.noise, acc::svt_noise::gaussian);
  EXPECT_EQ(back.query_scale, 0.7);
  EXPECT_EQ(back.max_queries, 6);
}

}  // namespace

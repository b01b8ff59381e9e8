// Samplers and mechanisms at scales below 1 (RAND.SMALL_SCALE, MECH.SMALL_SCALE; issue 19 item 9).
// At σ < 1 or b < 1 a σ-vs-σ² (or b-vs-b²) slip REMOVES noise instead of adding it, and tests run
// only at scales > 1 can miss slips of the form scale -> scale^p that are identities at 1.
// Every check is a Kolmogorov–Smirnov test with the DKW–Massart bound (false-alarm probability
// 1e-6, valid for every n) against the exact CDF at the requested scale; the negative controls
// feed the same test a sample drawn with the squared scale and must be rejected.
#include <gtest/gtest.h>

#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <vector>

#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/random.hpp"
#include "dpref/random/fast.hpp"
#include "support/gof.hpp"

namespace dpref {
namespace {

constexpr double kSmallScaleAlpha = 1e-6;  // false-alarm probability of every check
constexpr int kN = 100000;
constexpr double kB = 0.25;     // Laplace scale < 1
constexpr double kSigma = 0.3;  // Gaussian σ < 1
constexpr double kX = 0.7;      // query value of the mechanisms

double small_laplace_cdf(double x, double b) {
  return x < 0 ? 0.5 * std::exp(x / b) : 1 - 0.5 * std::exp(-x / b);
}
double small_normal_cdf(double x, double sigma) {
  return 0.5 * std::erfc(-x / (sigma * std::sqrt(2.0)));
}

template <class F>
std::vector<double> draw(std::uint64_t seed, F&& f) {
  philox_stream s(seed);
  std::vector<double> out(kN);
  for (auto& x : out) x = f(s);
  return out;
}

bool rejects_laplace(const std::vector<double>& x, double centre, double b) {
  return test::ks_test(
             x, [=](double v) { return small_laplace_cdf(v - centre, b); }, kSmallScaleAlpha)
      .reject;
}
bool rejects_normal(const std::vector<double>& x, double centre, double sigma) {
  return test::ks_test(
             x, [=](double v) { return small_normal_cdf(v - centre, sigma); }, kSmallScaleAlpha)
      .reject;
}

TEST(RAND_SMALL_SCALE, ReferenceAndFastLaplace) {
  EXPECT_FALSE(
      rejects_laplace(draw(1, [](philox_stream& s) { return laplace<double>(s, kB); }), 0, kB));
  EXPECT_FALSE(rejects_laplace(
      draw(2, [](philox_stream& s) { return static_cast<double>(laplace<long double>(s, kB)); }), 0,
      kB));
  EXPECT_FALSE(
      rejects_laplace(draw(3, [](philox_stream& s) { return fast::laplace(s, kB); }), 0, kB));
}

TEST(RAND_SMALL_SCALE, ReferenceAndFastGaussian) {
  EXPECT_FALSE(rejects_normal(draw(4, [](philox_stream& s) { return gaussian<double>(s, kSigma); }),
                              0, kSigma));
  EXPECT_FALSE(rejects_normal(
      draw(5,
           [](philox_stream& s) { return static_cast<double>(gaussian<long double>(s, kSigma)); }),
      0, kSigma));
  EXPECT_FALSE(rejects_normal(draw(6, [](philox_stream& s) { return fast::gaussian(s, kSigma); }),
                              0, kSigma));
}

// Negative controls: the squared scale (the slip) is rejected by the same test.
TEST(RAND_SMALL_SCALE, NegativeControlSquaredScalesAreRejected) {
  EXPECT_TRUE(rejects_laplace(draw(1, [](philox_stream& s) { return laplace<double>(s, kB * kB); }),
                              0, kB));
  EXPECT_TRUE(rejects_normal(
      draw(4, [](philox_stream& s) { return gaussian<double>(s, kSigma * kSigma); }), 0, kSigma));
  EXPECT_TRUE(rejects_normal(
      draw(6, [](philox_stream& s) { return fast::gaussian(s, kSigma * kSigma); }), 0, kSigma));
}

TEST(MECH_SMALL_SCALE, LaplaceAndGaussianMechanisms) {
  EXPECT_FALSE(rejects_laplace(
      draw(7, [](philox_stream& s) { return mechanisms::laplace_mechanism<double>(s, kX, kB); }),
      kX, kB));
  EXPECT_FALSE(rejects_laplace(
      draw(8, [](philox_stream& s) { return mechanisms::laplace_mechanism_fast(s, kX, kB); }), kX,
      kB));
  EXPECT_FALSE(rejects_normal(
      draw(9,
           [](philox_stream& s) { return mechanisms::gaussian_mechanism<double>(s, kX, kSigma); }),
      kX, kSigma));
}

// ℓ2-Laplace mechanism in R^3 at b < 1: ‖y − x‖ ~ Gamma(3, b).
TEST(MECH_SMALL_SCALE, VectorLaplaceMechanism) {
  const vector<double> x = vector<double>::Constant(3, kX);
  const auto norm_of = [&](double b, std::uint64_t seed) {
    return draw(seed, [&](philox_stream& s) {
      return (mechanisms::vector_laplace_mechanism<double>(s, x, b) - x).norm();
    });
  };
  const auto gamma3 = [](double v) { return v <= 0 ? 0.0 : boost::math::gamma_p(3.0, v / kB); };
  EXPECT_FALSE(test::ks_test(norm_of(kB, 10), gamma3, kSmallScaleAlpha).reject);
  EXPECT_TRUE(test::ks_test(norm_of(kB * kB, 10), gamma3, kSmallScaleAlpha).reject)
      << "negative control";
}

// Snapped (lattice) releases at b, σ < 1: the grid 2^k is <= scale / 2^20, so the lattice law is
// within ~2^-20 (in CDF) of the continuous one: far below the DKW critical value sqrt(ln(2/α)/2n)
// ≈ 0.0059 at n = 10^5 (the discretisation cannot make a correct sampler fail, nor hide a slip).
TEST(MECH_SMALL_SCALE, SnappedLaplaceAndGaussian) {
  const auto lp = mechanisms::snapped_laplace_for(kB, 1.0, 1, 10.0);  // b = Δ1/ε ≈ 0.25
  ASSERT_LT(lp.scale, 1.0);
  EXPECT_FALSE(rejects_laplace(
      draw(11, [&](philox_stream& s) { return mechanisms::snapped_laplace(s, kX, lp); }), kX,
      lp.scale));
  mechanisms::snapped_gaussian_params gp;
  gp.sensitivity = 1;
  gp.sigma = kSigma;
  gp.clamp = 10;
  gp.grid_exponent = mechanisms::snapped_gaussian_grid_exponent(1.0, kSigma, 1, 10.0);
  EXPECT_FALSE(rejects_normal(
      draw(12, [&](philox_stream& s) { return mechanisms::snapped_gaussian(s, kX, gp); }), kX,
      kSigma));
  gp.sigma = kSigma * kSigma;  // negative control: the squared σ
  EXPECT_TRUE(rejects_normal(
      draw(12, [&](philox_stream& s) { return mechanisms::snapped_gaussian(s, kX, gp); }), kX,
      kSigma));
}

}  // namespace
}  // namespace dpref

// Goodness of fit of every continuous sampler at double, long double and 50 digits against its
// exact CDF (Kolmogorov–Smirnov with the DKW–Massart bound, false-alarm probability 1e-6 per
// test, valid for every n), mean/variance checks (CLT, two-sided z for 1e-6), and negative
// controls: the same test must reject a sample drawn with a 6% larger scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <functional>
#include <type_traits>
#include <vector>

#include "dpref/random.hpp"
#include "dpref/random/fast.hpp"
#include "support/gof.hpp"
#include "support/scalars.hpp"

namespace dpref {
namespace {

constexpr double kAlpha = 1e-6;  // false-alarm probability of every statistical check below

/// Sample size per scalar: the multiprecision samplers cost ~10-300 us per draw.
template <class Real>
int sample_size(int fast_n, int mp_n) {
  return std::is_floating_point_v<Real> ? fast_n : mp_n;
}

template <class Real, class Sampler>
std::vector<double> draw(int n, std::uint64_t seed, Sampler&& sampler) {
  philox_stream s(seed);
  std::vector<double> out(static_cast<std::size_t>(n));
  for (auto& x : out) x = static_cast<double>(sampler(s));
  return out;
}

double laplace_cdf(double x, double b) {
  return x < 0 ? 0.5 * std::exp(x / b) : 1 - 0.5 * std::exp(-x / b);
}
double normal_cdf(double x, double sigma) { return 0.5 * std::erfc(-x / (sigma * std::sqrt(2.0))); }

/// Mean and variance within z_{alpha} standard errors (CLT; fourth moment `mu4` given).
void expect_moments(const std::vector<double>& x, double mean, double var, double mu4) {
  const double n = static_cast<double>(x.size());
  double m = 0, m2 = 0;
  for (double v : x) m += v;
  m /= n;
  for (double v : x) m2 += (v - m) * (v - m);
  m2 /= n - 1;
  const double z = test::normal_two_sided_critical(kAlpha);
  EXPECT_LT(std::fabs(m - mean), z * std::sqrt(var / n)) << "mean";
  EXPECT_LT(std::fabs(m2 - var), z * std::sqrt((mu4 - var * var) / n)) << "variance";
}

template <class Real>
class RAND_LAPLACE_INV : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_LAPLACE_INV, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_LAPLACE_INV, KolmogorovSmirnovAndMoments) {
  using Real = TypeParam;
  const int n = sample_size<Real>(200000, 20000);
  const Real b = Real(3) / 2;
  const auto x = draw<Real>(n, 1, [&](philox_stream& s) { return laplace<Real>(s, b); });
  const auto ks = test::ks_test(
      x, [](double v) { return laplace_cdf(v, 1.5); }, kAlpha);
  EXPECT_FALSE(ks.reject) << "D = " << ks.statistic << " > " << ks.critical;
  expect_moments(x, 0, 2 * 1.5 * 1.5, 24 * std::pow(1.5, 4));
}

TEST(RAND_LAPLACE_INV, NegativeControlRejectsWrongScale) {
  const auto x = draw<double>(200000, 1, [](philox_stream& s) { return laplace(s, 1.06); });
  const auto ks = test::ks_test(
      x, [](double v) { return laplace_cdf(v, 1.0); }, kAlpha);
  EXPECT_TRUE(ks.reject) << "D = " << ks.statistic << " <= " << ks.critical;
}

template <class Real>
class RAND_EXP_INV : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_EXP_INV, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_EXP_INV, KolmogorovSmirnovAndMoments) {
  using Real = TypeParam;
  const int n = sample_size<Real>(200000, 20000);
  const auto x = draw<Real>(n, 2, [](philox_stream& s) { return exponential<Real>(s, Real(2)); });
  const auto ks = test::ks_test(
      x, [](double v) { return v <= 0 ? 0.0 : -std::expm1(-2 * v); }, kAlpha);
  EXPECT_FALSE(ks.reject) << "D = " << ks.statistic << " > " << ks.critical;
  for (double v : x) ASSERT_GT(v, 0.0);
  expect_moments(x, 0.5, 0.25, 9.0 / 16);  // central 4th moment of Exp(rate 2) = 9/rate^4
}

TEST(RAND_EXP_INV, NegativeControlRejectsWrongRate) {
  const auto x =
      draw<double>(200000, 2, [](philox_stream& s) { return exponential(s, 1.0 / 1.06); });
  const auto ks = test::ks_test(
      x, [](double v) { return v <= 0 ? 0.0 : -std::expm1(-v); }, kAlpha);
  EXPECT_TRUE(ks.reject);
}

template <class Real>
class RAND_GAUSS_INV : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_GAUSS_INV, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_GAUSS_INV, KolmogorovSmirnovAndMoments) {
  using Real = TypeParam;
  const int n = sample_size<Real>(200000, 8000);
  const auto x = draw<Real>(n, 3, [](philox_stream& s) { return gaussian<Real>(s, Real(2)); });
  const auto ks = test::ks_test(
      x, [](double v) { return normal_cdf(v, 2.0); }, kAlpha);
  EXPECT_FALSE(ks.reject) << "D = " << ks.statistic << " > " << ks.critical;
  expect_moments(x, 0, 4, 3 * 16);
}

TEST(RAND_GAUSS_INV, NegativeControlRejectsWrongSigma) {
  const auto x = draw<double>(200000, 3, [](philox_stream& s) { return gaussian(s, 1.06); });
  const auto ks = test::ks_test(
      x, [](double v) { return normal_cdf(v, 1.0); }, kAlpha);
  EXPECT_TRUE(ks.reject);
}

TEST(RAND_FAST, SameDistributionsAsReference) {
  // KS at false-alarm 1e-6 for each of the three fast samplers, plus a negative control.
  const auto l = draw<double>(200000, 4, [](philox_stream& s) { return fast::laplace(s, 1.5); });
  EXPECT_FALSE(test::ks_test(
                   l, [](double v) { return laplace_cdf(v, 1.5); }, kAlpha)
                   .reject);
  const auto e =
      draw<double>(200000, 5, [](philox_stream& s) { return fast::exponential(s, 2.0); });
  EXPECT_FALSE(test::ks_test(
                   e, [](double v) { return v <= 0 ? 0.0 : -std::expm1(-2 * v); }, kAlpha)
                   .reject);
  const auto g = draw<double>(200000, 6, [](philox_stream& s) { return fast::gaussian(s, 2.0); });
  EXPECT_FALSE(test::ks_test(
                   g, [](double v) { return normal_cdf(v, 2.0); }, kAlpha)
                   .reject);
  // negative control: the fast Laplace with a 6% larger scale is rejected
  const auto bad =
      draw<double>(200000, 4, [](philox_stream& s) { return fast::laplace(s, 1.5 * 1.06); });
  EXPECT_TRUE(test::ks_test(
                  bad, [](double v) { return laplace_cdf(v, 1.5); }, kAlpha)
                  .reject);
}

TEST(RAND_FAST, GaussianTableMatchesTheReferenceTransform) {
  // fast::gaussian evaluates the reference transform |X| = sqrt(2) erfc_inv(W) of the same draw
  // with a polynomial table: |fast - reference| <= 1e-14 max(1, |X|) (table error measured
  // <= 2e-15 against long double, W truncated to 53 bits adds <= 2e-16).
  philox_stream a(12), b(12);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = fast::gaussian(a, 1.0), y = gaussian(b, 1.0);
    ASSERT_EQ(std::signbit(x), std::signbit(y));
    worst = std::max(worst, std::fabs(x - y) / std::max(1.0, std::fabs(y)));
  }
  EXPECT_LE(worst, 1e-14);
  // negative control: a 1e-12 relative perturbation of sigma is seen by the same check
  philox_stream c(12), d(12);
  double seen = 0;
  for (int i = 0; i < 1000; ++i) {
    const double y = gaussian(d, 1.0);
    seen =
        std::max(seen, std::fabs(fast::gaussian(c, 1 + 1e-12) - y) / std::max(1.0, std::fabs(y)));
  }
  EXPECT_GT(seen, 1e-14);
}

template <class Real>
class RAND_GAMMA_INT : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_GAMMA_INT, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_GAMMA_INT, KolmogorovSmirnovShapeFive) {
  using Real = TypeParam;
  const int n = sample_size<Real>(100000, 5000);
  const auto x =
      draw<Real>(n, 7, [](philox_stream& s) { return gamma_integer<Real>(s, 5, Real(2)); });
  const auto ks = test::ks_test(
      x, [](double v) { return v <= 0 ? 0.0 : boost::math::gamma_p(5.0, v / 2); }, kAlpha);
  EXPECT_FALSE(ks.reject) << "D = " << ks.statistic << " > " << ks.critical;
  // negative control: theta 6% too large
  if constexpr (std::is_same_v<Real, double>) {
    const auto y =
        draw<double>(n, 7, [](philox_stream& s) { return gamma_integer(s, 5, 2 * 1.06); });
    EXPECT_TRUE(
        test::ks_test(
            y, [](double v) { return v <= 0 ? 0.0 : boost::math::gamma_p(5.0, v / 2); }, kAlpha)
            .reject);
  }
}

template <class Real>
class RAND_GAMMA_MT : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_GAMMA_MT, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_GAMMA_MT, KolmogorovSmirnovSeveralShapes) {
  using Real = TypeParam;
  const int n = sample_size<Real>(100000, 4000);
  for (const double shape : {0.3, 1.0, 2.5, 40.0}) {
    const auto x =
        draw<Real>(n, 8, [&](philox_stream& s) { return gamma<Real>(s, Real(shape), Real(3)); });
    const auto ks = test::ks_test(
        x, [&](double v) { return v <= 0 ? 0.0 : boost::math::gamma_p(shape, v / 3); }, kAlpha);
    EXPECT_FALSE(ks.reject) << "shape " << shape << ": D = " << ks.statistic << " > "
                            << ks.critical;
  }
  if constexpr (std::is_same_v<Real, double>) {  // negative control: shape 2.5 tested as 2.65
    const auto y = draw<double>(n, 8, [](philox_stream& s) { return gamma(s, 2.65, 3.0); });
    EXPECT_TRUE(
        test::ks_test(
            y, [](double v) { return v <= 0 ? 0.0 : boost::math::gamma_p(2.5, v / 3); }, kAlpha)
            .reject);
  }
}

/// For u uniform on S^{d-1}, (u_1 + 1)/2 ~ Beta((d-1)/2, (d-1)/2).
double sphere_coordinate_cdf(double u1, std::size_t d) {
  const double a = (static_cast<double>(d) - 1) / 2;
  return boost::math::cdf(boost::math::beta_distribution<double>(a, a),
                          std::clamp((u1 + 1) / 2, 0.0, 1.0));
}

template <class Real>
class RAND_SPHERE : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_SPHERE, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_SPHERE, UnitNormAndUniformCoordinates) {
  using Real = TypeParam;
  const int n = sample_size<Real>(50000, 2000);
  for (const std::size_t d : {std::size_t{2}, std::size_t{3}, std::size_t{10}}) {
    philox_stream s(9);
    std::vector<double> first, last;
    for (int i = 0; i < n; ++i) {
      const vector<Real> u = uniform_direction<Real>(s, d);
      using std::abs;
      ASSERT_LE(abs(u.norm() - Real(1)), 8 * machine_epsilon<Real>());
      first.push_back(static_cast<double>(u[0]));
      last.push_back(static_cast<double>(u[static_cast<Eigen::Index>(d) - 1]));
    }
    // two coordinates, each KS at 1e-6/2 (Bonferroni)
    for (const auto* c : {&first, &last})
      EXPECT_FALSE(test::ks_test(
                       *c, [d](double v) { return sphere_coordinate_cdf(v, d); }, kAlpha / 2)
                       .reject)
          << "d=" << d;
  }
}

TEST(RAND_SPHERE, NegativeControlRejectsNonUniformDirections) {
  // A broken sampler that normalises uniform-cube vectors is not uniform on S^2.
  philox_stream s(9);
  std::vector<double> first;
  for (int i = 0; i < 50000; ++i) {
    Eigen::Vector3d v(uniform01<double>(s) - 0.5, uniform01<double>(s) - 0.5,
                      uniform01<double>(s) - 0.5);
    first.push_back(v.normalized()[0]);
  }
  EXPECT_TRUE(test::ks_test(
                  first, [](double v) { return sphere_coordinate_cdf(v, 3); }, kAlpha)
                  .reject);
}

template <class Real>
class RAND_VLAPLACE : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_VLAPLACE, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_VLAPLACE, NormIsGammaAndDirectionUniform) {
  // density ∝ exp(-||w||/b) in R^d  <=>  ||w|| ~ Gamma(d, b) and w/||w|| uniform (pwa Thm 9).
  using Real = TypeParam;
  const int n = sample_size<Real>(50000, 2000);
  constexpr std::size_t d = 4;
  const Real b = Real(1) / 2;
  philox_stream s(10);
  std::vector<double> norms, first;
  for (int i = 0; i < n; ++i) {
    const vector<Real> w = vector_laplace<Real>(s, d, b);
    ASSERT_EQ(w.size(), 4);
    const Real r = w.norm();
    norms.push_back(static_cast<double>(r));
    first.push_back(static_cast<double>(w[0] / r));
  }
  EXPECT_FALSE(test::ks_test(
                   norms, [](double v) { return v <= 0 ? 0.0 : boost::math::gamma_p(4.0, 2 * v); },
                   kAlpha / 2)
                   .reject);
  EXPECT_FALSE(test::ks_test(
                   first, [](double v) { return sphere_coordinate_cdf(v, d); }, kAlpha / 2)
                   .reject);
}

TEST(RAND_VLAPLACE, NegativeControlRejectsPerCoordinateLaplace) {
  // i.i.d. Laplace coordinates (the l1 mechanism's noise) do not have a Gamma(d, b) norm.
  philox_stream s(10);
  std::vector<double> norms;
  for (int i = 0; i < 50000; ++i) {
    Eigen::Vector4d w;
    for (int j = 0; j < 4; ++j) w[j] = laplace(s, 0.5);
    norms.push_back(w.norm());
  }
  EXPECT_TRUE(
      test::ks_test(
          norms, [](double v) { return v <= 0 ? 0.0 : boost::math::gamma_p(4.0, 2 * v); }, kAlpha)
          .reject);
}

}  // namespace
}  // namespace dpref

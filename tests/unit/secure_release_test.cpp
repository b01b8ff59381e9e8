// Unit and statistical tests of the secure (lattice) releases (spec/secure_release.md SEC.*):
// the lattice (clamp, exact rounding, grid rule), the exact lazy continuous samplers, the
// lattice l2-Laplace sampler, the mechanisms and the measured noise cost.
// Every statistical test uses a fixed seed and states its sample size and false-alarm
// probability; every distribution test has a negative control that must reject. Reference
// laws are computed in this file only (long double, quadrature written here).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "dpref/accounting/snapped.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/l2_laplace_lattice.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "dpref/random/secure/lazy_real.hpp"
#include "dpref/random/vector_laplace.hpp"
#include "support/generators.hpp"
#include "support/gof.hpp"
#include "support/messages.hpp"

namespace {

using dpref::philox_stream;
namespace sec = dpref::secure;
namespace mech = dpref::mechanisms;
using dpref::test::chi2_test;
using dpref::test::ks_test;
using vec = dpref::vector<double>;

constexpr double kAlpha = 1e-6;    // false-alarm probability of every statistical check
constexpr long long kN = 1000000;  // sample size of the distribution tests

using dpref::test::message_of;

bool on_grid(double y, int k) {
  const double u = std::ldexp(y, -k);
  return u == std::trunc(u) && std::fabs(u) <= 0x1p53;
}

// ==== SEC.LATTICE.CLAMP =====================================================================

TEST(SEC_LATTICE_CLAMP, OutOfRangeInputsAreClampedNeverRefused) {
  const int k = -10;
  const double c = 8;
  const double inf = std::numeric_limits<double>::infinity();
  for (double x : {8.0, 9.0, 1e300, inf, std::numeric_limits<double>::max()})
    EXPECT_EQ(sec::lattice_round(x, k, c), 8 * 1024) << x;
  for (double x : {-8.0, -9.0, -1e300, -inf}) EXPECT_EQ(sec::lattice_round(x, k, c), -8 * 1024);
  // the release of a clamped value equals the release of the clamp bound, draw for draw
  auto p = mech::snapped_laplace_for(1.0, 1.0, 2, c);
  vec far(2), at(2);
  far << 1e300, -inf;
  at << c, -c;
  philox_stream s1(11), s2(11);
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(mech::snapped_laplace(s1, far, p), mech::snapped_laplace(s2, at, p));
  // NaN is refused (it satisfies no sensitivity bound)
  EXPECT_EQ(message_of<std::domain_error>([&] { (void)sec::lattice_round(std::nan(""), k, c); }),
            "dpref::secure::lattice_round: x must be not NaN, got nan");
}

TEST(SEC_LATTICE_CLAMP, PublicParametersAreValidatedBeforeTheData) {
  EXPECT_NO_THROW(sec::check_lattice("f", -10, 0x1p42));
  EXPECT_EQ(message_of<std::domain_error>([] { sec::check_lattice("f", -10, 0x1p43); }),
            "f: clamp must be <= 2^(k + 52) (choose a coarser grid), got 8796093022208");
  EXPECT_EQ(message_of<std::domain_error>([] { sec::check_lattice("f", 971, 1.0); }),
            "f: k must be in [-1022, 970], got 971");
  EXPECT_EQ(message_of<std::domain_error>([] { sec::check_lattice("f", 0, 0.0); }),
            "f: clamp must be finite and > 0, got 0");
  mech::snapped_laplace_params p{1.0, 1.0, 2, 1e6, -40};
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { p.validate(); }),
            "mechanisms::snapped_laplace_params.clamp must be <= 2^(grid_exponent + 52) (coarser "
            "grid or smaller clamp), got 1000000");
  p = {1.0, 1.0, 2, 1.0, 0};
  philox_stream s(1);
  vec x3 = vec::Zero(3);
  EXPECT_EQ(message_of<std::domain_error>([&] { (void)mech::snapped_laplace(s, x3, p); }),
            "dpref::mechanisms::snapped_laplace: x.size() must be == params.dimension, got 3");
  mech::snapped_gaussian_params g{1.0, 0x1p16, 1, 1.0, 0};
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { g.validate(); }),
            "mechanisms::snapped_gaussian_params.sigma must be <= 2^(grid_exponent + 15) "
            "(coarser grid), got 65536");
  mech::snapped_vector_laplace_params v{1.0, 0.0, 2, 1.0, 0};
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { v.validate(); }),
            "mechanisms::snapped_vector_laplace_params.scale must be finite and > 0, got 0");
}

// Clamping is 1-Lipschitz per coordinate: neighbouring inputs stay within the sensitivity
// (checked on the rounded indices: |n - n'| <= |x - x'| / 2^k + 1 after clamping).
TEST(SEC_LATTICE_CLAMP, ClampingNeverIncreasesDistances) {
  philox_stream s(12);
  const int k = -3;
  const double c = 5;
  for (int i = 0; i < 100000; ++i) {
    const double x = (static_cast<double>(s() >> 11) * 0x1p-53 - 0.5) * 40;
    const double y = (static_cast<double>(s() >> 11) * 0x1p-53 - 0.5) * 40;
    const double n = static_cast<double>(sec::lattice_round(x, k, c));
    const double m = static_cast<double>(sec::lattice_round(y, k, c));
    ASSERT_LE(std::fabs(n - m), std::fabs(x - y) * 8 + 1) << x << " " << y;
  }
}

// ==== SEC.LATTICE.ROUND =====================================================================

TEST(SEC_LATTICE_ROUND, ExactRoundingSaturationAndSignOfZero) {
  EXPECT_EQ(sec::lattice_round(2.5, 0, 100), 2);  // half to even
  EXPECT_EQ(sec::lattice_round(3.5, 0, 100), 4);
  EXPECT_EQ(sec::lattice_round(-2.5, 0, 100), -2);
  EXPECT_EQ(sec::lattice_round(0.75, -1, 100), 2);
  EXPECT_EQ(sec::lattice_round(std::numeric_limits<double>::denorm_min(), 5, 100), 0);  // underflow
  EXPECT_EQ(sec::lattice_round(-0.0, -3, 100), 0);
  // release: exact lattice points, +0.0 for 0, saturation at +-2^53 grid steps
  EXPECT_EQ(sec::lattice_release(3, 4, -2), 1.75);
  EXPECT_FALSE(std::signbit(sec::lattice_release(2, -2, -2)));
  EXPECT_EQ(sec::lattice_release(1LL << 52, 1LL << 53, 0), 0x1p53);
  EXPECT_EQ(sec::lattice_release(-(1LL << 52), std::numeric_limits<std::int64_t>::min(), 0),
            -0x1p53);
  EXPECT_EQ(sec::lattice_release(5, std::numeric_limits<std::int64_t>::max(), -1070),
            std::ldexp(0x1p53, -1070));
  // every release is on the grid, for fine and coarse grids and scales below 1
  philox_stream s(21);
  const auto lp = mech::snapped_laplace_for(0.01, 0.5, 3, 4.0);
  const auto vp = mech::snapped_vector_laplace_for(0.01, 0.5, 3, 4.0);
  const mech::snapped_gaussian_params gp{0.01, 0.02, 3, 4.0,
                                         mech::snapped_gaussian_grid_exponent(0.01, 0.02, 3, 4.0)};
  for (int i = 0; i < 2000; ++i) {
    vec x(3);
    x << 0.1 * i, -3.99, 1e-3 * i;
    for (const vec& y : {mech::snapped_laplace(s, x, lp), mech::snapped_vector_laplace(s, x, vp),
                         mech::snapped_gaussian(s, x, gp)})
      for (Eigen::Index j = 0; j < 3; ++j) ASSERT_TRUE(on_grid(y[j], -30)) << y[j];
    const vec y = mech::snapped_laplace(s, x, lp);
    for (Eigen::Index j = 0; j < 3; ++j) ASSERT_TRUE(on_grid(y[j], lp.grid_exponent)) << y[j];
  }
}

// ==== SEC.LATTICE.RULE ======================================================================

TEST(SEC_LATTICE_RULE, GridExponentAndRelativeInflation) {
  for (double ref : {1.0, 0.75, 3.0, 1e-7, 1e5, 0x1p-1000}) {
    for (int s : {0, 10, 20}) {
      const int k = sec::lattice_grid_exponent(ref, s);
      EXPECT_LE(std::ldexp(1.0, k + s), ref) << ref << " " << s;  // 2^k <= ref / 2^s
      EXPECT_GT(std::ldexp(1.0, k + s + 1), ref);                 // largest such k
    }
  }
  EXPECT_EQ(sec::lattice_finest_exponent(1.0), -52);
  EXPECT_EQ(sec::lattice_finest_exponent(100.0), -45);  // 100 <= 2^7
  // the builders: inflation d 2^k / Δ1 and √d 2^k / Δ2 at most 2^-s (the clamp does not bind)
  for (long long d : {1LL, 20LL, 100LL}) {
    for (double eps : {0.01, 1.0, 10.0}) {
      const auto l = mech::snapped_laplace_for(1.0, eps, d, 100.0, 20);
      EXPECT_LE(static_cast<double>(d) * std::ldexp(1.0, l.grid_exponent), 0x1p-20);
      const auto v = mech::snapped_vector_laplace_for(2.0, eps, d, 100.0, 12);
      EXPECT_LE(std::sqrt(static_cast<double>(d)) * std::ldexp(1.0, v.grid_exponent) / 2.0,
                0x1p-12);
      // and the scale is the certified minimum: t 2^k eps >= Δ + m 2^k > (t - 1) 2^k eps
      const double g = std::ldexp(1.0, l.grid_exponent);
      const auto t = static_cast<double>(l.grid_scale());
      EXPECT_GE(t * g * eps, 1.0 + static_cast<double>(d) * g);
      EXPECT_LT((t - 1) * g * eps, (1.0 + static_cast<double>(d) * g) * (1 + 1e-12));
    }
  }
  // a clamp too large for the rule's grid coarsens it (cost reported by SEC.COST.NOISE)
  const auto coarse = mech::snapped_laplace_for(1.0, 1.0, 1, 0x1p40, 20);
  EXPECT_EQ(coarse.grid_exponent, -12);  // 2^40 / 2^-12 = 2^52
  // Gaussian: sigma / 2^k <= 2^14 so that calibration may still raise sigma
  const int kg = mech::snapped_gaussian_grid_exponent(1.0, 100.0, 100, 10.0, 20);
  EXPECT_LE(std::ldexp(100.0, -kg), 0x1p14);
  EXPECT_GT(std::ldexp(100.0, -kg), 0x1p13);
  // grid variance rounded up, never down, numerator <= 2^30
  for (double sigma : {1.0, 0.3, 3.7, 1e-3, 12345.678}) {
    for (int k : {-20, -10, -3, 0}) {
      if (std::ldexp(sigma, -k) > 0x1p15) continue;
      const sec::rational64 r = sec::lattice_gaussian_variance(sigma, k);
      const long double exact = std::ldexp(static_cast<long double>(sigma), -k);
      const long double v = static_cast<long double>(r.num) / static_cast<long double>(r.den);
      EXPECT_GE(v, exact * exact * (1 - 1e-18L)) << sigma << " " << k;
      EXPECT_LE(v, exact * exact * (1 + 1e-6L) + 1e-6L) << sigma << " " << k;
      EXPECT_LE(r.num, 1LL << 30);
    }
  }
  EXPECT_EQ(message_of<std::domain_error>([] { (void)sec::lattice_gaussian_variance(1.0, -16); }),
            "dpref::secure::lattice_gaussian_variance: sigma must be such that (sigma / 2^k)^2 <= "
            "2^30, got 1");
}

// ==== SEC.EXACT.UNIFORM =====================================================================
// n = 10^6 trials each; exact binomial acceptance regions (normal approximation of the
// binomial, two-sided critical value at false alarm 1e-6).
void check_frequency(long long hits, long long n, double p, const char* what) {
  const double z = dpref::test::normal_two_sided_critical(kAlpha);
  const double nn = static_cast<double>(n);
  const double dev = std::fabs(static_cast<double>(hits) - nn * p);
  std::printf("[freq] %-44s hits=%lld n=%lld p=%.9f |dev|/sd=%.2f (critical %.2f)\n", what, hits, n,
              p, dev / std::sqrt(nn * p * (1 - p)), z);
  EXPECT_LE(dev, z * std::sqrt(nn * p * (1 - p))) << what;
}

TEST(SEC_EXACT_UNIFORM, ComparisonsAndBuildingBlocksHaveTheirExactProbabilities) {
  philox_stream s(31);
  long long lt = 0, vn = 0, chain3 = 0;
  for (long long i = 0; i < kN; ++i) {
    sec::lazy_uniform a, b, c;
    lt += a.less_than(b, s);
    sec::lazy_uniform p;
    vn += sec::detail::von_neumann_exp(s, p);
    chain3 += b.less_than(a, s) && c.less_than(b, s);  // a > b > c
  }
  check_frequency(lt, kN, 0.5, "P(U1 < U2) = 1/2");
  check_frequency(chain3, kN, 1.0 / 6, "P(U1 > U2 > U3) = 1/6");
  check_frequency(vn, kN, 1 - std::exp(-1.0), "von Neumann accepts w.p. 1 - 1/e");
  // Karney's B averaged over x ~ U(0,1): integral of exp(-x(2k+x)/(2k+2)) dx (Simpson, 2^12)
  for (std::int64_t k : {0, 1, 3}) {
    const auto f = [k](double x) {
      return std::exp(-x * (2.0 * static_cast<double>(k) + x) / (2.0 * static_cast<double>(k) + 2));
    };
    double integral = f(0) + f(1);
    const int m = 4096;
    for (int j = 1; j < m; ++j) integral += (j % 2 ? 4 : 2) * f(j / double(m));
    integral /= 3.0 * m;
    long long hits = 0;
    for (long long i = 0; i < kN; ++i) {
      sec::lazy_uniform x;
      hits += sec::detail::karney_b(s, k, x);
    }
    check_frequency(hits, kN, integral, ("Karney B, k = " + std::to_string(k)).c_str());
  }
  // bernoulli(x) given x: the hit rate among draws with x < 1/4 is E[x | x < 1/4] = 1/8
  long long lo_n = 0, lo_hits = 0;
  for (long long i = 0; i < kN; ++i) {
    sec::lazy_uniform x;
    if (x.word(s, 0) >> 62 != 0) continue;
    ++lo_n;
    lo_hits += x.bernoulli(s);
  }
  check_frequency(lo_hits, lo_n, 0.125, "P(bernoulli(x) | x < 1/4) = 1/8");
}

TEST(SEC_EXACT_UNIFORM, NegativeControlRejectsAWrongProbability) {
  philox_stream s(32);
  long long vn = 0;
  for (long long i = 0; i < kN; ++i) {
    sec::lazy_uniform p;
    vn += sec::detail::von_neumann_exp(s, p);
  }
  const double z = dpref::test::normal_two_sided_critical(kAlpha);
  const double p = 0.625;  // 1 - 1/e = 0.6321: must be rejected at n = 10^6
  EXPECT_GT(std::fabs(static_cast<double>(vn) - kN * p), z * std::sqrt(kN * p * (1 - p)));
}

// ==== SEC.EXACT.EXPONENTIAL / SEC.EXACT.NORMAL ==============================================
// n = 10^6 draws, Kolmogorov–Smirnov with the DKW–Massart bound (valid for every n), false
// alarm 1e-6; values from the first 64 fraction bits (error <= 2^-64, far below the KS scale).

std::vector<double> draws(long long n, const std::function<double()>& f) {
  std::vector<double> v;
  v.reserve(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) v.push_back(f());
  return v;
}

TEST(SEC_EXACT_EXPONENTIAL, KolmogorovSmirnovAndNegativeControl) {
  philox_stream s(41);
  const auto v = draws(kN, [&] {
    auto r = sec::exact_exponential(s);
    return r.approx(s);
  });
  const auto ok = ks_test(
      v, [](double x) { return x <= 0 ? 0.0 : -std::expm1(-x); }, kAlpha);
  std::printf("[ks] exact exponential D=%.5f critical=%.5f\n", ok.statistic, ok.critical);
  EXPECT_FALSE(ok.reject);
  const auto neg = ks_test(
      v, [](double x) { return x <= 0 ? 0.0 : -std::expm1(-1.02 * x); }, kAlpha);
  std::printf("[ks] NEG vs rate 1.02 D=%.5f critical=%.5f\n", neg.statistic, neg.critical);
  EXPECT_TRUE(neg.reject);
}

TEST(SEC_EXACT_NORMAL, KolmogorovSmirnovAndNegativeControl) {
  philox_stream s(42);
  const auto v = draws(kN, [&] {
    auto r = sec::exact_normal(s);
    return r.approx(s);
  });
  const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  const auto ok = ks_test(v, phi, kAlpha);
  std::printf("[ks] exact normal D=%.5f critical=%.5f\n", ok.statistic, ok.critical);
  EXPECT_FALSE(ok.reject);
  const auto neg = ks_test(
      v, [&](double x) { return phi(x / 1.02); }, kAlpha);
  std::printf("[ks] NEG vs sd 1.02 D=%.5f critical=%.5f\n", neg.statistic, neg.critical);
  EXPECT_TRUE(neg.reject);
}

// ==== SEC.VLAPLACE.SAMPLER ==================================================================

// P(round(W) = z) for d = 1: W Laplace(t), cell [z - 1/2, z + 1/2].
long double pmf_1d(long long z, long double t) {
  const long double a = std::fabs(static_cast<long double>(z));
  if (z == 0) return -std::expm1(-0.5L / t);
  return (std::exp(-(a - 0.5L) / t) - std::exp(-(a + 0.5L) / t)) / 2;
}

// P(round(W) = (z1, z2)) for d = 2: density exp(-|w|/t) / (2 pi t^2) integrated over the unit
// cell by 4 x 4 sub-squares of 8-point Gauss–Legendre; the origin cell in polar coordinates
// (8 triangles, closed-form radial integral, 64-point Gauss–Legendre in the angle).
long double pmf_2d(long long z1, long long z2, long double t) {
  static const std::array<long double, 8> x{
      -0.9602898564975362316835609L, -0.7966664774136267395915539L, -0.5255324099163289858177390L,
      -0.1834346424956498049394761L, 0.1834346424956498049394761L,  0.5255324099163289858177390L,
      0.7966664774136267395915539L,  0.9602898564975362316835609L};
  static const std::array<long double, 8> w{
      0.1012285362903762591525314L, 0.2223810344533744705443560L, 0.3137066458778872873379622L,
      0.3626837833783619829651504L, 0.3626837833783619829651504L, 0.3137066458778872873379622L,
      0.2223810344533744705443560L, 0.1012285362903762591525314L};
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double norm = 2 * pi * t * t;
  if (z1 == 0 && z2 == 0) {
    long double sum = 0;  // integral over theta in [0, pi/4] of t^2 (1 - e^-R/t (1 + R/t))
    const int pieces = 8;
    for (int p = 0; p < pieces; ++p) {
      const long double a = pi / 4 * p / pieces, b = pi / 4 * (p + 1) / pieces;
      for (int i = 0; i < 8; ++i) {
        const long double th = (a + b) / 2 + (b - a) / 2 * x[i];
        const long double r = 0.5L / std::cos(th);
        sum += (b - a) / 2 * w[i] * t * t * (1 - std::exp(-r / t) * (1 + r / t));
      }
    }
    return 8 * sum / norm;
  }
  long double sum = 0;
  const int sub = 4;
  for (int a = 0; a < sub; ++a)
    for (int b = 0; b < sub; ++b) {
      const long double x0 = static_cast<long double>(z1) - 0.5L + (a + 0.5L) / sub;
      const long double y0 = static_cast<long double>(z2) - 0.5L + (b + 0.5L) / sub;
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
          const long double px = x0 + x[i] / (2 * sub), py = y0 + x[j] / (2 * sub);
          sum += w[i] * w[j] * std::exp(-std::sqrt(px * px + py * py) / t);
        }
    }
  return sum / (4 * sub * sub) / norm;
}

// d = 1, t = 2 and d = 2, t = 1: n = 10^6 draws, chi-square against the exact pmf of round(W)
// (false alarm 1e-6); negative controls: the same counts against t' = 1.1 t must reject.
TEST(SEC_VLAPLACE_SAMPLER, ChiSquareExactLatticePmfD1AndD2) {
  {
    philox_stream s(51);
    std::map<long long, long long> counts;
    for (long long i = 0; i < kN; ++i) ++counts[sec::l2_laplace_lattice(s, 1, 2)[0]];
    const auto r = chi2_test(
        counts, [](long long z) { return static_cast<double>(pmf_1d(z, 2.0L)); }, -60, 60, kAlpha);
    std::printf("[chi2] lattice l2-Laplace d=1 t=2: %.1f (dof %d, critical %.1f)\n", r.statistic,
                r.dof, r.critical);
    EXPECT_FALSE(r.reject);
    const auto neg = chi2_test(
        counts, [](long long z) { return static_cast<double>(pmf_1d(z, 2.2L)); }, -60, 60, kAlpha);
    std::printf("[chi2] NEG against t=2.2: %.1f (critical %.1f)\n", neg.statistic, neg.critical);
    EXPECT_TRUE(neg.reject);
  }
  {
    philox_stream s(52);
    constexpr long long R = 30, W = 2 * R + 1;
    std::map<long long, long long> counts;
    const auto index = [](long long a, long long b) {
      if (std::llabs(a) > R || std::llabs(b) > R) return W * W;  // outside: tail bin
      return (a + R) * W + (b + R);
    };
    for (long long i = 0; i < kN; ++i) {
      const auto z = sec::l2_laplace_lattice(s, 2, 1);
      ++counts[index(z[0], z[1])];
    }
    for (const long double t : {1.0L, 1.1L}) {
      std::vector<double> pmf(static_cast<std::size_t>(W * W));
      for (long long a = -R; a <= R; ++a)
        for (long long b = -R; b <= R; ++b)
          pmf[static_cast<std::size_t>(index(a, b))] = static_cast<double>(pmf_2d(a, b, t));
      const auto r = chi2_test(
          counts, [&](long long i) { return pmf[static_cast<std::size_t>(i)]; }, 0, W * W - 1,
          kAlpha);
      std::printf(
          "[chi2] lattice l2-Laplace d=2 t=1 vs pmf t=%.1Lf: %.1f (dof %d, critical %.1f)\n", t,
          r.statistic, r.dof, r.critical);
      EXPECT_EQ(r.reject, t != 1.0L);
    }
  }
}

// d = 3 and 8: the continuous W behind the lattice (first 64 bits of every variate) has
// ‖W‖ ~ Gamma(d, t) and W_1/‖W‖ with the law of a coordinate of a uniform unit vector
// (density ∝ (1 - u^2)^((d-3)/2)): KS, n = 2·10^5 each, false alarm 1e-6 each; negative
// control: the radii against Gamma(d, 1.03 t) must reject.
TEST(SEC_VLAPLACE_SAMPLER, MixtureHasTheL2LaplaceLawInHigherDimensions) {
  const long long n = 200000;
  for (const std::size_t d : {std::size_t{3}, std::size_t{8}}) {
    philox_stream s(53, d);
    std::vector<double> radius, cosine;
    for (long long i = 0; i < n; ++i) {
      const auto w = sec::detail::l2_laplace_continuous_approx(s, d, 5);
      double r2 = 0;
      for (double v : w) r2 += v * v;
      radius.push_back(std::sqrt(r2));
      cosine.push_back(w[0] / std::sqrt(r2));
    }
    const boost::math::gamma_distribution<double> g(static_cast<double>(d), 5.0);
    const auto rk = ks_test(
        radius, [&](double x) { return x <= 0 ? 0.0 : boost::math::cdf(g, x); }, kAlpha);
    const boost::math::gamma_distribution<double> g_neg(static_cast<double>(d), 5.15);
    const auto rn = ks_test(
        radius, [&](double x) { return x <= 0 ? 0.0 : boost::math::cdf(g_neg, x); }, kAlpha);
    // CDF of u = W_1/|W|: (1 + u)/2 for d = 3; for d = 8 the integral of (1 - u^2)^(5/2),
    // tabulated on 4096 cells (Simpson on each, linear interpolation: error < 1e-7)
    const int cells = 4096;
    std::vector<double> table(cells + 1, 0.0);
    const auto f = [](double v) { return std::pow(std::max(0.0, 1 - v * v), 2.5); };
    for (int j = 0; j < cells; ++j) {
      const double a = -1 + 2.0 * j / cells, b = -1 + 2.0 * (j + 1) / cells;
      table[static_cast<std::size_t>(j) + 1] =
          table[static_cast<std::size_t>(j)] + (b - a) / 6 * (f(a) + 4 * f((a + b) / 2) + f(b));
    }
    const auto cdf_u = [&](double u) {
      if (u <= -1) return 0.0;
      if (u >= 1) return 1.0;
      if (d == 3) return (1 + u) / 2;
      const double pos = (u + 1) / 2 * cells;
      const auto j = static_cast<std::size_t>(pos);
      const double frac = pos - static_cast<double>(j);
      return (table[j] + frac * (table[j + 1] - table[j])) / table.back();
    };
    const auto ck = ks_test(cosine, cdf_u, kAlpha);
    std::printf("[ks] d=%zu radius D=%.5f cos D=%.5f critical %.5f; NEG radius D=%.5f\n", d,
                rk.statistic, ck.statistic, rk.critical, rn.statistic);
    EXPECT_FALSE(rk.reject) << d;
    EXPECT_FALSE(ck.reject) << d;
    EXPECT_TRUE(rn.reject) << d;
  }
}

// The double interval path and the exact integer path decide the same cells (2000 draws per
// dimension, fresh substreams), including coarse grids where boundaries are close.
TEST(SEC_VLAPLACE_SAMPLER, FastAndExactPathsAgreeAndValidation) {
  for (const std::size_t d : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
    for (const std::int64_t t : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{1} << 40}) {
      for (std::uint64_t i = 0; i < 2000; ++i) {
        philox_stream a(54, d * 1000 + static_cast<std::uint64_t>(t % 997), i), b = a;
        ASSERT_EQ(sec::l2_laplace_lattice(a, d, t),
                  sec::detail::l2_laplace_lattice_exact_path(b, d, t))
            << d << " " << t << " " << i;
      }
    }
  }
  philox_stream s(55);
  EXPECT_EQ(message_of<std::domain_error>([&] { (void)sec::l2_laplace_lattice(s, 0, 1); }),
            "dpref::secure::l2_laplace_lattice: d must be >= 1, got 0");
  EXPECT_EQ(message_of<std::domain_error>([&] { (void)sec::l2_laplace_lattice(s, 2, 0); }),
            "dpref::secure::l2_laplace_lattice: grid_scale must be in [1, 2^52], got 0");
  // reproducible for a fixed seed
  philox_stream r1(56), r2(56);
  EXPECT_EQ(sec::l2_laplace_lattice(r1, 7, 12345), sec::l2_laplace_lattice(r2, 7, 12345));
}

// ==== SEC.LAPLACE / SEC.GAUSS / SEC.VLAPLACE: the mechanisms ================================

// Every coordinate's noise has the exact law of its sampler: y - x for x on the grid is 2^k Z.
// n = 10^6 coordinates, chi-square (false alarm 1e-6) against the discrete Laplace pmf.
TEST(SEC_LAPLACE, NoiseIsTheDiscreteLaplaceOnTheGridAndTheEventMatches) {
  mech::snapped_laplace_params p{1.0, 0.75, 4, 10.0, -2};  // t = 3, g = 1/4
  EXPECT_EQ(p.grid_scale(), 3);
  philox_stream s(61);
  vec x(4);
  x << 0.25, -1.5, 2.0, 9.75;  // on the grid
  std::map<long long, long long> counts;
  for (long long i = 0; i < kN / 4; ++i) {
    const vec y = mech::snapped_laplace(s, x, p);
    for (Eigen::Index j = 0; j < 4; ++j) ++counts[std::llround((y[j] - x[j]) * 4)];
  }
  const auto pmf = [](long long z, double t) {
    const double q = std::exp(-1 / t);
    return (1 - q) / (1 + q) * std::pow(q, static_cast<double>(std::llabs(z)));
  };
  const auto r = chi2_test(
      counts, [&](long long z) { return pmf(z, 3.0); }, -80, 80, kAlpha);
  const auto neg = chi2_test(
      counts, [&](long long z) { return pmf(z, 3.3); }, -80, 80, kAlpha);
  std::printf("[chi2] snapped Laplace noise t=3: %.1f (critical %.1f); NEG t=3.3: %.1f\n",
              r.statistic, r.critical, neg.statistic);
  EXPECT_FALSE(r.reject);
  EXPECT_TRUE(neg.reject);
  // the event carries what was drawn: t = 3, k = -2, d = 4
  const auto e = p.event<double>(5, "test");
  const auto& m = std::get<dpref::accounting::snapped_laplace_mechanism<double>>(e.what);
  EXPECT_EQ(m.grid_scale, 3);
  EXPECT_EQ(m.grid_exponent, -2);
  EXPECT_EQ(m.dimension, 4);
  EXPECT_EQ(e.count, 5);
  // scalar form = vector form with d = 1
  mech::snapped_laplace_params p1 = p;
  p1.dimension = 1;
  philox_stream a(62), b(62);
  vec one(1);
  one << 0.3;
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(mech::snapped_laplace(a, 0.3, p1), mech::snapped_laplace(b, one, p1)[0]);
}

TEST(SEC_GAUSS, NoiseIsTheDiscreteGaussianOnTheGridAndTheEventMatches) {
  mech::snapped_gaussian_params p{1.0, 0.5, 3, 10.0, -2};  // sigma_g = 2, sigma_g^2 = 4
  EXPECT_EQ(p.grid_variance().num, 4);
  EXPECT_EQ(p.grid_variance().den, 1);
  philox_stream s(63);
  vec x = vec::Zero(3);
  std::map<long long, long long> counts;
  for (long long i = 0; i < kN / 3; ++i) {
    const vec y = mech::snapped_gaussian(s, x, p);
    for (Eigen::Index j = 0; j < 3; ++j) ++counts[std::llround(y[j] * 4)];
  }
  const auto pmf = [](long long z, double var) {
    double norm = 0;
    for (long long u = -200; u <= 200; ++u)
      norm += std::exp(-static_cast<double>(u * u) / (2 * var));
    return std::exp(-static_cast<double>(z * z) / (2 * var)) / norm;
  };
  const auto r = chi2_test(
      counts, [&](long long z) { return pmf(z, 4.0); }, -40, 40, kAlpha);
  const auto neg = chi2_test(
      counts, [&](long long z) { return pmf(z, 4.4); }, -40, 40, kAlpha);
  std::printf("[chi2] snapped Gaussian noise var=4: %.1f (critical %.1f); NEG var=4.4: %.1f\n",
              r.statistic, r.critical, neg.statistic);
  EXPECT_FALSE(r.reject);
  EXPECT_TRUE(neg.reject);
  const auto e = p.event<double>();
  const auto& m = std::get<dpref::accounting::snapped_gaussian_mechanism<double>>(e.what);
  EXPECT_EQ(m.variance_num, 4);
  EXPECT_EQ(m.variance_den, 1);
  EXPECT_EQ(m.dimension, 3);
}

TEST(SEC_VLAPLACE, ReleaseIsCentredLatticeNoiseAndTheEventMatches) {
  mech::snapped_vector_laplace_params p{1.0, 0.5, 2, 10.0, -1};  // t = 1, g = 1/2
  philox_stream a(64), b(64);
  vec x(2);
  x << 0.26, -3.0;  // rounds to (1/2, -3)
  for (int i = 0; i < 1000; ++i) {
    const vec y = mech::snapped_vector_laplace(a, x, p);
    const auto z = sec::l2_laplace_lattice(b, 2, 1);
    ASSERT_EQ(y[0], 0.5 + 0.5 * static_cast<double>(z[0]));
    ASSERT_EQ(y[1], -3.0 + 0.5 * static_cast<double>(z[1]));
  }
  const auto e = p.event<double>();
  const auto& m = std::get<dpref::accounting::snapped_vector_laplace_mechanism<double>>(e.what);
  EXPECT_EQ(m.grid_scale, 1);
  EXPECT_EQ(m.dimension, 2);
}

// ==== SEC.COST.NOISE ========================================================================
// Extra noise of the secure releases for the same ε: E‖noise‖₂ of the secure release divided by
// that of the idealised real-valued mechanism, d = 1, 20, 100, Monte Carlo with n = 4000 draws
// each (and the exact variance ratio of the coordinate-wise Laplace). Sensitivity 1, ε = 1,
// clamp 100, grid precision s = 20 (Laplace, l2-Laplace) and the Gaussian rule. Expected:
// lattice versions within 1 + 2^-12 (+ Monte Carlo error) of the ideal ones; the l1 fallback
// for the l2-Laplace (coordinate-wise discrete Laplace with Δ1 = √d Δ2) ≈ √2 (d large).
TEST(SEC_COST_NOISE, ExpectedNoiseNormRatiosForTheSameEpsilon) {
  const long long n = 4000;
  for (long long d : {1LL, 20LL, 100LL}) {
    const auto dd = static_cast<double>(d);
    philox_stream s(71, static_cast<std::uint64_t>(d));
    const vec zero = vec::Zero(d);
    // coordinate-wise Laplace: exact second-moment ratio (discrete Laplace variance in grid units
    // 2q/(1-q)^2, q = e^(-1/t), against 2 b^2 with b = Δ1/ε = 1 per unit... d coordinates share it)
    const auto lp = mech::snapped_laplace_for(1.0, 1.0, d, 100.0);
    const double q = std::exp(-1.0 / static_cast<double>(lp.grid_scale()));
    const double g = std::ldexp(1.0, lp.grid_exponent);
    const double var_ratio = (2 * q / ((1 - q) * (1 - q)) * g * g) / 2.0;
    // l2-Laplace: lattice vs idealised, and the l1 fallback
    const auto vp = mech::snapped_vector_laplace_for(1.0, 1.0, d, 100.0);
    const auto l1 = mech::snapped_laplace_for(std::sqrt(dd), 1.0, d, 100.0);
    double lattice = 0, ideal = 0, fallback = 0;
    for (long long i = 0; i < n; ++i) {
      lattice += mech::snapped_vector_laplace(s, zero, vp).norm();
      ideal += dpref::vector_laplace<double>(s, static_cast<std::size_t>(d), 1.0).norm();
      fallback += mech::snapped_laplace(s, zero, l1).norm();
    }
    std::printf(
        "[cost] d=%3lld Laplace: E|noise|^2 ratio %.8f (k=%d) | l2-Laplace: lattice/ideal %.4f, "
        "l1-fallback/ideal %.4f (E|w| ideal = d b = %.0f)\n",
        d, var_ratio, lp.grid_exponent, lattice / ideal, fallback / ideal, dd);
    EXPECT_LE(var_ratio, (1 + 0x1p-12) * (1 + 0x1p-12));
    EXPECT_GE(var_ratio, 1 - 1e-9);
    // Monte Carlo: the relative sd of a mean of n norms is sd(|w|)/(E|w| sqrt(n)) = 1/sqrt(n d)
    // for |w| ~ Gamma(d, b); the ratio of two independent means has relative sd <= sqrt(2/(n d)),
    // and 6 of those bound a false alarm by ~2e-9 (normal approximation).
    const double tol = 6 / std::sqrt(static_cast<double>(n) * dd) * std::sqrt(2.0);
    EXPECT_NEAR(lattice / ideal, 1.0, tol) << d;
    if (d >= 20) {
      EXPECT_NEAR(fallback / ideal, std::sqrt(2.0), 0.1 * std::sqrt(2.0)) << d;
      // negative control: the same check detects the l1 fallback's extra noise
      EXPECT_GT(std::fabs(fallback / ideal - 1.0), tol) << d;
    }
  }
}

// ==== SEC.LATTICE.L2CLAMP / SEC.GAUSS.L2 =====================================================
// The properties of the l2 clamp are in secure_sum_test.cpp, with the l1 clamp's.

TEST(SEC_LATTICE_L2CLAMP, HandComputedCases) {
  // C = 1, k = 0, d = 4: radius 1 + √4/2 = 2. (1,1,1,1) has norm exactly 2 (kept: the boundary
  // belongs to the ball); (2,1,1,1) has norm √7 > 2 and becomes trunc(n_i ⌊1⌋ / ⌈√7⌉ = n_i / 3)
  std::vector<std::int64_t> a{1, 1, 1, 1}, b{2, 1, 1, 1}, c{-2, 1, 1, 1};
  sec::lattice_l2_clamp(a, 0, 1.0);
  sec::lattice_l2_clamp(b, 0, 1.0);
  sec::lattice_l2_clamp(c, 0, 1.0);
  EXPECT_EQ(a, (std::vector<std::int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(b, (std::vector<std::int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(c, (std::vector<std::int64_t>{0, 0, 0, 0}));
  // C = 2.5 at k = -1: c = 5, d = 1, radius 5.5; (6) is outside -> trunc(6·5/6) = 5; (5) stays
  std::vector<std::int64_t> e{6}, f{5};
  sec::lattice_l2_clamp(e, -1, 2.5);
  sec::lattice_l2_clamp(f, -1, 2.5);
  EXPECT_EQ(e, (std::vector<std::int64_t>{5}));
  EXPECT_EQ(f, (std::vector<std::int64_t>{5}));
  // c = 100 (C = 100, k = 0), d = 2: radius 100 + √2/2 = 100.7071; (71, 72) has norm 101.12 ->
  // trunc(71·100/102) = 69, trunc(72·100/102) = 70 (norm 98.0)
  std::vector<std::int64_t> g{71, 72};
  sec::lattice_l2_clamp(g, 0, 100.0);
  EXPECT_EQ(g, (std::vector<std::int64_t>{69, 70}));
  std::vector<std::int64_t> h{70, 71};  // norm 99.70: inside, kept
  sec::lattice_l2_clamp(h, 0, 100.0);
  EXPECT_EQ(h, (std::vector<std::int64_t>{70, 71}));
  // non-integer c with fractional binary digits: C = 0.75, k = -2 -> c = 3, d = 1
  std::vector<std::int64_t> m{4};
  sec::lattice_l2_clamp(m, -2, 0.75);
  EXPECT_EQ(m, (std::vector<std::int64_t>{3}));
}

TEST(SEC_GAUSS_L2, AnyTwoInputsStayWithinTheChargedSensitivity) {
  // The event of a shape = l2_ball release charges Δ2 = 2C inflated to 2C + √d 2^k. Two inputs
  // far outside the ball (±10 C in every coordinate), released with the same stream (so the same
  // noise integers): the releases differ by 2^k (n − n'), which must be within that sensitivity.
  constexpr int d = 16;
  constexpr double C = 1;
  mech::snapped_gaussian_params p{2 * C, 0.5, d, C, -8};
  p.shape = mech::clamp_set::l2_ball;
  const vec hi = vec::Constant(d, 10 * C), lo = vec::Constant(d, -10 * C);
  philox_stream s1(7), s2(7);
  const vec y1 = mech::snapped_gaussian(s1, hi, p), y2 = mech::snapped_gaussian(s2, lo, p);
  const double charged = dpref::accounting::snapped_inflated_sensitivity(2 * C, -8, d, true);
  EXPECT_LE((y1 - y2).norm(), charged);
  // negative control: the coordinate clamp on the same inputs moves them by 2√d C = 8 C
  mech::snapped_gaussian_params q = p;
  q.shape = mech::clamp_set::coordinates;
  philox_stream s3(7), s4(7);
  const vec z1 = mech::snapped_gaussian(s3, hi, q), z2 = mech::snapped_gaussian(s4, lo, q);
  EXPECT_GT((z1 - z2).norm(), charged);
  EXPECT_EQ((z1 - z2).norm(), 2 * std::sqrt(double(d)) * C);
}

TEST(SEC_GAUSS_L2, ConformingInputsReleaseTheSameBitsAndTheDiameterIsValidated) {
  constexpr int d = 5;
  mech::snapped_gaussian_params p{2.0, 0.5, d, 1.0, -10};
  mech::snapped_gaussian_params q = p;
  q.shape = mech::clamp_set::l2_ball;
  vec x(d);
  x << 0.3, -0.4, 0.5, 0.1, -0.6;  // ‖x‖₂ = 0.934 <= C
  philox_stream s1(11), s2(11);
  const vec a = mech::snapped_gaussian(s1, x, p), b = mech::snapped_gaussian(s2, x, q);
  for (int i = 0; i < d; ++i) EXPECT_EQ(a[i], b[i]) << i;
  q.sensitivity = 1.5;  // below the ball's diameter 2C: the event would not cover two inputs
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { q.validate(); }),
            "mechanisms::snapped_gaussian_params.sensitivity must be >= 2 * clamp (the l2 "
            "diameter of the clamp ball) when shape = l2_ball, got 1.5");
}

TEST(SEC_GAUSS_SUM, OneRecordMovesTheReleaseByAtMostTheChargedSensitivity) {
  // records far outside the ball (and one that is inside); adding the extra record moves the
  // integer sum by one ball vector: within Δ2 + √d 2^k for Δ2 = record_radius
  constexpr int d = 8;
  mech::snapped_gaussian_params p{1.0, 0.5, d, 100.0, -8};
  p.shape = mech::clamp_set::sum_of_l2_balls;
  p.record_radius = 1.0;
  std::vector<vec> recs = {vec::Constant(d, 50.0), vec::Constant(d, -3.0), vec::Constant(d, 0.1),
                           vec::Constant(d, 1e6)};
  const auto release = [&](std::size_t count, const mech::snapped_gaussian_params& q) {
    philox_stream s(21);
    return mech::snapped_gaussian_sum(
        s, count, [&](std::size_t r, vec& x) { x = recs[r]; }, q);
  };
  const double charged = dpref::accounting::snapped_inflated_sensitivity(1.0, -8, d, true);
  EXPECT_LE((release(4, p) - release(3, p)).norm(), charged);
  EXPECT_LE((release(1, p) - release(0, p)).norm(), charged);
  // negative control: the float sum of the same records released by the coordinate-clamped
  // vector form (the shape DP-SGD used before) moves by min(1e6, clamp) per coordinate
  mech::snapped_gaussian_params q{1.0, 0.5, d, 100.0, -8};
  const auto summed = [&](std::size_t count) {
    vec x = vec::Zero(d);
    for (std::size_t r = 0; r < count; ++r) x += recs[r];
    philox_stream s(21);
    return mech::snapped_gaussian(s, x, q);
  };
  EXPECT_GT((summed(4) - summed(3)).norm(), 100 * charged);
}

TEST(SEC_GAUSS_SUM, IntegerSumIsExactAndDrawsTheVectorFormsNoise) {
  // 1000 records on the grid inside the ball: the release equals the vector form's release of
  // their exact sum (on the grid), with the same stream: same noise integers, same order
  constexpr int d = 3;
  mech::snapped_gaussian_params p{0.5, 0.25, d, 1000.0, -10};
  p.shape = mech::clamp_set::sum_of_l2_balls;
  p.record_radius = 0.5;
  vec rec(d);
  rec << 0.125, -0.25, 0.0009765625;  // 2^-3, -2^-2, 2^-10: on the grid 2^-10, norm < 0.5
  philox_stream s1(5), s2(5);
  const vec y = mech::snapped_gaussian_sum(
      s1, 1000, [&](std::size_t, vec& x) { x = rec; }, p);
  mech::snapped_gaussian_params q{0.5, 0.25, d, 1000.0, -10};
  const vec z = mech::snapped_gaussian(s2, vec(1000.0 * rec), q);
  for (int i = 0; i < d; ++i) EXPECT_EQ(y[i], z[i]) << i;
}

TEST(SEC_GAUSS_SUM, ShapesAndRecordRadiusAreValidated) {
  mech::snapped_gaussian_params p{1.0, 0.5, 2, 10.0, -8};
  p.shape = mech::clamp_set::sum_of_l2_balls;
  p.record_radius = 2.0;  // above Δ2: one record could move the sum by 2
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { p.validate(); }),
            "mechanisms::snapped_gaussian_params.sensitivity must be >= record_radius (one record "
            "added or removed) when shape = sum_of_l2_balls, got 1");
  p.record_radius = 0;
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { p.validate(); }),
            "mechanisms::snapped_gaussian_params.record_radius must be finite and > 0, got 0");
  mech::snapped_gaussian_params c{1.0, 0.5, 2, 10.0, -8};
  c.record_radius = 1.0;  // not a sum: an ignored field is refused
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { c.validate(); }),
            "mechanisms::snapped_gaussian_params.record_radius must be 0 unless shape = "
            "sum_of_l2_balls, got 1");
  c.record_radius = 0;
  philox_stream s(1);
  EXPECT_EQ(message_of<std::domain_error>([&] {
              (void)mech::snapped_gaussian_sum(
                  s, 1, [](std::size_t, vec& x) { x = vec::Zero(2); }, c);
            }),
            "dpref::mechanisms::snapped_gaussian_sum: params.shape must be sum_of_l2_balls, got "
            "coordinates");
  p.record_radius = 1.0;
  const vec x2 = vec::Zero(2);
  EXPECT_EQ(message_of<std::domain_error>([&] { (void)mech::snapped_gaussian(s, x2, p); }),
            "dpref::mechanisms::snapped_gaussian: params.shape must be coordinates or l2_ball (a "
            "sum of records is released by snapped_gaussian_sum), got sum_of_l2_balls");
}

// PRIV.MECH.CLAMP (spec/privacy_bounds.md, generic mechanisms): the secure primitives' clamp C is
// coordinate-wise, hence 1-Lipschitz per coordinate: once a paper has enforced an ℓ2 (ℓ1) bound Δ
// on the change of the query, clamping and rounding to the grid change it by at most the
// inflated sensitivity the ledger charges (Δ + √d 2^k in ℓ2, Δ + d 2^k in ℓ1). Negative control:
// the clamp alone, on queries whose change is NOT bounded first, moves them by 2C per coordinate,
// i.e. 2√d C in ℓ2 — never a bound of 2C.
RC_GTEST_PROP(PRIV_MECH_CLAMP, ClampAndRoundNeverExceedTheInflatedSensitivity, ()) {
  const int d = *rc::gen::inRange(1, 17);
  const int k = *rc::gen::inRange(-12, 3);
  const double C = std::exp(*dpref::test::real_in<double>(std::log(1e-2), std::log(1e3)));
  const double delta = std::exp(*dpref::test::real_in<double>(std::log(1e-3), std::log(1e2)));
  vec x(d), dir(d);
  for (int i = 0; i < d; ++i) {
    x[i] = *dpref::test::real_in<double>(-2e3, 2e3);
    dir[i] = *dpref::test::real_in<double>(-1, 1);
  }
  if (dir.norm() == 0) dir[0] = 1;
  const double len = delta * *dpref::test::real_in<double>(0, 1);
  const vec x2 = x + (len / dir.norm()) * dir;  // ‖x2 − x‖₂ <= Δ (and ‖·‖₁ <= √d Δ)
  vec diff(d);
  for (int i = 0; i < d; ++i)
    diff[i] = std::ldexp(
        static_cast<double>(sec::lattice_round(x2[i], k, C) - sec::lattice_round(x[i], k, C)), k);
  const double l2 = dpref::accounting::snapped_inflated_sensitivity(delta, k, d, true);
  RC_ASSERT(diff.norm() <= l2 * (1 + 1e-12));
  const double l1_in = (x2 - x).lpNorm<1>();
  if (l1_in > 0) {
    const double l1 = dpref::accounting::snapped_inflated_sensitivity(l1_in, k, d, false);
    RC_ASSERT(diff.lpNorm<1>() <= l1 * (1 + 1e-12));
  }
}

TEST(PRIV_MECH_CLAMP, CoordinateClampAloneIsNoL2Bound) {
  // negative control: two unbounded queries ±10 C in every coordinate are clamped to ±C, so the
  // clamped change is 2C per coordinate: ‖·‖₂ = 2√d C, far above the 2C an ℓ2 clip would give
  constexpr int d = 16;
  constexpr double C = 1;
  vec diff(d);
  for (int i = 0; i < d; ++i)
    diff[i] =
        static_cast<double>(sec::lattice_round(10 * C, 0, C) - sec::lattice_round(-10 * C, 0, C));
  EXPECT_EQ(diff.norm(), 2 * std::sqrt(double(d)) * C);
  EXPECT_GT(diff.norm(), 2 * C * 3.9);
}

}  // namespace

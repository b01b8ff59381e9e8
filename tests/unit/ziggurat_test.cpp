// RAND.ZIGGURAT / RAND.ZIGGURAT.BATCH: the ziggurat samplers (random/ziggurat.hpp) follow their
// distributions (Kolmogorov–Smirnov with the DKW–Massart bound, Pearson chi-square on fine bins
// that resolve the wedges and the tail, moments; false-alarm probability 1e-6 per check), with
// negative controls (a 6% wrong scale, and a ziggurat that skips the wedge and tail tests, are
// rejected), and the batch kernels give the scalar values bit for bit on every kernel and
// thread count.
#include <gtest/gtest.h>

#include <bit>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <vector>

#include "dpref/random/philox_stream.hpp"
#include "dpref/random/ziggurat.hpp"
#include "dpref/random/ziggurat_batch.hpp"
#include "support/gof.hpp"

namespace dpref {
namespace {

constexpr double kAlpha = 1e-6;  // false-alarm probability of every statistical check below

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double exp_cdf(double x) { return x <= 0 ? 0 : -std::expm1(-x); }
double laplace_cdf(double x) { return x < 0 ? 0.5 * std::exp(x) : 1 - 0.5 * std::exp(-x); }

std::vector<double> batch_draw(int which, std::size_t n, std::uint64_t seed, double scale = 1) {
  philox_stream s(seed);
  std::vector<double> x(n);
  ziggurat::batch_options o;
  o.threads = 2;
  switch (which) {
    case 0:
      ziggurat::gaussian(s, scale, x, o);
      break;
    case 1:
      ziggurat::exponential(s, 1 / scale, x, o);
      break;
    case 2:
      ziggurat::laplace(s, scale, x, o);
      break;
    default:
      ziggurat::uniform01(s, x, o);
  }
  return x;
}

/// Chi-square of x binned at width `width` on [lo, hi) (plus the two outer bins) against cdf.
test::chi2_result binned_chi2(const std::vector<double>& x,
                              const std::function<double(double)>& cdf, double lo, double hi,
                              double width) {
  std::map<long long, long long> counts;
  const long long nb = std::llround((hi - lo) / width);
  for (const double v : x) {
    long long b = static_cast<long long>(std::floor((v - lo) / width));
    b = std::clamp(b, -1LL, nb);
    ++counts[b];
  }
  const auto pmf = [&](long long b) {
    if (b == -1) return cdf(lo);
    if (b == nb) return 1 - cdf(hi);
    return cdf(lo + static_cast<double>(b + 1) * width) - cdf(lo + static_cast<double>(b) * width);
  };
  return test::chi2_test(counts, pmf, -1, nb, kAlpha);
}

TEST(RAND_ZIGGURAT, TablesCloseAndAreConsistent) {
  for (const ziggurat::table* t : {&ziggurat::normal_table(), &ziggurat::exponential_table()}) {
    EXPECT_LT(t->closure, 1e-13);  // the 511 layers of area v end at f(0)
    EXPECT_NEAR(t->v,
                t->r * t->f[0] + (t == &ziggurat::normal_table()
                                      ? 1.2533141373155003 * std::erfc(t->r / std::sqrt(2.0))
                                      : std::exp(-t->r)),
                1e-17);
    for (unsigned i = 0; i < ziggurat::kLayers; ++i) {
      EXPECT_GT(t->x[i], t->x[i + 1]);
      EXPECT_LE(t->k[i], std::uint64_t{1} << 52);
      EXPECT_EQ(t->w[i], std::ldexp(t->x[i], -52));
    }
    EXPECT_EQ(t->x[1], t->r);
    EXPECT_EQ(t->k[ziggurat::kLayers - 1], 0u);  // the top layer always takes the wedge test
  }
}

TEST(RAND_ZIGGURAT, GaussianKolmogorovSmirnovChiSquareMoments) {
  const auto x = batch_draw(0, 4000000, 11);
  const auto ks = test::ks_test(x, normal_cdf, kAlpha);
  EXPECT_FALSE(ks.reject) << "D = " << ks.statistic << " > " << ks.critical;
  const auto c = binned_chi2(x, normal_cdf, -6, 6, 0.02);  // wedges: layers are ~0.01–0.3 wide
  EXPECT_FALSE(c.reject) << c.statistic << " > " << c.critical;
  // the tail beyond r = 3.852 (probability 1.2e-4): conditional KS
  std::vector<double> tail;
  const double r = ziggurat::normal_table().r;
  for (const double v : x)
    if (std::fabs(v) > r) tail.push_back(std::fabs(v));
  ASSERT_GT(tail.size(), 300u);
  const double pr = 2 * normal_cdf(-r);
  const auto kt = test::ks_test(
      tail, [&](double v) { return 1 - 2 * normal_cdf(-v) / pr; }, kAlpha);
  EXPECT_FALSE(kt.reject) << "tail D = " << kt.statistic << " > " << kt.critical;
  double m = 0, m2 = 0;
  for (const double v : x) m += v, m2 += v * v;
  const double n = static_cast<double>(x.size()), z = test::normal_two_sided_critical(kAlpha);
  EXPECT_LT(std::fabs(m / n), z / std::sqrt(n));
  EXPECT_LT(std::fabs(m2 / n - 1), z * std::sqrt(2 / n));
}

TEST(RAND_ZIGGURAT, ExponentialAndLaplaceKolmogorovSmirnovChiSquare) {
  const auto e = batch_draw(1, 4000000, 12);
  EXPECT_FALSE(test::ks_test(e, exp_cdf, kAlpha).reject);
  const auto ce = binned_chi2(e, exp_cdf, 0, 12, 0.01);
  EXPECT_FALSE(ce.reject) << ce.statistic << " > " << ce.critical;
  const auto l = batch_draw(2, 4000000, 13);
  EXPECT_FALSE(test::ks_test(l, laplace_cdf, kAlpha).reject);
  const auto cl = binned_chi2(l, laplace_cdf, -12, 12, 0.01);
  EXPECT_FALSE(cl.reject) << cl.statistic << " > " << cl.critical;
  // the exponential tail beyond r = 8.482 is r + Exp(1)
  std::vector<double> tail;
  const double r = ziggurat::exponential_table().r;
  for (const double v : e)
    if (v > r) tail.push_back(v - r);
  ASSERT_GT(tail.size(), 500u);
  EXPECT_FALSE(test::ks_test(tail, exp_cdf, kAlpha).reject);
}

TEST(RAND_ZIGGURAT, UniformOpenIntervalAndFit) {
  const auto u = batch_draw(3, 2000000, 14);
  for (const double v : u) ASSERT_TRUE(v > 0 && v < 1);
  EXPECT_FALSE(test::ks_test(
                   u, [](double v) { return v; }, kAlpha)
                   .reject);
  const auto c = binned_chi2(
      u, [](double v) { return std::clamp(v, 0.0, 1.0); }, 0, 1, 1e-3);
  EXPECT_FALSE(c.reject) << c.statistic << " > " << c.critical;
  EXPECT_EQ(ziggurat::open_unit(0), 0x1p-53);
  EXPECT_EQ(ziggurat::open_unit(~std::uint64_t{0}), 1 - 0x1p-53);
}

TEST(RAND_ZIGGURAT, NegativeControlWrongScaleIsRejected) {
  const auto g = batch_draw(0, 1000000, 15, 1.06);
  EXPECT_TRUE(test::ks_test(g, normal_cdf, kAlpha).reject);
  const auto e = batch_draw(1, 1000000, 16, 1.06);
  EXPECT_TRUE(test::ks_test(e, exp_cdf, kAlpha).reject);
  const auto l = batch_draw(2, 1000000, 17, 1.06);
  EXPECT_TRUE(test::ks_test(l, laplace_cdf, kAlpha).reject);
  std::vector<double> u = batch_draw(3, 1000000, 18);
  for (double& v : u) v = std::pow(v, 1.06);
  EXPECT_TRUE(test::ks_test(
                  u, [](double v) { return v; }, kAlpha)
                  .reject);
}

TEST(RAND_ZIGGURAT, NegativeControlZigguratWithoutWedgeOrTailTestIsRejected) {
  // accept every point of the layer rectangle: the chi-square on the same bins must see it
  const ziggurat::table& t = ziggurat::normal_table();
  philox_stream s(19);
  std::vector<double> x(4000000);
  for (double& v : x) {
    const std::uint64_t w = s();
    const double z = static_cast<double>(w >> 12) * t.w[w & ziggurat::kLayerMask];
    v = (w >> ziggurat::kLayerBits & 1u) ? -z : z;
  }
  EXPECT_TRUE(binned_chi2(x, normal_cdf, -6, 6, 0.02).reject);
  const ziggurat::table& te = ziggurat::exponential_table();
  for (double& v : x) {
    const std::uint64_t w = s();
    v = static_cast<double>(w >> 12) * te.w[w & ziggurat::kLayerMask];
  }
  EXPECT_TRUE(binned_chi2(x, exp_cdf, 0, 12, 0.01).reject);
}

TEST(RAND_ZIGGURAT, ScalarRejectsInvalidParameters) {
  philox_stream s(1);
  EXPECT_THROW((void)ziggurat::gaussian(s, 0.0), std::domain_error);
  EXPECT_THROW((void)ziggurat::laplace(s, -1.0), std::domain_error);
  EXPECT_THROW((void)ziggurat::exponential(s, std::numeric_limits<double>::infinity()),
               std::domain_error);
}

std::vector<ziggurat::kernel> kernels() {
  std::vector<ziggurat::kernel> k = {ziggurat::kernel::portable, ziggurat::kernel::automatic};
#ifdef DPREF_ZIGGURAT_SIMD
  if (ziggurat::simd::has_avx2()) k.push_back(ziggurat::kernel::avx2);
  if (ziggurat::simd::has_avx512()) k.push_back(ziggurat::kernel::avx512);
#endif
  return k;
}

TEST(RAND_ZIGGURAT_BATCH, PhiloxKernelsGiveTheStreamWords) {
#ifdef DPREF_ZIGGURAT_SIMD
  const philox_stream s(0x0123456789abcdefull, 77, 5);
  alignas(64) std::uint64_t w[32];
  for (const std::uint64_t b0 :
       {std::uint64_t{0}, std::uint64_t{1} << 40, ~std::uint64_t{0} >> 3}) {
    if (ziggurat::simd::has_avx2()) {
      ziggurat::simd::philox4_avx2(s.seed(), s.stream_id(), s.substream_id(), b0, w);
      for (unsigned j = 0; j < 16; ++j) EXPECT_EQ(w[j], s.word_at(4 * b0 + j, 0)) << j;
    }
    if (ziggurat::simd::has_avx512()) {
      ziggurat::simd::philox8_avx512(s.seed(), s.stream_id(), s.substream_id(), b0, w);
      for (unsigned j = 0; j < 32; ++j) EXPECT_EQ(w[j], s.word_at(4 * b0 + j, 0)) << j;
    }
  }
#else
  // Skip reason: the AVX2 / AVX-512 kernels are compiled only for x86-64 with GCC or Clang; on
  // other targets there is nothing to compare (the portable kernel is tested above).
  GTEST_SKIP() << "no SIMD kernels in this build";
#endif
}

template <class Scalar, class Batch>
void expect_same_bits(const philox_stream& start, std::size_t n, Scalar scalar, Batch fill) {
  philox_stream s = start;
  std::vector<double> want(n);
  for (double& x : want) x = scalar(s);
  for (const ziggurat::kernel k : kernels())
    for (const unsigned threads : {1u, 3u}) {
      philox_stream b = start;
      std::vector<double> got(n, std::numeric_limits<double>::quiet_NaN());
      ziggurat::batch_options o;
      o.k = k;
      o.threads = threads;
      fill(b, got, o);
      EXPECT_EQ(b.position(), s.position());
      std::size_t bad = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (std::bit_cast<std::uint64_t>(got[i]) != std::bit_cast<std::uint64_t>(want[i])) ++bad;
      EXPECT_EQ(bad, 0u) << "kernel " << static_cast<int>(k) << ", threads " << threads << ", n "
                         << n << ", start " << start.position();
    }
}

TEST(RAND_ZIGGURAT_BATCH, EveryKernelAndThreadCountGivesTheScalarValues) {
  for (const std::uint64_t p0 : {std::uint64_t{0}, std::uint64_t{3}, std::uint64_t{1021}})
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{37}, std::size_t{3001},
                                std::size_t{300000}}) {
      const philox_stream start(2026, 3, 9, p0);
      expect_same_bits(
          start, n, [](philox_stream& s) { return ziggurat::gaussian(s, 2.5); },
          [](philox_stream& s, std::vector<double>& o, const ziggurat::batch_options& opt) {
            ziggurat::gaussian(s, 2.5, o, opt);
          });
      expect_same_bits(
          start, n, [](philox_stream& s) { return ziggurat::exponential(s, 0.3); },
          [](philox_stream& s, std::vector<double>& o, const ziggurat::batch_options& opt) {
            ziggurat::exponential(s, 0.3, o, opt);
          });
      expect_same_bits(
          start, n, [](philox_stream& s) { return ziggurat::laplace(s, 1e-300); },
          [](philox_stream& s, std::vector<double>& o, const ziggurat::batch_options& opt) {
            ziggurat::laplace(s, 1e-300, o, opt);
          });
      expect_same_bits(
          start, n, [](philox_stream& s) { return ziggurat::uniform01(s); },
          [](philox_stream& s, std::vector<double>& o, const ziggurat::batch_options& opt) {
            ziggurat::uniform01(s, o, opt);
          });
    }
}

TEST(RAND_ZIGGURAT_BATCH, RefusesInvalidParameters) {
  philox_stream s(1);
  std::vector<double> o(8);
  EXPECT_THROW(ziggurat::gaussian(s, -1.0, o), std::domain_error);
  EXPECT_THROW(ziggurat::exponential(s, 0.0, o), std::domain_error);
  EXPECT_THROW(ziggurat::laplace(s, std::nan(""), o), std::domain_error);
  EXPECT_EQ(s.position(), 0u);  // nothing reserved
}

}  // namespace
}  // namespace dpref

// Stream addressing, lane alignment, thread independence, exact uniform and exact Bernoulli.
#include <gtest/gtest.h>

#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <set>
#include <thread>
#include <vector>

#include "dpref/random.hpp"
#include "support/gof.hpp"
#include "support/scalars.hpp"

namespace dpref {
namespace {

TEST(RAND_STREAM_ADDRESS, SameAddressSameBits) {
  philox_stream a(42, 7, 3, 100), b(42, 7, 3, 100);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a(), b());
  EXPECT_EQ(a.position(), 1100u);
}

TEST(RAND_STREAM_ADDRESS, EveryAddressComponentChangesTheBits) {
  const std::uint64_t base = philox_stream(1, 2, 3, 4)();
  EXPECT_NE(base, philox_stream(9, 2, 3, 4)());
  EXPECT_NE(base, philox_stream(1, 9, 3, 4)());
  EXPECT_NE(base, philox_stream(1, 2, 9, 4)());
  EXPECT_NE(base, philox_stream(1, 2, 3, 9)());
  // seek is the same as constructing at the position
  philox_stream s(1, 2, 3);
  s.seek(4);
  EXPECT_EQ(base, s());
}

TEST(RAND_STREAM_ADDRESS, WordsAreDistinctAcrossSubstreams) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t sub = 0; sub < 64; ++sub) {
    philox_stream s = philox_stream(5).substream(sub);
    for (int i = 0; i < 64; ++i) seen.insert(s());
  }
  // 4096 independent 64-bit words collide with probability < 4096^2 / 2^65 < 1e-12
  EXPECT_EQ(seen.size(), 4096u);
}

TEST(RAND_STREAM_ALIGN, LaneZeroIsTheWordStream) {
  philox_stream words(11), draws(11);
  for (int i = 0; i < 100; ++i) {
    const stream_draw d = draws.next_draw();
    const std::uint64_t lane1 = d.word(1);  // reading another lane does not move the stream
    EXPECT_EQ(d.word(0), words());
    EXPECT_NE(lane1, d.word(0));
  }
}

TEST(RAND_STREAM_ALIGN, DrawIAtEveryPrecisionStartsWithTheSameWord) {
  // The i-th uniform of a double run and of a 50-digit run share their leading bits.
  philox_stream sd(3), sm(3), sl(3);
  for (int i = 0; i < 1000; ++i) {
    const double ud = uniform01<double>(sd);
    const mp50 um = uniform01<mp50>(sm);
    const long double ul = uniform01<long double>(sl);
    EXPECT_LT(std::fabs(ud - static_cast<double>(um)), 0x1p-52);
    EXPECT_LT(std::fabs(static_cast<double>(ul - static_cast<long double>(ud))), 0x1p-52);
  }
  EXPECT_EQ(sd.position(), sm.position());
}

TEST(RAND_STREAM_THREADS, ResultsDoNotDependOnThreadCount) {
  constexpr int nodes = 8, per_node = 500;
  auto fill = [](int node, std::vector<double>& out) {
    philox_stream s = philox_stream(2026).with_stream(static_cast<std::uint64_t>(node));
    for (int i = 0; i < per_node; ++i)
      out[static_cast<std::size_t>(node * per_node + i)] = laplace(s, 1.0);
  };
  std::vector<double> serial(nodes * per_node), threaded(nodes * per_node);
  for (int n = 0; n < nodes; ++n) fill(n, serial);
  for (int threads : {2, 3, 8}) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (int n = t; n < nodes; n += threads) fill(n, threaded);
      });
    for (auto& th : pool) th.join();
    EXPECT_EQ(serial, threaded) << threads << " threads";
  }
}

template <class Real>
class RAND_UNIFORM_OPEN : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_UNIFORM_OPEN, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_UNIFORM_OPEN, NeverZeroNorOneEvenAtExtremeBits) {
  using Real = TypeParam;
  philox_stream s(1);
  for (int i = 0; i < 20000; ++i) {
    const Real u = uniform01<Real>(s);
    ASSERT_GT(u, Real(0));
    ASSERT_LT(u, Real(1));
  }
  // Extreme bit patterns cannot be forced through Philox; check the bit-to-value map directly
  // through folded_uniform's complement on many draws: t in (0, 1/2].
  for (int i = 0; i < 20000; ++i) {
    const auto f = folded_uniform<Real>(s.next_draw(), lanes_for<Real>(), 1);
    ASSERT_GT(f.t, Real(0));
    ASSERT_LE(f.t, Real(1) / 2);
  }
}

template <class Real>
class RAND_UNIFORM_BITS : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_UNIFORM_BITS, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_UNIFORM_BITS, ValueIsTheTruncationOfTheExactDyadic) {
  // U must equal (K + 1/2) 2^-B truncated to p bits, K the integer of the lanes; checked
  // against an independent big-integer construction in cpp_int.
  using Real = TypeParam;
  using boost::multiprecision::cpp_int;
  const int p = binary_digits<Real>();
  const unsigned lanes = lanes_for<Real>();
  philox_stream s(77);
  for (int i = 0; i < 2000; ++i) {
    const stream_draw d = s.next_draw();
    cpp_int m = 0;
    for (unsigned l = 0; l < lanes; ++l) m = (m << 64) | d.word(l);
    m = (m << 1) | 1;  // 2K + 1, value = m 2^-(B+1)
    const int len = static_cast<int>(msb(m)) + 1;
    int shift = 0;
    if (len > p) {
      shift = len - p;
      m >>= shift;
    }
    using std::ldexp;
    const Real expected =
        ldexp(Real(m.convert_to<Real>()), shift - static_cast<int>(64 * lanes) - 1);
    ASSERT_EQ(uniform01<Real>(d), expected) << "draw " << i;
  }
}

TEST(RAND_UNIFORM_BITS, AllSignificandBitsOfDoubleAreRandom) {
  // Every bit of the 53-bit significand of U is a fair coin: over n = 10^5 draws each bit
  // count lies within z_{1e-6/106} sd of n/2 (Bonferroni over 53 bits x 2 precisions; total
  // false-alarm probability <= 1e-6).
  constexpr int n = 100000;
  const double z = test::normal_two_sided_critical(1e-6 / 106);
  philox_stream s(99);
  std::vector<int> ones(53, 0);
  for (int i = 0; i < n; ++i) {
    int e;
    const double m = std::frexp(uniform01<double>(s), &e);  // m in [1/2, 1)
    const auto bits = static_cast<std::uint64_t>(std::ldexp(m, 53));
    for (int b = 0; b < 53; ++b)
      ones[static_cast<std::size_t>(b)] += static_cast<int>((bits >> b) & 1u);
  }
  EXPECT_EQ(ones[52], n);  // the leading bit of a normalised significand
  for (int b = 0; b < 52; ++b)
    EXPECT_LT(std::fabs(ones[static_cast<std::size_t>(b)] - n / 2.0), z * std::sqrt(n / 4.0))
        << "bit " << b;
}

TEST(RAND_UNIFORM_HALF, ComplementIsExact) {
  // folded_uniform returns t with U = t (lower half) or U = 1 - t (upper half), t built from
  // the complemented bits; U rebuilt from t agrees with uniform01 of the same draw.
  philox_stream s(5);
  for (int i = 0; i < 5000; ++i) {
    const stream_draw d = s.next_draw();
    const auto f = folded_uniform<mp50>(d, 3, 0);
    const mp50 u = uniform01<mp50>(d, 3);
    const mp50 reconstructed = f.upper ? mp50(1) - f.t : f.t;
    // |reconstructed - u| <= 2 ulp(u): both truncate the same 192-bit dyadic
    EXPECT_LE(abs(reconstructed - u), 4 * machine_epsilon<mp50>() * u);
  }
}

template <class Real>
class RAND_BERN_EXACT : public ::testing::Test {};
TYPED_TEST_SUITE(RAND_BERN_EXACT, test::sampler_scalars, test::scalar_names);

TYPED_TEST(RAND_BERN_EXACT, EndpointsAreDeterministic) {
  using Real = TypeParam;
  philox_stream s(8);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(bernoulli<Real>(s, Real(0)));
    EXPECT_TRUE(bernoulli<Real>(s, Real(1)));
  }
}

TYPED_TEST(RAND_BERN_EXACT, FrequencyMatchesP) {
  // Two-sided exact binomial test per p, n = 2e5 draws, false-alarm 1e-6 per p.
  using Real = TypeParam;
  constexpr int n = 200000;
  for (const Real& p : {Real(1) / 3, Real(1) / 1024 + Real(1) / 7, Real(3) / 4}) {
    philox_stream s(10);
    int k = 0;
    for (int i = 0; i < n; ++i) k += bernoulli<Real>(s, p) ? 1 : 0;
    boost::math::binomial_distribution<double> bin(n, static_cast<double>(p));
    const double lo = boost::math::quantile(bin, 0.5e-6),
                 hi = boost::math::quantile(boost::math::complement(bin, 0.5e-6));
    EXPECT_GE(k, lo);
    EXPECT_LE(k, hi);
  }
}

TEST(RAND_BERN_EXACT, NegativeControlDetectsAShiftedProbability) {
  // The same binomial test rejects Bernoulli(0.34) as Bernoulli(1/3).
  constexpr int n = 200000;
  philox_stream s(10);
  int k = 0;
  for (int i = 0; i < n; ++i) k += bernoulli(s, 0.34) ? 1 : 0;
  boost::math::binomial_distribution<double> bin(n, 1.0 / 3);
  const double hi = boost::math::quantile(boost::math::complement(bin, 0.5e-6));
  EXPECT_GT(k, hi);
}

TEST(RAND_BERN_EXACT, DyadicPUsesOnlyLeadingBits) {
  // p = 1/2 is decided by the first bit of lane 0: bernoulli(1/2) == (word < 2^63).
  philox_stream a(4), b(4);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(bernoulli(a, 0.5), b() < (std::uint64_t{1} << 63));
}

}  // namespace
}  // namespace dpref

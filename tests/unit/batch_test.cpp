// RAND.BATCH: the batch kernels of random/batch.hpp give the scalar reference samplers' values
// bit for bit at the same stream positions, with every kernel (portable, AVX-512).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "dpref/random.hpp"
#include "dpref/random/batch.hpp"

namespace dpref {
namespace {

std::vector<batch::kernel> kernels() {
  std::vector<batch::kernel> k = {batch::kernel::portable, batch::kernel::automatic};
  if (batch::avx512_available()) k.push_back(batch::kernel::avx512);
  return k;
}

template <class Scalar, class Batch>
void expect_same_bits(const philox_stream& start, std::size_t n, Scalar scalar, Batch batch_fill) {
  philox_stream s = start;
  std::vector<double> want(n);
  for (double& x : want) x = scalar(s);
  for (const batch::kernel k : kernels()) {
    philox_stream b = start;
    std::vector<double> got(n, std::numeric_limits<double>::quiet_NaN());
    batch_fill(b, got, k);
    ASSERT_EQ(b.position(), s.position()) << "the batch advances the stream by n";
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(want[i]))
          << "draw " << i << " of " << n << " at position " << start.position() << ", kernel "
          << static_cast<int>(k) << ": " << got[i] << " vs " << want[i];
  }
}

const std::vector<philox_stream>& starts() {
  static const std::vector<philox_stream> s = {philox_stream(1), philox_stream(1, 0, 0, 1),
                                               philox_stream(7, 3, 2, 3), philox_stream(9, 1, 1, 6),
                                               philox_stream(~0ull, ~0ull, 5, (1ull << 40) + 3)};
  return s;
}

TEST(RAND_BATCH, LaplaceEqualsTheScalarSamplerBitForBit) {
  for (const double b : {1.0, 2.5, 0.0078125, 1e-300, 5e-324, 1e300})
    for (const auto& st : starts())
      for (const std::size_t n : {0u, 1u, 7u, 8u, 9u, 511u, 512u, 513u, 1000u, 4099u})
        expect_same_bits(
            st, n, [b](philox_stream& s) { return laplace<double>(s, b); },
            [b](philox_stream& s, std::vector<double>& out, batch::kernel k) {
              batch::laplace(s, b, out, k);
            });
}

TEST(RAND_BATCH, ExponentialEqualsTheScalarSamplerBitForBit) {
  for (const double rate : {1.0, 0.75, 3e-300, 1e300})
    for (const auto& st : starts())
      for (const std::size_t n : {1u, 9u, 513u, 2050u})
        expect_same_bits(
            st, n, [rate](philox_stream& s) { return exponential<double>(s, rate); },
            [rate](philox_stream& s, std::vector<double>& out, batch::kernel k) {
              batch::exponential(s, rate, out, k);
            });
}

TEST(RAND_BATCH, UniformEqualsTheScalarSamplerBitForBit) {
  for (const auto& st : starts())
    for (const std::size_t n : {1u, 3u, 513u, 2050u})
      expect_same_bits(
          st, n, [](philox_stream& s) { return uniform01<double>(s); },
          [](philox_stream& s, std::vector<double>& out, batch::kernel) {
            batch::uniform01(s, out);
          });
}

TEST(RAND_BATCH, MillionDrawsCoverTheScalarFallbacks) {
  // 2^20 draws: about 2^13 take the series branch of -log1p(-t) (upper half, t < 2^-7), which
  // the AVX-512 kernel hands to the scalar code; all must still agree.
  const std::size_t n = std::size_t{1} << 20;
  const philox_stream st(20261121, 4, 0, 0);
  expect_same_bits(
      st, n, [](philox_stream& s) { return laplace<double>(s, 1.0); },
      [](philox_stream& s, std::vector<double>& out, batch::kernel k) {
        batch::laplace(s, 1.0, out, k);
      });
  philox_stream s = st;
  std::size_t series = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto f = detail::folded_uniform_dd(s.next_draw(), 1);
    series += f.upper && f.hi < 0x1p-7 ? 1 : 0;
  }
  EXPECT_GT(series, 4000u);
}

TEST(RAND_BATCH, RefusesWhatTheScalarSamplerRefuses) {
  philox_stream s(1);
  std::vector<double> out(4);
  try {
    batch::laplace(s, -1.0, out);
    FAIL() << "b = -1 accepted";
  } catch (const std::domain_error& e) {
    philox_stream t(1);
    try {
      (void)laplace<double>(t, -1.0);
      FAIL();
    } catch (const std::domain_error& f) {
      EXPECT_STREQ(e.what(), f.what());
    }
  }
  EXPECT_THROW(batch::exponential(s, std::numeric_limits<double>::infinity(), out),
               std::domain_error);
  philox_stream end(1, 0, 0, ~std::uint64_t{0} - 2);
  EXPECT_THROW(batch::laplace(end, 1.0, out), std::overflow_error);
  EXPECT_EQ(end.position(), ~std::uint64_t{0} - 2) << "nothing drawn when refused";
  if (!batch::avx512_available()) {
    EXPECT_THROW(batch::laplace(s, 1.0, out, batch::kernel::avx512), std::runtime_error);
  }
}

TEST(RAND_BATCH, PhiloxLaneWordsAreTheStreamWords) {
  const philox_stream s(3, 4, 5);
  for (const unsigned lane : {0u, 1u, 2u, 6u}) {
    std::vector<std::uint64_t> w(4 * 5);
    batch::philox_lane_words(3, 4, 5, lane, 7, 5, w.data());
    for (std::size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w[i], s.word_at(28 + i, lane));
  }
}

}  // namespace
}  // namespace dpref

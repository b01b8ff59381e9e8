// Properties of the samplers over generated parameters and stream addresses (RapidCheck).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "dpref/random.hpp"
#include "support/generators.hpp"

namespace dpref {
namespace {

struct address {
  std::uint64_t seed, stream, substream, position;
};

rc::Gen<address> gen_address() {
  return rc::gen::build<address>(
      rc::gen::set(&address::seed), rc::gen::set(&address::stream),
      rc::gen::set(&address::substream),
      rc::gen::set(&address::position, rc::gen::inRange<std::uint64_t>(0, 1ull << 62)));
}

philox_stream open(const address& a) {
  return philox_stream(a.seed, a.stream, a.substream, a.position);
}

/// Runs f and reports whether it threw std::domain_error whose message names `param`.
template <class F>
bool throws_naming(F&& f, const std::string& param) {
  try {
    f();
  } catch (const std::domain_error& e) {
    RC_ASSERT(std::string(e.what()).find(param) != std::string::npos);
    return true;
  }
  return false;
}

RC_GTEST_PROP(RAND_ERRORS, ThrowsForMp50IffForDouble, ()) {
  const double p = *test::any_parameter();
  const double q = *test::any_parameter();
  philox_stream s(1);
  RC_ASSERT(throws_naming([&] { laplace(s, p); }, "b") ==
            throws_naming([&] { laplace(s, mp50(p)); }, "b"));
  RC_ASSERT(throws_naming([&] { gaussian(s, p); }, "sigma") ==
            throws_naming([&] { gaussian(s, mp50(p)); }, "sigma"));
  RC_ASSERT(throws_naming([&] { exponential(s, p); }, "rate") ==
            throws_naming([&] { exponential(s, mp50(p)); }, "rate"));
  RC_ASSERT(throws_naming([&] { bernoulli(s, p); }, "p") ==
            throws_naming([&] { bernoulli(s, mp50(p)); }, "p"));
  const bool gd = throws_naming([&] { gamma(s, p, q); }, "dpref::gamma");
  RC_ASSERT(gd == throws_naming([&] { gamma(s, mp50(p), mp50(q)); }, "dpref::gamma"));
  const std::size_t d = *rc::gen::inRange<std::size_t>(0, 4);
  RC_ASSERT(throws_naming([&] { vector_laplace(s, d, p); }, "dpref::vector_laplace") ==
            throws_naming([&] { vector_laplace(s, d, mp50(p)); }, "dpref::vector_laplace"));
  // and the double path throws exactly for the invalid inputs
  RC_ASSERT(throws_naming([&] { laplace(s, p); }, "b") == !(std::isfinite(p) && p > 0));
  RC_ASSERT(throws_naming([&] { bernoulli(s, p); }, "p") == !(p >= 0 && p <= 1));
}

TEST(RAND_ERRORS, ZeroDimensionAndZeroShapeAreRejected) {
  philox_stream s(1);
  EXPECT_THROW(uniform_direction<double>(s, 0), std::domain_error);
  EXPECT_THROW(gamma_integer<double>(s, 0, 1.0), std::domain_error);
  EXPECT_THROW(laplace(s, std::nan("")), std::domain_error);
  try {
    gaussian(s, -2.0);
    FAIL() << "no exception";
  } catch (const std::domain_error& e) {
    EXPECT_STREQ(e.what(), "dpref::gaussian: sigma must be finite and > 0, got -2");
  }
}

RC_GTEST_PROP(RAND_STREAM_ADDRESS, SameAddressSameSamplesAtEveryPrecision, ()) {
  const address a = *gen_address();
  philox_stream s1 = open(a), s2 = open(a), s3 = open(a), s4 = open(a);
  for (int i = 0; i < 4; ++i) {
    RC_ASSERT(laplace(s1, 1.0) == laplace(s2, 1.0));
    RC_ASSERT(gaussian(s3, mp50(2)) == gaussian(s4, mp50(2)));
  }
}

RC_GTEST_PROP(RAND_STREAM_ADDRESS, SeekEqualsSkipping, ()) {
  const address a = *gen_address();
  const auto k = *rc::gen::inRange<std::uint64_t>(0, 50);
  philox_stream skip = open(a), jump = open(a);
  for (std::uint64_t i = 0; i < k; ++i) skip();
  jump.seek(a.position + k);
  RC_ASSERT(skip() == jump());
}

RC_GTEST_PROP(RAND_UNIFORM_OPEN, StrictlyInsideAtAnyAddress, ()) {
  philox_stream s = open(*gen_address());
  const double u = uniform01<double>(s);
  const mp50 v = uniform01<mp50>(s);
  RC_ASSERT(u > 0.0 && u < 1.0);
  RC_ASSERT(v > 0 && v < 1);
}

RC_GTEST_PROP(RAND_LAPLACE_INV, PowerOfTwoScalingIsExact, ()) {
  // laplace(2^k b) is exactly 2^k laplace(b) for the same draw (scaling by 2^k is exact).
  const address a = *gen_address();
  const double b = *test::positive_log_uniform<double>(1e-3, 1e3);
  const int k = *rc::gen::inRange(-20, 21);
  philox_stream s1 = open(a), s2 = open(a);
  RC_ASSERT(laplace(s1, std::ldexp(b, k)) == std::ldexp(laplace(s2, b), k));
}

RC_GTEST_PROP(RAND_LAPLACE_INV, SignIsTheFirstBitAndMagnitudeTheExponential, ()) {
  const address a = *gen_address();
  philox_stream s1 = open(a), s2 = open(a);
  const double x = laplace(s1, 1.0);
  const bool first_bit = (s2() >> 63) != 0;
  RC_ASSERT((x < 0) == first_bit);
}

RC_GTEST_PROP(RAND_GAUSS_INV, MagnitudeIsMonotoneInSigma, ()) {
  const address a = *gen_address();
  const double s_lo = *test::positive_log_uniform<double>(1e-3, 1e3);
  const double factor = *test::real_in<double>(1.0, 4.0);
  philox_stream s1 = open(a), s2 = open(a);
  RC_ASSERT(std::fabs(gaussian(s1, s_lo)) <= std::fabs(gaussian(s2, s_lo * factor)));
}

RC_GTEST_PROP(RAND_VLAPLACE, DimensionAndFinitenessForAnyScale, ()) {
  const address a = *gen_address();
  const auto d = *rc::gen::inRange<std::size_t>(1, 40);
  const double b = *test::positive_log_uniform<double>(1e-6, 1e6);
  philox_stream s = open(a);
  const vector<double> w = vector_laplace(s, d, b);
  RC_ASSERT(static_cast<std::size_t>(w.size()) == d);
  RC_ASSERT(w.allFinite());
  RC_ASSERT(w.norm() > 0);
}

RC_GTEST_PROP(RAND_BERN_EXACT, MonotoneCoupling, ()) {
  // For the same draw, bernoulli(p) implies bernoulli(q) when p <= q (U < p <= q).
  const address a = *gen_address();
  const double p = *test::real_in<double>(0, 1), q = *test::real_in<double>(0, 1);
  philox_stream s1 = open(a), s2 = open(a);
  const bool bp = bernoulli(s1, std::min(p, q)), bq = bernoulli(s2, std::max(p, q));
  RC_ASSERT(!bp || bq);
}

}  // namespace
}  // namespace dpref

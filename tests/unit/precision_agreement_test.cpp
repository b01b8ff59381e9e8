// Exactness across precisions (RAND.PRECISION.AGREE) and the precision-leak check
// (RAND.PRECISION.LEAK): for the inversion samplers, the 50-digit sample of draw i rounded to
// double equals the double sample of draw i in >= 99.9% of draws, and is not the double sample
// widened (if it were, the 50-digit path would have computed in double).
//
// Statistics: measured mismatch rates are 0 (Laplace) and 1e-5 (exponential) for the
// double-double path and 5.2e-4 (Gaussian, long double path). The check fails only if the
// mismatches exceed n/1000; with n = 1e5 and a true rate up to 6e-4 that is a Poisson(60)
// count above 100, probability < 1e-6. Fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "dpref/random.hpp"
#include "dpref/random/fast.hpp"
#include "dpref/random/math.hpp"

namespace dpref {
namespace {

struct agreement {
  int n = 0, rounded_equal = 0, widened_identical = 0;
};

agreement measure(int n, const std::function<double(philox_stream&)>& fd,
                  const std::function<mp50(philox_stream&)>& fm) {
  philox_stream sd(20261121), sm(20261121);
  agreement a;
  a.n = n;
  for (int i = 0; i < n; ++i) {
    const double x = fd(sd);
    const mp50 y = fm(sm);
    a.rounded_equal += static_cast<double>(y) == x ? 1 : 0;
    a.widened_identical += mp50(x) == y ? 1 : 0;
  }
  return a;
}

void expect_agreement(const agreement& a) {
  std::printf("  agreement %d/%d = %.4f%%, widened-identical %d\n", a.rounded_equal, a.n,
              100.0 * a.rounded_equal / a.n, a.widened_identical);
  EXPECT_GE(1000LL * a.rounded_equal, 999LL * a.n) << a.rounded_equal << " of " << a.n;
  // precision leak: a genuine 166-bit sample equals a 53-bit value with probability ~2^-113
  EXPECT_EQ(a.widened_identical, 0);
}

TEST(RAND_PRECISION_AGREE, Laplace) {
  expect_agreement(measure(
      100000, [](philox_stream& s) { return laplace(s, 0.75); },
      [](philox_stream& s) { return laplace(s, mp50(0.75)); }));
}

TEST(RAND_PRECISION_AGREE, Exponential) {
  expect_agreement(measure(
      100000, [](philox_stream& s) { return exponential(s, 3.0); },
      [](philox_stream& s) { return exponential(s, mp50(3)); }));
}

TEST(RAND_PRECISION_AGREE, Gaussian) {
  expect_agreement(measure(
      100000, [](philox_stream& s) { return gaussian(s, 1.25); },
      [](philox_stream& s) { return gaussian(s, mp50(1.25)); }));
}

TEST(RAND_PRECISION_AGREE, NegativeControlFastPathDoesNotAgree) {
  // The fast double path rounds the uniform to 53 bits before the logarithm: the same check
  // must fail for it (measured agreement ~80%), showing the check can fail.
  const agreement a = measure(
      100000, [](philox_stream& s) { return fast::laplace(s, 0.75); },
      [](philox_stream& s) { return laplace(s, mp50(0.75)); });
  EXPECT_LT(1000LL * a.rounded_equal, 999LL * a.n) << a.rounded_equal << " of " << a.n;
}

TEST(RAND_PRECISION_LEAK, NegativeControlDetectsDoubleComputation) {
  // A "multiprecision" sampler that computes in double and widens is caught by the leak check.
  const agreement a = measure(
      1000, [](philox_stream& s) { return laplace(s, 0.75); },
      [](philox_stream& s) { return mp50(laplace(s, 0.75)); });
  EXPECT_EQ(a.widened_identical, 1000);
}

TEST(RAND_PRECISION_LEAK, MpfrAt60DigitsAgreesWithMp50) {
  // The runtime-precision path follows the same draws: at 60 digits its Laplace samples agree
  // with the 50-digit ones to 1e-45 relative.
  const mpfr_precision_scope digits60(60);
  philox_stream a(3), b(3);
  for (int i = 0; i < 2000; ++i) {
    const mpfr_real x = laplace(a, mpfr_real(1));
    const mp50 y = laplace(b, mp50(1));
    const mpfr_real diff = abs(x - mpfr_real(y));
    ASSERT_LE(diff, abs(x) * mpfr_real("1e-45")) << i;
    ASSERT_NE(diff, mpfr_real(0)) << "60-digit sample identical to 50-digit one";
  }
}

TEST(RAND_DDLOG, RelativeErrorBelow2ToMinus60) {
  // The double-double logarithms of the reference double samplers against MPFR at 60 digits,
  // on the folded uniforms of 2e5 draws: relative error < 2^-60 on both branches (measured
  // worst: 2^-67.6 for -log t, 2^-61.9 for -log1p(-t)).
  using R = bmp::number<bmp::mpfr_float_backend<60>, bmp::et_off>;
  philox_stream s(5);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const stream_draw d = s.next_draw();
    const auto f = detail::folded_uniform_dd(d, 1);
    const R t = R(f.hi) + R(f.lo);
    const detail::dd e = detail::standard_exponential_dd(d, 1);
    const R exact = f.upper ? R(-log1p(-t)) : R(-log(t));
    worst = std::max(worst, static_cast<double>(abs(R(e.hi) + R(e.lo) - exact) / exact));
  }
  std::printf("  worst relative error 2^%.1f\n", std::log2(worst));
  EXPECT_LT(worst, 0x1p-60);
}

TEST(RAND_DDLOG, NegativeControlPlainDoubleLogFailsTheBound) {
  using R = bmp::number<bmp::mpfr_float_backend<60>, bmp::et_off>;
  philox_stream s(5);
  double worst = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto f = detail::folded_uniform_dd(s.next_draw(), 1);
    if (f.upper) continue;
    const R t = R(f.hi) + R(f.lo);
    worst = std::max(worst, static_cast<double>(abs(R(-std::log(f.hi)) + log(t)) / -log(t)));
  }
  EXPECT_GT(worst, 0x1p-60);
}

TEST(RAND_MATH_ERFINV, ResidualsAt50DigitsAndMpfr) {
  // erfc(erfc_inv(y)) = y and erf(erf_inv(y)) = y to 1e-48 relative, checked with MPFR at
  // 80 digits (an independent implementation), over y from 1e-30 to 1/2.
  const mpfr_precision_scope digits80(80);
  for (const char* text : {"1e-30", "1e-12", "3e-7", "0.001", "0.1", "0.3", "0.4999"}) {
    const mp50 y(text);
    const mpfr_real yy(y);
    const mpfr_real rc = erfc(mpfr_real(math::erfc_inv(y)));
    const mpfr_real re = erf(mpfr_real(math::erf_inv(y)));
    EXPECT_LE(abs(rc - yy) / yy, mpfr_real("1e-48")) << text;
    EXPECT_LE(abs(re - yy) / yy, mpfr_real("1e-48")) << text;
  }
  // runtime precision: 40 digits
  const mpfr_precision_scope digits40(40);
  const mpfr_real y("0.01");
  const mpfr_real x = math::erfc_inv(y);
  EXPECT_LE(abs(erfc(x) - y) / y, mpfr_real("1e-38"));
}

TEST(RAND_MATH_ERFINV, NegativeControlLongDoubleRootFailsTheResidual) {
  // The long double starting point alone (64 bits) misses the 1e-48 residual bound.
  const mpfr_precision_scope digits80(80);
  const mp50 y("0.1");
  const mp50 x0 = mp50(boost::math::erfc_inv(static_cast<long double>(y)));
  EXPECT_GT(abs(erfc(mpfr_real(x0)) - mpfr_real(y)) / mpfr_real(y), mpfr_real("1e-48"));
}

}  // namespace
}  // namespace dpref

// PROBLEMS.MARGIN_LOSS: values at points where the losses have closed forms, derivative vs
// central differences away from kinks, |φ′| ≤ 1, continuity of the Huberized hinge at 1 ± h.
#include <gtest/gtest.h>

#include <cmath>

#include "dpref/problems/margin_losses.hpp"

namespace {

using dpref::mp50;
using dpref::problems::margin_loss;

TEST(PROBLEMS_MARGIN_LOSS, ClosedFormValues) {
  const auto lg = margin_loss<double>::logistic();
  EXPECT_DOUBLE_EQ(lg.value(0.0), std::log(2.0));
  EXPECT_DOUBLE_EQ(lg.derivative(0.0), -0.5);
  EXPECT_DOUBLE_EQ(lg.value(-800.0), 800.0);  // no overflow: ln(1 + e^800) = 800 + ln(1 + e^-800)
  EXPECT_GT(lg.value(700.0), 0.0);            // e^-700 ≈ 1e-304 is still a normal double
  const auto hi = margin_loss<double>::hinge();
  EXPECT_EQ(hi.value(0.25), 0.75);
  EXPECT_EQ(hi.value(2.0), 0.0);
  EXPECT_EQ(hi.derivative(0.0), -1.0);
  EXPECT_EQ(hi.derivative(1.0), 0.0);
  const auto hh = margin_loss<double>::huberized_hinge(0.5);
  EXPECT_EQ(hh.value(1.0), 0.125);  // (1 + h − 1)²/(4h) = h/4
  EXPECT_EQ(hh.value(1.5), 0.0);
  EXPECT_EQ(hh.value(0.5), 0.5);  // continuous with 1 − z at z = 1 − h
  EXPECT_EQ(hh.value(0.0), 1.0);
  EXPECT_EQ(hh.derivative(0.5), -1.0);
  EXPECT_EQ(hh.derivative(1.5), 0.0);
  EXPECT_THROW((void)margin_loss<double>::huberized_hinge(0.0), std::domain_error);
}

TEST(PROBLEMS_MARGIN_LOSS, DerivativeMatchesCentralDifferences) {
  for (const auto& loss : {margin_loss<mp50>::logistic(), margin_loss<mp50>::hinge(),
                           margin_loss<mp50>::huberized_hinge(mp50(1) / 2)}) {
    for (int k = -40; k <= 40; ++k) {
      const mp50 z = mp50(2 * k + 1) / 28;  // (2k+1)/28 is never a kink 0, 0.5, 1, 1.5
      const mp50 step = mp50(1) / mp50(1e20);
      const mp50 fd = (loss.value(z + step) - loss.value(z - step)) / (2 * step);
      EXPECT_LT(abs(fd - loss.derivative(z)), mp50(1) / mp50(1e15)) << loss.name() << " z=" << z;
      EXPECT_LE(abs(loss.derivative(z)), mp50(1));
    }
  }
}

}  // namespace

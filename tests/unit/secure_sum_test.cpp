// The exact ball clamps of the grid and the l1 "sum of balls" of the snapped Laplace
// (spec/secure_release.md SEC.LATTICE.L1CLAMP, SEC.LATTICE.L2CLAMP, SEC.LAPLACE.SUM): one property
// for both norms, and the release of a sum of records whose l1 sensitivity the lattice enforces by
// itself. Expected values are computed by hand or in exact
// integer arithmetic here, not read back from the code.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <vector>

#include "dpref/accounting/snapped.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "support/generators.hpp"
#include "support/messages.hpp"

namespace {

using dpref::philox_stream;
using dpref::test::message_of;
namespace sec = dpref::secure;
namespace mech = dpref::mechanisms;
using vec = dpref::vector<double>;

// The bounds are checked independently of the library's exact integer tests: in 100-digit binary
// floating point (cpp_bin_float_100), whose rounding (< 1e-95 relative) is far below the grid unit.
using big = boost::multiprecision::cpp_bin_float_100;

/// One exact ball clamp of the grid (SEC.LATTICE.L1CLAMP / SEC.LATTICE.L2CLAMP): its norm, the
/// radius c + m/2 it guarantees (m = d for l1, √d for l2) and the norm of a real vector.
struct ball_clamp {
  big (*norm)(const std::vector<std::int64_t>&);
  big (*radius)(double C, int k, std::size_t d);
  void (*clamp)(std::span<std::int64_t>, int, double);
  double (*real_norm)(const vec&);
};

const ball_clamp kL1{[](const std::vector<std::int64_t>& n) {
                       big s = 0;
                       for (const std::int64_t v : n) s += abs(big(v));
                       return s;
                     },
                     [](double C, int k, std::size_t d) {
                       return big(std::ldexp(C, -k)) + big(static_cast<long long>(d)) / 2;
                     },
                     sec::lattice_l1_clamp, [](const vec& x) { return x.lpNorm<1>(); }};
const ball_clamp kL2{[](const std::vector<std::int64_t>& n) {
                       big s = 0;
                       for (const std::int64_t v : n) s += big(v) * big(v);
                       return sqrt(s);
                     },
                     [](double C, int k, std::size_t d) {
                       return big(std::ldexp(C, -k)) + sqrt(big(static_cast<long long>(d))) / 2;
                     },
                     sec::lattice_l2_clamp, [](const vec& x) { return x.norm(); }};

/// Any rounded vector ends in the ball (of norm <= ⌊c⌋ when the clamp acts), no |n_i| grows or
/// changes sign, and a vector already in the ball is unchanged.
void any_rounded_vector_ends_in_the_ball(const ball_clamp& b) {
  const int d = *rc::gen::inRange(1, 41);
  const int k = *rc::gen::inRange(-12, 3);
  const double C = std::exp(*dpref::test::real_in<double>(std::log(1e-2), std::log(1e3)));
  const double spread = std::exp(*dpref::test::real_in<double>(std::log(1e-3), std::log(1e4)));
  std::vector<std::int64_t> n(static_cast<std::size_t>(d));
  for (auto& v : n) v = sec::lattice_round(C * spread * *dpref::test::real_in<double>(-1, 1), k, C);
  const std::vector<std::int64_t> before = n;
  b.clamp(n, k, C);
  RC_ASSERT(b.norm(n) <= b.radius(C, k, n.size()));
  for (std::size_t i = 0; i < n.size(); ++i) {  // toward zero, never past it
    RC_ASSERT(std::llabs(n[i]) <= std::llabs(before[i]));
    RC_ASSERT(n[i] == 0 || (n[i] > 0) == (before[i] > 0));
  }
  if (b.norm(before) <= b.radius(C, k, n.size()))
    RC_ASSERT(n == before);  // inside: unchanged
  else
    RC_ASSERT(b.norm(n) <= floor(big(std::ldexp(C, -k))));
}

/// A real vector clipped to the ball before rounding is never changed by the clamp (rounding moves
/// each coordinate by at most 1/2), so a conforming caller releases the same integers (dda's
/// clipped ĝ in l2, accel's per-example gradients in l1).
void a_vector_clipped_to_the_ball_is_never_changed(const ball_clamp& b) {
  const int d = *rc::gen::inRange(1, 41);
  const int k = *rc::gen::inRange(-12, 3);
  const double C = std::exp(*dpref::test::real_in<double>(std::log(1e-2), std::log(1e3)));
  vec x(d);
  for (int i = 0; i < d; ++i) x[i] = *dpref::test::real_in<double>(-1, 1);
  if (b.real_norm(x) > 0) x *= (C / b.real_norm(x)) * *dpref::test::real_in<double>(0, 0.999999);
  std::vector<std::int64_t> n(static_cast<std::size_t>(d));
  for (int i = 0; i < d; ++i) n[static_cast<std::size_t>(i)] = sec::lattice_round(x[i], k, C);
  const std::vector<std::int64_t> before = n;
  b.clamp(n, k, C);
  RC_ASSERT(n == before);
}

RC_GTEST_PROP(SEC_LATTICE_L1CLAMP, AnyRoundedVectorEndsInTheBallAndNeverGrows, ()) {
  any_rounded_vector_ends_in_the_ball(kL1);
}
RC_GTEST_PROP(SEC_LATTICE_L1CLAMP, AVectorClippedToTheBallIsNeverChanged, ()) {
  a_vector_clipped_to_the_ball_is_never_changed(kL1);
}
RC_GTEST_PROP(SEC_LATTICE_L2CLAMP, AnyRoundedVectorEndsInTheBallAndNeverGrows, ()) {
  any_rounded_vector_ends_in_the_ball(kL2);
}
RC_GTEST_PROP(SEC_LATTICE_L2CLAMP, AVectorClippedToTheBallIsNeverChanged, ()) {
  a_vector_clipped_to_the_ball_is_never_changed(kL2);
}

TEST(SEC_LATTICE_L1CLAMP, HandComputedCases) {
  // C = 2, k = 0, d = 4: radius 2 + 4/2 = 4. (1,1,1,1) has ‖·‖₁ = 4 exactly (kept: the boundary
  // belongs to the ball); (2,1,1,1) has 5 > 4 -> trunc(n_i ⌊2⌋ / 5) = (0,0,0,0)
  std::vector<std::int64_t> a{1, 1, 1, 1}, b{2, 1, 1, 1}, c{-2, -1, 1, 1};
  sec::lattice_l1_clamp(a, 0, 2.0);
  sec::lattice_l1_clamp(b, 0, 2.0);
  sec::lattice_l1_clamp(c, 0, 2.0);
  EXPECT_EQ(a, (std::vector<std::int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(b, (std::vector<std::int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(c, (std::vector<std::int64_t>{0, 0, 0, 0}));
  // C = 2.5 at k = -1: c = 5, d = 1, radius 5.5; (6) is outside -> trunc(6·5/6) = 5; (-5) stays
  std::vector<std::int64_t> e{6}, f{-5};
  sec::lattice_l1_clamp(e, -1, 2.5);
  sec::lattice_l1_clamp(f, -1, 2.5);
  EXPECT_EQ(e, (std::vector<std::int64_t>{5}));
  EXPECT_EQ(f, (std::vector<std::int64_t>{-5}));
  // c = 100, d = 2: radius 101; (60, -42) has 102 -> trunc(60·100/102) = 58, trunc(-42·100/102)
  // = -41 (toward zero), ‖·‖₁ = 99; (60, -41) has 101: kept
  std::vector<std::int64_t> g{60, -42}, h{60, -41};
  sec::lattice_l1_clamp(g, 0, 100.0);
  sec::lattice_l1_clamp(h, 0, 100.0);
  EXPECT_EQ(g, (std::vector<std::int64_t>{58, -41}));
  EXPECT_EQ(h, (std::vector<std::int64_t>{60, -41}));
  // c = 0.75 / 2^0 (not an integer): radius 1.25 for d = 1; (2) -> trunc(2·0/2) = 0; (1) stays
  std::vector<std::int64_t> m{2}, o{1};
  sec::lattice_l1_clamp(m, 0, 0.75);
  sec::lattice_l1_clamp(o, 0, 0.75);
  EXPECT_EQ(m, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(o, (std::vector<std::int64_t>{1}));
  // the extreme grid: |n_i| = 2^52 in d = 40 coordinates (‖n‖₁ = 40·2^52 needs 58 bits)
  std::vector<std::int64_t> extreme(40, std::int64_t{1} << 52);
  sec::lattice_l1_clamp(extreme, 0, 0x1p52);
  for (const std::int64_t v : extreme)
    EXPECT_EQ(v, (std::int64_t{1} << 52) / 40);  // trunc(2^52/40)
}

/// Laplace parameters (Δ1, b, d, C, k) with shape sum_of_l1_balls and the given record radius.
mech::snapped_laplace_params sum_params(double sens, double b, long long d, double C, int k,
                                        double radius) {
  mech::snapped_laplace_params p{sens, b, d, C, k};
  p.shape = mech::clamp_set::sum_of_l1_balls;
  p.record_radius = radius;
  return p;
}

TEST(SEC_LAPLACE_SUM, OneRecordMovesTheReleaseByAtMostTheChargedSensitivity) {
  // records far outside the ball (and one inside); replacing or adding one record moves the
  // integer sum by at most 2c + d (replace) or c + d/2 (add): within Δ1 + d 2^k for
  // Δ1 = 2 record_radius, however large the record
  constexpr int d = 8;
  const auto p = sum_params(2.0, 0.5, d, 100.0, -8, 1.0);
  std::vector<vec> recs = {vec::Constant(d, 50.0), vec::Constant(d, -3.0), vec::Constant(d, 0.01),
                           vec::Constant(d, 1e6)};
  const vec offset = vec::Constant(d, 0.375);
  const auto release = [&](const std::vector<vec>& rs) {
    philox_stream s(21);
    return mech::snapped_laplace_sum(
        s, rs.size(), [&](std::size_t r, vec& x) { x = rs[r]; }, offset, p);
  };
  const double charged = dpref::accounting::snapped_inflated_sensitivity(2.0, -8, d, false);
  EXPECT_DOUBLE_EQ(charged, 2.0 + d * 0x1p-8);  // Δ1 + d 2^k
  auto replaced = recs;
  replaced[3] = vec::Constant(d, -1e6);  // the largest possible move of one record
  EXPECT_LE((release(recs) - release(replaced)).lpNorm<1>(), charged);
  replaced[3] = vec::Zero(d);
  EXPECT_LE((release(recs) - release(replaced)).lpNorm<1>(), charged);
  EXPECT_LE((release({recs[0]}) - release({})).lpNorm<1>(), charged);
  // negative control: the float sum of the same records released by the coordinate-clamped
  // vector form (the shape accel used before) moves by min(2e6, 2C) per coordinate
  const mech::snapped_laplace_params q{2.0, 0.5, d, 100.0, -8};
  const auto summed = [&](const std::vector<vec>& rs) {
    vec x = offset;
    for (const vec& r : rs) x += r;
    philox_stream s(21);
    return mech::snapped_laplace(s, x, q);
  };
  replaced[3] = vec::Constant(d, -1e6);
  EXPECT_GT((summed(recs) - summed(replaced)).lpNorm<1>(), 100 * charged);
}

TEST(SEC_LAPLACE_SUM, IntegerSumIsExactAndDrawsTheVectorFormsNoise) {
  // 1000 grid records inside the ball plus a grid offset: the release equals the vector form's
  // release of their exact sum (on the grid), with the same stream: same noise, same order
  constexpr int d = 3;
  const auto p = sum_params(1.0, 0.25, d, 1000.0, -10, 0.5);
  vec rec(d), offset(d);
  rec << 0.125, -0.25, 0.0009765625;  // 2^-3, -2^-2, 2^-10: on the grid 2^-10, ‖·‖₁ < 0.5
  offset << 1.5, 0.0, -0.5;
  philox_stream s1(5), s2(5);
  const vec y = mech::snapped_laplace_sum(
      s1, 1000, [&](std::size_t, vec& x) { x = rec; }, offset, p);
  const mech::snapped_laplace_params q{1.0, 0.25, d, 1000.0, -10};
  const vec z = mech::snapped_laplace(s2, vec(1000.0 * rec + offset), q);
  for (int i = 0; i < d; ++i) EXPECT_EQ(y[i], z[i]) << i;
  // the coordinates of the sum are clamped to ±C: 1000 records of 0.125 + ... with C = 100
  const auto pc = sum_params(1.0, 0.25, d, 100.0, -10, 0.5);
  philox_stream s3(5), s4(5);
  const vec yc = mech::snapped_laplace_sum(
      s3, 1000, [&](std::size_t, vec& x) { x = rec; }, vec(), pc);
  const mech::snapped_laplace_params qc{1.0, 0.25, d, 100.0, -10};
  const vec zc = mech::snapped_laplace(s4, vec(1000.0 * rec), qc);  // 125 and -250 clamp to ±100
  for (int i = 0; i < d; ++i) EXPECT_EQ(yc[i], zc[i]) << i;
}

TEST(SEC_LAPLACE_SUM, ShapesAndRecordRadiusAreValidated) {
  auto p = sum_params(1.0, 0.5, 2, 10.0, -8, 0.75);  // 2 · 0.75 > Δ1: a replacement moves 1.5
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { p.validate(); }),
            "mechanisms::snapped_laplace_params.sensitivity must be >= 2 * record_radius (one "
            "record replaced) when shape = sum_of_l1_balls, got 1");
  p.record_radius = 0;
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { p.validate(); }),
            "mechanisms::snapped_laplace_params.record_radius must be finite and > 0, got 0");
  mech::snapped_laplace_params c{1.0, 0.5, 2, 10.0, -8};
  c.record_radius = 0.5;  // not a sum: an ignored field is refused
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { c.validate(); }),
            "mechanisms::snapped_laplace_params.record_radius must be 0 unless shape = "
            "sum_of_l1_balls, got 0.5");
  c.record_radius = 0;
  c.shape = mech::clamp_set::l2_ball;
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { c.validate(); }),
            "mechanisms::snapped_laplace_params.shape must be coordinates or sum_of_l1_balls (l2 "
            "shapes belong to the snapped Gaussian), got l2_ball");
  c.shape = mech::clamp_set::coordinates;
  philox_stream s(1);
  const auto zero = [](std::size_t, vec& x) { x = vec::Zero(2); };
  EXPECT_EQ(
      message_of<std::domain_error>([&] { (void)mech::snapped_laplace_sum(s, 1, zero, vec(), c); }),
      "dpref::mechanisms::snapped_laplace_sum: params.shape must be sum_of_l1_balls, got "
      "coordinates");
  p.record_radius = 0.5;
  const vec x2 = vec::Zero(2);
  EXPECT_EQ(message_of<std::domain_error>([&] { (void)mech::snapped_laplace(s, x2, p); }),
            "dpref::mechanisms::snapped_laplace: params.shape must be coordinates (a sum of "
            "records is released by snapped_laplace_sum), got sum_of_l1_balls");
  EXPECT_EQ(message_of<std::domain_error>(
                [&] { (void)mech::snapped_laplace_sum(s, 1, zero, vec::Zero(3), p); }),
            "dpref::mechanisms::snapped_laplace_sum: offset.size() must be 0 or == "
            "params.dimension, got 3");
  EXPECT_EQ(message_of<std::domain_error>([&] {
              (void)mech::snapped_laplace_sum(
                  s, 1, [](std::size_t, vec& x) { x = vec::Zero(5); }, vec(), p);
            }),
            "dpref::mechanisms::snapped_laplace_sum: record size must be == params.dimension, got "
            "5");
  mech::snapped_gaussian_params g{1.0, 0.5, 2, 10.0, -8};
  g.shape = mech::clamp_set::sum_of_l1_balls;
  EXPECT_EQ(message_of<dpref::invalid_parameter>([&] { g.validate(); }),
            "mechanisms::snapped_gaussian_params.shape must be coordinates, l2_ball or "
            "sum_of_l2_balls (l1 balls belong to the snapped Laplace), got sum_of_l1_balls");
}

}  // namespace

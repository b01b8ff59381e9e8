// Property tests of pwa's public constants (spec/privacy_bounds.md, pwa section): over random
// neighbouring pairs under the adjacency (4) — records far above bmax and beyond the clamp C
// included — the released statistic of each mechanism never moves by more than the sensitivity
// its ledger records:
//  PRIV.PWA.BMAX           the double utilities of secure Algorithm 2 / M_E (clamp(b), then
//                          fl(fl(a_iᵀx) + b_i)) move by at most the ledger's Δu (bmax plus their
//                          rounding), at any bmax down to 2^−110; the rounding-straddle pair shows
//                          that bmax alone is exceeded (by 2^51); M_P's b moves by at most
//                          √m·bmax in ℓ2;
//  PRIV.PWA.C              M_S's statistic (x_opt projected onto the bounding box of P) stays in a
//                          box of ℓ2 diameter diameter_bound(P) for |b_i| up to 2^55, while the
//                          LP's raw x_opt leaves it (by 0.15 on a fixed instance);
//  PRIV.PWA.RELEASE_CLAMP  clamp(b, −C, C) is bounded by C and keeps neighbours neighbours; the
//                          lattice centres of secure M_P move by at most Δ + √m 2^g.
// RapidCheck, 100 cases each (RC_PARAMS=seed=20261121 in CI).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "dpref/pwa/run.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/secure/lattice.hpp"
#include "support/generators.hpp"

namespace {

using namespace dpref;
using dpref::pwa::piecewise_affine;
using dpref::pwa::polytope;
using dpref::test::positive_log_uniform;
using dpref::test::real_in;

/// A double of magnitude 2^e (e in [lo, hi]), sign and mantissa random: records far above or
/// far below bmax.
double any_magnitude(int lo, int hi) {
  const int e = *rc::gen::inRange(lo, hi + 1);
  return std::ldexp(*real_in<double>(-1, 1), e);
}

/// |b′ − b| <= bmax exactly (the difference evaluated in mp50, where two doubles' difference is
/// exact): b′ = b + δ rounded, pulled back to b while it is too far.
double neighbour_of(double b, double bmax) {
  double out = b + *real_in<double>(-bmax, bmax);
  if (abs(mp50(out) - mp50(b)) > mp50(bmax)) out = b;
  return out;
}

/// Exact |x − y| of two doubles.
mp50 gap(double x, double y) { return abs(mp50(x) - mp50(y)); }

// ---------------------------------------------------------------------------- PRIV.PWA.BMAX --

// The straddle pair of secure mode's file comment: at a_1ᵀx = 1, b_1 = 2^−53 − 2^−106 and
// b′_1 = 2^−53 + 2^−105 differ by 1.5·2^−105, yet fl(1 + b_1) = 1 and fl(1 + b′_1) = 1 + 2^−52.
struct straddle {
  matrix<double> A = matrix<double>::Ones(2, 1);
  vector<double> b = (vector<double>(2) << 0x1p-53 - 0x1p-106, 0.0).finished();
  vector<double> b2 = (vector<double>(2) << 0x1p-53 + 0x1p-105, 0.0).finished();
  vector<double> x = vector<double>::Ones(1);
  double bmax = 0x1p-103;
};

TEST(PRIV_PWA_BMAX, RoundingStraddleExceedsBmaxWithoutTheRoundingTerm) {
  const straddle t;
  ASSERT_LE(gap(t.b[0], t.b2[0]), mp50(t.bmax));
  const piecewise_affine<double> p(t.A, t.b, polytope<double>::box_only(1, 1.0), t.bmax);
  const auto p2 = p.with_b(t.b2);
  vector<double> u(2), u2(2);
  pwa::selection_utilities(p, t.x, u);
  pwa::selection_utilities(p2, t.x, u2);
  // negative control: the computed utilities move by 2^51·bmax
  EXPECT_EQ(u2[0] - u[0], 0x1p-52);
  EXPECT_GT(gap(u[0], u2[0]), mp50(t.bmax) * mp50(0x1p50));
  // the secure problem's Δu covers it
  const double T = pwa::detail::box_dot_bound(p);
  const auto q = pwa::secure_utility_problem(p, 1000, T),
             q2 = pwa::secure_utility_problem(p2, 1000, T);
  EXPECT_EQ(q.bmax(), q2.bmax());
  pwa::selection_utilities(q, t.x, u);
  pwa::selection_utilities(q2, t.x, u2);
  EXPECT_LE(gap(u[0], u2[0]), mp50(q.bmax()));
}

// Random instances, bmax log-uniform in [2^−110, 16], b_i of magnitude 2^−60..2^40 (records far
// above bmax and beyond C), C in [2^−10, 2^30], x anywhere in the box, neighbours within bmax,
// half of the pairs built to straddle a rounding midpoint of fl(t_i + b_i): the utilities and f
// computed on the secure problems never move by more than the ledger's Δu.
RC_GTEST_PROP(PRIV_PWA_BMAX, SecureUtilitiesMoveByAtMostTheLedgersDelta, ()) {
  const int m = *rc::gen::inRange(1, 9), d = *rc::gen::inRange(1, 5);
  const double c = *positive_log_uniform<double>(0.1, 5);
  const double bmax = *positive_log_uniform<double>(0x1p-110, 16);
  const double C = *positive_log_uniform<double>(0x1p-10, 0x1p30);
  const double scale = std::ldexp(1.0, *rc::gen::inRange(-20, 21));
  matrix<double> A(m, d);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < d; ++j) A(i, j) = scale * *real_in<double>(-3, 3);
  vector<double> x(d);
  for (int j = 0; j < d; ++j) x[j] = *real_in<double>(-c, c);
  const vector<double> t = A * x;
  vector<double> b(m), b2(m);
  const bool straddling = *rc::gen::arbitrary<bool>();
  for (int i = 0; i < m; ++i) {
    if (straddling && t[i] != 0) {
      // b_i, b′_i around half the spacing of t_i's binade: t_i + b_i and t_i + b′_i on either
      // side of a rounding midpoint when bmax is below that spacing
      const double h = std::ldexp(1.0, std::ilogb(t[i]) - 53);
      b[i] = h - bmax / 2;
      b2[i] = h + bmax / 2;
      if (gap(b[i], b2[i]) > mp50(bmax)) b2[i] = b[i];
    } else {
      b[i] = any_magnitude(-60, 40);
      b2[i] = neighbour_of(b[i], bmax);
    }
  }
  const piecewise_affine<double> p(A, b, polytope<double>::box_only(d, c), bmax);
  const auto p2 = p.with_b(b2);
  const double T = pwa::detail::box_dot_bound(p);
  const auto q = pwa::secure_utility_problem(p, C, T), q2 = pwa::secure_utility_problem(p2, C, T);
  RC_ASSERT(q.bmax() == q2.bmax());  // public: the same for both neighbours
  RC_ASSERT(q.bmax() >= bmax);
  vector<double> u(m), u2(m);
  pwa::selection_utilities(q, x, u);
  pwa::selection_utilities(q2, x, u2);
  for (int i = 0; i < m; ++i) RC_ASSERT(gap(u[i], u2[i]) <= mp50(q.bmax()));
  RC_ASSERT(gap(q.value(x), q2.value(x)) <= mp50(q.bmax()));  // M_E's f (Lemma 18)
}

// M_P's statistic is b itself: ‖b − b′‖₂ <= data_sensitivity = √m·bmax (rounded up) for every
// neighbour, records of any magnitude included (the distance exact in mp50).
RC_GTEST_PROP(PRIV_PWA_BMAX, DataMoveByAtMostRootMBmax, ()) {
  const int m = *rc::gen::inRange(1, 40);
  const double bmax = *positive_log_uniform<double>(0x1p-60, 1e3);
  vector<double> b(m), b2(m);
  mp50 sq = 0;
  for (int i = 0; i < m; ++i) {
    b[i] = any_magnitude(-60, 60);
    b2[i] = *rc::gen::arbitrary<bool>() ? neighbour_of(b[i], bmax) : b[i] + bmax;
    if (gap(b[i], b2[i]) > mp50(bmax)) b2[i] = b[i];
    sq += gap(b[i], b2[i]) * gap(b[i], b2[i]);
  }
  const piecewise_affine<double> p(matrix<double>::Ones(m, 1), b, polytope<double>::box_only(1, 1),
                                   bmax);
  RC_ASSERT(sqrt(sq) <= mp50(pwa::data_sensitivity(p)));
}

// T of Algorithm 2 bounds |fl(a_iᵀx^(i))| at every iterate actually computed (k steps of random
// selections from a random start, with and without the box projection).
RC_GTEST_PROP(PRIV_PWA_BMAX, SubgradientDotBoundHoldsAtEveryIterate, ()) {
  const int m = *rc::gen::inRange(1, 9), d = *rc::gen::inRange(1, 5);
  const double c = *positive_log_uniform<double>(0.1, 5);
  matrix<double> A(m, d);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < d; ++j) A(i, j) = *real_in<double>(-3, 3);
  const piecewise_affine<double> p(A, vector<double>::Zero(m), polytope<double>::box_only(d, c),
                                   1.0);  // b = 0: the utilities are the products t = fl(A x)
  pwa::subgradient_params<double> sp;
  sp.iterations = *rc::gen::inRange(1, 200);
  sp.step = *positive_log_uniform<double>(1e-4, 10);
  sp.rule = *rc::gen::element(pwa::step_rule::constant, pwa::step_rule::inverse_sqrt);
  sp.projection = *rc::gen::element(pwa::projection_mode::none, pwa::projection_mode::box);
  sp.x1 = vector<double>(d);
  for (int j = 0; j < d; ++j) sp.x1[j] = *real_in<double>(-c, c);
  const double T = pwa::detail::subgradient_dot_bound(p, sp);
  philox_stream s(*rc::gen::arbitrary<std::uint32_t>());
  double worst = 0;
  (void)pwa::detail::run_subgradient(
      p, sp,
      [&](const vector<double>& u, long long) {
        worst = std::max(worst, u.cwiseAbs().maxCoeff());
        return static_cast<Eigen::Index>(secure::uniform_int<std::int64_t>(s, u.size()));
      },
      "test");
  RC_ASSERT(worst <= T);
}

// ------------------------------------------------------------------------------- PRIV.PWA.C --

/// A random polytope: the box, with 0..3 rows Gx <= h (h >= 0, so 0 ∈ P); the first row is
/// x_1 <= h_1 < c, so the bounding box is smaller than the box (where the LP's rounding shows).
polytope<double> random_polytope(int d) {
  polytope<double> P = polytope<double>::box_only(d, *real_in<double>(0.5, 3));
  const int k = *rc::gen::inRange(0, 4);
  P.G = matrix<double>(k, d);
  P.h = vector<double>(k);
  for (int r = 0; r < k; ++r) {
    for (int j = 0; j < d; ++j) P.G(r, j) = r == 0 ? (j == 0 ? 1.0 : 0.0) : *real_in<double>(-2, 2);
    P.h[r] = *real_in<double>(0, r == 0 ? P.box / 2 : 2);
  }
  return P;
}

// M_S's statistic stays in the public bounding box, so two neighbours' statistics are within
// diameter_bound(P) (the ledger's Δ), for |b_i| from 2^30 to 2^55 (where the LP's tolerance,
// which scales with |b|, lets its x_opt leave P).
RC_GTEST_PROP(PRIV_PWA_C, SolutionStatisticMovesByAtMostTheDiameter, ()) {
  const int m = *rc::gen::inRange(1, 9), d = *rc::gen::inRange(1, 4);
  const polytope<double> P = random_polytope(d);
  const double bmax = *positive_log_uniform<double>(1e-3, 10);
  matrix<double> A(m, d);
  vector<double> b(m), b2(m);
  const double offset = std::ldexp(1.0, *rc::gen::inRange(30, 56));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < d; ++j) A(i, j) = *real_in<double>(-3, 3);
    b[i] = offset + *real_in<double>(-3, 3);
    b2[i] = neighbour_of(b[i], bmax);
  }
  const piecewise_affine<double> p(A, b, P, bmax);
  const auto p2 = p.with_b(b2);
  const pwa::bounding_box<double> box(P);
  vector<double> x, x2;
  try {
    x = pwa::solution_statistic(p, box);
    x2 = pwa::solution_statistic(p2, box);
  } catch (const std::runtime_error&) {  // the simplex's iteration limit: nothing released
    RC_DISCARD("LP iteration limit");
  }
  RC_ASSERT(box.contains(x));
  RC_ASSERT(box.contains(x2));
  mp50 sq = 0;
  for (int j = 0; j < d; ++j) sq += (mp50(x[j]) - mp50(x2[j])) * (mp50(x[j]) - mp50(x2[j]));
  RC_ASSERT(sqrt(sq) <= mp50(pwa::diameter_bound(P)));
}

// Negative control: on a fixed instance with |b_i| ≈ 2^49 and rows x_1 <= 0.3, g x <= 0.2, the
// LP's own x_opt lies 0.15 outside P's bounding box (its tolerance scales with |b|), so the
// unprojected x_opt breaks the premise of Δ = diam P; the statistic is inside.
TEST(PRIV_PWA_C, RawLpSolutionLeavesTheBoundingBoxForLargeData) {
  const int trial = 1649, d = 2 + trial % 3, m = 3 + trial % 7;
  philox_stream s(77, trial);
  matrix<double> A(m, d);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < d; ++j) A(i, j) = gaussian<double>(s, 1.0);
  polytope<double> P = polytope<double>::box_only(d, 1.0);
  P.G = matrix<double>(2, d);
  P.h = vector<double>(2);
  for (int j = 0; j < d; ++j) {
    P.G(0, j) = j == 0 ? 1.0 : 0.0;
    P.G(1, j) = gaussian<double>(s, 1.0);
  }
  P.h << 0.3, 0.2;
  vector<double> b(m);
  for (int i = 0; i < m; ++i) b[i] = std::ldexp(1.0, 20 + trial % 30) + gaussian<double>(s, 1.0);
  const piecewise_affine<double> p(A, b, P, 1.0);
  const pwa::bounding_box<double> box(P);
  const vector<double> raw = pwa::solve(p).x;
  double excess = 0;
  for (int j = 0; j < d; ++j)
    excess = std::max({excess, box.lower[j] - raw[j], raw[j] - box.upper[j]});
  EXPECT_GT(excess, 0.1);
  EXPECT_FALSE(box.contains(raw));
  EXPECT_TRUE(box.contains(pwa::solution_statistic(p, box)));
}

// ------------------------------------------------------------------ PRIV.PWA.RELEASE_CLAMP --

// clamp(b, −C, C) is within [−C, C] and 1-Lipschitz per coordinate (neighbours under (4) stay
// neighbours), and the lattice centres 2^g·round(clamp(b)/2^g) that secure M_P releases around
// move by at most Δ + √m 2^g in ℓ2, the inflated sensitivity of its ledger event, for records
// far beyond C.
RC_GTEST_PROP(PRIV_PWA_RELEASE_CLAMP, ClampedDataStayNeighboursAndBounded, ()) {
  const int m = *rc::gen::inRange(1, 12);
  const double bmax = *positive_log_uniform<double>(1e-6, 100);
  const double C = *positive_log_uniform<double>(1e-3, 1e6);
  vector<double> b(m), b2(m);
  for (int i = 0; i < m; ++i) {
    b[i] = any_magnitude(-20, 60);
    b2[i] = neighbour_of(b[i], bmax);
  }
  const vector<double> cb = pwa::clamp_data(b, C), cb2 = pwa::clamp_data(b2, C);
  for (int i = 0; i < m; ++i) {
    RC_ASSERT(std::abs(cb[i]) <= C);
    RC_ASSERT(gap(cb[i], cb2[i]) <= gap(b[i], b2[i]));
  }
  const piecewise_affine<double> p(matrix<double>::Ones(m, 1), b, polytope<double>::box_only(1, 1),
                                   bmax);
  const auto plan =
      pwa::plan_perturb_data(p, *positive_log_uniform<double>(1e-2, 10), noise_mode::secure, C);
  RC_ASSERT(plan.lattice.has_value());
  const int k = plan.lattice->grid_exponent;
  mp50 sq = 0;
  for (int i = 0; i < m; ++i) {
    const mp50 g = mp50(std::ldexp(1.0, k));
    const mp50 diff =
        (mp50(secure::lattice_round(b[i], k, C)) - mp50(secure::lattice_round(b2[i], k, C))) * g;
    sq += diff * diff;
  }
  RC_ASSERT(sqrt(sq) <= mp50(plan.sensitivity) + sqrt(mp50(m)) * mp50(std::ldexp(1.0, k)));
}

}  // namespace

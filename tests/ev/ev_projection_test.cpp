// Exact projection onto C(a, b) and the sensitivity of the projection (ev Theorem 8, errata
// EV-E1): brute-force active-set agreement, KKT at 50 digits, the attaining example, the
// worst-case search.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "dpref/ev/sensitivity.hpp"
#include "dpref/geometry/capped_simplex.hpp"
#include "dpref/random.hpp"
#include "support/scalars.hpp"

namespace dpref {
namespace {

using geometry::project_capped_simplex;

template <class Real>
struct instance {
  vector<Real> x0, a;
  Real b;
};

/// Random instance with ties, zero capacities and the extreme b = 0, b = 1'a (errata §"Machine-
/// checkable properties" 1).
template <class Real>
instance<Real> random_instance(philox_stream& s, Eigen::Index t, int trial) {
  instance<Real> in{vector<Real>(t), vector<Real>(t), Real(0)};
  for (Eigen::Index i = 0; i < t; ++i) {
    in.x0[i] = gaussian<Real>(s, Real(10));
    in.a[i] = uniform01<Real>(s) < Real(1) / 5 ? Real(0) : Real(10) * uniform01<Real>(s);
    if (trial % 4 == 0 && i > 0) {  // ties in the breakpoints
      in.x0[i] = in.x0[0];
      in.a[i] = in.a[0];
    }
  }
  in.b = in.a.sum() * uniform01<Real>(s);
  if (trial % 7 == 0) in.b = in.a.sum();
  if (trial % 9 == 0) in.b = Real(0);
  return in;
}

/// Brute force: try every assignment of the coordinates to {upper, free, zero}, solve nu from
/// the sets and keep the one consistent with x = clip(x0 - nu, 0, a). Independent of the sweep.
template <class Real>
vector<Real> brute_force_projection(const instance<Real>& in) {
  const auto t = in.a.size();
  int total = 1;
  for (Eigen::Index i = 0; i < t; ++i) total *= 3;
  const Real tol =
      Real(1000) * machine_epsilon<Real>() * (1 + in.x0.cwiseAbs().maxCoeff() + in.a.maxCoeff());
  for (int code = 0; code < total; ++code) {
    int c = code, n_free = 0;
    Real su(0), sf(0);
    std::vector<int> st(static_cast<std::size_t>(t));
    for (Eigen::Index i = 0; i < t; ++i, c /= 3) {
      st[static_cast<std::size_t>(i)] = c % 3;
      if (c % 3 == 0) su += in.a[i];
      if (c % 3 == 1) sf += in.x0[i], ++n_free;
    }
    if (n_free == 0) continue;  // degenerate cases are covered by the b = 0 / 1'a checks
    const Real nu = (sf + su - in.b) / Real(n_free);
    bool ok = true;
    for (Eigen::Index i = 0; i < t && ok; ++i) {
      const Real v = in.x0[i] - nu;
      const int k = st[static_cast<std::size_t>(i)];
      ok = k == 0 ? v >= in.a[i] - tol : (k == 1 ? (v >= -tol && v <= in.a[i] + tol) : v <= tol);
    }
    if (ok) return geometry::detail::clip_shift(in.x0, in.a, nu);
  }
  return vector<Real>();  // no consistent free set: b is 0 or 1'a
}

template <class Real>
class EV_PROJ_EXACT : public ::testing::Test {};
using proj_scalars = ::testing::Types<double, mp50>;
TYPED_TEST_SUITE(EV_PROJ_EXACT, proj_scalars, test::scalar_names);

TYPED_TEST(EV_PROJ_EXACT, FeasibleKktAndEqualToBruteForce) {
  using Real = TypeParam;
  philox_stream s(2026);
  Real feas_tol(1e-9);                                                    // double
  if constexpr (!std::is_same_v<Real, double>) feas_tol = Real("1e-45");  // KKT to 1e-45 at mp50
  for (int trial = 0; trial < 600; ++trial) {
    const auto t = static_cast<Eigen::Index>(1 + trial % 8);
    const auto in = random_instance<Real>(s, t, trial);
    const auto p = project_capped_simplex(in.x0, in.a, in.b);
    using std::abs;
    const Real scale = 1 + in.b + in.a.sum() + in.x0.cwiseAbs().maxCoeff();
    // feasibility
    ASSERT_LE(abs(p.x.sum() - in.b), feas_tol * scale) << trial;
    for (Eigen::Index i = 0; i < t; ++i) {
      ASSERT_GE(p.x[i], Real(0));
      ASSERT_LE(p.x[i], in.a[i]);
    }
    // KKT: x = clip(x0 - nu, 0, a) with the returned multiplier (to 1e-45 at 50 digits)
    const auto kkt = geometry::detail::clip_shift(in.x0, in.a, p.nu);
    ASSERT_LE((kkt - p.x).cwiseAbs().maxCoeff(), feas_tol * scale) << trial;
    // brute force
    const auto bf = brute_force_projection(in);
    if (bf.size() > 0) {
      ASSERT_LE((bf - p.x).cwiseAbs().maxCoeff(), feas_tol * scale) << trial;
    }
  }
}

TYPED_TEST(EV_PROJ_EXACT, EdgeCases) {
  using Real = TypeParam;
  vector<Real> x0(3), a(3);
  x0 << Real(5), Real(-2), Real(1) / 3;
  a << Real(1), Real(2), Real(0);
  EXPECT_EQ(project_capped_simplex(x0, a, Real(3)).x, a);                      // b = 1'a
  EXPECT_EQ(project_capped_simplex(x0, a, Real(0)).x, vector<Real>::Zero(3));  // b = 0
  vector<Real> one(1), cap(1);
  one << Real(-7);
  cap << Real(4);
  EXPECT_EQ(project_capped_simplex(one, cap, Real(5) / 2).x[0], Real(5) / 2);  // T = 1: x = b
  // idempotence: projecting a point of C(a, b) returns it
  vector<Real> y(3);
  y << Real(1) / 2, Real(1), Real(0);
  EXPECT_EQ(project_capped_simplex(y, a, Real(3) / 2).x, y);
}

TEST(EV_PROJ_EXACT, InvalidInputsThrowNamingTheCondition) {
  vector<double> x0(2), a(2), a3(3);
  x0 << 1, 2;
  a << 1, 1;
  a3 << 1, 1, 1;
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_NE(message([&] { project_capped_simplex(x0, a, 3.0); }).find("1'a"), std::string::npos);
  EXPECT_NE(message([&] { project_capped_simplex(x0, a, -1.0); }).find("b must be"),
            std::string::npos);
  EXPECT_NE(message([&] { project_capped_simplex(x0, a3, 1.0); }).find("x0"), std::string::npos);
  vector<double> neg = a;
  neg[1] = -0.5;
  EXPECT_NE(message([&] { project_capped_simplex(x0, neg, 0.2); }).find("a >= 0"),
            std::string::npos);
  vector<double> nan = x0;
  nan[0] = std::nan("");
  EXPECT_THROW(project_capped_simplex(nan, a, 1.0), std::domain_error);
  EXPECT_THROW(project_capped_simplex(vector<double>(), vector<double>(), 0.0),
               std::invalid_argument);
}

TEST(EV_PROJ_EXACT, NonExpansive) {
  philox_stream s(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const auto in = random_instance<double>(s, 1 + trial % 12, trial);
    vector<double> y0 = in.x0;
    for (Eigen::Index i = 0; i < y0.size(); ++i) y0[i] += gaussian(s, 3.0);
    const auto p = project_capped_simplex(in.x0, in.a, in.b).x;
    const auto q = project_capped_simplex(y0, in.a, in.b).x;
    ASSERT_LE((p - q).norm(), (in.x0 - y0).norm() + 1e-12);
  }
}

TEST(EV_THM8, PaperBoundAndTightValue) {
  using ev::projection_sensitivity;
  using ev::sensitivity_bound;
  // ev (9): 2δr + δE = 38.4 at the paper's (13.2, 12); tight sqrt(13.2² + 25.2²) = 28.4478...
  EXPECT_DOUBLE_EQ(projection_sensitivity(13.2, 12.0, 52, sensitivity_bound::paper),
                   2 * 13.2 + 12.0);
  const double tight = projection_sensitivity(13.2, 12.0, 52, sensitivity_bound::tight);
  EXPECT_NEAR(tight, std::hypot(13.2, 25.2), 1e-12);
  EXPECT_NEAR((2 * 13.2 + 12.0) / tight, 1.3498, 5e-5);  // errata property 9
  EXPECT_EQ(projection_sensitivity(13.2, 12.0, 1, sensitivity_bound::tight), 12.0);
  EXPECT_THROW(projection_sensitivity(-1.0, 1.0, 2, sensitivity_bound::tight), std::domain_error);
  EXPECT_THROW(projection_sensitivity(1.0, 1.0, 0, sensitivity_bound::paper), std::domain_error);
}

TEST(EV_SENS_TIGHT, AttainedByTheErrataExample) {
  // x0 = (0, 100), a = (100, 5 + δr), b = 20, a' = (100, 5), b' = 20 + δE: d = (δr + δE, -δr).
  for (const auto& [dr, de] : {std::pair{1.0, 1.0}, std::pair{13.2, 12.0}, std::pair{3.0, 0.0}}) {
    vector<double> x0(2), a(2), a2(2);
    x0 << 0, 100;
    a << 100, 5 + dr;
    a2 << 100, 5;
    const double d = ev::projection_distance(x0, a, 20.0, a2, 20.0 + de);
    EXPECT_NEAR(d, ev::projection_sensitivity(dr, de, 2, ev::sensitivity_bound::tight), 1e-12);
  }
  // at 50 digits, exactly sqrt(5) for δr = δE = 1 (errata property 8)
  vector<mp50> x0(2), a(2), a2(2);
  x0 << mp50(0), mp50(100);
  a << mp50(100), mp50(6);
  a2 << mp50(100), mp50(5);
  using std::sqrt;
  EXPECT_LE(abs(ev::projection_distance(x0, a, mp50(20), a2, mp50(21)) - sqrt(mp50(5))),
            mp50("1e-48"));
}

TEST(EV_SENS_TIGHT, RandomAdjacentPairsNeverExceedEitherBound) {
  // 2e4 random adjacent pairs (‖a − a'‖₁ <= δr, |b − b'| <= δE, both feasible), T in 1..6.
  philox_stream s(11);
  for (int trial = 0; trial < 20000; ++trial) {
    const auto t = static_cast<Eigen::Index>(1 + trial % 6);
    const double dr = 5 * uniform01<double>(s), de = 5 * uniform01<double>(s);
    const auto in = random_instance<double>(s, t, trial);
    vector<double> dir(t);
    for (Eigen::Index i = 0; i < t; ++i) dir[i] = gaussian(s, 1.0);
    vector<double> a2 = (in.a + dir * (dr * uniform01<double>(s) / dir.lpNorm<1>())).cwiseMax(0.0);
    const double b2 =
        std::clamp(in.b + (2 * uniform01<double>(s) - 1) * de, 0.0, a2.sum() * (1 - 1e-12));
    const double dist = ev::projection_distance(in.x0, in.a, in.b, a2, b2);
    const double r = (in.a - a2).lpNorm<1>(), e = std::fabs(in.b - b2);
    ASSERT_LE(dist, ev::projection_sensitivity(r, e, static_cast<std::size_t>(t),
                                               ev::sensitivity_bound::tight) *
                            (1 + 1e-12) +
                        1e-12);
    ASSERT_LE(dist, ev::projection_sensitivity(r, e, static_cast<std::size_t>(t),
                                               ev::sensitivity_bound::paper) *
                            (1 + 1e-12) +
                        1e-12);
  }
}

TEST(EV_SENS_SEARCH, ReachesTheTightValueOnSmallHorizonsAndNeverExceedsIt) {
  for (std::size_t t : {1u, 2u, 3u, 4u}) {
    philox_stream s(t);
    const auto w = ev::search_sensitivity(t, 13.2, 12.0, 40, 4000, s);
    const double tight = ev::projection_sensitivity(13.2, 12.0, t, ev::sensitivity_bound::tight);
    EXPECT_LE(w.distance, tight * (1 + 1e-12)) << "T=" << t;  // double rounding only
    EXPECT_GE(w.distance, tight * (1 - 1e-6)) << "T=" << t;
    // the witness is adjacent and feasible
    EXPECT_LE((w.a - w.a_prime).lpNorm<1>(), 13.2 * (1 + 1e-12));
    EXPECT_LE(std::fabs(w.b - w.b_prime), 12.0 * (1 + 1e-12));
  }
}

TEST(EV_SENS_SEARCH, NegativeControlTheSumBoundIsExceeded) {
  // "δr + δE" is NOT a valid bound (errata 1(b)): with δE = 0 the search finds ≈ √2·δr > δr.
  philox_stream s(3);
  const auto w = ev::search_sensitivity(2, 1.0, 0.0, 20, 3000, s);
  EXPECT_GT(w.distance, 1.0 + 0.4);
}

}  // namespace
}  // namespace dpref

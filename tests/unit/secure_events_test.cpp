// Ledger events and privacy maps of the secure (lattice) releases (spec/secure_release.md
// SEC.ACC.*, SEC.EVENT, SEC.EVENT.JSON), in the style of tests/unit/ledger_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/accounting/snapped.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "support/ledger_roundtrip.hpp"
#include "support/messages.hpp"
#include "support/scalars.hpp"

namespace {

using namespace dpref;
using namespace dpref::accounting;

using dpref::test::message_of;

// ==== SEC.ACC.LAPLACE =======================================================================

TEST(SEC_ACC_LAPLACE, InflatedEpsilonExactValuesAndCalibration) {
  // (Δ1 + d 2^k)/(2^k t): Δ1 = 1, k = -10, t = 1024, d = 3 -> 1 + 3/1024 (exact, no margin)
  EXPECT_EQ(snapped_laplace_vector_privacy(1.0, -10, 1024, 3).eps, 1 + 3.0 / 1024);
  // coarse grid g = 1, Δ1 = 1, t = 1, d = 1: ε = 2, twice the uninflated Δ/b
  EXPECT_EQ(snapped_laplace_vector_privacy(1.0, 0, 1, 1).eps, 2.0);
  // d = 1 agrees with the scalar snapped_laplace_privacy of discrete.hpp (b = t 2^k)
  for (int k : {-20, -3, 0, 2}) {
    const double b = 0.37;
    const std::int64_t t = secure::laplace_grid_scale(b, k);
    EXPECT_EQ(snapped_laplace_vector_privacy(1.3, k, t, 1).eps,
              snapped_laplace_privacy(1.3, b, k).eps);
  }
  // never below the uninflated Δ1/(t 2^k), rounded up (all scalars): 0.1 is not a double
  EXPECT_GT(snapped_laplace_vector_privacy(0.1, -7, 13, 5).eps,
            (0.1 + 5 * 0x1p-7) / (13 * 0x1p-7) * (1 - 1e-16));
  EXPECT_GE(snapped_laplace_vector_privacy<mp50>(mp50(1) / 10, -7, 13, 5).eps,
            (mp50(1) / 10 + 5 * mp50(0x1p-7)) / (13 * mp50(0x1p-7)));
  // calibration: the smallest t with ε(t) <= target
  for (double eps : {0.01, 0.3, 1.0, 7.0}) {
    for (long long d : {1LL, 20LL, 100LL}) {
      const std::int64_t t = snapped_laplace_grid_scale(1.0, eps, -12, d);
      EXPECT_LE(snapped_laplace_vector_privacy(1.0, -12, t, d).eps, eps);
      if (t > 1) {
        EXPECT_GT(snapped_laplace_vector_privacy(1.0, -12, t - 1, d).eps, eps);
      }
    }
  }
  EXPECT_EQ(message_of([] { (void)snapped_laplace_vector_privacy(1.0, -1023, 1, 1); }),
            "dpref::accounting::snapped_laplace_vector_privacy: grid_exponent must be in [-1022, "
            "970], got -1023");
  EXPECT_EQ(message_of([] { (void)snapped_laplace_grid_scale(1.0, 1e-9, -40, 1); }),
            "dpref::accounting::snapped_laplace_grid_scale: epsilon must be large enough that "
            "the grid scale is <= 2^52 (coarser grid), got 1.099511627777e+21");
}

// ==== SEC.ACC.VLAPLACE ======================================================================

TEST(SEC_ACC_VLAPLACE, InflatedEpsilonAndCalibration) {
  // d = 4: √d = 2 exactly: (Δ2 + 2·2^k)/(2^k t)
  EXPECT_EQ(snapped_vector_laplace_privacy(1.0, -3, 10, 4).eps, (1 + 2 * 0.125) / (0.125 * 10));
  // d = 2: irrational, rounded up above the long double value
  const long double exact = (1.0L + std::sqrt(2.0L) * 0.5L) / (0.5L * 3);
  const double e2 = snapped_vector_laplace_privacy(1.0, -1, 3, 2).eps;
  EXPECT_GE(static_cast<long double>(e2), exact);
  EXPECT_LE(static_cast<long double>(e2), exact * (1 + 1e-15L));
  for (long long d : {1LL, 2LL, 5LL, 100LL}) {
    const std::int64_t t = snapped_vector_laplace_grid_scale(1.0, 0.5, -20, d);
    EXPECT_LE(snapped_vector_laplace_privacy(1.0, -20, t, d).eps, 0.5);
    EXPECT_GT(snapped_vector_laplace_privacy(1.0, -20, t - 1, d).eps, 0.5);
  }
}

// ==== SEC.ACC.GAUSS =========================================================================

TEST(SEC_ACC_GAUSS, RhoRdpExactDeltaAndInflatedSensitivity) {
  // ρ = (Δ2/2^k + √d)²/(2σ_g²): Δ2 = 1, k = 0, d = 4, σ_g² = 4 -> 9/8 (exact)
  EXPECT_EQ(snapped_gaussian_rho(1.0, 0, 4, 1, 4), 9.0 / 8);
  const auto orders = integer_orders<double>(2, 8);
  const auto c = snapped_gaussian_rdp_curve(1.0, 0, 4, 1, 4, orders);
  for (std::size_t i = 0; i < orders.size(); ++i) EXPECT_EQ(c.eps[i], orders[i] * 9.0 / 8);
  // d = 1: the exact δ is the discrete Gaussian δ at the integer shift ⌊Δ/2^k⌋ + 1
  EXPECT_EQ(snapped_gaussian_delta(1.0, 0, 4, 1, 1.0),
            discrete_gaussian_delta<double>(4, 1, 2, 1.0));
  EXPECT_EQ(snapped_gaussian_delta(2.5, -1, 9, 1, 0.5),
            discrete_gaussian_delta<double>(9, 1, 6, 0.5));
  // inflated sensitivities in x units (rounded up)
  EXPECT_EQ(snapped_inflated_sensitivity(1.0, -3, 16, true), 1.5);
  EXPECT_EQ(snapped_inflated_sensitivity(1.0, -3, 16, false), 3.0);
  EXPECT_GE(snapped_inflated_sensitivity(1.0, -3, 2, true), 1 + std::sqrt(2.0) / 8);
  // negative control: the uninflated ρ would be smaller
  EXPECT_GT(snapped_gaussian_rho(1.0, 0, 4, 1, 1), 1.0 / 8);
}

// ==== SEC.EVENT =============================================================================

TEST(SEC_EVENT, ValidationNamesTheEventAndTheField) {
  auto e = make_event<double>(snapped_laplace_mechanism<double>{1.0, 0, 0, 1});
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[snapped_laplace].grid_scale must be >= 1, got 0");
  e = make_event<double>(snapped_laplace_mechanism<double>{1.0, 971, 1, 1});
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[snapped_laplace].grid_exponent must be >= -1022 and <= 970, got 971");
  e = make_event<double>(snapped_vector_laplace_mechanism<double>{-1.0, 0, 1, 1});
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[snapped_vector_laplace].sensitivity must be finite and > 0, got -1");
  e = make_event<double>(snapped_gaussian_mechanism<double>{1.0, 0, 4, 1, 0});
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[snapped_gaussian].dimension must be >= 1 and <= 1099511627776, got 0");
  e = make_event<double>(snapped_gaussian_mechanism<double>{1.0, 0, 0, 1, 1});
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[snapped_gaussian].variance_num must be >= 1, got 0");
}

TEST(SEC_EVENT, AccountantComposesAsForTheOtherKinds) {
  accounting_options<double> opt;
  opt.delta = 1e-6;
  // pure part: 3 snapped Laplace (ε = 1 + 3/1024 each) + one lattice l2-Laplace (d = 4, ε = 1)
  const auto lap = make_event<double>(snapped_laplace_mechanism<double>{1.0, -10, 1024, 3}, 3);
  const auto vl = make_event<double>(snapped_vector_laplace_mechanism<double>{1.0, -3, 10, 4});
  guarantee<double> g = account<double>({lap, vl}, opt);
  EXPECT_DOUBLE_EQ(g.epsilon, 3 * (1 + 3.0 / 1024) + 1.0);
  EXPECT_FALSE(g.rdp_part.has_value());
  // Poisson subsampling amplifies the pure ε: ln(1 + q(e^ε − 1))
  auto sub = lap;
  sub.count = 1;
  sub.sampling =
      subsampling<double>{sampling_scheme::poisson, 0.01, 0, 0, neighbouring::add_remove};
  EXPECT_NEAR(account<double>({sub}, opt).epsilon, std::log1p(0.01 * std::expm1(1 + 3.0 / 1024)),
              1e-15);
  // the snapped Gaussian is analysed in RDP: equals converting its curve directly
  const auto sg = make_event<double>(snapped_gaussian_mechanism<double>{1.0, 0, 100, 1, 4}, 10);
  g = account<double>({sg}, opt);
  const auto orders = integer_orders<double>(2, 256);
  const auto direct =
      rdp_to_dp(compose_rdp_steps(snapped_gaussian_rdp_curve(1.0, 0, 100, 1, 4, orders), 10), 1e-6);
  EXPECT_EQ(g.epsilon, direct.guarantee.eps);
  // it is a (discrete) Gaussian with the inflated sensitivity Δ2/2^k + √d = 3, σ_g = 10: the same
  // as the continuous Gaussian event with Δ = 3, σ = 10
  const auto cont = make_event<double>(gaussian_mechanism<double>{3.0, 10.0}, 10);
  EXPECT_EQ(g.epsilon, account<double>({cont}, opt).epsilon);
  // and cannot be analysed as pure
  auto bad = sg;
  bad.how = analysis::pure;
  EXPECT_EQ(message_of([&] { (void)account<double>({bad}, opt); }),
            "event[snapped_gaussian].analysis must be rdp or automatic (this mechanism is not "
            "ε-DP), got pure");
}

TEST(SEC_EVENT, MechanismParamsProduceTheEventOfWhatTheyDraw) {
  const auto p = mechanisms::snapped_laplace_for(1.0, 0.5, 20, 50.0);
  const auto e = p.event<double>(7, "gradient");
  accounting_options<double> opt;
  EXPECT_LE(account<double>({e}, opt).epsilon, 7 * 0.5 * (1 + 1e-15));
  const auto v = mechanisms::snapped_vector_laplace_for(2.0, 0.25, 10, 50.0);
  EXPECT_LE(account<double>({v.event<double>()}, opt).epsilon, 0.25);
  // a Gaussian calibrated with the inflated sensitivity: ρ equals the one of the continuous
  // Gaussian at that sensitivity and σ up to the upward rounding of σ_g²
  const int k = mechanisms::snapped_gaussian_grid_exponent(1.0, 5.0, 9, 50.0);
  const double infl = snapped_inflated_sensitivity(1.0, k, 9, true);
  const mechanisms::snapped_gaussian_params gp{1.0, 5.0, 9, 50.0, k};
  const event<double> ge = gp.event<double>();
  const auto& m = std::get<snapped_gaussian_mechanism<double>>(ge.what);
  const double rho = snapped_gaussian_rho(1.0, m.grid_exponent, m.variance_num, m.variance_den, 9);
  EXPECT_LE(rho, infl * infl / (2 * 25.0) * (1 + 1e-12));
  EXPECT_GE(rho, infl * infl / (2 * 25.0) * (1 - 1e-6));
}

// ==== SEC.EVENT.JSON ========================================================================

template <class R>
std::vector<event<R>> secure_events() {
  std::vector<event<R>> ev;
  ev.push_back(make_event<R>(snapped_laplace_mechanism<R>{R(1) / 10, -22, 4194307, 20}, 30,
                             "gradient, secure"));
  ev.push_back(make_event<R>(snapped_vector_laplace_mechanism<R>{R(2), -21, 123456789, 7}));
  auto sg = make_event<R>(snapped_gaussian_mechanism<R>{R(3) / 7, -12, 150994944, 1, 100}, 40);
  sg.sampling = subsampling<R>{sampling_scheme::poisson, R(1) / 50, 0, 0, neighbouring::add_remove};
  ev.push_back(sg);
  ev.push_back(make_event<R>(laplace_mechanism<R>{R(1), R(10)}, 2));
  return ev;
}

template <class R>
class SEC_EVENT_JSON : public ::testing::Test {};
using all_scalars = ::testing::Types<double, long double, mp50, mpfr_real>;
TYPED_TEST_SUITE(SEC_EVENT_JSON, all_scalars, dpref::test::scalar_names);

TYPED_TEST(SEC_EVENT_JSON, RoundTripReaccountsBitForBit) {
  using R = TypeParam;
  const guarantee<R> before = dpref::test::expect_events_roundtrip<R>(secure_events<R>());
  EXPECT_GT(before.epsilon, R(0));
}

TEST(SEC_EVENT_JSON, StrictReaderRefusesUnknownAndMissingKeys) {
  auto read = [](const std::string& text) {
    const io::document d = io::document::parse(text, "events.json");
    return read_ledger<double>(io::node(d));
  };
  const std::string head = R"({"accounting": {"delta": 1e-5}, "events": [)";
  const auto ok = read(head + R"({"mechanism": "snapped_laplace", "sensitivity": 1,
      "grid_exponent": -10, "grid_scale": 1024, "dimension": 3, "count": 1}]})");
  EXPECT_EQ(ok.total().epsilon, 1 + 3.0 / 1024);
  EXPECT_EQ(message_of([&] {
              read(head + R"({"mechanism": "snapped_laplace", "sensitivity": 1,
                "grid_exponent": -10, "grid_scale": 1024, "count": 1}]})");
            }),
            "events.json: /events/0 must have the key \"dimension\"");
  EXPECT_EQ(message_of([&] {
              read(head + R"({"mechanism": "snapped_vector_laplace", "sensitivity": 1,
                "grid_exponent": -10, "grid_scale": 1024, "dimension": 3, "clamp": 5,
                "count": 1}]})");
            }),
            "events.json: /events/0 has unknown key \"clamp\" for mechanism snapped_vector_laplace "
            "(valid keys: analysis, count, dimension, grid_exponent, grid_scale, joint, label, "
            "mechanism, sampling, sensitivity)");
  EXPECT_EQ(message_of([&] {
              read(head + R"({"mechanism": "snapped_gaussian", "sensitivity": 1,
                "grid_exponent": 2.5, "variance_num": 4, "variance_den": 1, "dimension": 3,
                "count": 1}]})");
            }),
            "events.json: /events/0/grid_exponent must be an integer in [-2147483648, "
            "2147483647] (no fraction, no exponent), got 2.5");
}

}  // namespace

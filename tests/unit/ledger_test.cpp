// The event vocabulary, the accountant, the ledger's JSON and thread-safe certification
// (spec/accounting.md ACC.EVENT, ACC.ACCOUNT, ACC.LEDGER.JSON, ACC.CERT.THREADS).
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/parallel/worker_scope.hpp"
#include "support/ledger_roundtrip.hpp"
#include "support/messages.hpp"
#include "support/scalars.hpp"

namespace {

using namespace dpref;
using namespace dpref::accounting;

using dpref::test::message_of;

template <class R>
std::vector<event<R>> sample_events() {
  std::vector<event<R>> ev;
  ev.push_back(make_event<R>(laplace_mechanism<R>{R(1), R(10)}, 3, "three Laplace"));
  ev.push_back(make_event<R>(vector_laplace_mechanism<R>{R(2), R(40)}));
  ev.push_back(make_event<R>(gaussian_mechanism<R>{R(1), R(4)}, 50));
  auto sg = make_event<R>(gaussian_mechanism<R>{R(1), R(11) / 10}, 1000);
  sg.sampling =
      subsampling<R>{sampling_scheme::poisson, R(1) / 100, 0, 0, neighbouring::add_remove};
  ev.push_back(sg);
  auto wor = make_event<R>(laplace_mechanism<R>{R(1), R(2)}, 10);
  wor.sampling = subsampling<R>{sampling_scheme::without_replacement, R(0), 100, 1000,
                                neighbouring::replace_one};
  ev.push_back(wor);
  auto svt = make_event<R>(
      sparse_vector_mechanism<R>{svt_noise::laplace, R(1), R(20), R(40), 1, svt_bound::proven}, 5);
  ev.push_back(svt);
  ev.push_back(make_event<R>(approx_mechanism<R>{R(1) / 10, R(1) / 1000000}));
  return ev;
}

TEST(ACC_EVENT, ValidationNamesTheEventAndTheField) {
  auto e = make_event<double>(gaussian_mechanism<double>{1.0, -1.0});
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[gaussian].sigma must be finite and > 0, got -1");
  e = make_event<double>(laplace_mechanism<double>{1.0, 1.0}, 0);
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[laplace].count must be >= 1 and <= 1000000000000000000, got 0");
  e = make_event<double>(gaussian_mechanism<double>{1.0, 1.0});
  e.sampling = subsampling<double>{sampling_scheme::poisson, 0.1, 0, 0, neighbouring::replace_one};
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[gaussian].sampling.neighbouring must be add_remove for Poisson sampling, got "
            "replace_one");
  e.sampling =
      subsampling<double>{sampling_scheme::without_replacement, 0, 5, 4, neighbouring::replace_one};
  EXPECT_EQ(message_of([&] { validate(e); }),
            "event[gaussian].sampling.sample_size must be >= 1 and <= 4, got 5");
}

TEST(ACC_ACCOUNT, PartsAreComposedAsDocumented) {
  accounting_options<double> opt;
  opt.delta = 1e-5;
  // pure part: 3 Laplace (ε = 0.1 each) + vector Laplace ε = 0.05
  std::vector<event<double>> ev{make_event<double>(laplace_mechanism<double>{1, 10}, 3),
                                make_event<double>(vector_laplace_mechanism<double>{2, 40})};
  guarantee<double> g = account(ev, opt);
  EXPECT_DOUBLE_EQ(g.epsilon, 0.35);
  EXPECT_GE(g.epsilon, 0.35);
  EXPECT_EQ(g.delta, 0.0);
  EXPECT_FALSE(g.rdp_part.has_value());
  // Rényi part: 50 Gaussians σ = 4 = one Gaussian with σ/√50; equals the converted curve
  std::vector<event<double>> gs{make_event<double>(gaussian_mechanism<double>{1, 4}, 50)};
  g = account(gs, opt);
  const auto orders = integer_orders<double>(2, 256);
  const auto direct = rdp_to_dp(compose_rdp_steps(gaussian_rdp_curve(1.0, 4.0, orders), 50), 1e-5);
  EXPECT_EQ(g.epsilon, direct.guarantee.eps);
  EXPECT_EQ(g.delta, 1e-5);
  // Poisson-subsampled Gaussian = MTZ curve
  auto sg = make_event<double>(gaussian_mechanism<double>{1, 1.1}, 10000);
  sg.sampling = subsampling<double>{sampling_scheme::poisson, 0.01, 0, 0, neighbouring::add_remove};
  g = account<double>({sg}, opt);
  const auto mtz =
      rdp_to_dp(compose_rdp_steps(poisson_subsampled_gaussian_rdp(0.01, 1.1, orders), 10000), 1e-5);
  EXPECT_EQ(g.epsilon, mtz.guarantee.eps);
  EXPECT_NEAR(g.epsilon, 5.654, 5e-4);  // the DP-SGD reference value of spec/accounting.md
  // without replacement, pure: ln(1 + (m/n)(e^ε − 1))
  auto wor = make_event<double>(laplace_mechanism<double>{1, 2}, 1);
  wor.sampling = subsampling<double>{sampling_scheme::without_replacement, 0, 100, 1000,
                                     neighbouring::replace_one};
  g = account<double>({wor}, opt);
  EXPECT_NEAR(g.epsilon, std::log1p(0.1 * std::expm1(0.5)), 1e-15);
  EXPECT_GE(g.epsilon, std::log1p(0.1 * std::expm1(0.5)) * (1 - 1e-16));
  // negative control: the Rényi part needs a conversion δ
  opt.delta = 0;
  EXPECT_EQ(message_of([&] { (void)account(gs, opt); }),
            "accounting.delta must be > 0 to convert the Rényi part, got 0");
}

TEST(ACC_ACCOUNT, AnalysisOverridesAreHonouredOrRefused) {
  accounting_options<double> opt;
  opt.delta = 1e-6;
  auto lap = make_event<double>(laplace_mechanism<double>{1, 1}, 100);
  const double pure = account<double>({lap}, opt).epsilon;
  EXPECT_DOUBLE_EQ(pure, 100.0);
  lap.how = analysis::rdp;
  const double rdp = account<double>({lap}, opt).epsilon;
  EXPECT_LT(rdp, pure);  // 100 Laplace(1) compose better in RDP
  auto g = make_event<double>(gaussian_mechanism<double>{1, 1});
  g.how = analysis::pure;
  EXPECT_EQ(message_of([&] { (void)account<double>({g}, opt); }),
            "event[gaussian].analysis must be rdp or automatic (this mechanism is not ε-DP), got "
            "pure");
}

TEST(ACC_BUDGET, ChargeRefusesTheEventThatWouldOverspend) {
  ledger<double> l;
  const approx_dp<double> limit{0.3, 0};  // ε = 0.1 per call, rounded up
  l.charge(make_event<double>(laplace_mechanism<double>{1, 10}, 2), limit);
  EXPECT_THROW(l.charge(make_event<double>(laplace_mechanism<double>{1, 10}, 1), limit),
               budget_exceeded);
  EXPECT_EQ(l.events().size(), 1u);  // nothing recorded by the refused charge
  l.charge(make_event<double>(laplace_mechanism<double>{1, 20}, 1), limit);
  EXPECT_DOUBLE_EQ(l.total().epsilon, 0.25);
  EXPECT_GE(l.total().epsilon, 0.25);
}

TEST(ACC_LEDGER, RecordValidatesAndTheTotalIsTheAccountOfTheEvents) {
  accounting_options<double> opt;
  opt.delta = 1e-5;
  ledger<double> l(opt);
  const auto events = sample_events<double>();
  for (const auto& e : events) l.record(e);
  ASSERT_EQ(l.events().size(), events.size());
  const guarantee<double> t = l.total();
  const guarantee<double> direct = account(events, opt);
  EXPECT_EQ(t.epsilon, direct.epsilon);
  EXPECT_EQ(t.delta, direct.delta);
  // a refused event names its field and leaves the ledger unchanged
  EXPECT_EQ(message_of([&] {
              l.record(make_event<double>(laplace_mechanism<double>{1, 1}, 0));
            }),
            "event[laplace].count must be >= 1 and <= 1000000000000000000, got 0");
  EXPECT_EQ(l.events().size(), events.size());
  // count-weighted: one event of count 3 is three events of count 1
  ledger<double> three, ones;
  three.record(make_event<double>(laplace_mechanism<double>{1, 10}, 3));
  for (int i = 0; i < 3; ++i) ones.record(make_event<double>(laplace_mechanism<double>{1, 10}));
  EXPECT_EQ(three.total().epsilon, ones.total().epsilon);
  EXPECT_GE(three.total().epsilon, 0.3);
}

template <class R>
class ACC_LEDGER_JSON : public ::testing::Test {};
using all_scalars = ::testing::Types<double, long double, mp50, mpfr_real>;
TYPED_TEST_SUITE(ACC_LEDGER_JSON, all_scalars, dpref::test::scalar_names);

TYPED_TEST(ACC_LEDGER_JSON, RoundTripReaccountsBitForBit) {
  dpref::test::expect_events_roundtrip<TypeParam>(sample_events<TypeParam>());
}

TEST(ACC_LEDGER_JSON, StrictReaderRefusesWhatWouldWeakenTheResult) {
  auto read = [](const std::string& text) {
    const io::document d = io::document::parse(text, "events.json");
    return read_ledger<double>(io::node(d));
  };
  const std::string head = R"({"accounting": {"delta": 1e-5}, "events": [)";
  const std::string ok = head + R"({"mechanism": "gaussian", "sensitivity": 1, "sigma": 1.1,
      "sampling": {"scheme": "poisson", "rate": 0.01, "neighbouring": "add_remove"},
      "count": 10000}]})";
  EXPECT_NEAR(read(ok).total().epsilon, 5.654, 5e-4);
  EXPECT_EQ(
      message_of([&] {
        read(head +
             R"({"mechanism": "gaussian", "sensitivity": 1, "sigma": 1.1, "Count": 10000}]})");
      }),
      "events.json: /events/0 has unknown key \"Count\" for mechanism gaussian (valid keys: "
      "analysis, count, joint, label, mechanism, sampling, sensitivity, sigma)");
  EXPECT_EQ(message_of([&] {
              read(head + R"({"mechanism": "gaussian", "sensitivity": 1, "sigma": 1.1}]})");
            }),
            "events.json: /events/0 must have the key \"count\"");
  EXPECT_EQ(
      message_of([&] {
        read(head + R"({"mechanism": "gaussian", "sensitivity": 1, "sigma": 1.1, "count": 2.7}]})");
      }),
      "events.json: /events/0/count must be an integer in [1, 1000000000000000000] (no "
      "fraction, no exponent), got 2.7");
  EXPECT_EQ(message_of([&] {
              read(head +
                   R"({"mechanism": "gaussian", "sensitivity": 1, "sigma": 1.1, "count": 1e19}]})");
            }),
            "events.json: /events/0/count must be an integer in [1, 1000000000000000000] (no "
            "fraction, no exponent), got 1e19");
  EXPECT_EQ(message_of([&] { read(R"({"accounting": {"dleta": 1e-5}, "events": []})"); }),
            "events.json: /accounting has unknown key \"dleta\" (valid keys: conversion, delta, "
            "fractional_orders, max_order, method, pld_adaptive, pld_interval, pld_max_points, "
            "rdp_max_evaluations)");
  EXPECT_EQ(message_of([&] { read(R"({"accounting": {"delta": 1e-5}, "events": {}})"); }),
            "events.json: /events must be an array, got {}");
  EXPECT_EQ(
      message_of([&] {
        read(head + R"({"mechanism": "gausian", "sensitivity": 1, "sigma": 1, "count": 1}]})");
      }),
      "events.json: /events/0/mechanism must be one of pure, approx, rdp, laplace, "
      "vector_laplace, gaussian, exponential, randomized_response, discrete_laplace, "
      "discrete_gaussian, sparse_vector, snapped_laplace, snapped_gaussian, "
      "snapped_vector_laplace, got \"gausian\"");
}

// Certified evaluations from 4 threads, each at another precision, equal the serial results
// bit for bit (no process-wide precision is changed: ACC.CERT.THREADS).
template <class R>
std::vector<R> certified_values() {
  std::vector<R> out;
  accounting_options<R> opt;
  opt.delta = R(1) / 100000;
  opt.max_order = 48;
  const guarantee<R> g = account(sample_events<R>(), opt);
  out.push_back(g.epsilon);
  out.push_back(g.delta);
  out.push_back(analytic_gaussian_sigma(R(1), R(1) / 2, R(1) / 100000));
  out.push_back(analytic_gaussian_privacy(R(1), R(3), R(1) / 1000000).eps);
  return out;
}

TEST(ACC_CERT_THREADS, FourThreadsAtFourPrecisionsEqualTheSerialResults) {
  const auto d = certified_values<double>();
  const auto ld = certified_values<long double>();
  const auto m = certified_values<mp50>();
  const auto f = certified_values<mpfr_real>();
  for (int round = 0; round < 3; ++round) {
    std::vector<double> d2;
    std::vector<long double> ld2;
    std::vector<mp50> m2;
    std::vector<mpfr_real> f2;
    const parallel::thread_numerics numerics = parallel::thread_numerics::current();
    {
      std::jthread a([&] {
        const parallel::worker_scope scope(numerics);  // frees its MPFR caches
        d2 = certified_values<double>();
      });
      std::jthread b([&] {
        const parallel::worker_scope scope(numerics);  // frees its MPFR caches
        ld2 = certified_values<long double>();
      });
      std::jthread c([&] {
        const parallel::worker_scope scope(numerics);  // frees its MPFR caches
        m2 = certified_values<mp50>();
      });
      std::jthread e([&] {
        const parallel::worker_scope scope(numerics);  // frees its MPFR caches
        f2 = certified_values<mpfr_real>();
      });
    }
    EXPECT_EQ(d2, d);
    EXPECT_EQ(ld2, ld);
    EXPECT_EQ(m2, m);
    ASSERT_EQ(f2.size(), f.size());
    for (std::size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f2[i], f[i]) << i;
  }
  // the four precisions really differ (a common precision would make the test vacuous)
  EXPECT_NE(static_cast<long double>(ld[0]), static_cast<long double>(d[0]));
  EXPECT_NE(m[0], mp50(ld[0]));
  EXPECT_EQ(working_precision_scope::bits(), 256);  // this thread's setting is untouched
}

}  // namespace

namespace {

// Independent evaluation of WBK Theorem 9 for the Gaussian (plain long double, small orders).
long double wbk_reference(long double g, long double s, int a) {
  auto eps = [&](int j) { return j / (2 * s * s); };
  auto binom = [](int n, int k) {
    long double r = 1;
    for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
  };
  long double sum =
      1 + g * g * binom(a, 2) * std::min(4 * std::expm1(eps(2)), 2 * std::exp(eps(2)));
  for (int j = 3; j <= a; ++j) sum += 2 * std::pow(g, j) * binom(a, j) * std::exp((j - 1) * eps(j));
  return std::min(std::log(sum) / (a - 1), eps(a));
}

TEST(ACC_RDP_WOR_WBK, MatchesAnIndependentEvaluationAndIsAnUpperBound) {
  const auto orders = integer_orders<double>(2, 12);
  for (double g : {0.01, 0.1, 0.5}) {
    for (double s : {0.8, 2.0, 5.0}) {
      const auto c = subsampled_gaussian_rdp_wor(g, s, orders);
      for (std::size_t i = 0; i < orders.size(); ++i) {
        const long double ref = wbk_reference(g, s, static_cast<int>(orders[i]));
        EXPECT_GE(static_cast<long double>(c.eps[i]), ref * (1 - 1e-15L)) << g << " " << s;
        EXPECT_LE(static_cast<long double>(c.eps[i]), ref * (1 + 1e-12L) + 1e-300L);
      }
    }
  }
  // γ = 1: no amplification, α/(2s²)
  const auto full = subsampled_gaussian_rdp_wor(1.0, 2.0, orders);
  EXPECT_DOUBLE_EQ(full.eps[0], 2.0 / 8.0);
  // negative control: a 1% larger noise multiplier gives a visibly smaller curve
  const auto loose = subsampled_gaussian_rdp_wor(0.1, 2.02, orders);
  EXPECT_LT(loose.eps[5], static_cast<double>(wbk_reference(0.1, 2.0, 7)) * (1 - 1e-3));
}

}  // namespace

namespace {

event<double> dpsgd_event(double q, double sigma, long long steps) {
  auto e = make_event<double>(gaussian_mechanism<double>{1, sigma}, steps);
  e.sampling = subsampling<double>{sampling_scheme::poisson, q, 0, 0, neighbouring::add_remove};
  return e;
}

TEST(ACC_ACCOUNT_PLD, TighterThanRdpAndSandwichedByTheOptimisticValue) {
  accounting_options<double> opt;
  opt.delta = 1e-5;
  opt.method = accounting_method::pld;
  const guarantee<double> p = account<double>({dpsgd_event(0.01, 1.1, 10000)}, opt);
  EXPECT_EQ(p.method, accounting_method::pld);
  // spec/accounting_pld.md table: optimistic 5.1917 <= exact <= certified; RDP 5.6543
  EXPECT_GE(p.epsilon, 5.1917);
  EXPECT_LE(p.epsilon, 5.1917 * 1.002);
  EXPECT_EQ(p.delta, 1e-5);
  opt.method = accounting_method::best;
  const guarantee<double> b = account<double>({dpsgd_event(0.01, 1.1, 10000)}, opt);
  EXPECT_EQ(b.method, accounting_method::pld);
  EXPECT_EQ(b.epsilon, p.epsilon);
  opt.method = accounting_method::rdp;
  EXPECT_GT(account<double>({dpsgd_event(0.01, 1.1, 10000)}, opt).epsilon, p.epsilon * 1.05);
}

TEST(ACC_ACCOUNT_PLD, ComposedGaussiansAreWithinTwoPerMilleOfTheClosedForm) {
  // (q, σ, steps) = (1, 5, 100): one Gaussian with σ/10; exact ε = 9.997256 at δ = 1e-5
  accounting_options<double> opt;
  opt.delta = 1e-5;
  opt.method = accounting_method::pld;
  const guarantee<double> g =
      account<double>({make_event<double>(gaussian_mechanism<double>{1, 5}, 100)}, opt);
  EXPECT_GE(g.epsilon, 9.997256);
  EXPECT_LE(g.epsilon, 9.997256 * 1.002);
  // negative control: σ 1% larger is below the exact value of σ = 5 (the test can fail)
  const guarantee<double> loose =
      account<double>({make_event<double>(gaussian_mechanism<double>{1, 5.05}, 100)}, opt);
  EXPECT_LT(loose.epsilon, 9.997256);
}

TEST(ACC_ACCOUNT_PLD, LedgersWithoutAPldAreRefusedAndBestFallsBackToRdp) {
  accounting_options<double> opt;
  opt.delta = 1e-5;
  opt.method = accounting_method::pld;
  std::vector<event<double>> ev{dpsgd_event(0.01, 1.1, 100),
                                make_event<double>(sparse_vector_mechanism<double>{
                                    svt_noise::laplace, 1, 20, 40, 1, svt_bound::proven})};
  EXPECT_EQ(message_of([&] { (void)account(ev, opt); }),
            "accounting.method must be rdp or best for this ledger: event 1 (sparse_vector) has "
            "no privacy-loss distribution in dpref (use method rdp or best), got pld");
  opt.method = accounting_method::best;
  const guarantee<double> b = account(ev, opt);
  EXPECT_EQ(b.method, accounting_method::rdp);
  opt.method = accounting_method::rdp;
  EXPECT_EQ(b.epsilon, account(ev, opt).epsilon);
}

TEST(ACC_ACCOUNT_PLD, PureAndDeclaredEventsComposeSoundly) {
  // 10 Laplace(1) calls: PLD ε at δ = 1e-6 is below the pure 10 and above the optimistic
  // lower bound of the exact composition (which is > 10 − 2·sqrt(2·10·ln(1e6)) > 0)
  accounting_options<double> opt;
  opt.delta = 1e-6;
  opt.method = accounting_method::pld;
  const guarantee<double> g =
      account<double>({make_event<double>(laplace_mechanism<double>{1, 1}, 10),
                       make_event<double>(approx_mechanism<double>{0.5, 1e-7})},
                      opt);
  EXPECT_LT(g.epsilon, 10.5);
  EXPECT_GT(g.epsilon, 0.5);
  EXPECT_DOUBLE_EQ(g.delta, 1e-6 + 1e-7);
  EXPECT_GE(g.delta, 1e-6 + 1e-7);
  // a pure event of ε = 2 alone: randomized response, δ(ε = 2) = 0, so ε(δ) <= 2 (+grid)
  const guarantee<double> r = account<double>({make_event<double>(pure_mechanism<double>{2})}, opt);
  EXPECT_LE(r.epsilon, 2 + 2e-3);
  EXPECT_GT(r.epsilon, 1.9);
}

TEST(ACC_ACCOUNT_PLD, FractionalOrdersOnlyEverTighten) {
  accounting_options<double> opt;
  opt.delta = 1e-5;
  opt.max_order = 64;
  const std::vector<event<double>> ev{make_event<double>(gaussian_mechanism<double>{1, 5}, 100)};
  const double integer_grid = account(ev, opt).epsilon;
  opt.fractional_orders = true;
  const double with_fraction = account(ev, opt).epsilon;
  EXPECT_LE(with_fraction, integer_grid);
  EXPECT_GE(with_fraction, 9.997256);  // still an upper bound of the exact value
  // the grid: 1.1 … 10.9 (no integers) merged with 2 … 64
  const auto o = opt.orders();
  EXPECT_EQ(o.front(), 1.1);
  EXPECT_EQ(o.size(), 90u + 63u);  // 99 tenths in (1, 11) minus the 9 integers, + 2..64
}

}  // namespace

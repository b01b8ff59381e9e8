// Tests for the exact integer samplers (spec/random_secure.md RAND.SECURE.*).
// Every statistical test uses a fixed seed, states its sample size and its false-alarm
// probability; the reference pmfs are computed in long double in this file only.
#include <gtest/gtest.h>

#include <boost/math/distributions/binomial.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <compare>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/bernoulli_exp.hpp"
#include "dpref/random/secure/discrete_gaussian.hpp"
#include "dpref/random/secure/discrete_laplace.hpp"
#include "dpref/random/secure/snapping.hpp"
#include "dpref/random/secure/uniform_int.hpp"
#include "support/gof.hpp"

// ---- strict_int: an integer-only wrapper with no route to or from floating point ------------
struct strict_int {
  std::int64_t v = 0;
  constexpr strict_int() = default;
  template <std::integral I>
  constexpr strict_int(I x) : v(static_cast<std::int64_t>(x)) {}  // NOLINT: implicit on purpose
  strict_int(double) = delete;
  strict_int(float) = delete;
  strict_int(long double) = delete;
  friend strict_int operator+(strict_int a, strict_int b) { return strict_int(a.v + b.v); }
  friend strict_int operator-(strict_int a, strict_int b) { return strict_int(a.v - b.v); }
  friend strict_int operator*(strict_int a, strict_int b) { return strict_int(a.v * b.v); }
  friend strict_int operator/(strict_int a, strict_int b) { return strict_int(a.v / b.v); }
  friend strict_int operator%(strict_int a, strict_int b) { return strict_int(a.v % b.v); }
  friend auto operator<=>(strict_int a, strict_int b) = default;
  friend bool operator==(strict_int a, strict_int b) = default;
};

template <>
class std::numeric_limits<strict_int> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_integer = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_exact = true;
  static constexpr strict_int max() { return strict_int(std::numeric_limits<std::int64_t>::max()); }
  static constexpr strict_int min() { return strict_int(std::numeric_limits<std::int64_t>::min()); }
};

static_assert(!std::is_constructible_v<strict_int, double>);
static_assert(!std::is_constructible_v<strict_int, float>);
static_assert(!std::is_convertible_v<strict_int, double>);
static_assert(!std::is_constructible_v<double, strict_int>);
static_assert(dpref::secure::secure_int<strict_int>);
static_assert(dpref::secure::secure_int<boost::multiprecision::cpp_int>);
static_assert(!dpref::secure::secure_int<double>);

namespace {

namespace sec = dpref::secure;
using dpref::philox_stream;
using dpref::test::chi2_result;
using dpref::test::chi2_test;

constexpr double kAlpha = 1e-6;  // false-alarm probability of every statistical test below
constexpr long long kN = 1'000'000;

void report(const char* name, const chi2_result& r) {
  std::printf("[chi2] %-40s statistic=%.3f critical=%.3f dof=%d reject=%d\n", name, r.statistic,
              r.critical, r.dof, r.reject ? 1 : 0);
}

// ---- reference pmfs (long double, test only) ------------------------------------------------
long double dlaplace_pmf(long long x, long double t) {
  const long double q = std::exp(-1.0L / t);
  return (1 - q) / (1 + q) * std::pow(q, static_cast<long double>(std::llabs(x)));
}

struct dgauss_ref {
  long double var;
  long double norm = 0;
  explicit dgauss_ref(long double v) : var(v) {
    const long long r = static_cast<long long>(40 * std::sqrt(v)) + 40;
    for (long long x = -r; x <= r; ++x)
      norm += std::exp(-static_cast<long double>(x * x) / (2 * v));
  }
  long double operator()(long long x) const {
    return std::exp(-static_cast<long double>(x * x) / (2 * var)) / norm;
  }
};

template <class F>
std::map<long long, long long> histogram(long long n, F&& draw) {
  std::map<long long, long long> c;
  for (long long i = 0; i < n; ++i) ++c[static_cast<long long>(draw())];
  return c;
}

// Moment check by the CLT (asymptotic normality of the sample mean): each of the two checks has
// false-alarm probability ~kAlpha.
void check_moments(const std::map<long long, long long>& counts,
                   const std::function<long double(long long)>& pmf, long long r) {
  long double m2 = 0, m4 = 0;
  for (long long x = -r; x <= r; ++x) {
    const long double p = pmf(x), xx = static_cast<long double>(x * x);
    m2 += p * xx;
    m4 += p * xx * xx;
  }
  long double n = 0, s1 = 0, s2 = 0;
  for (auto& [x, c] : counts) {
    const auto xl = static_cast<long double>(x), cl = static_cast<long double>(c);
    n += cl;
    s1 += cl * xl;
    s2 += cl * xl * xl;
  }
  const long double z = dpref::test::normal_two_sided_critical(kAlpha);
  const long double mean = s1 / n, msq = s2 / n;
  EXPECT_LE(std::fabs(mean), z * std::sqrt(m2 / n)) << "mean " << static_cast<double>(mean);
  EXPECT_LE(std::fabs(msq - m2), z * std::sqrt((m4 - m2 * m2) / n))
      << "E[X^2] " << static_cast<double>(msq) << " vs " << static_cast<double>(m2);
}

// Exact two-sided binomial acceptance region at false-alarm probability <= kAlpha.
void check_binomial(long long successes, long long n, double p, const char* what) {
  boost::math::binomial_distribution<double> dist(static_cast<double>(n), p);
  const double lo = boost::math::quantile(dist, kAlpha / 2);
  const double hi = boost::math::quantile(boost::math::complement(dist, kAlpha / 2));
  const auto k = static_cast<double>(successes);
  std::printf("[binom] %-30s successes=%lld n=%lld p=%.9f accept=[%.0f, %.0f]\n", what, successes,
              n, p, lo, hi);
  EXPECT_GE(k, lo) << what;
  EXPECT_LE(k, hi) << what;
}

template <class Ex, class F>
void expect_throw_naming(F&& f, const std::string& param) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one naming " << param;
  } catch (const Ex& e) {
    EXPECT_NE(std::string(e.what()).find(param), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("dpref::secure::"), std::string::npos) << e.what();
  } catch (...) {
    ADD_FAILURE() << "wrong exception type; expected one naming " << param;
  }
}

// ==== RAND.SECURE.UNIFORM_INT ===============================================================
// n = 10^6 draws, false alarm 1e-6 (chi-square, 6 dof).
TEST(RAND_SECURE_UNIFORM_INT, ChiSquareM7) {
  philox_stream s(101);
  const auto counts = histogram(kN, [&] { return sec::uniform_int<std::int64_t>(s, 7); });
  const auto r = chi2_test(
      counts, [](long long) { return 1.0 / 7.0; }, 0, 6, kAlpha);
  report("uniform_int m=7", r);
  EXPECT_EQ(counts.begin()->first, 0);
  EXPECT_EQ(counts.rbegin()->first, 6);
  EXPECT_FALSE(r.reject);
}

// Negative control: a modulo-biased generator (w % 7 with w from 4 bits) must be rejected.
// n = 10^6, false alarm of the underlying test 1e-6.
TEST(RAND_SECURE_UNIFORM_INT, NegativeControlModuloBiasRejected) {
  philox_stream s(102);
  const auto counts = histogram(kN, [&] { return static_cast<long long>((s() >> 60) % 7); });
  const auto r = chi2_test(
      counts, [](long long) { return 1.0 / 7.0; }, 0, 6, kAlpha);
  report("NEG modulo-biased m=7", r);
  EXPECT_TRUE(r.reject);
}

TEST(RAND_SECURE_UNIFORM_INT, RangeForLargeAndTrivialM) {
  philox_stream s(103);
  const std::int64_t big[] = {std::numeric_limits<std::int64_t>::max(),
                              (std::int64_t{1} << 62) + 12345, (std::int64_t{3} << 61), 2, 3};
  for (std::int64_t m : big) {
    for (int i = 0; i < 2000; ++i) {
      const std::int64_t u = sec::uniform_int(s, m);
      ASSERT_GE(u, 0);
      ASSERT_LT(u, m);
    }
  }
  const auto before = s.position();
  EXPECT_EQ(sec::uniform_int<std::int64_t>(s, 1), 0);
  EXPECT_EQ(s.position(), before);  // m = 1 reads nothing
}

TEST(RAND_SECURE_UNIFORM_INT, Validation) {
  philox_stream s(1);
  expect_throw_naming<std::domain_error>([&] { sec::uniform_int<std::int64_t>(s, 0); }, "m");
  expect_throw_naming<std::domain_error>([&] { sec::uniform_int<std::int64_t>(s, -5); }, "-5");
}

// ==== RAND.SECURE.BERN_RATIONAL =============================================================
// n = 10^6 trials, exact two-sided binomial test, false alarm <= 1e-6.
TEST(RAND_SECURE_BERN_RATIONAL, FrequencyTwoSevenths) {
  philox_stream s(201);
  long long k = 0;
  for (long long i = 0; i < kN; ++i) k += sec::bernoulli_rational<std::int64_t>(s, 2, 7);
  check_binomial(k, kN, 2.0 / 7.0, "bernoulli_rational 2/7");
}

TEST(RAND_SECURE_BERN_RATIONAL, EdgesAndValidation) {
  philox_stream s(202);
  for (int i = 0; i < 100; ++i) {
    EXPECT_FALSE(sec::bernoulli_rational<std::int64_t>(s, 0, 5));
    EXPECT_TRUE(sec::bernoulli_rational<std::int64_t>(s, 5, 5));
  }
  expect_throw_naming<std::domain_error>([&] { sec::bernoulli_rational<std::int64_t>(s, 0, 0); },
                                         ": d must be");
  expect_throw_naming<std::domain_error>([&] { sec::bernoulli_rational<std::int64_t>(s, -1, 3); },
                                         ": n must be");
  expect_throw_naming<std::domain_error>([&] { sec::bernoulli_rational<std::int64_t>(s, 4, 3); },
                                         ": n must be");
}

// ==== RAND.SECURE.BERN_EXP ==================================================================
// gamma in {0, 1/3, 1, 5/2}; n = 10^6 trials each; exact two-sided binomial test, false alarm
// <= 1e-6 each (gamma = 0 is deterministic).
TEST(RAND_SECURE_BERN_EXP, FrequencyBinomialTest) {
  struct g {
    std::int64_t n, d;
  };
  for (const g gm : {g{0, 1}, g{1, 3}, g{1, 1}, g{5, 2}}) {
    philox_stream s(301, static_cast<std::uint64_t>(gm.n), static_cast<std::uint64_t>(gm.d));
    long long k = 0;
    for (long long i = 0; i < kN; ++i) k += sec::bernoulli_exp(s, gm.n, gm.d);
    const double p = std::exp(-static_cast<double>(gm.n) / static_cast<double>(gm.d));
    const std::string what = "bernoulli_exp " + std::to_string(gm.n) + "/" + std::to_string(gm.d);
    if (gm.n == 0) {
      EXPECT_EQ(k, kN);
    } else {
      check_binomial(k, kN, p, what.c_str());
    }
  }
}

// Negative control: gamma = 1/3 sampled, tested against exp(-0.35). n = 10^6. Must reject.
TEST(RAND_SECURE_BERN_EXP, NegativeControlRejects) {
  philox_stream s(302);
  long long k = 0;
  for (long long i = 0; i < kN; ++i) k += sec::bernoulli_exp<std::int64_t>(s, 1, 3);
  boost::math::binomial_distribution<double> dist(static_cast<double>(kN), std::exp(-0.35));
  const double lo = boost::math::quantile(dist, kAlpha / 2);
  const double hi = boost::math::quantile(boost::math::complement(dist, kAlpha / 2));
  const auto kk = static_cast<double>(k);
  EXPECT_TRUE(kk < lo || kk > hi);
}

TEST(RAND_SECURE_BERN_EXP, LargeGammaAndValidation) {
  philox_stream s(303);
  // gamma = 10^6: exp(-gamma) = 0 to any precision; must return false (and terminate).
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(sec::bernoulli_exp<std::int64_t>(s, 1'000'000, 1));
  // Huge denominator exercises the product form of Bernoulli(gamma / k).
  const std::int64_t big = std::numeric_limits<std::int64_t>::max() / 2;
  long long k = 0;
  for (int i = 0; i < 1000; ++i) k += sec::bernoulli_exp<std::int64_t>(s, big, big);  // gamma=1
  EXPECT_GT(k, 250);  // mean 368, sd 15: false alarm < 1e-12
  EXPECT_LT(k, 490);
  expect_throw_naming<std::domain_error>([&] { sec::bernoulli_exp<std::int64_t>(s, 1, 0); },
                                         "denominator");
  expect_throw_naming<std::domain_error>([&] { sec::bernoulli_exp<std::int64_t>(s, -1, 2); },
                                         "gamma");
}

// ==== RAND.SECURE.DLAPLACE ==================================================================
// n = 10^6 draws per scale; chi-square against the exact pmf, false alarm 1e-6 each.
TEST(RAND_SECURE_DLAPLACE, ChiSquareExactPmf) {
  struct sc {
    std::int64_t num, den;
  };
  for (const sc t : {sc{1, 1}, sc{7, 3}}) {
    philox_stream s(401, static_cast<std::uint64_t>(t.num));
    const auto counts =
        histogram(kN, [&] { return sec::discrete_laplace<std::int64_t>(s, t.num, t.den); });
    const long double tt = static_cast<long double>(t.num) / static_cast<long double>(t.den);
    const auto r = chi2_test(
        counts, [&](long long x) { return static_cast<double>(dlaplace_pmf(x, tt)); }, -60, 60,
        kAlpha);
    const std::string name = "dlaplace t=" + std::to_string(t.num) + "/" + std::to_string(t.den);
    report(name.c_str(), r);
    EXPECT_FALSE(r.reject) << name;
  }
}

// Negative control: sample with t = 11/10, test against t = 1. n = 10^6. Must reject.
TEST(RAND_SECURE_DLAPLACE, NegativeControlWrongScaleRejected) {
  philox_stream s(402);
  const auto counts = histogram(kN, [&] { return sec::discrete_laplace<std::int64_t>(s, 11, 10); });
  const auto r = chi2_test(
      counts, [](long long x) { return static_cast<double>(dlaplace_pmf(x, 1.0L)); }, -60, 60,
      kAlpha);
  report("NEG dlaplace t=11/10 vs pmf t=1", r);
  EXPECT_TRUE(r.reject);
}

// Mean 0 and E[X^2] = 2q/(1-q)^2 (q = e^{-1/t}), t = 7/3, n = 10^6; CLT-based two-sided checks,
// false alarm ~1e-6 each (asymptotic normal approximation).
TEST(RAND_SECURE_DLAPLACE, MeanAndVarianceClt) {
  philox_stream s(403);
  const auto counts = histogram(kN, [&] { return sec::discrete_laplace<std::int64_t>(s, 7, 3); });
  const long double t = 7.0L / 3.0L, q = std::exp(-1 / t);
  long double var = 0;
  for (long long x = -400; x <= 400; ++x)
    var += dlaplace_pmf(x, t) * static_cast<long double>(x * x);
  EXPECT_NEAR(static_cast<double>(var), static_cast<double>(2 * q / ((1 - q) * (1 - q))), 1e-9);
  check_moments(
      counts, [&](long long x) { return dlaplace_pmf(x, t); }, 400);
}

TEST(RAND_SECURE_DLAPLACE, ValidationAndOverflow) {
  philox_stream s(404);
  expect_throw_naming<std::domain_error>([&] { sec::discrete_laplace<std::int64_t>(s, 0, 1); },
                                         "t_num");
  expect_throw_naming<std::domain_error>([&] { sec::discrete_laplace<std::int64_t>(s, 1, -2); },
                                         "t_den");
  // t_num = INT64_MAX: U + t_num V overflows as soon as V >= 1 and U > 0 (probability about
  // 1/e per draw); 200 draws fail to overflow with probability < 1e-30.
  expect_throw_naming<std::overflow_error>(
      [&] {
        for (int i = 0; i < 200; ++i)
          sec::discrete_laplace<std::int64_t>(s, std::numeric_limits<std::int64_t>::max(), 1);
      },
      "discrete_laplace");
}

// ==== RAND.SECURE.DGAUSS ====================================================================
// n = 10^6 draws per variance; chi-square against the exact pmf, false alarm 1e-6 each.
TEST(RAND_SECURE_DGAUSS, ChiSquareExactPmf) {
  struct v {
    std::int64_t num, den;
  };
  for (const v var : {v{1, 1}, v{25, 4}}) {
    philox_stream s(501, static_cast<std::uint64_t>(var.num));
    const auto counts =
        histogram(kN, [&] { return sec::discrete_gaussian<std::int64_t>(s, var.num, var.den); });
    const dgauss_ref pmf(static_cast<long double>(var.num) / static_cast<long double>(var.den));
    const auto r = chi2_test(
        counts, [&](long long x) { return static_cast<double>(pmf(x)); }, -40, 40, kAlpha);
    const std::string name =
        "dgauss sigma^2=" + std::to_string(var.num) + "/" + std::to_string(var.den);
    report(name.c_str(), r);
    EXPECT_FALSE(r.reject) << name;
  }
}

// Negative control: sample sigma^2 = 11/10, test against sigma^2 = 1. n = 10^6. Must reject.
TEST(RAND_SECURE_DGAUSS, NegativeControlWrongVarianceRejected) {
  philox_stream s(502);
  const auto counts =
      histogram(kN, [&] { return sec::discrete_gaussian<std::int64_t>(s, 11, 10); });
  const dgauss_ref pmf(1.0L);
  const auto r = chi2_test(
      counts, [&](long long x) { return static_cast<double>(pmf(x)); }, -40, 40, kAlpha);
  report("NEG dgauss sigma^2=11/10 vs pmf 1", r);
  EXPECT_TRUE(r.reject);
}

// Mean 0 and E[X^2] from the exact pmf, sigma^2 = 25/4, n = 10^6; CLT-based two-sided checks,
// false alarm ~1e-6 each (asymptotic normal approximation).
TEST(RAND_SECURE_DGAUSS, MeanAndVarianceClt) {
  philox_stream s(503);
  const auto counts = histogram(kN, [&] { return sec::discrete_gaussian<std::int64_t>(s, 25, 4); });
  const dgauss_ref pmf(6.25L);
  check_moments(counts, pmf, 200);
}

TEST(RAND_SECURE_DGAUSS, ValidationAndLargeSigma) {
  philox_stream s(504);
  expect_throw_naming<std::domain_error>([&] { sec::discrete_gaussian<std::int64_t>(s, 0, 1); },
                                         "var_num");
  expect_throw_naming<std::domain_error>([&] { sec::discrete_gaussian<std::int64_t>(s, 1, 0); },
                                         "var_den");
  // sigma^2 = 2^62 - 1 (sigma ~ 2^31): 2 a b t^2 does not fit int64, every acceptance runs in
  // the exact cpp_int fallback; |X| > 10 sigma has probability < 1e-21 per draw.
  const std::int64_t a = std::numeric_limits<std::int64_t>::max() / 2;
  for (int i = 0; i < 20; ++i) {
    const std::int64_t x = sec::discrete_gaussian<std::int64_t>(s, a, 1);
    EXPECT_LT(std::llabs(x), 10LL * (1LL << 31));
  }
  // Unbounded Int: sigma^2 = 10^30.
  using boost::multiprecision::cpp_int;
  const cpp_int big = cpp_int("1000000000000000000000000000000");
  for (int i = 0; i < 5; ++i) {
    const cpp_int x = sec::discrete_gaussian<cpp_int>(s, big, cpp_int(1));
    EXPECT_LT(abs(x), cpp_int("10000000000000000"));  // 10 sigma
  }
}

// ==== RAND.SECURE.NOFLOAT ===================================================================
// Items 1-4 instantiated with strict_int (no conversion to or from floating point) compile,
// run, and reproduce the int64 draws exactly for the same stream.
TEST(RAND_SECURE_NOFLOAT, StrictIntCompilesRunsAndMatchesInt64) {
  philox_stream a(601), b(601);
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(sec::uniform_int<strict_int>(a, strict_int(7)).v,
              sec::uniform_int<std::int64_t>(b, 7));
    ASSERT_EQ(sec::bernoulli_rational<strict_int>(a, strict_int(2), strict_int(7)),
              sec::bernoulli_rational<std::int64_t>(b, 2, 7));
    ASSERT_EQ(sec::bernoulli_exp<strict_int>(a, strict_int(5), strict_int(2)),
              sec::bernoulli_exp<std::int64_t>(b, 5, 2));
    ASSERT_EQ(sec::discrete_laplace<strict_int>(a, strict_int(7), strict_int(3)).v,
              sec::discrete_laplace<std::int64_t>(b, 7, 3));
    ASSERT_EQ(sec::discrete_gaussian<strict_int>(a, strict_int(25), strict_int(4)).v,
              sec::discrete_gaussian<std::int64_t>(b, 25, 4));
  }
  EXPECT_EQ(a.position(), b.position());
  EXPECT_THROW(sec::discrete_gaussian<strict_int>(a, strict_int(0), strict_int(1)),
               std::domain_error);
}

// ==== reproducibility (RAND.SECURE.DLAPLACE / DGAUSS / BERN_EXP) ==============================
TEST(RAND_SECURE_DLAPLACE, ReproducibleForFixedSeed) {
  auto run = [](std::uint64_t seed) {
    philox_stream s(seed, 3, 4);
    std::vector<std::int64_t> out;
    for (int i = 0; i < 5000; ++i) {
      out.push_back(sec::discrete_laplace<std::int64_t>(s, 7, 3));
      out.push_back(sec::discrete_gaussian<std::int64_t>(s, 25, 4));
      out.push_back(sec::bernoulli_exp<std::int64_t>(s, 1, 3) ? 1 : 0);
      out.push_back(sec::uniform_int<std::int64_t>(s, 1000));
    }
    return out;
  };
  EXPECT_EQ(run(7), run(7));
  EXPECT_NE(run(7), run(8));
}

// ==== RAND.SECURE.SNAP ======================================================================
TEST(RAND_SECURE_SNAP, RoundHalfEvenAndExactValues) {
  philox_stream s(701);
  auto zero = [](philox_stream&) { return std::int64_t{0}; };
  auto two = [](philox_stream&) { return std::int64_t{2}; };
  EXPECT_EQ(sec::snap(s, 2.5, 0, zero), 2.0);
  EXPECT_EQ(sec::snap(s, 3.5, 0, zero), 4.0);
  EXPECT_EQ(sec::snap(s, -2.5, 0, zero), -2.0);
  EXPECT_EQ(sec::snap(s, -3.5, 0, zero), -4.0);
  EXPECT_EQ(sec::snap(s, 0.75, -1, zero), 1.0);
  EXPECT_EQ(sec::snap(s, 3.7, -1, two), 4.5);  // round(7.4) = 7, + 2 = 9 -> 4.5
  EXPECT_EQ(sec::snap(s, 1e300, 950, zero), std::ldexp(std::round(std::ldexp(1e300, -950)), 950));
  EXPECT_EQ(sec::snap(s, std::ldexp(1.0, 52), 0, zero), std::ldexp(1.0, 52));
}

TEST(RAND_SECURE_SNAP, OutputOnGridAndExact) {
  philox_stream s(702);
  for (int i = 0; i < 20000; ++i) {
    const double x = 1234.56789 + i * 1e-3;
    const double rl = sec::snapped_laplace(s, x, 0.5, -7);
    const double rg = sec::snapped_gaussian(s, x, 0.25, -10);
    const double ul = std::ldexp(rl, 7), ug = std::ldexp(rg, 10);
    ASSERT_EQ(ul, std::trunc(ul));  // on the 2^-7 grid
    ASSERT_EQ(ug, std::trunc(ug));  // on the 2^-10 grid
    ASSERT_LT(std::fabs(rl - x), 100.0);
    ASSERT_LT(std::fabs(rg - x), 100.0);
  }
}

TEST(RAND_SECURE_SNAP, NoiseScalesRoundedUp) {
  EXPECT_EQ(sec::laplace_grid_scale(1.0, 0), 1);
  EXPECT_EQ(sec::laplace_grid_scale(2.5, 0), 3);
  EXPECT_EQ(sec::laplace_grid_scale(1.0, -2), 4);
  EXPECT_EQ(sec::laplace_grid_scale(1.0, 3), 1);
  EXPECT_EQ(sec::laplace_grid_scale(100.0, 1), 50);
  EXPECT_EQ(sec::laplace_grid_scale(1e-300, 1000), 1);
  using boost::multiprecision::cpp_int;
  struct c {
    double sigma;
    int k;
  };
  for (const c cs : {c{1.0, 0}, c{2.5, 0}, c{0.1, -3}, c{3.0, 1}, c{1e3, 0}, c{0.3, 2},
                     c{1e-5, -10}, c{8000.5, 0}, c{1e-200, 0}}) {
    const sec::rational64 r = sec::gaussian_grid_variance(cs.sigma, cs.k);
    ASSERT_GT(r.num, 0);
    ASSERT_GT(r.den, 0);
    // exact sigma^2 / 4^k = m^2 2^(2e - 2k) with sigma = m 2^e
    int e = 0;
    const double f = std::frexp(cs.sigma, &e);
    const auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));
    e -= 53;
    const long long sh = 2LL * e - 2LL * cs.k;
    cpp_int lhs = cpp_int(r.num), rhs = cpp_int(m) * cpp_int(m) * cpp_int(r.den);
    if (sh >= 0) {
      rhs <<= static_cast<unsigned>(sh);
    } else {
      lhs <<= static_cast<unsigned>(-sh);
    }
    EXPECT_GE(lhs, rhs) << cs.sigma << " k=" << cs.k;  // never rounded down
    // and at most one unit of the last place (num/den) above: lhs - rhs <= 2^(-sh) (sh < 0)
    if (sh < 0) {
      EXPECT_LE(lhs - rhs, cpp_int(1) << static_cast<unsigned>(-sh));
    }
  }
  EXPECT_EQ(sec::gaussian_grid_variance(2.5, 0).num, 25);
  EXPECT_EQ(sec::gaussian_grid_variance(2.5, 0).den, 4);
  EXPECT_EQ(sec::gaussian_grid_variance(3.0, 1).num, 9);
  EXPECT_EQ(sec::gaussian_grid_variance(3.0, 1).den, 4);
}

TEST(RAND_SECURE_SNAP, ValidationThrows) {
  philox_stream s(703);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto zero = [](philox_stream&) { return std::int64_t{0}; };
  auto one = [](philox_stream&) { return std::int64_t{1}; };
  expect_throw_naming<std::domain_error>([&] { sec::snapped_laplace(s, nan, 1.0, 0); }, "x");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_gaussian(s, inf, 1.0, 0); }, "x");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_laplace(s, 1.0, 1.0, 2000); }, "k");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_gaussian(s, 1.0, 1.0, -2000); }, "k");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_laplace(s, 1.0, 0.0, 0); }, "scale_b");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_laplace(s, 1.0, -1.0, 0); }, "scale_b");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_laplace(s, 1.0, nan, 0); }, "scale_b");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_gaussian(s, 1.0, 0.0, 0); }, "sigma");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_gaussian(s, 1.0, nan, 0); }, "sigma");
  // sigma / 2^k too large for the grid
  expect_throw_naming<std::domain_error>([&] { sec::snapped_gaussian(s, 1.0, 1e6, 0); }, "sigma");
  // |x / 2^k| > 2^52
  expect_throw_naming<std::domain_error>([&] { sec::snap(s, std::ldexp(1.0, 53), 0, zero); }, "x");
  expect_throw_naming<std::domain_error>([&] { sec::snapped_laplace(s, 1e20, 1.0, 0); }, "x");
  // x / 2^k inexact (underflow below the subnormal range)
  expect_throw_naming<std::domain_error>(
      [&] { sec::snap(s, std::numeric_limits<double>::denorm_min(), 1, zero); }, "x");
  // result beyond 2^52 grid units
  expect_throw_naming<std::domain_error>([&] { sec::snap(s, std::ldexp(1.0, 52), 0, one); },
                                         "result");
  // result overflows the double range
  expect_throw_naming<std::domain_error>(
      [&] { sec::snap(s, std::ldexp(16777215.0, 1000), 1000, one); }, "result");
}

}  // namespace

// Unit and regression tests of the privacy-accounting layer (spec/accounting.md, issue 9).
// Suite names carry the spec IDs (dots → underscores). Expected values are derived by an
// independent formula, from the papers' worked numbers, or from the 1200-bit mpmath goldens of
// scripts/gen_accounting_golden.py (tests/regression/accounting_golden.json).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "dpref/accel/calibration.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/dda/calibration.hpp"
#include "dpref/dda/composition.hpp"
#include "dpref/ev/calibration.hpp"
#include "dpref/linesearch/accountant.hpp"

namespace {

using namespace dpref;
using namespace dpref::accounting;
using dpref::accounting::detail::precision_scope;

// mpfr_real runs at >= 256 bits in these tests ("the 256-bit result").
/// The fewest decimal digits whose mpfr_real has >= 256 bits.
unsigned digits_for_256_bits() {
  unsigned d10 = 77;
  while (boost::multiprecision::detail::digits10_2_2(d10) < 256) ++d10;
  return d10;
}
// The tests run on the main thread: this scope holds for all of them (ARCH.MPFR.SCOPE).
const mpfr_precision_scope kMpfrScope(digits_for_256_bits());
const int kMpfrBits = binary_digits<mpfr_real>();

/// Significand bits of R as used by the library (mpfr_real: the 256-bit test default, even
/// inside a wider precision_scope).
template <class R>
int pbits() {
  if constexpr (is_runtime_precision_v<R>)
    return kMpfrBits;
  else
    return binary_digits<R>();
}

using Scalars = ::testing::Types<double, long double, mp50, mpfr_real>;

#define DPREF_TYPED_SUITE(NAME)           \
  template <class T>                      \
  class NAME : public ::testing::Test {}; \
  TYPED_TEST_SUITE(NAME, Scalars);

/// Exact value of x at 1024 bits (for comparisons across types).
template <class R>
work_real hi(const R& x) {
  return dpref::accounting::detail::to_work(x);
}
/// Relative tolerance 2^(k - p) for the scalar R.
template <class R>
work_real ulps(int k) {
  return dpref::accounting::detail::w_ldexp(work_real(1), k - pbits<R>());
}
/// Checks lo_exact <= got <= lo_exact (1 + 2^(k-p)) + abs, all at 1024 bits.
template <class R>
void expect_upper_close(const R& got, const work_real& exact, int k = 6,
                        const work_real& abs_tol = work_real(0)) {
  using std::abs;
  const work_real g = hi(got);
  EXPECT_TRUE(g >= exact) << scalar_name<R>() << ": " << g << " < exact " << exact;
  EXPECT_TRUE(g <= exact + abs(exact) * ulps<R>(k) + abs_tol)
      << scalar_name<R>() << ": " << g << " too far above " << exact;
}

// ------------------------------------------------------------------------------ ACC.TYPES
DPREF_TYPED_SUITE(ACC_TYPES)
TYPED_TEST(ACC_TYPES, ValidationNamesFunctionParameterAndValue) {
  using R = TypeParam;
  try {
    require_delta<R>("f", "delta", R(1));
    FAIL() << "delta = 1 accepted";
  } catch (const std::domain_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("f: delta must be in [0, 1)"), std::string::npos) << m;
  }
  EXPECT_THROW(require_epsilon<R>("f", "eps", R(0)), std::domain_error);
  EXPECT_THROW(require_rate<R>("f", "q", R(0)), std::domain_error);
  EXPECT_THROW(require_rate<R>("f", "q", R(2)), std::domain_error);
  EXPECT_NO_THROW(require_rate<R>("f", "q", R(1)));
  EXPECT_THROW(laplace_privacy<R>(R(1), R(0)), std::domain_error);
  EXPECT_THROW(laplace_rdp<R>(R(1), R(1), R(1)), std::domain_error);  // order must be > 1
  const auto o = integer_orders<R>(2, 5);
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o.back(), R(5));
  EXPECT_THROW((validate_curve<R>("f", rdp_curve<R>{{R(3), R(2)}, {R(0), R(0)}})),
               std::domain_error);
  EXPECT_THROW((validate_curve<R>("f", rdp_curve<R>{{R(2)}, {R(-1)}})), std::domain_error);
  EXPECT_THROW((validate_curve<R>("f", rdp_curve<R>{{R(2)}, {}})), std::invalid_argument);
}
TEST(ACC_TYPES, NanAndInfinityRejected) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(laplace_privacy(1.0, nan), std::domain_error);
  EXPECT_THROW(analytic_gaussian_delta(1.0, std::numeric_limits<double>::infinity(), 1.0),
               std::domain_error);
  EXPECT_THROW(subsample_poisson(approx_dp<double>{1.0, 0.0}, nan), std::domain_error);
  EXPECT_THROW(gaussian_rdp(1.0, 1.0, nan), std::domain_error);
}

TEST(ACC_TYPES, EdgeCasesReturnAValueOrThrowClearly) {
  // T = 1e9 and T = 1
  EXPECT_TRUE(
      std::isfinite(dda::guarantee(1.0, 1e6, 0.1, 100.0, 1000000000LL, 1e-2, 1e-6, true).eps));
  const auto p1 = accel::prop31(1.0, 1.0, 1000000000LL, 100000, 1000);
  EXPECT_GT(p1.b, 0.0);
  EXPECT_LE(accel::iteration_epsilon(1.0, p1.b, 100000, 1000) * 1e9, 1.0 + 1e-12);
  EXPECT_TRUE(std::isfinite(compose_drv(approx_dp<double>{1e-4, 0.0}, 1000000000LL, 1e-6).eps));
  EXPECT_EQ(compose_homogeneous(approx_dp<double>{0.5, 0.0}, 1).eps, 0.5);
  EXPECT_THROW(accel::remark41_choose_T(1.0, 0.01, 0.5, 1.0, 1, 1.0, 10, 1.0, 1000000000LL),
               std::domain_error);
  // α → 1 for curves that need integer orders: clear exception
  EXPECT_THROW(poisson_subsampled_gaussian_rdp(0.1, 1.0, std::vector<double>{1.5}),
               std::domain_error);
  // ε = 1000
  EXPECT_NEAR(pure_to_rdp(1000.0, 2.0), 1000.0 - std::log1p(std::exp(-1000.0)) + 0.0, 1e-9);
  EXPECT_TRUE(std::isfinite(svt_laplace_rdp(1000.0, 500.0, 250.0, svt_bound::paper_eq4_5)));
}

// ---------------------------------------------------------------------------- ACC.CERT.UP
DPREF_TYPED_SUITE(ACC_CERT_UP)
TYPED_TEST(ACC_CERT_UP, DirectedRoundingBracketsTheWorkingValue) {
  using R = TypeParam;
  const unsigned saved = mpfr_real::default_precision();
  R up, down;
  work_real third_hi;
  {
    certifier<R> c;
    EXPECT_GE(c.bits(), 256);
    EXPECT_GE(c.bits(), pbits<R>() + 128);
    const work_real third = work_real(1) / 3;
    up = c.up(third);
    down = c.down(third);
  }
  EXPECT_EQ(mpfr_real::default_precision(), saved);  // scope restored
  precision_scope s(1024);
  third_hi = work_real(1) / 3;
  EXPECT_TRUE(hi(up) > third_hi);
  EXPECT_TRUE(hi(down) < third_hi);
  EXPECT_TRUE(hi(up) - hi(down) <= third_hi * ulps<R>(2));
}
TYPED_TEST(ACC_CERT_UP, ConversionToWorkIsExact) {
  using R = TypeParam;
  const R x = R(1) / 7;
  precision_scope s(1024);
  const work_real w = hi(x);
  R back = dpref::accounting::detail::round_directed<R>(w, pbits<R>(), true);
  EXPECT_TRUE(back == x);
  back = dpref::accounting::detail::round_directed<R>(w, pbits<R>(), false);
  EXPECT_TRUE(back == x);
}
TEST(ACC_CERT_UP, TinyResultsStayAboveZero) {
  // exact ε(α) of q = 1e-40 subsampling is ~1e-80 < 2^-256: certified result is > 0.
  const auto c = poisson_subsampled_gaussian_rdp(1e-40, 1.0, std::vector<double>{2.0, 3.0});
  EXPECT_GT(c.eps[0], 0.0);
  EXPECT_LT(c.eps[0], 1e-50);
}

// ----------------------------------------------------------------------------- ACC.LAPLACE
DPREF_TYPED_SUITE(ACC_LAPLACE)
TYPED_TEST(ACC_LAPLACE, EpsilonIsSensitivityOverScaleRoundedUp) {
  using R = TypeParam;
  const R e = laplace_privacy<R>(R(1), R(3)).eps;
  precision_scope s(1024);
  expect_upper_close(e, work_real(1) / 3, 2);
}
TYPED_TEST(ACC_LAPLACE, ScaleCalibrationRoundTrip) {
  using R = TypeParam;
  const R eps = R(3) / 10, sens = R(2);
  const R b = laplace_scale(sens, eps);
  const R back = laplace_privacy(sens, b).eps;
  precision_scope s(1024);
  EXPECT_TRUE(hi(sens) / hi(b) <= hi(eps));             // noise never smaller than exact
  EXPECT_TRUE(hi(back) <= hi(eps) * (1 + ulps<R>(3)));  // round trip within rounding
  EXPECT_TRUE(hi(back) >= hi(eps) * (1 - ulps<R>(3)));
}
DPREF_TYPED_SUITE(ACC_LAPLACE_VECTOR)
TYPED_TEST(ACC_LAPLACE_VECTOR, PwaTheorem9ScaleGivesEpsilon) {
  using R = TypeParam;
  // pwa Thm 9 / ev Prop 11: density ∝ exp(−ε‖w‖/Δ2), i.e. scale Δ2/ε: ε recovered.
  const R d2 = R(13), eps = R(1) / 4;
  const R e = vector_laplace_privacy(d2, R(d2 / eps)).eps;
  precision_scope s(1024);
  expect_upper_close(e, hi(eps), 4);
}
DPREF_TYPED_SUITE(ACC_EXPMECH)
TYPED_TEST(ACC_EXPMECH, ScaleTwoDeltaOverEps) {
  using R = TypeParam;
  // pwa Thm 10: density ∝ exp(ε u/(2Δu)) ⇒ scale 2Δu/ε.
  const R du = R(1) / 2, eps = R(3);
  const R e = exponential_mechanism_privacy(du, R(2 * du / eps)).eps;
  const R em = exponential_mechanism_privacy(du, R(2 * du / eps), true).eps;
  precision_scope s(1024);
  expect_upper_close(e, hi(eps), 4);
  expect_upper_close(em, hi(eps) / 2, 4);
}

// ------------------------------------------------------------------------- ACC.RDP.LAPLACE
TEST(ACC_RDP_LAPLACE, LimitsAlphaToOneAndInfinity) {
  const double e = 0.7;
  // α → 1: KL divergence e + e^{−e} − 1 (Mironov 2017, Prop. 6).
  const double kl = e + std::exp(-e) - 1.0;
  const double near1 = laplace_rdp(1.0, 1.0 / e, 1.0 + std::ldexp(1.0, -40));
  EXPECT_NEAR(near1, kl, 1e-9);
  // α → ∞: ε.
  EXPECT_NEAR(laplace_rdp(1.0, 1.0 / e, 1e7), e, 1e-6);
  EXPECT_LE(laplace_rdp(1.0, 1.0 / e, 1e7), e + 1e-12);
  // ε up to 1000 without overflow.
  const double big = laplace_rdp(1000.0, 1.0, 50.0);
  EXPECT_TRUE(std::isfinite(big));
  EXPECT_LE(big, 1000.0 * (1 + 1e-15));
}

// -------------------------------------------------------------------------- Gaussian forms
DPREF_TYPED_SUITE(ACC_GAUSS_DDA)
TYPED_TEST(ACC_GAUSS_DDA, LemmaFormulaAndRange) {
  using R = TypeParam;
  const R sigma = R(10), delta = R(1) / 100;
  const R e = dda::gaussian_privacy_lemma41(R(2), sigma, delta).eps;
  using std::log;
  using std::sqrt;
  {
    precision_scope s(1024);
    expect_upper_close(e, sqrt(2 * log(2 / hi(delta))) * 2 / 10, 6);
  }
  EXPECT_THROW(dda::gaussian_privacy_lemma41(R(1), R(1) / 10, delta), std::domain_error);  // ε > 1
}
TEST(ACC_GAUSS_DDA, ExactDeltaBelowClaimedDelta) {
  // errata property 20: δ_BW(ε_t; Δ, σ) ≤ δ₀ at σ = Δ√(2 ln(2/δ₀))/ε_t, ε_t ≤ 1.
  for (double d0 : {1e-8, 1e-4, 1e-2, 0.1})
    for (double et : {0.05, 0.3, 0.7, 1.0}) {
      const double sigma = 2.0 * std::sqrt(2 * std::log(2 / d0)) / et * (1 + 1e-15);
      const auto g = dda::gaussian_privacy_lemma41(2.0, sigma, d0);
      EXPECT_LE(analytic_gaussian_delta(2.0, sigma, g.eps), d0) << d0 << " " << et;
    }
  // Outside the range the form is false: ε = 10, δ = 0.1 has exact δ ≈ 0.26.
  const double sigma = std::sqrt(2 * std::log(20.0)) / 10.0;
  EXPECT_GT(analytic_gaussian_delta(1.0, sigma, 10.0), 0.25);
}
DPREF_TYPED_SUITE(ACC_GAUSS_CLASSICAL)
TYPED_TEST(ACC_GAUSS_CLASSICAL, SigmaRoundTripAndRange) {
  using R = TypeParam;
  const R eps = R(1) / 2, delta = R(1) / 100000;
  const R sigma = gaussian_sigma_classical(R(1), eps, delta);
  const R back = gaussian_privacy_classical(R(1), sigma, delta).eps;
  {
    precision_scope s(1024);
    EXPECT_TRUE(hi(back) <= hi(eps) * (1 + ulps<R>(4)));
  }
  EXPECT_THROW(gaussian_sigma_classical(R(1), R(1), delta), std::domain_error);
  // the classical form is valid: exact δ at its ε is below δ (checked with the analytic form)
  EXPECT_TRUE(analytic_gaussian_delta(R(1), sigma, eps) <= delta);
}
DPREF_TYPED_SUITE(ACC_GAUSS_ANALYTIC)
TYPED_TEST(ACC_GAUSS_ANALYTIC, BothDirectionsRoundTrip) {
  using R = TypeParam;
  const R sens = R(1), sigma = R(3) / 2, delta = R(1) / 100000;
  const approx_dp<R> g = analytic_gaussian_privacy(sens, sigma, delta);
  // ε is certified: δ(ε) ≤ δ; and tight: δ just below ε exceeds δ.
  EXPECT_TRUE(analytic_gaussian_delta(sens, sigma, g.eps) <= delta);
  EXPECT_TRUE(analytic_gaussian_delta(sens, sigma, R(g.eps * (1 - R(1) / 1000000))) > delta);
  const R s2 = analytic_gaussian_sigma(sens, g.eps, delta);
  EXPECT_TRUE(analytic_gaussian_delta(sens, s2, g.eps) <= delta);
  EXPECT_TRUE(s2 <= sigma);  // ε was rounded up, so at most σ is needed
  precision_scope s(1024);
  EXPECT_TRUE(hi(s2) >= hi(sigma) * (1 - work_real(1) / 1000000));
}
TEST(ACC_GAUSS_ANALYTIC, EpsZeroIsErfAndBeatsClassical) {
  // δ(0) = Φ(Δ/2σ) − Φ(−Δ/2σ) = erf(Δ/(2√2σ)), an independent closed form.
  const double d = analytic_gaussian_delta(1.0, 3.0, 0.0);
  EXPECT_NEAR(d, std::erf(1.0 / (6.0 * std::sqrt(2.0))), 1e-15);
  EXPECT_GE(d, std::erf(1.0 / (6.0 * std::sqrt(2.0))) * (1 - 1e-15));
  for (double eps : {0.1, 0.5, 0.9})
    EXPECT_LT(analytic_gaussian_sigma(1.0, eps, 1e-5), gaussian_sigma_classical(1.0, eps, 1e-5));
  // ε up to 1000 without overflow
  EXPECT_LE(analytic_gaussian_delta(1.0, 0.01, 1000.0), 1.0);
  EXPECT_NO_THROW(analytic_gaussian_privacy(1.0, 0.001, 1e-10));
}
DPREF_TYPED_SUITE(ACC_RDP_GAUSS)
TYPED_TEST(ACC_RDP_GAUSS, AlphaOverTwoSigmaSquared) {
  using R = TypeParam;
  const R e = gaussian_rdp(R(3), R(2), R(7));
  precision_scope s(1024);
  expect_upper_close(e, work_real(7) * 9 / 8, 2);
}

// ------------------------------------------------------------------------------------ SVT
DPREF_TYPED_SUITE(ACC_SVT_PURE)
TYPED_TEST(ACC_SVT_PURE, LemmaFiveScales) {
  using R = TypeParam;
  const R eps = R(1) / 3, d = R(2);
  // linesearch Lemma 5: λ ~ Lap(2Δ/ε), ν ~ Lap(4Δ/ε) ⇒ ε-DP.
  const R e = svt_laplace_privacy(d, R(2 * d / eps), R(4 * d / eps)).eps;
  precision_scope s(1024);
  expect_upper_close(e, hi(eps), 6);
}
TEST(ACC_SVT_RDP_LAPLACE, ProvenBoundIsPureConversion) {
  for (double a : {1.5, 2.0, 20.0, 1e4}) {
    const double e1 = 0.5, e2 = 0.25;
    const double v = svt_laplace_rdp(a, e1, e2);
    EXPECT_EQ(v, pure_to_rdp(e1 + 2 * e2, a));
    EXPECT_LE(v, e1 + 2 * e2 + 1e-15);
    EXPECT_GE(v, 0.0);
  }
}
TEST(ACC_SVT_RDP_PAPER4, EquationFourAndSanity) {
  const double e1 = 0.4, e2 = 0.3;
  for (double a : {1.5, 2.0, 20.0, 100.0}) {
    const double v = svt_laplace_rdp(a, e1, e2, svt_bound::paper_eq4_5);
    // (4) = RDP_Lap(α; ε1) + RDP_Lap(α; 2ε2) (two Laplace mechanisms, Δ/b = ε1 and 2ε2)
    EXPECT_NEAR(v, laplace_rdp(1.0, 1.0 / e1, a) + laplace_rdp(1.0, 1.0 / (2 * e2), a), 1e-14);
    // errata property 25: ≤ min(ε1 + 2ε2, α(ε1² + 4ε2²)/2)
    EXPECT_LE(v, std::min(e1 + 2 * e2, a * (e1 * e1 + 4 * e2 * e2) / 2) * (1 + 1e-14));
  }
  // α = 10^4: no overflow, tends to ε1 + 2ε2
  EXPECT_NEAR(svt_laplace_rdp(1e4, e1, e2, svt_bound::paper_eq4_5), e1 + 2 * e2, 1e-3);
}
TEST(ACC_SVT_RDP_GAUSS, ZhuWangTheorem8Form) {
  const double a = 5, d = 1, s1 = 2, s2 = 3;
  const long k = 100;
  const double v = svt_gaussian_rdp(a, d, s1, s2, k);
  EXPECT_NEAR(v, std::log(100.0) / 4 + a / 4 + 2 * a / 9, 1e-14);
  EXPECT_GE(v, std::log(100.0) / 4 + a / 4 + 2 * a / 9);
  EXPECT_THROW(svt_gaussian_rdp(a, d, s1, s2, 0), std::domain_error);
}
DPREF_TYPED_SUITE(ACC_SVT_RDP_PAPER5)
TYPED_TEST(ACC_SVT_RDP_PAPER5, RhoSplitGivesAlphaRho) {
  using R = TypeParam;
  // linesearch after Thm 3: σ1² = 3/(2ρ), σ2² = 3/ρ ⇒ (α, αρ)-RDP (errata property 23).
  const R rho = R(1) / 2, a = R(20);
  using std::sqrt;
  const R s1 = R(sqrt(R(3) / (2 * rho))), s2 = R(sqrt(R(3) / rho));
  const R v = svt_gaussian_rdp(a, R(1), s1, s2, 1, svt_bound::paper_eq4_5);
  precision_scope s(1024);
  using std::abs;
  EXPECT_TRUE(abs(hi(v) - hi(a) * hi(rho)) <= hi(a) * hi(rho) * ulps<R>(8));
}

// ---------------------------------------------------------------------------- composition
DPREF_TYPED_SUITE(ACC_COMP_SEQ)
TYPED_TEST(ACC_COMP_SEQ, SumsEpsAndDelta) {
  using R = TypeParam;
  const std::vector<approx_dp<R>> parts{
      {R(1) / 3, R(1) / 1000}, {R(1) / 7, R(0)}, {R(2), R(1) / 10}};
  const auto t = compose_sequential(parts);
  const auto h = compose_homogeneous(approx_dp<R>{R(1) / 3, R(1) / 1000}, 1000000000LL);  // T = 1e9
  precision_scope s(1024);
  expect_upper_close(t.eps, hi(parts[0].eps) + hi(parts[1].eps) + hi(parts[2].eps), 4);
  expect_upper_close(t.delta, hi(parts[0].delta) + hi(parts[2].delta), 4);
  expect_upper_close(h.eps, hi(R(1) / 3) * 1000000000, 4);
  EXPECT_TRUE(h.delta == R(1));  // capped
}
TEST(ACC_COMP_ADAPTIVE, EvScheduleComposesToEpsilon) {
  // ev Prop 12 + proof of Thm 6: Σ_k ε_k = ε.
  for (long long K : {2LL, 3LL, 10LL, 1000LL}) {
    const auto sched = ev::epsilon_schedule(K, 0.7);
    std::vector<pure_dp<double>> parts;
    for (double e : sched) parts.push_back({e});
    const double tot = compose_sequential(parts).eps;
    EXPECT_LE(tot, 0.7 * (1 + 1e-15));
    EXPECT_GE(tot, 0.7 * (1 - 1e-12));
  }
}
TEST(ACC_COMP_ADV, LemmaFourThreeAsPrinted) {
  // ε̃ = √(2Σε² log(e + √Σε²/δ′)) + Σε², δ̃ = 1 − (1 − δ′)Π(1 − δ_i)
  std::vector<approx_dp<double>> parts(50, {0.05, 1e-6});
  parts.push_back({0.9, 0.0});
  const double dp = 1e-5;
  const auto r = dda::compose_advanced(parts, dp);
  const double s2 = 50 * 0.05 * 0.05 + 0.81;
  const double expect = std::sqrt(2 * s2 * std::log(std::exp(1.0) + std::sqrt(s2) / dp)) + s2;
  EXPECT_NEAR(r.eps, expect, 1e-13);
  const double d_exact = -std::expm1(std::log1p(-dp) + 50 * std::log1p(-1e-6));
  EXPECT_NEAR(r.delta, d_exact, 1e-18);
  EXPECT_GE(r.delta, d_exact * (1 - 1e-15));
  parts.push_back({0.95, 0.0});
  EXPECT_THROW(dda::compose_advanced(parts, dp), std::domain_error);  // ε_i ≤ 0.9
  EXPECT_THROW(dda::compose_advanced(std::vector<approx_dp<double>>{{0.1, 0.0}}, 0.0),
               std::domain_error);
}
TEST(ACC_COMP_ADV, ErratumDdaE1ChainExceedsEpsilon) {
  // With Σε′² = ε² and δ′ = √Σε′² = ε the printed chain gives ε̃ = ε√(2 ln(e + 1)) + ε² > ε.
  for (double eps : {0.2, 0.6, 1.0}) {
    const long long T = 400;
    const std::vector<approx_dp<double>> parts(T, {eps / 20.0, 0.0});  // Σε′² = ε²
    const double r = dda::compose_advanced(parts, eps).eps;
    const double closed = eps * std::sqrt(2 * std::log(std::exp(1.0) + 1.0)) + eps * eps;
    EXPECT_NEAR(r, closed, 1e-12);
    EXPECT_GT(r, eps);
  }
}
TEST(ACC_COMP_KOV_HET, NeverWorseThanLemma43OrSequential) {
  std::vector<approx_dp<double>> parts;
  for (int i = 1; i <= 200; ++i) parts.push_back({0.9 * i / 200.0, 1e-9});
  const auto kov = compose_kov_heterogeneous(parts, 1e-6);
  const auto dda = dda::compose_advanced(parts, 1e-6);
  double seq = 0;
  for (auto& p : parts) seq += p.eps;
  EXPECT_LE(kov.eps, dda.eps);
  EXPECT_LE(kov.eps, seq * (1 + 1e-15));
  EXPECT_EQ(kov.delta, dda.delta);
}
TEST(ACC_COMP_KOV_OPT, OptimalBeatsHeterogeneousAndDrv) {
  for (long k : {1L, 10L, 1000L}) {
    const approx_dp<double> p{0.1, 1e-7};
    const double opt = compose_kov_optimal(p, k, 1e-4).eps;
    const double dk = static_cast<double>(k);
    const double het =
        compose_kov_heterogeneous(std::vector<approx_dp<double>>(static_cast<std::size_t>(k), p),
                                  1e-4 - dk * 1e-7)
            .eps;
    EXPECT_LE(opt, het * (1 + 1e-12)) << k;
    EXPECT_LE(opt, dk * 0.1 * (1 + 1e-15));
  }
  EXPECT_THROW(compose_kov_optimal(approx_dp<double>{0.1, 0.0}, 2000000, 1e-5), std::domain_error);
  EXPECT_THROW(compose_kov_optimal(approx_dp<double>{0.1, 0.01}, 10, 1e-5), std::domain_error);
}
TEST(ACC_COMP_DRV, Formula) {
  const auto r = compose_drv(approx_dp<double>{0.1, 1e-8}, 1000, 1e-6);
  EXPECT_NEAR(r.eps, std::sqrt(2000 * std::log(1e6)) * 0.1 + 1000 * 0.1 * std::expm1(0.1), 1e-12);
  EXPECT_NEAR(r.delta, 1000 * 1e-8 + 1e-6, 1e-18);
  EXPECT_GE(r.eps, compose_kov_optimal(approx_dp<double>{0.1, 1e-8}, 1000, r.delta).eps);
}
DPREF_TYPED_SUITE(ACC_COMP_RDP)
TYPED_TEST(ACC_COMP_RDP, PointwiseSum) {
  using R = TypeParam;
  const auto o = integer_orders<R>(2, 6);
  const auto a = gaussian_rdp_curve(R(1), R(2), o);
  const auto b = laplace_rdp_curve(R(1), R(3), o);
  const auto c = compose_rdp(a, b);
  const auto k = compose_rdp_steps(a, 1000000000LL);
  for (std::size_t i = 0; i < o.size(); ++i) {
    precision_scope s(1024);
    expect_upper_close(c.eps[i], hi(a.eps[i]) + hi(b.eps[i]), 3);
    expect_upper_close(k.eps[i], hi(a.eps[i]) * 1000000000, 3);
  }
  EXPECT_THROW(compose_rdp(a, gaussian_rdp_curve(R(1), R(2), integer_orders<R>(2, 7))),
               std::invalid_argument);
}

// ---------------------------------------------------------------------------- subsampling
DPREF_TYPED_SUITE(ACC_SUBSAMPLE_WOR)
TYPED_TEST(ACC_SUBSAMPLE_WOR, AccelTheoremA3) {
  using R = TypeParam;
  const approx_dp<R> p{R(2), R(1) / 1000};
  const auto a = subsample_without_replacement(p, 10, 1000);
  using std::exp;
  using std::log;
  {
    precision_scope s(1024);
    expect_upper_close(a.eps, log(1 + (exp(work_real(2)) - 1) / 100), 4);
    expect_upper_close(a.delta, hi(p.delta) / 100, 4);
  }
  const auto same = subsample_without_replacement(p, 1000, 1000);
  EXPECT_TRUE(same.eps == p.eps && same.delta == p.delta);
  EXPECT_THROW(subsample_without_replacement(p, 0, 10), std::domain_error);
  EXPECT_THROW(subsample_without_replacement(p, 11, 10), std::domain_error);
}
TEST(ACC_SUBSAMPLE_POISSON, RateOneIsIdentityAndSmallRate) {
  const approx_dp<double> p{1.0, 1e-6};
  const auto one = subsample_poisson(p, 1.0);
  EXPECT_EQ(one.eps, 1.0);
  const auto tiny = subsample_poisson(p, 1e-300);  // q → 0
  EXPECT_GT(tiny.eps, 0.0);
  EXPECT_LT(tiny.eps, 1e-299);
  EXPECT_NEAR(subsample_poisson(approx_dp<double>{1000.0, 0.0}, 0.5).eps, 1000 + std::log(0.5),
              1e-9);
}
TEST(ACC_SUBSAMPLE_DDA, HiddenVersusPublicActiveSet) {
  const approx_dp<double> p{0.4, 1e-3};
  const auto hidden = dda::subsample_nodes(p, 0.1, 100, true);
  const auto pub = dda::subsample_nodes(p, 0.1, 100, false);
  EXPECT_NEAR(hidden.eps, std::log1p(0.001 * std::expm1(0.4)), 1e-16);
  EXPECT_NEAR(pub.eps, std::log1p(0.01 * std::expm1(0.4)), 1e-15);
  EXPECT_NEAR(hidden.delta, 1e-6, 1e-21);
  EXPECT_GT(pub.eps, hidden.eps);
  // errata property 21 (used in dda's proof): ln(1 + γ(e^x − 1)) ≤ 2γx for x ≤ 1.25
  for (double x : {0.01, 0.5, 1.0, 1.25})
    for (double g : {1e-3, 0.1, 1.0}) {
      EXPECT_LE(dda::subsample_nodes(approx_dp<double>{x, 0.0}, g, 1, true).eps,
                2 * g * x * (1 + 1e-15));
    }
}
TEST(ACC_RDP_POISSON_ZW, AgreesWithExactAtTwoAndDominatesAbove) {
  const auto o = integer_orders<double>(2, 64);
  for (double q : {1e-3, 0.01, 0.2, 0.5})
    for (double sigma : {0.7, 1.1, 5.0}) {
      const auto zw = poisson_subsampled_rdp_zw(gaussian_rdp_curve(1.0, sigma, o), q);
      const auto ex = poisson_subsampled_gaussian_rdp(q, sigma, o);
      EXPECT_NEAR(zw.eps[0], ex.eps[0], 1e-15 * (1 + ex.eps[0]));  // α = 2: equal (LS-E3)
      for (std::size_t i = 0; i < o.size(); ++i)
        EXPECT_GE(zw.eps[i], ex.eps[i]) << q << " " << sigma;
    }
}
TEST(ACC_RDP_POISSON_ZW, OrdersUpTo1024AndEdgeRates) {
  const auto o = integer_orders<double>(2, 1100);
  const auto base = laplace_rdp_curve(1.0, 2.0, o);
  const auto zw = poisson_subsampled_rdp_zw(base, 1e-3);
  for (std::size_t i = 0; i < o.size(); ++i) {
    EXPECT_TRUE(std::isfinite(zw.eps[i]));
    EXPECT_LE(zw.eps[i], base.eps[i]);
  }
  const auto full = poisson_subsampled_rdp_zw(base, 1.0);  // q = 1: no amplification
  for (std::size_t i = 0; i < o.size(); ++i) EXPECT_EQ(full.eps[i], base.eps[i]);
  EXPECT_THROW(
      poisson_subsampled_rdp_zw(gaussian_rdp_curve(1.0, 1.0, integer_orders<double>(3, 9)), 0.1),
      std::invalid_argument);
}
TEST(ACC_RDP_POISSON_MTZ, RateOneIsGaussianAndFastPathIsUpperBound) {
  const std::vector<double> o{2, 3, 10, 100};
  const auto full = poisson_subsampled_gaussian_rdp(1.0, 1.5, o);
  for (std::size_t i = 0; i < o.size(); ++i) EXPECT_NEAR(full.eps[i], o[i] / (2 * 2.25), 1e-13);
  const auto ord = integer_orders<double>(2, 256);
  const auto fast = fast::poisson_subsampled_gaussian_rdp(0.01, 1.1, ord);
  const auto cert = poisson_subsampled_gaussian_rdp<mpfr_real>(mpfr_real(0.01), mpfr_real(1.1),
                                                               integer_orders<mpfr_real>(2, 256));
  for (std::size_t i = 0; i < ord.size(); ++i) {
    EXPECT_TRUE(mpfr_real(fast.eps[i]) >= cert.eps[i]) << ord[i];
    EXPECT_LE(fast.eps[i], static_cast<double>(cert.eps[i]) * (1 + 1e-9) + 1e-12);
  }
  EXPECT_THROW(poisson_subsampled_gaussian_rdp(0.1, 1.0, std::vector<double>{2.5}),
               std::domain_error);
}

// ---------------------------------------------------------------------------- conversions
TEST(ACC_CONV_MIRONOV, GaussianClosedFormAndValidity) {
  // Gaussian RDP αρ: Mironov's ε(α) = αρ + log(1/δ)/(α−1) is minimised near
  // α* = 1 + √(log(1/δ)/ρ) with value ρ + 2√(ρ log(1/δ)) (continuous optimum ≤ grid optimum).
  const double sigma = 4.0, delta = 1e-6, rho = 1 / (2 * sigma * sigma);
  const auto o = integer_orders<double>(2, 400);
  const auto r = rdp_to_dp(gaussian_rdp_curve(1.0, sigma, o), delta, conversion_method::mironov);
  const double cont = rho + 2 * std::sqrt(rho * std::log(1 / delta));
  EXPECT_GE(r.guarantee.eps, cont);
  EXPECT_LE(r.guarantee.eps, cont * 1.01);
  EXPECT_FALSE(r.at_grid_edge);
  // valid: not below the exact analytic-Gaussian ε
  EXPECT_GE(r.guarantee.eps, analytic_gaussian_privacy(1.0, sigma, delta).eps);
  // edge flag on a too-small grid
  EXPECT_TRUE(rdp_to_dp(gaussian_rdp_curve(1.0, sigma, integer_orders<double>(2, 4)), delta,
                        conversion_method::mironov)
                  .at_grid_edge);
}
TEST(ACC_CONV_BALLE, TighterThanMironovAndStillValid) {
  const auto o = integer_orders<double>(2, 512);
  for (double sigma : {0.8, 2.0, 10.0})
    for (double delta : {1e-10, 1e-5, 0.01}) {
      const auto c = gaussian_rdp_curve(1.0, sigma, o);
      const double b = rdp_to_dp(c, delta).guarantee.eps;
      const double m = rdp_to_dp(c, delta, conversion_method::mironov).guarantee.eps;
      EXPECT_LE(b, m);
      EXPECT_GE(b, analytic_gaussian_privacy(1.0, sigma, delta).eps) << sigma << " " << delta;
    }
}
TEST(ACC_CONV_PURE2RDP, BunSteinkeAndTightForm) {
  for (double e : {0.01, 0.5, 2.0, 1000.0})
    for (double a : {1.0 + 1e-9, 2.0, 50.0}) {
      const double t = pure_to_rdp(e, a);
      EXPECT_LE(t, e * (1 + 1e-15));
      EXPECT_LE(t, pure_to_rdp_bun_steinke(e, a) * (1 + 1e-15));
      EXPECT_GE(t, 0.0);
      EXPECT_TRUE(std::isfinite(t));
    }
  EXPECT_NEAR(pure_to_rdp_bun_steinke(0.5, 4.0), 0.5, 1e-16);
}

// ---------------------------------------------------------------------------- calibrators
TEST(ACC_CAL_DDA_THM1, PaperSigmaAndWorkedNumbers) {
  const double L = 1.5, iota = 0.5, q = 20, eps = 0.8, d0 = 0.01;
  const long long T = 2000;  // >= 5q²ε²/(4ι²) = 1280
  const double sigma = dda::theorem1_sigma(L, iota, q, T, eps, d0, dda::theorem1_variant::paper);
  EXPECT_NEAR(sigma * sigma, 32 * iota * iota * L * L * T * std::log(2 / d0) / (q * q * eps * eps),
              1e-9);
  // (16): ε_t² = q²ε²/(4ι²T) ≤ 0.2 at equality
  const double et = dda::step_epsilon(L, sigma, d0);
  EXPECT_NEAR(et * et, q * q * eps * eps / (4 * iota * iota * T), 1e-12);
  EXPECT_LE(et * et, 0.2 + 1e-12);
  // (17): Σ_t ε′_t² = ε² with ε′_t = 2ιε_t/q
  EXPECT_NEAR(T * std::pow(2 * iota * et / q, 2), eps * eps, 1e-12);
  // corrected σ is √5 larger
  EXPECT_NEAR(dda::theorem1_sigma(L, iota, q, T, eps, d0) / sigma, std::sqrt(5.0), 1e-12);
}
TEST(ACC_CAL_DDA_THM1, RefusesViolatedPreconditions) {
  try {
    dda::theorem1_sigma(1.0, 0.1, 100.0, 1000, 1.0, 0.01);
    FAIL() << "T precondition not enforced";
  } catch (const std::domain_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("dda_theorem1_sigma: T must be T >= 5 q^2 eps^2/(4 iota^2)"),
              std::string::npos)
        << m;
  }
  try {
    dda::theorem1_sigma(1.0, 0.1, 100.0, 100000000, 1.5, 0.01);
    FAIL() << "eps precondition not enforced";
  } catch (const std::domain_error& e) {
    EXPECT_NE(std::string(e.what()).find("eps must be in (0, 1]"), std::string::npos);
  }
  // errata DDA-E4: q ≈ 20,000, ι = 0.1 needs T ≥ 5·10¹⁰
  EXPECT_THROW(dda::theorem1_sigma(1.0, 0.1, 20000.0, 49999999999LL, 1.0, 0.01), std::domain_error);
  EXPECT_NO_THROW(dda::theorem1_sigma(1.0, 0.1, 20000.0, 50000000000LL, 1.0, 0.01));
}
TEST(ACC_CAL_DDA_THM1, CorrectedSigmaClosesTheChain) {
  // DDA-E1: with σ² 5× larger, ε̃ ≤ √(2.627/5) ε + ε²/5 ≤ 0.925 ε via Lemma 4.3.
  for (double eps : {0.2, 0.5, 1.0}) {
    const double iota = 0.5, q = 10, L = 1, d0 = 0.01;
    const long long T = 2000;
    const double sigma = dda::theorem1_sigma(L, iota, q, T, eps, d0);
    const double et = dda::step_epsilon(L, sigma, d0);
    const double ep = 2 * iota * et / q;
    const double dp = std::sqrt(T * ep * ep);
    const double r = dda::compose_advanced(std::vector<approx_dp<double>>(T, {ep, 0.0}), dp).eps;
    EXPECT_LE(r, 0.925 * eps) << eps;
  }
}
TEST(ACC_CAL_DDA_REMARK31, PrintedBound) {
  EXPECT_NEAR(dda::remark31_eps_hat(100, 100, 1.0), std::sqrt(0.6) + 0.2, 1e-15);
  // DDA-E1 example: at t/T = 0.25 the printed (7) gives 0.437 (the paper's chain gives 1.060)
  EXPECT_NEAR(dda::remark31_eps_hat(25, 100, 1.0), 0.437, 5e-4);
  EXPECT_THROW(dda::remark31_eps_hat(0, 100, 1.0), std::domain_error);
}
TEST(ACC_CAL_DDA_CHAIN, CalibratedSigmaIsTightAndSafe) {
  const double L = 1, iota = 0.1, q = 100, eps = 1, d0 = 0.01, dp = 1e-6;
  const long long T = 1250000;
  const double s_hidden = dda::calibrate_sigma(L, iota, q, T, eps, d0, dp, true);
  EXPECT_LE(dda::guarantee(L, s_hidden, iota, q, T, d0, dp, true).eps, eps);
  EXPECT_GT(dda::guarantee(L, s_hidden * (1 - 1e-9), iota, q, T, d0, dp, true).eps,
            eps * (1 - 1e-6));
  const double s_public = dda::calibrate_sigma(L, iota, q, T, eps, d0, dp, false);
  EXPECT_GT(s_public, s_hidden);  // DDA-E3: a public active set gives only 1/q
  // DDA-E2: δ̃ = 1 − (1 − δ′)(1 − ιδ₀/q)^T is vacuous at (ι, q, ε, δ₀) = (0.1, 100, 1, 0.01)
  // with T = 5q²ε²/(4ι²) = 1.25e6, even for a tiny δ′: 1 − e^{−12.5} = 1.000.
  const double dt = dda::guarantee(L, s_hidden, iota, q, T, d0, dp, true).delta;
  EXPECT_GT(dt, 0.9999);
  EXPECT_NEAR(dt, -std::expm1(T * std::log1p(-iota * d0 / q)), 1e-6);
}
DPREF_TYPED_SUITE(ACC_CAL_ACCEL_PROP31)
TYPED_TEST(ACC_CAL_ACCEL_PROP31, PerIterationLossSumsToEpsilon) {
  using R = TypeParam;
  for (long long m : {1000LL, 100000LL}) {
    const long long T = 100, n = 100000;
    const R eps = R(1);
    const auto p = accel::prop31<R>(R(1), eps, T, n, m);
    const R per = accel::iteration_epsilon<R>(R(1), p.b, n, m);
    precision_scope s(1024);
    // errata property 14: T ln[1 + (m/n)(e^{S/(b m)} − 1)] = ε; b rounded up ⇒ ≤ within rounding
    EXPECT_TRUE(hi(per) * T <= hi(eps) * (1 + ulps<R>(8)));
    EXPECT_TRUE(hi(per) * T >= hi(eps) * (1 - ulps<R>(8)));
    if (m == n) expect_upper_close(p.b, work_real(T) / n, 4);  // ε(S, b, n, n) = S/(bn)
  }
}
TEST(ACC_CAL_ACCEL_PROP42, ClosedFormMatchesNumericalMinimisation) {
  const auto a = accel::nag_weights(60, 0.01, 0.5, 1.0);
  const double S1 = 1, eps = 1;
  const long long n = 1000;
  const auto sol = accel::prop42(a, S1, n, eps);
  double obj = 0, se = 0;
  for (std::size_t t = 0; t < a.size(); ++t) {
    obj += a[t] * sol.b[t] * sol.b[t];
    se += sol.eps[t];
    EXPECT_NEAR(S1 / (n * sol.b[t]), sol.eps[t], 1e-15);
    if (t > 0) {
      EXPECT_GT(sol.eps[t], sol.eps[t - 1]);  // ACC-E5: ε_t increases with t
    }
  }
  EXPECT_LE(se, eps);
  EXPECT_NEAR(obj, sol.objective, 1e-12 * obj);
  // numerical constrained minimisation of Σ a_t (S/(nε_t))² s.t. Σε_t = ε: exponentiated
  // gradient on the simplex from the uniform split.
  const double nt = static_cast<double>(a.size());
  std::vector<double> e(a.size(), eps / nt);
  for (int it = 0; it < 20000; ++it) {
    std::vector<double> g(a.size());
    double gmax = 0, z = 0;
    for (std::size_t t = 0; t < a.size(); ++t) {
      g[t] = -2 * a[t] * S1 * S1 / (double(n) * n * e[t] * e[t] * e[t]);
      gmax = std::max(gmax, std::fabs(g[t]));
    }
    for (std::size_t t = 0; t < a.size(); ++t) {
      e[t] *= std::exp(-0.05 * g[t] / gmax);
      z += e[t];
    }
    for (double& x : e) x *= eps / z;
  }
  double num = 0, uni = 0;
  for (std::size_t t = 0; t < a.size(); ++t) {
    num += a[t] * std::pow(S1 / (n * e[t]), 2);
    uni += a[t] * std::pow(S1 * nt / (static_cast<double>(n) * eps), 2);
    EXPECT_NEAR(e[t], sol.eps[t], 1e-4 * sol.eps[t]);
  }
  EXPECT_GE(num, sol.objective * (1 - 1e-9));
  EXPECT_GT(uni, 1.5 * sol.objective);  // errata: uniform splitting ≈ 2.2× worse at T = 60
}
TEST(ACC_CAL_ACCEL_REMARK41, ChoiceOfTMinimisesBound) {
  const double E0 = 10, mu = 0.01, alpha = 0.5, L = 1, S1 = 1, eps = 1;
  const long long d = 10, n = 100000;
  const auto r = accel::remark41_choose_T(E0, mu, alpha, L, d, S1, n, eps, 400);
  double best = INFINITY;
  long long bestT = 0;
  for (long long T = 1; T <= 400; ++T) {  // direct (4.6) with explicit weights
    const auto a = accel::nag_weights(T, mu, alpha, L);
    double s = 0;
    for (double x : a) s += std::cbrt(x);
    const double b = std::pow(1 - std::sqrt(mu * alpha), static_cast<double>(T)) * E0 +
                     d * S1 * S1 / (double(n) * n * eps * eps) * s * s * s;
    if (b < best) best = b, bestT = T;
  }
  EXPECT_EQ(r.T, bestT);
  EXPECT_NEAR(r.bound, best, 1e-9 * best);
}
TEST(ACC_CAL_EV, ScheduleAndNoiseScale) {
  const long long K = 7;
  const auto s = ev::epsilon_schedule(K, 2.0);
  EXPECT_EQ(s[0], 0.0);
  double tot = 0;
  for (long long k = 1; k <= K; ++k) {
    EXPECT_LE(
        s[static_cast<std::size_t>(k - 1)],
        2.0 * static_cast<double>((k - 1) * 2) / static_cast<double>(K * (K - 1)) * (1 + 1e-15));
    tot += s[static_cast<std::size_t>(k - 1)];
  }
  EXPECT_NEAR(tot, 2.0, 1e-14);
  const double sc = ev::noise_scale(K, 3.0, 0.5, 2.0);
  EXPECT_NEAR(sc, K * (K - 1) * 3.0 * 0.5 / 4.0, 1e-13);
  // ε_k/Δ^(k) = 2ε/(K(K−1)LΔ) with Δ^(k) = (k−1)LΔ (Lemma 13): scale = Δ^(k)/ε_k
  EXPECT_NEAR(4 * 3.0 * 0.5 / s[4], sc, 1e-12);
  EXPECT_THROW(ev::epsilon_schedule(1, 1.0), std::domain_error);
}
TEST(ACC_CAL_LINESEARCH, PerCallAccountingAndRefusal) {
  const auto o = integer_orders<double>(2, 32);
  rdp_curve<double> total{o, std::vector<double>(o.size(), 1.0)};
  linesearch::accountant<double> acc(0.05, total);
  const auto g = acc.gradient_cost(0.05);
  const auto l = acc.line_search_cost(0.2);
  // gradient cost is amp(αρ): ZW bound on the Gaussian base αρ
  rdp_curve<double> base{o, {}};
  for (double a : o) base.eps.push_back(a * 0.05);
  const auto ref = poisson_subsampled_rdp_zw(base, 0.05);
  for (std::size_t i = 0; i < o.size(); ++i) EXPECT_NEAR(g.eps[i], ref.eps[i], 1e-15 * ref.eps[i]);
  // proven SVT cost ≤ pure ε = ε_BT/2 + 2ε_BT/4 before amplification
  linesearch::accountant<double> paper(0.05, total, svt_bound::paper_eq4_5);
  EXPECT_GT(paper.line_search_cost(0.2).eps[0], 0.0);
  int calls = 0;
  try {
    for (;; ++calls) {
      acc.charge(g, "gradient");
      acc.charge(l, "line search");
    }
  } catch (const budget_exceeded&) {
  }
  EXPECT_GT(calls, 0);
  const auto before = acc.spent().eps;
  EXPECT_THROW(acc.charge(g, "gradient"), budget_exceeded);
  EXPECT_EQ(acc.spent().eps, before);  // refused charge leaves the ledger unchanged
  bool some = false;
  for (std::size_t i = 0; i < o.size(); ++i) some = some || (acc.spent().eps[i] <= 1.0);
  EXPECT_TRUE(some);
  const auto dp = acc.to_dp(1e-8);
  EXPECT_GT(dp.guarantee.eps, 0.0);
}

// ---------------------------------------------------------------------------- ACC.GOLDEN
#ifndef DPREF_ACC_GOLDEN
#define DPREF_ACC_GOLDEN "tests/regression/accounting_golden.json"
#endif

template <class R>
R golden_eval(const std::string& kind, const std::vector<double>& x) {
  const auto r = [](double v) { return R(v); };
  if (kind == "laplace_rdp") return laplace_rdp(r(x[0]), r(x[1]), r(x[2]));
  if (kind == "pure_to_rdp") return pure_to_rdp(r(x[0]), r(x[1]));
  if (kind == "analytic_gaussian_delta") return analytic_gaussian_delta(r(x[0]), r(x[1]), r(x[2]));
  if (kind == "mtz")
    return poisson_subsampled_gaussian_rdp(r(x[0]), r(x[1]), std::vector<R>{r(x[2])}).eps[0];
  if (kind == "zw_gaussian") {
    const auto o = integer_orders<R>(2, static_cast<int>(x[2]));
    return poisson_subsampled_rdp_zw(gaussian_rdp_curve(R(1), r(x[1]), o), r(x[0])).eps.back();
  }
  if (kind == "bench_pipeline") {
    const auto c = poisson_subsampled_gaussian_rdp(r(x[0]), r(x[1]), integer_orders<R>(2, 256));
    return rdp_to_dp(compose_rdp_steps(c, static_cast<long long>(x[2])), r(x[3])).guarantee.eps;
  }
  if (kind == "kov_optimal")
    return compose_kov_optimal(approx_dp<R>{r(x[0]), R(0)}, static_cast<long>(x[1]), r(x[2])).eps;
  if (kind == "advanced_dda")
    return dda::compose_advanced(std::vector<approx_dp<R>>(static_cast<std::size_t>(x[1]),
                                                           approx_dp<R>{r(x[0]), R(0)}),
                                 r(x[2]))
        .eps;
  if (kind == "accel_prop31_b")
    return accel::prop31(r(x[0]), r(x[1]), static_cast<long long>(x[2]),
                         static_cast<long long>(x[3]), static_cast<long long>(x[4]))
        .b;
  ADD_FAILURE() << "unknown golden kind " << kind;
  return R(0);
}

DPREF_TYPED_SUITE(ACC_GOLDEN)
TYPED_TEST(ACC_GOLDEN, MatchesMpmath1200Bits) {
  using R = TypeParam;
  std::ifstream in(DPREF_ACC_GOLDEN);
  ASSERT_TRUE(in.good()) << DPREF_ACC_GOLDEN;
  const nlohmann::json j = nlohmann::json::parse(in);
  int n = 0;
  for (const auto& c : j.at("cases")) {
    const std::string kind = c.at("kind");
    if (kind == "bench_pipeline" && !std::is_same_v<R, double> && !std::is_same_v<R, mp50>)
      continue;
    const std::vector<double> x = c.at("inputs").get<std::vector<double>>();
    const R got = golden_eval<R>(kind, x);
    precision_scope s(1300);
    const work_real exact(c.at("value").get<std::string>());
    // result ≥ golden (never under-reports) and within 2^-(p-8) relative (+2^-(p+40) absolute
    // where the certified margin is absolute).
    SCOPED_TRACE(kind);
    if (kind == "kov_optimal") {
      expect_upper_close(got, exact, 8);
    } else {
      expect_upper_close(got, exact, 8, ulps<R>(-40));
    }
    ++n;
  }
  EXPECT_GE(n, 30);
}

// ---------------------------------------------------------------- secure integer mechanisms

TEST(ACC_DISCRETE_LAPLACE, EpsilonIsSensitivityOverScaleRoundedUp) {
  EXPECT_EQ(discrete_laplace_privacy(1.0, 2, 1).eps, 0.5);   // exact: no margin
  const double e = discrete_laplace_privacy(1.0, 3, 1).eps;  // 1/3 is not a double
  EXPECT_GE(mp50(e) * 3, mp50(1));
  EXPECT_LE(e, std::nextafter(1.0 / 3, 1.0) + 1e-16);
  EXPECT_EQ(discrete_laplace_privacy(2.0, 7, 3).eps, discrete_laplace_privacy(6.0, 7, 1).eps);
  EXPECT_THROW(discrete_laplace_privacy(1.0, 0, 1), std::domain_error);
  EXPECT_THROW(discrete_laplace_privacy(1.0, 1, -1), std::domain_error);
  EXPECT_THROW(discrete_laplace_privacy(-1.0, 1, 1), std::domain_error);
}

TEST(ACC_DISCRETE_SNAPPED, GridSensitivityOverIntegerScale) {
  // b = 1, k = -10: t = ceil(2^10) = 1024, ε = (1 + 2^-10)/(2^-10 · 1024) = 1 + 2^-10 (exact)
  EXPECT_EQ(snapped_laplace_privacy(1.0, 1.0, -10).eps, 1 + 0x1p-10);
  // b = 0.3, k = -2: t = ceil(1.2) = 2, ε = (Δ + 1/4)/(1/4 · 2) = 2Δ + 1/2
  EXPECT_EQ(snapped_laplace_privacy(1.0, 0.3, -2).eps, 2.5);
  // against (Δ + g)/(g t), t = max(1, ceil(b/g)) computed independently at 50 digits
  for (int k = -20; k <= 2; ++k) {
    const mp50 g = ldexp(mp50(1), k);
    const mp50 t = std::max(mp50(1), ceil(mp50(0.7) / g));
    const mp50 expected = (1 + g) / (g * t);
    const double e = snapped_laplace_privacy(1.0, 0.7, k).eps;
    EXPECT_GE(mp50(e), expected) << k;
    EXPECT_LE(mp50(e), expected * (1 + ldexp(mp50(1), -50))) << k;
  }
  EXPECT_THROW(snapped_laplace_privacy(1.0, -1.0, 0), std::domain_error);
}

TEST(ACC_DISCRETE_GAUSS, HockeyStickMatchesTheTailFormula) {
  // Independent formula (CKS 2020 Thm 7): for integer Δ and X ~ N_Z(0, σ²),
  // δ = P[X > εσ²/Δ − Δ/2] − e^ε P[X > εσ²/Δ + Δ/2], evaluated here with 60-digit MPFR sums
  // over |x| <= 400 (tail < 1e-300 for σ² <= 25).
  using R = bmp::number<bmp::mpfr_float_backend<60>, bmp::et_off>;
  for (const auto& [num, den, sens, eps] : {std::tuple{4, 1, 1, 1.0}, std::tuple{25, 4, 2, 0.5},
                                            std::tuple{1, 1, 1, 0.0}, std::tuple{9, 1, 3, 2.0}}) {
    const R var = R(num) / R(den);
    R z = 0;
    for (int x = -400; x <= 400; ++x) z += exp(-R(x) * x / (2 * var));
    const R thr = R(eps) * var / sens;
    R lo = 0, hi = 0;  // P[X > thr - Δ/2], P[X > thr + Δ/2]
    for (int x = -400; x <= 400; ++x) {
      const R p = exp(-R(x) * x / (2 * var)) / z;
      if (R(x) > thr - R(sens) / 2) lo += p;
      if (R(x) > thr + R(sens) / 2) hi += p;
    }
    const R expected = lo - exp(R(eps)) * hi;
    const double got = discrete_gaussian_delta<double>(num, den, sens, eps);
    EXPECT_GE(R(got), expected) << num << "/" << den;  // never under-reports
    EXPECT_LE(R(got), expected * (1 + R(1e-14)) + R(1e-300)) << num << "/" << den;
  }
}

TEST(ACC_DISCRETE_GAUSS, DecreasingInEpsilonAndValidated) {
  double prev = 1;
  for (double eps = 0; eps <= 4; eps += 0.25) {
    const double d = discrete_gaussian_delta<double>(4, 1, 1, eps);
    EXPECT_LE(d, prev);
    EXPECT_GE(d, 0.0);
    prev = d;
  }
  EXPECT_THROW(discrete_gaussian_delta<double>(0, 1, 1, 1.0), std::domain_error);
  EXPECT_THROW(discrete_gaussian_delta<double>(4, 1, 0, 1.0), std::domain_error);
  EXPECT_THROW(discrete_gaussian_delta<double>(4, 1, 1, -1.0), std::domain_error);
}

}  // namespace

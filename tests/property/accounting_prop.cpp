// Property tests of the privacy-accounting layer (spec/accounting.md, issue 9): monotonicity,
// composition adds, amplification never worse than none, conversions are valid upper bounds,
// RDP curves ≥ 0 and non-decreasing, calibrate∘evaluate round trips, and the double result
// never below the 256-bit result — for double, long double, mp50 and mpfr_real (256 bits).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "dpref/accel/calibration.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/dda/composition.hpp"
#include "support/generators.hpp"

namespace {

using namespace dpref;
using namespace dpref::accounting;
using dpref::accounting::detail::precision_scope;
using dpref::test::epsilon;
using dpref::test::positive_log_uniform;
using dpref::test::real_in;

/// The fewest decimal digits whose mpfr_real has >= 256 bits.
unsigned prop_digits_for_256_bits() {
  unsigned d10 = 77;
  while (boost::multiprecision::detail::digits10_2_2(d10) < 256) ++d10;
  return d10;
}
// The tests run on the main thread: this scope holds for all of them (ARCH.MPFR.SCOPE).
const mpfr_precision_scope kPropMpfrScope(prop_digits_for_256_bits());
const int kPropMpfrBits = binary_digits<mpfr_real>();

template <class F>
void for_each_scalar(F&& f) {
  f(std::type_identity<double>{});
  f(std::type_identity<long double>{});
  f(std::type_identity<mp50>{});
  f(std::type_identity<mpfr_real>{});
}

/// a >= b compared exactly (both widened to 1024 bits).
template <class A, class B>
bool ge(const A& a, const B& b) {
  precision_scope s(1024);
  return dpref::accounting::detail::to_work(a) >= dpref::accounting::detail::to_work(b);
}
/// a <= b (1 + 2^(k − p)), exactly.
template <class R>
bool le_rel(const R& a, const R& b, int k) {
  precision_scope s(1024);
  const int p = is_runtime_precision_v<R> ? kPropMpfrBits : binary_digits<R>();
  using std::abs;
  const work_real bb = dpref::accounting::detail::to_work(b);
  return dpref::accounting::detail::to_work(a) <=
         bb + abs(bb) * dpref::accounting::detail::w_ldexp(work_real(1), k - p);
}

RC_GTEST_PROP(ACC_LAPLACE, MonotoneInScaleAndSensitivity, ()) {
  const double d = *real_in<double>(0.01, 100.0);
  const double b = *positive_log_uniform<double>(1e-3, 1e3);
  const double f = *real_in<double>(1.0, 8.0);
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    const R e = laplace_privacy(R(d), R(b)).eps;
    RC_ASSERT(!(laplace_privacy(R(d), R(R(b) * R(f))).eps > e));  // decreases in b
    RC_ASSERT(!(laplace_privacy(R(R(d) * R(f)), R(b)).eps < e));  // increases in Δ
  });
  RC_ASSERT(ge(laplace_privacy(d, b).eps, laplace_privacy(mpfr_real(d), mpfr_real(b)).eps));
}

RC_GTEST_PROP(ACC_RDP_LAPLACE, NonNegativeNonDecreasingInOrder, ()) {
  const double e = *positive_log_uniform<double>(1e-3, 50.0);
  const double a1 = *real_in<double>(1.0 + 1e-9, 200.0);
  const double a2 = a1 * (1 + 1e-6) + *real_in<double>(0.0, 100.0);
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    const R v1 = laplace_rdp(R(1), R(1 / R(e)), R(a1));
    const R v2 = laplace_rdp(R(1), R(1 / R(e)), R(a2));
    RC_ASSERT(!(v1 < R(0)));
    RC_ASSERT(!(v1 > v2));
    RC_ASSERT(le_rel(v2, R(1 / (1 / R(e))), 4));  // ≤ ε (the α = ∞ value)
  });
}

RC_GTEST_PROP(ACC_GAUSS_ANALYTIC, MonotoneAndCalibrationRoundTrip, ()) {
  const double sigma = *positive_log_uniform<double>(0.2, 50.0);
  const double e = *epsilon<double>();
  const double delta = *dpref::test::delta<double>();
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    const R d = analytic_gaussian_delta(R(1), R(sigma), R(e));
    RC_ASSERT(!(analytic_gaussian_delta(R(1), R(2 * sigma), R(e)) > d));  // decreasing in σ
    RC_ASSERT(!(analytic_gaussian_delta(R(1), R(sigma), R(2 * e)) > d));  // decreasing in ε
    if constexpr (!std::is_same_v<R, mpfr_real>) {
      const approx_dp<R> g = analytic_gaussian_privacy(R(1), R(sigma), R(delta));
      RC_ASSERT(!(analytic_gaussian_delta(R(1), R(sigma), g.eps) > R(delta)));  // valid
      if (g.eps > R(0)) {
        const R s = analytic_gaussian_sigma(R(1), g.eps, R(delta));
        RC_ASSERT(!(analytic_gaussian_delta(R(1), s, g.eps) > R(delta)));
        RC_ASSERT(!(s > R(sigma)));  // round trip in the safe direction
      }
    }
  });
  RC_ASSERT(ge(analytic_gaussian_delta(1.0, sigma, e),
               analytic_gaussian_delta(mpfr_real(1), mpfr_real(sigma), mpfr_real(e))));
}

RC_GTEST_PROP(ACC_RDP_POISSON_MTZ, MonotoneNonNegativeAndFastPathAbove256Bit, ()) {
  const double q = *positive_log_uniform<double>(1e-4, 1.0);
  const double sigma = *real_in<double>(0.5, 10.0);
  const double q2 = std::min(1.0, q * 1.5);
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    const auto o = integer_orders<R>(2, 24);
    const auto c = poisson_subsampled_gaussian_rdp(R(q), R(sigma), o);
    const auto cq = poisson_subsampled_gaussian_rdp(R(q2), R(sigma), o);
    const auto cs = poisson_subsampled_gaussian_rdp(R(q), R(2 * sigma), o);
    for (std::size_t i = 0; i < o.size(); ++i) {
      RC_ASSERT(!(c.eps[i] < R(0)));
      if (i > 0) RC_ASSERT(!(c.eps[i] < c.eps[i - 1]));
      RC_ASSERT(!(cq.eps[i] < c.eps[i]));  // increases in q
      RC_ASSERT(!(cs.eps[i] > c.eps[i]));  // decreases in σ
    }
  });
  const auto od = integer_orders<double>(2, 64);
  const auto om = integer_orders<mpfr_real>(2, 64);
  const auto f = fast::poisson_subsampled_gaussian_rdp(q, sigma, od);
  const auto d = poisson_subsampled_gaussian_rdp(q, sigma, od);
  const auto m = poisson_subsampled_gaussian_rdp(mpfr_real(q), mpfr_real(sigma), om);
  for (std::size_t i = 0; i < od.size(); ++i) {
    RC_ASSERT(ge(f.eps[i], m.eps[i]));
    RC_ASSERT(ge(d.eps[i], m.eps[i]));
  }
}

RC_GTEST_PROP(ACC_RDP_POISSON_ZW, DominatesExactAndNeverWorseThanNone, ()) {
  const double q = *positive_log_uniform<double>(1e-3, 1.0);
  const double sigma = *real_in<double>(0.7, 5.0);
  const double b = *real_in<double>(0.5, 5.0);
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    const auto o = integer_orders<R>(2, 20);
    const auto base = gaussian_rdp_curve(R(1), R(sigma), o);
    const auto zw = poisson_subsampled_rdp_zw(base, R(q));
    const auto ex = poisson_subsampled_gaussian_rdp(R(q), R(sigma), o);
    const auto lap = laplace_rdp_curve(R(1), R(b), o);
    const auto zl = poisson_subsampled_rdp_zw(lap, R(q));
    for (std::size_t i = 0; i < o.size(); ++i) {
      RC_ASSERT(!(zw.eps[i] < ex.eps[i]));
      RC_ASSERT(!(zw.eps[i] > base.eps[i]));
      RC_ASSERT(!(zl.eps[i] > lap.eps[i]));
    }
    RC_ASSERT(le_rel(zw.eps[0], ex.eps[0], 8));  // equal at α = 2
  });
}

RC_GTEST_PROP(ACC_SUBSAMPLE_WOR, NeverWorseThanNoneAndEqualAtFull, ()) {
  const double e = *positive_log_uniform<double>(1e-3, 1000.0);
  const double dl = *dpref::test::delta<double>();
  const long long n = *rc::gen::inRange<long long>(1, 1000000);
  const long long m = *rc::gen::inRange<long long>(1, n + 1);
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    const approx_dp<R> p{R(e), R(dl)};
    const auto a = subsample_without_replacement(p, m, n);
    RC_ASSERT(!(a.eps > p.eps) && !(a.delta > p.delta));
    const auto full = subsample_without_replacement(p, n, n);
    RC_ASSERT(full.eps == p.eps && full.delta == p.delta);
    if (m < n) RC_ASSERT(!(subsample_without_replacement(p, m + 1, n).eps < a.eps));  // ↑ in m
  });
  RC_ASSERT(ge(
      subsample_without_replacement(approx_dp<double>{e, dl}, m, n).eps,
      subsample_without_replacement(approx_dp<mpfr_real>{mpfr_real(e), mpfr_real(dl)}, m, n).eps));
}

RC_GTEST_PROP(ACC_COMP_SEQ, CompositionAdds, ()) {
  const auto es = *rc::gen::container<std::vector<double>>(
      *rc::gen::inRange<std::size_t>(1, 20), positive_log_uniform<double>(1e-4, 10.0));
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    std::vector<pure_dp<R>> parts;
    for (double x : es) parts.push_back({R(x)});
    const R tot = compose_sequential(parts).eps;
    precision_scope s(1024);
    work_real exact(0);
    for (double x : es) exact += work_real(x);
    const int p = is_runtime_precision_v<R> ? kPropMpfrBits : binary_digits<R>();
    RC_ASSERT(dpref::accounting::detail::to_work(tot) >= exact);
    RC_ASSERT(dpref::accounting::detail::to_work(tot) <=
              exact * (1 + dpref::accounting::detail::w_ldexp(work_real(1), 2 - p)));
  });
}

RC_GTEST_PROP(ACC_CONV_BALLE, ValidUpperBoundOfExactGaussian, ()) {
  const double sigma = *positive_log_uniform<double>(0.5, 30.0);
  const double delta = *dpref::test::delta<double>();
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    if constexpr (std::is_same_v<R, double> || std::is_same_v<R, long double>) {
      const auto c = gaussian_rdp_curve(R(1), R(sigma), integer_orders<R>(2, 256));
      const R b = rdp_to_dp(c, R(delta)).guarantee.eps;
      const R m = rdp_to_dp(c, R(delta), conversion_method::mironov).guarantee.eps;
      RC_ASSERT(!(b > m));
      RC_ASSERT(!(b < analytic_gaussian_privacy(R(1), R(sigma), R(delta)).eps));
    }
  });
  const auto cd = poisson_subsampled_gaussian_rdp(0.01, sigma, integer_orders<double>(2, 64));
  const auto cm = poisson_subsampled_gaussian_rdp(mpfr_real(0.01), mpfr_real(sigma),
                                                  integer_orders<mpfr_real>(2, 64));
  RC_ASSERT(ge(rdp_to_dp(cd, delta).guarantee.eps, rdp_to_dp(cm, mpfr_real(delta)).guarantee.eps));
  RC_ASSERT(
      ge(fast::rdp_to_dp(cd, delta).guarantee.eps, rdp_to_dp(cm, mpfr_real(delta)).guarantee.eps));
}

RC_GTEST_PROP(ACC_CONV_PURE2RDP, CurveNonNegativeNonDecreasingBelowEps, ()) {
  const double e = *positive_log_uniform<double>(1e-3, 1000.0);
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    const std::vector<R> o{R(1) + R(1) / 1048576, R(3) / 2, R(2), R(10), R(1000)};
    const auto c = pure_to_rdp_curve(R(e), o);
    for (std::size_t i = 0; i < o.size(); ++i) {
      RC_ASSERT(!(c.eps[i] < R(0)));
      RC_ASSERT(le_rel(c.eps[i], R(e), 2));
      if (i > 0) RC_ASSERT(!(c.eps[i] < c.eps[i - 1]));
    }
  });
  RC_ASSERT(ge(pure_to_rdp(e, 7.5), pure_to_rdp(mpfr_real(e), mpfr_real(7.5))));
}

RC_GTEST_PROP(ACC_CAL_ACCEL_PROP31, CalibrateEvaluateRoundTrip, ()) {
  const double e = *epsilon<double>();
  const long long T = *rc::gen::inRange<long long>(1, 10000);
  const long long n = *rc::gen::inRange<long long>(1, 1000000);
  const long long m = *rc::gen::inRange<long long>(1, n + 1);
  for_each_scalar([&](auto t) {
    using R = typename decltype(t)::type;
    const auto p = accel::prop31(R(1), R(e), T, n, m);
    const R per = accel::iteration_epsilon(R(1), p.b, n, m);
    precision_scope s(1024);
    const int pb = is_runtime_precision_v<R> ? kPropMpfrBits : binary_digits<R>();
    const work_real tot = dpref::accounting::detail::to_work(per) * T;
    const work_real tgt(e);
    RC_ASSERT(tot <= tgt * (1 + dpref::accounting::detail::w_ldexp(work_real(1), 8 - pb)));
    RC_ASSERT(tot >= tgt * (1 - dpref::accounting::detail::w_ldexp(work_real(1), 12 - pb)));
  });
}

RC_GTEST_PROP(ACC_CERT_UP, DoubleNeverBelow256BitResult, ()) {
  const double e = *epsilon<double>();
  const double a = *real_in<double>(1.001, 300.0);
  const double sigma = *positive_log_uniform<double>(0.3, 30.0);
  const double q = *positive_log_uniform<double>(1e-5, 1.0);
  const double dl = *dpref::test::delta<double>();
  using M = mpfr_real;
  RC_ASSERT(ge(laplace_rdp(1.0, sigma, a), laplace_rdp(M(1), M(sigma), M(a))));
  RC_ASSERT(ge(gaussian_rdp(1.0, sigma, a), gaussian_rdp(M(1), M(sigma), M(a))));
  RC_ASSERT(ge(svt_laplace_rdp(a, e, e / 2, svt_bound::paper_eq4_5),
               svt_laplace_rdp(M(a), M(e), M(e / 2), svt_bound::paper_eq4_5)));
  RC_ASSERT(ge(svt_gaussian_rdp(a, 1.0, sigma, 2 * sigma, 50),
               svt_gaussian_rdp(M(a), M(1), M(sigma), M(2 * sigma), 50)));
  const auto sd = subsample_poisson(approx_dp<double>{e, dl}, q);
  const auto sm = subsample_poisson(approx_dp<M>{M(e), M(dl)}, M(q));
  RC_ASSERT(ge(sd.eps, sm.eps) && ge(sd.delta, sm.delta));
  const auto od = integer_orders<double>(2, 40);
  const auto om = integer_orders<M>(2, 40);
  const auto zd = poisson_subsampled_rdp_zw(laplace_rdp_curve(1.0, sigma, od), q);
  const auto zm = poisson_subsampled_rdp_zw(laplace_rdp_curve(M(1), M(sigma), om), M(q));
  for (std::size_t i = 0; i < od.size(); ++i) RC_ASSERT(ge(zd.eps[i], zm.eps[i]));
  const std::vector<approx_dp<double>> pd(7, {std::min(e, 0.875), dl / 10});
  const std::vector<approx_dp<M>> pm(7, {M(std::min(e, 0.875)), M(dl / 10)});
  const auto ad = dda::compose_advanced(pd, dl);
  const auto am = dda::compose_advanced(pm, M(dl));
  RC_ASSERT(ge(ad.eps, am.eps) && ge(ad.delta, am.delta));
  const auto kd = compose_kov_heterogeneous(pd, dl);
  const auto km = compose_kov_heterogeneous(pm, M(dl));
  RC_ASSERT(ge(kd.eps, km.eps) && ge(kd.delta, km.delta));
  RC_ASSERT(ge(accel::iteration_epsilon(1.0, sigma, 1000, 10),
               accel::iteration_epsilon(M(1), M(sigma), 1000, 10)));
}

}  // namespace

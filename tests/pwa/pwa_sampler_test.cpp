// Exact samplers of the continuous exponential mechanism M_E (pwa Theorem 19) and the
// approximate Metropolis path: spec/pwa_sampler.md PWA.ME.*.
//
// Statistical plan: every goodness-of-fit test has a fixed seed and false-alarm probability
// kAlpha = 1e-6 (KS: the Dvoretzky–Kiefer–Wolfowitz–Massart bound, exact for every n; χ²:
// asymptotic, bins merged to expected counts >= 20; acceptance counts: exact binomial tails by
// the Chernoff–Hoeffding bound). Each has a negative control (the density with ε doubled) that
// the same test rejects. Reference densities are computed here independently of the library:
// in 1-D the CDF in closed form from the interval where each piece is the maximum; in 2-D the
// cell probabilities by adaptive Gauss–Kronrod quadrature over x1 of the closed-form integral
// over x2 (Gauss–Kronrod error estimate asserted <= 1e-6 relative per cell: it changes each
// expected count by <= 1e-6 of itself, negligible against the χ² critical values used).
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "dpref/pwa/exponential_mechanism.hpp"
#include "dpref/pwa/exponential_mechanism_lp.hpp"
#include "support/gof.hpp"

namespace {

using namespace dpref;
using pwa::me_method;
using pwa::piecewise_affine;
using pwa::polytope;
using ld = long double;

constexpr double kAlpha = 1e-6;

// ------------------------------------------------------------------ independent 1-D reference

/// Lines a_i t + b_i on [L, U] and λ: the density ∝ exp(−λ max_i(a_i t + b_i)), in closed form.
struct ref1d {
  std::vector<ld> a, b;
  ld L, U, lam, offset;  // offset: a constant ≤ min f (exp(−λ(f − offset)) ≤ 1 up to rounding)
  std::vector<ld> lo, hi;  // piece i is the maximum on [lo_i, hi_i] (empty if lo_i >= hi_i)

  ref1d(std::vector<ld> a_, std::vector<ld> b_, ld L_, ld U_, ld lam_, ld offset_)
      : a(std::move(a_)), b(std::move(b_)), L(L_), U(U_), lam(lam_), offset(offset_) {
    const std::size_t m = a.size();
    lo.assign(m, L);
    hi.assign(m, U);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        if (i == j) continue;
        // piece i >= piece j  <=>  (a_i − a_j) t >= b_j − b_i ; ties go to the smaller index
        const ld da = a[i] - a[j], db = b[j] - b[i];
        if (da > 0)
          lo[i] = std::max(lo[i], db / da);
        else if (da < 0)
          hi[i] = std::min(hi[i], db / da);
        else if (db > 0 || (db == 0 && j < i))
          hi[i] = lo[i];  // never (strictly) the maximum
      }
  }
  /// ∫_p^q exp(−λ(a_i t + b_i − offset)) dt in closed form (p <= q).
  ld mass(std::size_t i, ld p, ld q) const {
    if (!(q > p)) return 0;
    const ld v0 = a[i] * p + b[i] - offset, v1 = a[i] * q + b[i] - offset;
    const ld vmin = std::min(v0, v1), alpha = lam * std::fabs(a[i]) * (q - p);
    const ld shape = alpha > 0 ? -std::expm1(-alpha) / alpha : 1.0L;
    return std::exp(-lam * vmin) * (q - p) * shape;
  }
  ld mass_below(ld x) const {
    ld s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += mass(i, lo[i], std::min(hi[i], x));
    return s;
  }
  ld total() const { return mass_below(U); }
  double cdf(double x) const { return static_cast<double>(mass_below(x) / total()); }
  ld f(ld x) const {
    ld m = -std::numeric_limits<ld>::infinity();
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, a[i] * x + b[i]);
    return m;
  }
  /// exact min of f on [L, U]: at L, U or a breakpoint
  ld fmin() const {
    ld m = std::min(f(L), f(U));
    for (std::size_t i = 0; i < a.size(); ++i)
      if (lo[i] < hi[i]) m = std::min({m, f(lo[i]), f(hi[i])});
    return m;
  }
};

piecewise_affine<double> make_1d(std::vector<double> a, std::vector<double> b, double c,
                                 double bmax, std::vector<std::pair<double, double>> rows = {}) {
  const auto m = static_cast<Eigen::Index>(a.size());
  matrix<double> A(m, 1);
  vector<double> bb(m);
  for (Eigen::Index i = 0; i < m; ++i)
    A(i, 0) = a[static_cast<std::size_t>(i)], bb[i] = b[static_cast<std::size_t>(i)];
  auto P = pwa::polytope<double>::box_only(1, c);
  P.G = matrix<double>(static_cast<Eigen::Index>(rows.size()), 1);
  P.h = vector<double>(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    P.G(static_cast<Eigen::Index>(r), 0) = rows[r].first,
                                      P.h[static_cast<Eigen::Index>(r)] = rows[r].second;
  return piecewise_affine<double>(A, bb, P, bmax);
}

ref1d reference(const piecewise_affine<double>& F, double eps) {
  std::vector<ld> a, b;
  for (int i = 0; i < F.pieces(); ++i) a.push_back(F.A()(i, 0)), b.push_back(F.b()[i]);
  ld L = -F.polytope().box, U = F.polytope().box;
  for (Eigen::Index r = 0; r < F.polytope().G.rows(); ++r) {
    const ld g = F.polytope().G(r, 0), h = F.polytope().h[r];
    if (g > 0) U = std::min(U, h / g);
    if (g < 0) L = std::max(L, h / g);
  }
  const ld lam = static_cast<ld>(eps) / (2 * static_cast<ld>(F.bmax()));
  ref1d tmp(a, b, L, U, lam, 0);
  return ref1d(a, b, L, U, lam, tmp.fmin());
}

struct case1d {
  std::string name;
  piecewise_affine<double> F;
  double eps;
};

std::vector<case1d> cases_1d() {
  return {
      {"three pieces, eps c = 4", make_1d({1, -1, 0.5}, {0, 0.2, -0.1}, 1, 1), 4},
      {"sharp, eps c = 40", make_1d({2, -3, 0.25, -0.5}, {0.1, -0.4, 0.3, 0.2}, 1, 1), 40},
      {"flat, eps c = 1.2 on c = 2", make_1d({1, -1}, {0.5, 0}, 2, 1), 0.6},
      {"extra rows x <= 0.3, -2x <= 1.2",
       make_1d({1, -2, 0}, {0, -1, -0.2}, 1, 0.5, {{1, 0.3}, {-2, 1.2}}), 6},
  };
}

std::vector<double> draw_1d(const pwa::exponential_mechanism<double>& M, me_method m, int n,
                            std::uint64_t seed, pwa::me_counts* counts = nullptr) {
  std::vector<double> xs;
  xs.reserve(static_cast<std::size_t>(n));
  philox_stream s(seed);
  for (int i = 0; i < n; ++i) xs.push_back(M.draw(s, m, counts)[0]);
  return xs;
}

// ------------------------------------------------------------------------------------ 1-D KS

void ks_case(me_method method, std::uint64_t seed) {
  const int n = 20000;  // DKW critical value sqrt(ln(2/1e-6)/(2n)) = 0.0190
  for (const auto& c : cases_1d()) {
    const pwa::exponential_mechanism<double> M(c.F, c.eps);
    const auto xs = draw_1d(M, method, n, seed);
    const ref1d ref = reference(c.F, c.eps);
    const auto ks = test::ks_test(
        xs, [&](double x) { return ref.cdf(x); }, kAlpha);
    EXPECT_FALSE(ks.reject) << c.name << ": D = " << ks.statistic << " > " << ks.critical;
    // negative control: the same sample against the density with ε doubled
    const ref1d wrong = reference(c.F, 2 * c.eps);
    const auto bad = test::ks_test(
        xs, [&](double x) { return wrong.cdf(x); }, kAlpha);
    EXPECT_TRUE(bad.reject) << c.name << ": 2eps control D = " << bad.statistic;
    std::printf("[ks] %-12s %-34s D=%.4f (crit %.4f) | 2eps control D=%.4f\n",
                pwa::to_string(method), c.name.c_str(), ks.statistic, ks.critical, bad.statistic);
  }
}

TEST(PWA_ME_INVCDF, MatchesClosedFormCdfKS) { ks_case(me_method::inverse_cdf, 11); }
TEST(PWA_ME_REJECTION, MatchesClosedFormCdfKS) { ks_case(me_method::rejection, 12); }
TEST(PWA_ME_ENVELOPE, MatchesClosedFormCdfKS) { ks_case(me_method::envelope, 13); }

TEST(PWA_ME_INVCDF, SegmentsAreTheUpperEnvelope) {
  for (const auto& c : cases_1d()) {
    const pwa::exponential_mechanism<double> M(c.F, c.eps);
    const auto& seg = M.segments();
    const ref1d ref = reference(c.F, c.eps);
    ASSERT_FALSE(seg.empty());
    EXPECT_DOUBLE_EQ(static_cast<double>(ref.L), seg.front().lo) << c.name;
    EXPECT_DOUBLE_EQ(static_cast<double>(ref.U), seg.back().hi) << c.name;
    for (std::size_t k = 0; k < seg.size(); ++k) {
      if (k > 0) {
        EXPECT_EQ(seg[k - 1].hi, seg[k].lo);
      }
      // the segment's line is f at 17 interior points
      for (int t = 1; t <= 17; ++t) {
        const double x = seg[k].lo + (seg[k].hi - seg[k].lo) * t / 18.0;
        EXPECT_NEAR(seg[k].slope * x + seg[k].intercept, static_cast<double>(ref.f(x)), 1e-14)
            << c.name;
      }
    }
    // total mass: library log-sum-exp vs the reference closed form
    double lse = -std::numeric_limits<double>::infinity();
    for (double v : M.segment_log_mass()) lse = std::max(lse, v);
    double acc = 0;
    for (double v : M.segment_log_mass()) acc += std::exp(v - lse);
    const double log_total = lse + std::log(acc);
    const double ref_log_total = static_cast<double>(std::log(ref.total()) - ref.lam * ref.offset);
    EXPECT_NEAR(log_total, ref_log_total, 1e-12 * std::max(1.0, std::fabs(ref_log_total)))
        << c.name;
  }
}

// -------------------------------------------------------------------- acceptance rate counts

/// Exact binomial check of k successes in n trials against p: Chernoff–Hoeffding,
/// P(|k/n − p| >= t) <= 2 exp(−2 n t²) -> t = sqrt(ln(2/α)/(2n)).
void expect_rate(long long k, long long n, double p, const std::string& what) {
  const double t = std::sqrt(std::log(2 / kAlpha) / (2.0 * static_cast<double>(n)));
  const double rate = static_cast<double>(k) / static_cast<double>(n);
  EXPECT_LE(std::fabs(rate - p), t) << what << ": rate " << rate << " vs " << p;
  std::printf("[accept] %-44s measured %.5f exact %.5f (+-%.5f)\n", what.c_str(), rate, p, t);
}

TEST(PWA_ME_ACCEPTANCE, CountsMatchTheExactAcceptanceProbability) {
  for (const auto& c : cases_1d()) {
    const pwa::exponential_mechanism<double> M(c.F, c.eps);
    const ref1d ref = reference(c.F, c.eps);
    const double lam = static_cast<double>(ref.lam);
    const double box = c.F.polytope().box;
    // rejection: P(accept) = ∫_P exp(−λ(f − f_lo)) / (2c)
    const double z = static_cast<double>(ref.total()) *
                     std::exp(-lam * (static_cast<double>(ref.offset) - M.f_lower()));
    pwa::me_counts rc;
    (void)draw_1d(M, me_method::rejection, 4000, 21, &rc);
    expect_rate(rc.accepted, rc.attempts, z / (2 * box), c.name + " rejection");
    // envelope: P(accept) = Z_f / Z_g = ∫_P exp(−λ f) / ∫_box exp(−λ g)
    const double log_zf =
        std::log(static_cast<double>(ref.total())) - lam * static_cast<double>(ref.offset);
    const double s = M.envelope().slope[0], t = M.envelope().offset;
    const double as = std::fabs(lam * s);
    const double log_zg =
        -lam * t + (as * box < 1e-12
                        ? std::log(2 * box)
                        : as * box + std::log(-std::expm1(-2 * as * box)) - std::log(as));
    pwa::me_counts ec;
    (void)draw_1d(M, me_method::envelope, 4000, 22, &ec);
    expect_rate(ec.accepted, ec.attempts, std::exp(log_zf - log_zg), c.name + " envelope");
    EXPECT_NEAR(M.envelope().log_z, log_zg, 1e-9 * std::max(1.0, std::fabs(log_zg)));
  }
}

// ----------------------------------------------------------------------------------- 2-D χ²

/// Exact ∫_{v0}^{v1} exp(−λ(f(x1, t) − offset)) 1_P dt for fixed x1 (closed form per piece).
ld inner_integral(const piecewise_affine<double>& F, ld x1, ld v0, ld v1, ld lam, ld offset) {
  std::vector<ld> a, b;
  for (int i = 0; i < F.pieces(); ++i) {
    a.push_back(F.A()(i, 1));
    b.push_back(F.A()(i, 0) * x1 + F.b()[i]);
  }
  const auto& P = F.polytope();
  for (Eigen::Index r = 0; r < P.G.rows(); ++r) {  // g1 x1 + g2 t <= h
    const ld g1 = P.G(r, 0), g2 = P.G(r, 1), h = P.h[r];
    if (g2 > 0)
      v1 = std::min(v1, (h - g1 * x1) / g2);
    else if (g2 < 0)
      v0 = std::max(v0, (h - g1 * x1) / g2);
    else if (g1 * x1 > h)
      return 0;
  }
  if (!(v1 > v0)) return 0;
  return ref1d(a, b, v0, v1, lam, offset).total();
}

/// Cell probabilities of a k×k grid on the box (row-major, x1 slow) for ε.
std::vector<double> cell_probabilities(const piecewise_affine<double>& F, double eps, int k) {
  const ld c = F.polytope().box, lam = static_cast<ld>(eps) / (2 * static_cast<ld>(F.bmax()));
  // offset: min of f over a grid (any constant works; it only keeps exp() in range)
  ld offset = std::numeric_limits<ld>::infinity();
  for (int i = 0; i <= 200; ++i)
    for (int j = 0; j <= 200; ++j) {
      vector<double> x(2);
      x << static_cast<double>(-c + 2 * c * i / 200), static_cast<double>(-c + 2 * c * j / 200);
      offset = std::min<ld>(offset, F.value(x));
    }
  std::vector<ld> mass(static_cast<std::size_t>(k * k));
  ld total = 0;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) {
      const ld u0 = -c + 2 * c * i / k, u1 = -c + 2 * c * (i + 1) / k;
      const ld v0 = -c + 2 * c * j / k, v1 = -c + 2 * c * (j + 1) / k;
      ld err = 0;
      const ld m = boost::math::quadrature::gauss_kronrod<ld, 31>::integrate(
          [&](ld x1) { return inner_integral(F, x1, v0, v1, lam, offset); }, u0, u1, 20, 1e-13L,
          &err);
      EXPECT_LE(static_cast<double>(err), 1e-6 * static_cast<double>(m));
      mass[static_cast<std::size_t>(i * k + j)] = m;
      total += m;
    }
  std::vector<double> p;
  for (ld m : mass) p.push_back(static_cast<double>(m / total));
  return p;
}

piecewise_affine<double> make_2d(bool extra_rows) {
  matrix<double> A(4, 2);
  A << 1.0, 0.5, -1.5, 0.25, 0.2, -1.0, -0.3, 1.2;
  vector<double> b(4);
  b << 0.1, -0.2, 0.0, 0.3;
  auto P = pwa::polytope<double>::box_only(2, 1.0);
  if (extra_rows) {  // x1 + x2 <= 0.8
    P.G = matrix<double>(1, 2);
    P.G << 1.0, 1.0;
    P.h = vector<double>(1);
    P.h << 0.8;
  }
  return piecewise_affine<double>(A, b, P, 1.0);
}

void chi2_case(me_method method, bool extra_rows, std::uint64_t seed) {
  const int k = 8, n = 100000;
  const double eps = 6;
  const auto F = make_2d(extra_rows);
  const pwa::exponential_mechanism<double> M(F, eps);
  std::map<long long, long long> counts;
  philox_stream s(seed);
  for (int i = 0; i < n; ++i) {
    const auto x = M.draw(s, method);
    const int ci = std::min(k - 1, static_cast<int>((x[0] + 1.0) / 2.0 * k));
    const int cj = std::min(k - 1, static_cast<int>((x[1] + 1.0) / 2.0 * k));
    ++counts[ci * k + cj];
  }
  const auto p = cell_probabilities(F, eps, k);
  const auto pmf = [&](long long c) { return p[static_cast<std::size_t>(c)]; };
  const auto r = test::chi2_test(counts, pmf, 0, k * k - 1, kAlpha);
  EXPECT_FALSE(r.reject) << pwa::to_string(method) << " chi2 = " << r.statistic << " > "
                         << r.critical;
  const auto q = cell_probabilities(F, 2 * eps, k);  // negative control: ε doubled
  const auto bad = test::chi2_test(
      counts, [&](long long c) { return q[static_cast<std::size_t>(c)]; }, 0, k * k - 1, kAlpha);
  EXPECT_TRUE(bad.reject) << "2eps control chi2 = " << bad.statistic;
  std::printf("[chi2] %-10s rows=%d chi2=%.1f (dof %d, crit %.1f) | 2eps control %.1f\n",
              pwa::to_string(method), extra_rows ? 1 : 0, r.statistic, r.dof, r.critical,
              bad.statistic);
}

TEST(PWA_ME_REJECTION, GridChiSquare2D) {
  chi2_case(me_method::rejection, false, 31);
  chi2_case(me_method::rejection, true, 32);
}
TEST(PWA_ME_ENVELOPE, GridChiSquare2D) {
  chi2_case(me_method::envelope, false, 33);
  chi2_case(me_method::envelope, true, 34);
}

// ------------------------------------------------------------ bounds and envelope validity

/// Exact min of f on the 2-D box: over the vertices of the arrangement (pairs of pieces and
/// box edges, triples of pieces... in 2-D a minimiser is where two constraints of the epigraph
/// LP are tight: two pieces equal on an edge, three pieces equal, or a corner).
double exact_min_2d(const piecewise_affine<double>& F) {
  const double c = F.polytope().box;
  std::vector<vector<double>> cand;
  auto push = [&](double x, double y) {
    if (std::fabs(x) <= c * (1 + 1e-12) && std::fabs(y) <= c * (1 + 1e-12)) {
      vector<double> v(2);
      v << std::clamp(x, -c, c), std::clamp(y, -c, c);
      cand.push_back(v);
    }
  };
  for (double x : {-c, c})
    for (double y : {-c, c}) push(x, y);
  const auto& A = F.A();
  const auto& b = F.b();
  const int m = F.pieces();
  for (int i = 0; i < m; ++i)
    for (int j = i + 1; j < m; ++j) {
      const double d0 = A(i, 0) - A(j, 0), d1 = A(i, 1) - A(j, 1), r = b[j] - b[i];
      for (double e : {-c, c}) {  // piece i = piece j on an edge
        if (d1 != 0) push(e, (r - d0 * e) / d1);
        if (d0 != 0) push((r - d1 * e) / d0, e);
      }
      for (int l = j + 1; l < m; ++l) {  // three pieces equal
        const double e0 = A(i, 0) - A(l, 0), e1 = A(i, 1) - A(l, 1), s = b[l] - b[i];
        const double det = d0 * e1 - d1 * e0;
        if (det != 0) push((r * e1 - d1 * s) / det, (d0 * s - r * e0) / det);
      }
    }
  double best = std::numeric_limits<double>::infinity();
  for (const auto& v : cand) best = std::min(best, F.value(v));
  return best;
}

/// m pieces in d dimensions: a_ij ~ N(0, sd_a²), b_i ~ N(0, 1), box [−c, c]^d, bmax = 1.
piecewise_affine<double> random_instance(philox_stream& s, int m, int d, double sd_a, double c) {
  matrix<double> A(m, d);
  vector<double> b(m);
  for (Eigen::Index i = 0; i < A.size(); ++i) A.data()[i] = gaussian<double>(s, sd_a);
  for (Eigen::Index i = 0; i < b.size(); ++i) b[i] = gaussian<double>(s, 1.0);
  return piecewise_affine<double>(A, b, pwa::polytope<double>::box_only(d, c), 1.0);
}

TEST(PWA_ME_REJECTION, DualLowerBoundIsValidAndTight) {
  for (const auto& c : cases_1d()) {
    const pwa::exponential_mechanism<double> M(c.F, c.eps);
    const double fmin = static_cast<double>(reference(c.F, c.eps).fmin());
    EXPECT_LE(M.f_lower(), fmin) << c.name;
    EXPECT_GE(M.f_lower(), fmin - 1e-12) << c.name;  // d = 1: the exact segment minimum
  }
  philox_stream s(41);
  double worst_gap = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const auto F = random_instance(s, 6, 2, 1.0, 1.0);
    const double lb = pwa::dual_lower_bound(F, 5.0);
    const double fmin = exact_min_2d(F);
    EXPECT_LE(lb, fmin);
    worst_gap = std::max(worst_gap, fmin - lb);
    EXPECT_LE(5.0 * (fmin - lb), 0.1);  // acceptance lost to the bound: at most 1 − e^{−0.1}
  }
  std::printf("[dual bound] 2-D, m = 6, lambda = 5: worst min f - f_lo = %.3g\n", worst_gap);
}

TEST(PWA_ME_REJECTION, LpLowerBoundIsValidAndTightWithRows) {
  philox_stream s(43);
  for (int trial = 0; trial < 20; ++trial) {
    const auto F = random_instance(s, 6, 2, 1.0, 1.0);
    const double fmin = exact_min_2d(F);
    const double lb = pwa::lp_lower_bound(F);
    EXPECT_LE(lb, fmin);
    EXPECT_GE(lb, fmin - 1e-12);
    EXPECT_GE(lb, pwa::dual_lower_bound(F, 5.0) - 1e-12);
  }
  // with a row x1 + x2 <= 0.8 the LP bound is at least the box-only dual bound, and valid
  const auto F = make_2d(true);
  const auto M = pwa::make_exponential_mechanism_lp(F, 6.0);
  EXPECT_GE(M.f_lower(), pwa::dual_lower_bound(F, 3.0) - 1e-12);
  double fmin_grid = INFINITY;
  for (int i = 0; i <= 400; ++i)
    for (int j = 0; j <= 400; ++j) {
      vector<double> x(2);
      x << -1 + i / 200.0, -1 + j / 200.0;
      if (F.polytope().contains(x)) fmin_grid = std::min(fmin_grid, F.value(x));
    }
  EXPECT_LE(M.f_lower(), fmin_grid);
  EXPECT_GE(M.f_lower(), fmin_grid - 0.02);  // grid spacing 0.005, slopes <= 2
}

TEST(PWA_ME_ENVELOPE, EnvelopeIsBelowF) {
  philox_stream s(42);
  for (int trial = 0; trial < 20; ++trial) {
    const int d = 1 + trial % 5, m = 2 + trial % 7;
    const auto F = random_instance(s, m, d, 2.0, 1.5);
    for (double lam : {0.1, 3.0, 300.0}) {
      const auto env = pwa::make_separable_envelope(F, lam);
      double sum = 0;
      for (double t : env.theta) {
        EXPECT_GE(t, 0);
        sum += t;
      }
      EXPECT_NEAR(sum, 1, 1e-12);
      for (int k = 0; k < 200; ++k) {
        vector<double> x(d);
        for (int j = 0; j < d; ++j)
          x[j] = k < (1 << std::min(d, 7)) ? ((k >> j) & 1 ? 1.5 : -1.5)  // vertices
                                           : 1.5 * (2 * uniform01<double>(s) - 1);
        EXPECT_LE(env.slope.dot(x) + env.offset, F.value(x));
      }
      // the optimised θ is at least as good as the best single piece
      const auto single = pwa::make_separable_envelope(F, lam, 0);
      EXPECT_LE(env.log_z, single.log_z + 1e-9);
    }
  }
}

// --------------------------------------------------------------- ledger, labels (Theorem 19)

TEST(PWA_ME_THM19, ExactSamplersRecordPureEpsilon) {
  const auto F = make_2d(false);
  const double eps = 0.7;
  const pwa::exponential_mechanism<double> M(F, eps);
  for (me_method m : {me_method::rejection, me_method::envelope}) {
    const auto r = M.sample(philox_stream(5), m, 3);
    EXPECT_EQ(r.samples.size(), 3u);
    EXPECT_EQ(r.exactness, pwa::me_exactness::exact);
    EXPECT_TRUE(r.certified);
    ASSERT_EQ(r.ledger.events().size(), 1u);
    const auto& e = r.ledger.events()[0];
    EXPECT_EQ(e.count, 3);
    accounting::event<double> single = e;
    single.count = 1;
    accounting::ledger<double> one;
    one.record(single);
    const double e1 = one.total().epsilon;
    EXPECT_GE(e1, eps);  // rounded up
    EXPECT_LE(e1, eps * (1 + 1e-15));
    const auto tot = r.ledger.total();
    EXPECT_NEAR(tot.epsilon, 3 * eps, 1e-14);
    EXPECT_EQ(tot.delta, 0.0);
    EXPECT_NE(r.guarantee.find("Theorem 19"), std::string::npos);
    EXPECT_EQ(r.counts.accepted, 3);
    EXPECT_GE(r.counts.attempts, 3);
  }
  // the samples are in P and a sample does not depend on n (substream i)
  const auto r1 = M.sample(philox_stream(5), me_method::rejection, 1);
  const auto r3 = M.sample(philox_stream(5), me_method::rejection, 3);
  EXPECT_EQ(r1.samples[0], r3.samples[0]);
  for (const auto& x : r3.samples) EXPECT_TRUE(F.polytope().contains(x));
}

TEST(PWA_ME_METROPOLIS, LabelledApproximateAndNotCertified) {
  const auto F = make_2d(true);
  pwa::me_config<double> cfg;
  cfg.metropolis_steps = 300;
  const pwa::exponential_mechanism<double> M(F, 2.0, cfg);
  const auto r = M.sample(philox_stream(6), me_method::metropolis, 4);
  EXPECT_EQ(r.exactness, pwa::me_exactness::approximate);
  EXPECT_FALSE(r.certified);
  EXPECT_TRUE(r.ledger.empty());
  EXPECT_NE(r.guarantee.find("NOT CERTIFIED"), std::string::npos);
  EXPECT_EQ(r.counts.attempts, 4 * 300);
  EXPECT_GT(r.counts.accepted, 0);
  for (const auto& x : r.samples) EXPECT_TRUE(F.polytope().contains(x));
  EXPECT_EQ(pwa::exponential_mechanism<double>::exactness(me_method::metropolis),
            pwa::me_exactness::approximate);
}

TEST(PWA_ME_METROPOLIS, PaperDefaults) {
  const pwa::me_config<double> cfg;
  EXPECT_EQ(cfg.metropolis_steps, 5000);  // pwa §5.1
  EXPECT_EQ(cfg.metropolis_eta, 0.1);     // Σ = η c I, η = 0.1
  // the long chain approximately matches the exact law (1-D, KS at a loose level is not a
  // guarantee; here only its mean is compared with the exact mean, 6 standard errors)
  const auto cs = cases_1d();
  const auto& c = cs[0];
  const pwa::exponential_mechanism<double> M(c.F, c.eps, cfg);
  const ref1d ref = reference(c.F, c.eps);
  // exact mean by the CDF: E[x] = U − ∫_L^U F(x) dx (trapezoid on 20001 points, error < 1e-8)
  double integral = 0;
  const double L = static_cast<double>(ref.L), U = static_cast<double>(ref.U);
  const int N = 20000;
  for (int i = 0; i <= N; ++i) {
    const double w = (i == 0 || i == N) ? 0.5 : 1.0;
    integral += w * ref.cdf(L + (U - L) * static_cast<double>(i) / N);
  }
  const double mean = U - integral * (U - L) / N;
  const auto xs = draw_1d(M, me_method::metropolis, 400, 7);
  double m1 = 0, m2 = 0;
  for (double x : xs) m1 += x, m2 += x * x;
  m1 /= 400;
  const double sd = std::sqrt(m2 / 400 - m1 * m1);
  EXPECT_NEAR(m1, mean, 6 * sd / std::sqrt(400.0));
}

// ----------------------------------------------------------------------------- double vs mp50

template <class Real>
piecewise_affine<Real> convert(const piecewise_affine<double>& F) {
  matrix<Real> A = F.A().cast<Real>();
  vector<Real> b = F.b().cast<Real>();
  pwa::polytope<Real> P;
  P.dimension = F.dimension();
  P.box = Real(F.polytope().box);
  P.G = F.polytope().G.cast<Real>();
  P.h = F.polytope().h.cast<Real>();
  return piecewise_affine<Real>(A, b, P, Real(F.bmax()));
}

TEST(PWA_ME_PRECISION, DoubleIsTheRoundingOfMp50) {
  // The problems are exactly representable in double; the same stream is read by both
  // precisions. Expected: the same proposals and decisions, the double sample within a few
  // ulps (of the box size c) of the 50-digit one, which itself has bits beyond double.
  struct item {
    piecewise_affine<double> F;
    double eps;
    std::vector<me_method> methods;
  };
  const std::vector<item> items{
      {cases_1d()[0].F,
       4,
       {me_method::inverse_cdf, me_method::rejection, me_method::envelope, me_method::metropolis}},
      {cases_1d()[3].F, 6, {me_method::inverse_cdf, me_method::rejection}},
      {make_2d(true), 6, {me_method::rejection, me_method::envelope, me_method::metropolis}}};
  double worst_ulps = 0;
  int extra_bits = 0, total = 0;
  for (const auto& it : items) {
    pwa::me_config<double> cd;
    pwa::me_config<mp50> cm;
    cd.metropolis_steps = cm.metropolis_steps = 100;
    const pwa::exponential_mechanism<double> Md(it.F, it.eps, cd);
    const pwa::exponential_mechanism<mp50> Mm(convert<mp50>(it.F), mp50(it.eps), cm);
    const double ulp = std::numeric_limits<double>::epsilon() * it.F.polytope().box;
    for (me_method m : it.methods) {
      for (int i = 0; i < 12; ++i) {
        philox_stream sd(77, 0, static_cast<std::uint64_t>(i)), sm = sd;
        pwa::me_counts kd, km;
        const auto xd = Md.draw(sd, m, &kd);
        const auto xm = Mm.draw(sm, m, &km);
        EXPECT_EQ(kd.attempts, km.attempts) << pwa::to_string(m);
        for (int j = 0; j < it.F.dimension(); ++j) {
          const double diff = std::fabs(xd[j] - static_cast<double>(xm[j]));
          worst_ulps = std::max(worst_ulps, diff / ulp);
          EXPECT_LE(diff, (m == me_method::metropolis ? 64 : 4) * ulp)
              << pwa::to_string(m) << " sample " << i;
          ++total;
          if (xm[j] != mp50(static_cast<double>(xm[j]))) ++extra_bits;
        }
      }
    }
  }
  std::printf(
      "[precision] worst |x_double - x_mp50| = %.2f ulp(c); %d/%d mp50 coordinates "
      "carry bits beyond double\n",
      worst_ulps, extra_bits, total);
  EXPECT_GE(extra_bits, total * 9 / 10);  // the mp50 sample is not a widened double
}

// ---------------------------------------------------------------------------------- bad inputs

template <class E, class Fn>
void expect_throw_naming(Fn&& fn, const std::string& name) {
  try {
    fn();
    ADD_FAILURE() << "no exception, expected one naming " << name;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
}

TEST(PWA_ME_INPUTS, BadInputsThrowNamingTheArgument) {
  const auto F = make_2d(false);
  using M = pwa::exponential_mechanism<double>;
  expect_throw_naming<std::domain_error>([&] { (void)M(F, 0.0); }, "epsilon");
  expect_throw_naming<std::domain_error>([&] { (void)M(F, -1.0); }, "epsilon");
  expect_throw_naming<std::domain_error>([&] { (void)M(F, std::nan("")); }, "epsilon");
  {
    pwa::me_config<double> c;
    c.max_attempts = 0;
    expect_throw_naming<std::invalid_argument>([&] { (void)M(F, 1.0, c); }, "max_attempts");
  }
  {
    pwa::me_config<double> c;
    c.metropolis_steps = 0;
    expect_throw_naming<std::invalid_argument>([&] { (void)M(F, 1.0, c); }, "metropolis_steps");
  }
  {
    pwa::me_config<double> c;
    c.metropolis_eta = 0;
    expect_throw_naming<std::domain_error>([&] { (void)M(F, 1.0, c); }, "metropolis_eta");
  }
  {
    pwa::me_config<double> c;
    c.metropolis_start = vector<double>::Zero(3);
    expect_throw_naming<std::invalid_argument>([&] { (void)M(F, 1.0, c); }, "metropolis_start");
  }
  {
    pwa::me_config<double> c;
    c.metropolis_start = vector<double>::Constant(2, 5.0);  // outside P
    const M mech(F, 1.0, c);
    philox_stream s(1);
    expect_throw_naming<std::domain_error>([&] { mech.draw(s, me_method::metropolis); },
                                           "metropolis_start");
  }
  {
    pwa::me_config<double> c;
    c.f_lower = 100.0;  // not a lower bound of min f
    const M mech(F, 1.0, c);
    philox_stream s(1);
    expect_throw_naming<std::domain_error>([&] { mech.draw(s, me_method::rejection); }, "f_lower");
    c.f_lower = std::numeric_limits<double>::infinity();
    expect_throw_naming<std::domain_error>([&] { (void)M(F, 1.0, c); }, "f_lower");
  }
  {
    pwa::me_config<double> c;
    c.max_attempts = 3;
    const M mech(F, 500.0, c);  // acceptance far below 1/3 per proposal
    philox_stream s(1);
    expect_throw_naming<pwa::sampling_limit_exceeded>(
        [&] {
          for (int i = 0; i < 100; ++i) mech.draw(s, me_method::rejection);
        },
        "max_attempts");
  }
  const M mech(F, 1.0);
  philox_stream s(1);
  expect_throw_naming<std::invalid_argument>([&] { mech.draw(s, me_method::inverse_cdf); },
                                             "method");
  expect_throw_naming<std::invalid_argument>([&] { (void)mech.sample(s, me_method::rejection, 0); },
                                             "n");
  expect_throw_naming<std::invalid_argument>([&] { (void)pwa::parse_me_method("mcmc"); }, "method");
  EXPECT_EQ(pwa::parse_me_method("inverse-cdf"), me_method::inverse_cdf);
  expect_throw_naming<std::domain_error>([&] { (void)pwa::bernoulli_exp_minus(s, -1.0); }, "gamma");
  expect_throw_naming<std::domain_error>(
      [&] {
        (void)pwa::feasible_interval_1d(make_1d({1}, {0}, 1, 1, {{1, -2}}).polytope());
      },
      "interval");
  // problem validation is the problem type's (names the argument too)
  expect_throw_naming<std::domain_error>([&] { (void)make_1d({1}, {0}, 1, 0.0); }, "bmax");
}

TEST(PWA_ME_REJECTION, BernoulliExpMinusIsExactForLargeGamma) {
  // P(true) = e^{−γ} at γ = 0.5 (binomial check, false alarm 1e-6); γ = 0 always true;
  // γ = 1000 (16 factors e^{−62.5}) and γ = ∞ never true (probability e^{−1000} per call).
  philox_stream s(3);
  long long k = 0;
  const long long n = 200000;
  for (long long i = 0; i < n; ++i) k += pwa::bernoulli_exp_minus(s, 0.5) ? 1 : 0;
  expect_rate(k, n, std::exp(-0.5), "bernoulli_exp_minus(0.5)");
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(pwa::bernoulli_exp_minus(s, 1000.0));
    EXPECT_TRUE(pwa::bernoulli_exp_minus(s, 0.0));
  }
  EXPECT_FALSE(pwa::bernoulli_exp_minus(s, std::numeric_limits<double>::infinity()));
}

}  // namespace

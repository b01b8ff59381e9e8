// The lattice selections (spec/secure_release.md): AboveThreshold (SEC.SVT, mechanisms/secure/
// snapped_above_threshold.hpp) and report-noisy-min over monotone scores (SEC.NOISY_MIN,
// snapped_report_noisy_min.hpp). Their privacy is checked EXACTLY: the output distribution with
// integer queries/scores and discrete Laplace noise is computed here in long double from the
// closed-form pmf and cdf (an independent derivation, not the library's code), every
// neighbouring pair of a grid of integer vectors is compared against the event's ε, and the
// shipped sampler is checked against that exact distribution (binomial bounds, stated error
// probability), with negative controls.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpref/mechanisms/secure/snapped_above_threshold.hpp"
#include "dpref/mechanisms/secure/snapped_report_noisy_min.hpp"
#include "dpref/random/philox_stream.hpp"
#include "support/messages.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;
using mechanisms::snapped_above_threshold_params;
using mechanisms::snapped_report_noisy_min_params;

/// P(DLap(t) <= m), pmf (1−p)/(1+p) p^|z|, p = e^{−1/t}.
long double dlap_cdf(long long m, long double t) {
  const long double p = std::exp(-1.0L / t);
  if (m >= 0) return 1.0L - std::pow(p, static_cast<long double>(m + 1)) / (1.0L + p);
  return std::pow(p, static_cast<long double>(-m)) / (1.0L + p);
}

long double dlap_pmf(long long z, long double t) {
  const long double p = std::exp(-1.0L / t);
  return (1.0L - p) / (1.0L + p) * std::pow(p, static_cast<long double>(std::llabs(z)));
}

/// Exact output distribution of AboveThreshold (threshold 0): entries 0..K−1 the index of the
/// first TOP answer, entry K "fail". Query i fires iff q_i + ν_i >= λ.
std::vector<long double> exact_outputs(const std::vector<long long>& q, long long t1,
                                       long long t2) {
  const std::size_t K = q.size();
  std::vector<long double> out(K + 1, 0.0L);
  const long long L = 90 * t1 + 8 * (*std::max_element(q.begin(), q.end()) + 1) + 40;
  for (long long lambda = -L; lambda <= L; ++lambda) {
    long double below = dlap_pmf(lambda, static_cast<long double>(t1));  // all earlier below
    for (std::size_t i = 0; i < K; ++i) {
      const long double b = dlap_cdf(lambda - q[i] - 1, static_cast<long double>(t2));
      out[i] += below * (1.0L - b);
      below *= b;
    }
    out[K] += below;
  }
  return out;
}

/// Largest |log P(o | q) − log P(o | q')| over the outputs o.
long double max_log_ratio(const std::vector<long double>& a, const std::vector<long double>& b) {
  long double m = 0;
  for (std::size_t o = 0; o < a.size(); ++o) m = std::max(m, std::fabs(std::log(a[o] / b[o])));
  return m;
}

snapped_above_threshold_params small_params() {
  snapped_above_threshold_params p;  // grid 2^0, Δ_int = 2, t1 = 4, t2 = 8: ε = 2/4 + 4/8 = 1
  p.record_bound = 2;
  p.grid_exponent = 0;
  p.threshold_grid_scale = 4;
  p.query_grid_scale = 8;
  p.max_queries = 4;
  return p;
}

/// Worst log ratio over the base vectors and every neighbour q + δ, δ_i ∈ {−Δ, 0, Δ} (adding or
/// removing one record moves each integer query by at most Δ, independently per query).
long double worst_over_neighbours(long long t1, long long t2, long long Delta) {
  const std::vector<std::vector<long long>> bases = {
      {0, -3, 2, 5}, {-6, -6, -6, -6}, {3, 0, 0, 0}, {-2, 4, -2, 4}, {10, 10, 10, 10}};
  long double worst = 0;
  for (const auto& q : bases) {
    const auto pq = exact_outputs(q, t1, t2);
    for (int code = 0; code < 81; ++code) {
      std::vector<long long> q2 = q;
      int c = code;
      for (auto& x : q2) {
        x += (c % 3 - 1) * Delta;
        c /= 3;
      }
      worst = std::max(worst, max_log_ratio(pq, exact_outputs(q2, t1, t2)));
    }
  }
  return worst;
}

TEST(SEC_SVT, ExactPrivacyOfEveryNeighbourPairIsWithinTheEvent) {
  const auto p = small_params();
  const auto m = p.mechanism<double>();
  const double eps =
      accounting::svt_laplace_privacy(m.sensitivity, m.threshold_scale, m.query_scale).eps;
  EXPECT_EQ(eps, 1.0);  // 2/4 + 2·2/8, exact in binary
  const long double worst = worst_over_neighbours(4, 8, 2);
  std::printf("SEC.SVT exact worst log ratio %.6Lf (event epsilon %.1f)\n", worst, eps);
  EXPECT_LE(worst, 1.0L + 1e-12L);
  EXPECT_GE(worst, 0.5L);  // not vacuous: moving every query by Δ costs at least Δ/t1
  // negative control: noise four times smaller than the event's scales exceeds its ε
  const long double small = worst_over_neighbours(1, 2, 2);
  std::printf("SEC.SVT negative control (t1 = 1, t2 = 2) worst log ratio %.6Lf\n", small);
  EXPECT_GT(small, 1.0L);
}

/// Runs the shipped mechanism `runs` times on the integer queries q (passed as public offsets
/// on the grid 2^0) and returns the output counts (index, then fail).
std::vector<long long> sample_outputs(const snapped_above_threshold_params& p,
                                      const std::vector<long long>& q, long long runs) {
  std::vector<long long> counts(q.size() + 1, 0);
  const philox_stream root(20261128);
  for (long long r = 0; r < runs; ++r) {
    philox_stream s = root.substream(static_cast<std::uint64_t>(r));
    const auto out = mechanisms::snapped_above_threshold(
        s, [&](std::size_t i, std::vector<double>&) { return static_cast<double>(q[i]); }, p);
    ++counts[out.found ? out.index : q.size()];
  }
  return counts;
}

/// Every count within 5.5 binomial standard deviations (+1) of its exact expectation: a false
/// alarm probability below 4e-8 per cell, 2e-7 for the five cells.
bool matches(const std::vector<long long>& counts, const std::vector<long double>& exact,
             long long runs) {
  bool ok = true;
  for (std::size_t o = 0; o < exact.size(); ++o) {
    const long double mean = exact[o] * static_cast<long double>(runs);
    const long double sd = std::sqrt(mean * (1.0L - exact[o]));
    if (std::fabs(static_cast<long double>(counts[o]) - mean) > 5.5L * sd + 1.0L) ok = false;
  }
  return ok;
}

TEST(SEC_SVT, TheShippedSamplerDrawsTheExactDistribution) {
  const auto p = small_params();
  const std::vector<long long> q = {-5, -1, 0, 3};
  constexpr long long runs = 1 << 17;
  const auto exact = exact_outputs(q, 4, 8);
  EXPECT_TRUE(matches(sample_outputs(p, q, runs), exact, runs));
  // negative control: the same check fails for a sampler with half the query noise
  auto half = p;
  half.query_grid_scale = 4;
  EXPECT_FALSE(matches(sample_outputs(half, q, runs), exact, runs));
}

TEST(SEC_SVT, RecordTermsAreRoundedAndClampedToTheBound) {
  // one record's term of 1e300 (or −inf) counts as exactly +Δ_int (−Δ_int): the same stream gives
  // the same output as the term C itself; a NaN term is refused
  snapped_above_threshold_params p;
  p.record_bound = 0.75;  // grid 2^-3: Δ_int = 6
  p.grid_exponent = -3;
  p.threshold_grid_scale = 12;
  p.query_grid_scale = 24;
  p.max_queries = 3;
  EXPECT_EQ(p.record_bound_units(), 6);
  const auto run_with = [&](double term, std::uint64_t seed) {
    philox_stream s(seed);
    return mechanisms::snapped_above_threshold(
        s,
        [&](std::size_t, std::vector<double>& t) {
          t.assign({0.1, term, -0.2});
          return -0.25;
        },
        p);
  };
  int differ_from_zero = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    const auto big = run_with(1e300, seed), at_c = run_with(0.75, seed);
    EXPECT_EQ(big.found, at_c.found);
    EXPECT_EQ(big.index, at_c.index);
    const auto neg = run_with(-std::numeric_limits<double>::infinity(), seed),
               at_minus_c = run_with(-0.75, seed);
    EXPECT_EQ(neg.found, at_minus_c.found);
    EXPECT_EQ(neg.index, at_minus_c.index);
    const auto zero = run_with(0.0, seed);  // negative control: a smaller term changes outputs
    if (zero.found != big.found || zero.index != big.index) ++differ_from_zero;
  }
  EXPECT_GT(differ_from_zero, 0);
  EXPECT_NE(message_of([&] { (void)run_with(std::nan(""), 1); }).find("not NaN"),
            std::string::npos);
}

TEST(SEC_SVT, ParametersForATargetMeetItAndNoMore) {
  for (const double C : {1.0, 3.0, 0.3, 1e6}) {
    for (const double eps : {0.01, 0.2, 1.0, 50.0}) {
      const auto p = mechanisms::snapped_above_threshold_for(C, eps, 20);
      const auto m = p.mechanism<double>();
      EXPECT_LE(m.sensitivity, C);  // Δ_int 2^k <= C: the event never charges less than drawn
      EXPECT_EQ(m.max_queries, 20);
      // ε of the event, independently in long double: Δ_int/t1 + 2Δ_int/t2
      const long double units =
          std::floor(std::ldexp(static_cast<long double>(C), -p.grid_exponent));
      const long double got = units / static_cast<long double>(p.threshold_grid_scale) +
                              2 * units / static_cast<long double>(p.query_grid_scale);
      EXPECT_LE(got, static_cast<long double>(eps)) << C << " " << eps;
      EXPECT_GE(got, static_cast<long double>(eps) * (1 - 1e-4L)) << C << " " << eps;
      const double certified =
          accounting::svt_laplace_privacy(m.sensitivity, m.threshold_scale, m.query_scale).eps;
      EXPECT_LE(certified, eps);
      EXPECT_GE(units, 1 << 19);  // s = 20 bits of the bound
    }
  }
}

TEST(SEC_SVT, InvalidParametersAreRefusedByName) {
  auto p = small_params();
  p.query_grid_scale = 0;
  EXPECT_EQ(message_of([&] { p.validate(); }),
            "mechanisms::snapped_above_threshold_params.query_grid_scale must be >= 1 and <= "
            "4503599627370496, got 0");
  auto r = small_params();
  r.record_bound = 0.5;  // below one grid step 2^0
  EXPECT_NE(message_of([&] { r.validate(); }).find("record_bound must be >= 2^grid_exponent"),
            std::string::npos);
  EXPECT_NE(
      message_of([&] { (void)mechanisms::snapped_above_threshold_for(1, -1, 3); }).find("epsilon"),
      std::string::npos);
}

// ----------------------------------------------------------------------- SEC.NOISY_MIN --

/// Exact distribution of argmin_k (c_k + Z_k), Z_k iid DLap(t), ties keeping the first index:
/// i wins iff c_i + z < c_j + Z_j for j < i and c_i + z <= c_j + Z_j for j > i.
std::vector<long double> exact_noisy_min(const std::vector<long long>& c, long long t) {
  const long double tl = static_cast<long double>(t);
  std::vector<long double> out(c.size(), 0.0L);
  const long long L = 90 * t + 40;
  for (std::size_t i = 0; i < c.size(); ++i)
    for (long long z = -L; z <= L; ++z) {
      long double p = dlap_pmf(z, tl);
      for (std::size_t j = 0; j < c.size(); ++j) {
        if (j == i) continue;
        const long long m = c[i] + z - c[j];  // Z_j > m (j < i) or Z_j >= m (j > i)
        p *= j < i ? 1.0L - dlap_cdf(m, tl) : 1.0L - dlap_cdf(m - 1, tl);
      }
      out[i] += p;
    }
  return out;
}

/// Worst log ratio over base score vectors and neighbours c + δ, δ_k ∈ `steps` for every k.
long double worst_noisy_min(long long t, const std::vector<long long>& steps) {
  const std::vector<std::vector<long long>> bases = {
      {0, 0, 0, 0}, {0, 3, -2, 5}, {4, 4, 0, 8}, {-6, 0, 6, 1}};
  const std::size_t S = steps.size();
  long double worst = 0;
  for (const auto& c : bases) {
    const auto pc = exact_noisy_min(c, t);
    std::size_t combos = 1;
    for (std::size_t k = 0; k < c.size(); ++k) combos *= S;
    for (std::size_t code = 0; code < combos; ++code) {
      std::vector<long long> c2 = c;
      std::size_t r = code;
      for (auto& x : c2) {
        x += steps[r % S];
        r /= S;
      }
      worst = std::max(worst, max_log_ratio(pc, exact_noisy_min(c2, t)));
    }
  }
  return worst;
}

snapped_report_noisy_min_params small_min_params() {
  mechanisms::snapped_report_noisy_min_params p;  // grid 2^0, Δ_int = 2, t = 2: ε = 1
  p.record_bound = 2;
  p.grid_exponent = 0;
  p.grid_scale = 2;
  p.candidates = 4;
  return p;
}

TEST(SEC_NOISY_MIN, ExactPrivacyOfEveryMonotoneNeighbourIsWithinTheEvent) {
  const auto p = small_min_params();
  EXPECT_EQ(p.epsilon<double>(), 1.0);  // Δ_int / t = 2/2
  // one record added moves every score up by its term in [0, Δ]; removed: down (the ratio is
  // symmetric, so the upward moves cover both)
  const long double worst = worst_noisy_min(2, {0, 1, 2});
  std::printf("SEC.NOISY_MIN exact worst log ratio %.6Lf (event epsilon 1)\n", worst);
  EXPECT_LE(worst, 1.0L + 1e-12L);
  EXPECT_GE(worst, 0.5L);  // not vacuous
  // negative controls: scores that move both ways (what the [0, Δ] clamp rules out) and noise of
  // half the scale both exceed the event's ε
  const long double both_ways = worst_noisy_min(2, {-2, 0, 2});
  const long double half = worst_noisy_min(1, {0, 1, 2});
  std::printf("SEC.NOISY_MIN negative controls: both ways %.6Lf, t = 1 %.6Lf\n", both_ways, half);
  EXPECT_GT(both_ways, 1.0L);
  EXPECT_GT(half, 1.0L);
}

std::vector<long long> sample_noisy_min(const snapped_report_noisy_min_params& p,
                                        const std::vector<long long>& c, long long runs) {
  std::vector<long long> counts(c.size(), 0);
  const philox_stream root(20261129);
  for (long long r = 0; r < runs; ++r) {
    philox_stream s = root.substream(static_cast<std::uint64_t>(r));
    // score k = c_k as c_k/2 records of term 2 (c_k even, >= 0)
    const auto idx = mechanisms::snapped_report_noisy_min(
        s,
        [&](std::size_t k, std::vector<double>& t) {
          t.assign(static_cast<std::size_t>(c[k] / 2), 2.0);
        },
        p);
    ++counts[idx];
  }
  return counts;
}

TEST(SEC_NOISY_MIN, TheShippedSamplerDrawsTheExactDistribution) {
  const auto p = small_min_params();
  const std::vector<long long> c = {4, 2, 2, 6};
  constexpr long long runs = 1 << 17;
  const auto exact = exact_noisy_min(c, 2);
  EXPECT_TRUE(matches(sample_noisy_min(p, c, runs), exact, runs));  // 4 cells: alarm < 2e-7
  auto wide = p;  // negative control: twice the noise
  wide.grid_scale = 4;
  EXPECT_FALSE(matches(sample_noisy_min(wide, c, runs), exact, runs));
}

TEST(SEC_NOISY_MIN, TermsAreClampedToZeroAndTheBound) {
  const auto p = small_min_params();
  const auto run_with = [&](double term, std::uint64_t seed) {
    philox_stream s(seed);
    return mechanisms::snapped_report_noisy_min(
        s,
        [&](std::size_t k, std::vector<double>& t) {
          t.assign({k == 1 ? term : 1.0, 0.5});
        },
        p);
  };
  int differ = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    EXPECT_EQ(run_with(-5.0, seed), run_with(0.0, seed));      // below 0: counts as 0
    EXPECT_EQ(run_with(1e300, seed), run_with(2.0, seed));     // above C: counts as C
    if (run_with(0.0, seed) != run_with(2.0, seed)) ++differ;  // negative control
  }
  EXPECT_GT(differ, 0);
}

TEST(SEC_NOISY_MIN, ParametersForATargetMeetItAndNoMore) {
  for (const double C : {1.0, 0.3, 1e6})
    for (const double eps : {0.01, 0.2, 1.0, 50.0}) {
      const auto p = mechanisms::snapped_report_noisy_min_for(C, eps, 21);
      const long double units =
          std::floor(std::ldexp(static_cast<long double>(C), -p.grid_exponent));
      const long double got = units / static_cast<long double>(p.grid_scale);  // Δ_int / t
      EXPECT_LE(got, static_cast<long double>(eps)) << C << " " << eps;
      EXPECT_GE(got, static_cast<long double>(eps) * (1 - 1e-4L)) << C << " " << eps;
      EXPECT_LE(p.epsilon<double>(), eps);
      EXPECT_LE(std::ldexp(static_cast<double>(units), p.grid_exponent), C);
    }
  auto bad = small_min_params();
  bad.candidates = 0;
  EXPECT_EQ(message_of([&] { bad.validate(); }),
            "mechanisms::snapped_report_noisy_min_params.candidates must be >= 1 and <= 1000000, "
            "got 0");
}

}  // namespace
}  // namespace dpref

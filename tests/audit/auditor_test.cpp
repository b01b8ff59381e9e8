// Unit tests of the statistics of the auditor (label `unit`: quick, also run under ASan+UBSan).
// Seeds and sample sizes are fixed in each test; the false-alarm probability of each audit is
// its cfg.alpha (1e-6).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "dpref/audit/auditor.hpp"
#include "dpref/audit/clopper_pearson.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/negative_controls.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/mechanisms/above_threshold.hpp"
#include "dpref/mechanisms/exponential.hpp"
#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/subsampled_laplace.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/random/bernoulli.hpp"

namespace {

using namespace dpref::audit;

TEST(AUDIT_CP, KnownValues) {
  // 5 successes of 20, two-sided 95% Clopper–Pearson interval [0.08657, 0.49105] (R binom.test)
  EXPECT_NEAR(cp_lower(5, 20, 0.025), 0.0865715, 1e-6);
  EXPECT_NEAR(cp_upper(5, 20, 0.025), 0.4910459, 1e-6);
  // k = 0: upper = 1 − alpha^(1/n); k = n: lower = alpha^(1/n)
  EXPECT_EQ(cp_lower(0, 100, 0.01), 0.0);
  EXPECT_NEAR(cp_upper(0, 100, 0.01), 1 - std::pow(0.01, 1.0 / 100), 1e-12);
  EXPECT_NEAR(cp_lower(100, 100, 0.01), std::pow(0.01, 1.0 / 100), 1e-12);
  EXPECT_EQ(cp_upper(100, 100, 0.01), 1.0);
  // tiny upper bounds keep relative accuracy (complement quantile)
  EXPECT_NEAR(cp_upper(0, 1000000000, 1e-6) * 1e9, -std::log(1e-6), 1e-4);
}

TEST(AUDIT_CP, Validation) {
  EXPECT_THROW(cp_lower(5, 4, 0.1), std::domain_error);
  EXPECT_THROW(cp_upper(1, 0, 0.1), std::domain_error);
  EXPECT_THROW(cp_lower(1, 10, 0.0), std::domain_error);
  EXPECT_THROW(cp_upper(1, 10, 1.0), std::domain_error);
}

TEST(AUDIT_CP, CoverageExact) {
  // P[lower > p] <= alpha, computed exactly over the binomial law (n = 40, p = 0.3)
  const std::uint64_t n = 40;
  const double p = 0.3, alpha = 0.05;
  double miss_lo = 0, miss_hi = 0;
  for (std::uint64_t k = 0; k <= n; ++k) {
    const double pk =
        std::exp(std::lgamma(41.0) - std::lgamma(double(k) + 1) - std::lgamma(double(n - k) + 1) +
                 double(k) * std::log(p) + double(n - k) * std::log1p(-p));
    if (cp_lower(k, n, alpha) > p) miss_lo += pk;
    if (cp_upper(k, n, alpha) < p) miss_hi += pk;
  }
  EXPECT_LE(miss_lo, alpha);
  EXPECT_LE(miss_hi, alpha);
  EXPECT_GT(miss_lo, alpha / 10);  // and it is not vacuous
}

TEST(AUDIT_EVENTS_THRESHOLD, GridAndDescription) {
  auto f = threshold_family<double>(
      "y", [](double y) { return y; }, -1.0, 1.0, 4);
  ASSERT_EQ(f.bins, 6u);
  const std::vector<double> ys = {-5, -1, -0.51, 0, 0.99, 1, std::nan("")};
  std::vector<std::uint32_t> cells(ys.size());
  f.classify(ys, cells);
  EXPECT_EQ(cells, (std::vector<std::uint32_t>{0, 1, 1, 3, 4, 5, 5}));
  EXPECT_EQ(f.describe(0, 3, 5), "y: statistic in [0, +inf)");
  EXPECT_EQ(f.describe(0, 0, 1), "y: statistic in [-inf, -0.5)");
  EXPECT_THROW((threshold_family<double>(
                   "y", [](double y) { return y; }, 1.0, 1.0, 4)),
               std::domain_error);
}

TEST(AUDIT_EVENTS_INDEX, Cells) {
  auto f = index_family<int>(
      "i", [](int i) { return i; }, 3, true,
      [](std::size_t j) { return j == 2 ? std::string("fail") : std::to_string(j); });
  const std::vector<int> ys = {0, 1, 2, 7, -1};
  std::vector<std::uint32_t> cells(ys.size());
  f.classify(ys, cells);
  EXPECT_EQ(cells, (std::vector<std::uint32_t>{0, 1, 2, 2, 0}));
  EXPECT_EQ(f.describe(0, 2, 2), "i: index = fail");
  EXPECT_EQ(f.describe(0, 1, 2), "i: index >= 1");
}

TEST(AUDIT_EVENTS_LOWBITS, TrailingZerosAndExponent) {
  lowbits_layout L{-4, 4, 52};
  auto f = lowbits_family<double>(
      "bits", [](double y) { return y; }, L);
  const std::size_t per_sign = 4 + 4 + 1 + 2;  // exponents -4..4 plus below/above
  ASSERT_EQ(f.groups, 2 * per_sign);
  const std::vector<double> ys = {1.0, 1.5, 0x1.0000000000001p0, -0.75, 1e-300, 1e300};
  std::vector<std::uint32_t> cells(ys.size());
  f.classify(ys, cells);
  const auto cell = [&](std::size_t g, std::size_t tz) {
    return static_cast<std::uint32_t>(g * f.bins + tz);
  };
  EXPECT_EQ(cells[0], cell(1 + 4, 52));             // 1.0: exponent 0, all 52 bits zero
  EXPECT_EQ(cells[1], cell(1 + 4, 51));             // 1.5 = 1.1b
  EXPECT_EQ(cells[2], cell(1 + 4, 0));              // last bit set
  EXPECT_EQ(cells[3], cell(per_sign + 1 + 3, 51));  // -0.75 = -1.1b * 2^-1
  EXPECT_EQ(cells[4] / f.bins, 0u);                 // below 2^-4
  EXPECT_EQ(cells[5] / f.bins, per_sign - 1);       // above 2^5
  EXPECT_EQ(f.describe(1 + 4, 10, 52),
            "bits: sign +, |s| in [2^0, 2^1), the last 10 significand bits are 0");
}

// Randomized response: x in {0, 1}; report x with probability e^ε/(1 + e^ε). Exactly ε-DP.
// With probability `leak` it instead reports 2 + x (an (ε, leak)-DP mechanism).
struct randomized_response {
  double eps;
  double leak = 0;
  int operator()(const int& x, dpref::philox_stream& s) const {
    if (leak > 0 && dpref::bernoulli<double>(s, leak)) return 2 + x;
    const bool keep = dpref::bernoulli<double>(s, std::exp(eps) / (1 + std::exp(eps)));
    return keep ? x : 1 - x;
  }
};

std::vector<event_family<int>> rr_families() {
  return {index_family<int>(
      "report", [](int y) { return y; }, 4, false)};
}

std::vector<neighbour_pair<int>> rr_pairs() { return {{"x=0 vs x=1", 0, 1}}; }

/// The randomized-response audit of `m` (pair x = 0 vs x = 1, the report's cells).
audit_report run_rr_audit(const randomized_response& m, const audit_config& cfg) {
  return run_audit<int, int>(m, rr_pairs(), rr_families(), cfg);
}

/// `seed`, 2^16 search + 2^16 test samples per side, claimed ε.
audit_config rr_config(std::uint64_t seed, double epsilon) {
  audit_config cfg;
  cfg.seed = seed;
  cfg.search_samples = cfg.test_samples = 1u << 16;
  cfg.epsilon = epsilon;
  return cfg;
}

TEST(AUDIT_AUDITOR, RandomizedResponsePassesAndHasPower) {
  // seed 11, 2^16 search + 2^16 test samples per side, false alarm 1e-6
  auto cfg = rr_config(11, 1.0);
  cfg.threads = 2;
  const auto r = run_rr_audit(randomized_response{1.0}, cfg);
  EXPECT_FALSE(r.violation) << r.eps_lb;
  EXPECT_GE(r.eps_lb, 0.8);  // tight mechanism: ε_lb close to ε
  EXPECT_LE(r.eps_lb, 1.0);
  EXPECT_EQ(r.samples, 4u * (1u << 16));
}

TEST(AUDIT_AUDITOR, UnderclaimedEpsilonIsFlagged) {
  const auto cfg = rr_config(12, 0.5);  // the mechanism is 1-DP, not 0.5-DP
  const auto r = run_rr_audit(randomized_response{1.0}, cfg);
  EXPECT_TRUE(r.violation) << r.eps_lb;
}

TEST(AUDIT_AUDITOR, Validation) {
  audit_config cfg;
  cfg.alpha = 0;
  EXPECT_THROW(run_rr_audit(randomized_response{1.0}, cfg), std::domain_error);
  cfg.alpha = 1e-6;
  EXPECT_THROW((run_audit<int, int>(randomized_response{1.0}, {}, rr_families(), cfg)),
               std::invalid_argument);
}

TEST(AUDIT_HOCKEY, ApproximateDpLeakDetectedOnlyWithoutDelta) {
  // (1, 0.02)-DP mechanism: passes as (1, 0.02), fails as pure 1-DP (the leak cells have
  // probability 0 on the other side)
  auto cfg = rr_config(13, 1.0);
  cfg.delta = 0.02;
  const randomized_response m{1.0, 0.02};
  const auto ok = run_rr_audit(m, cfg);
  EXPECT_FALSE(ok.violation) << ok.eps_lb << " " << ok.worst_pair().delta_lb;
  cfg.delta = 0;
  const auto bad = run_rr_audit(m, cfg);
  EXPECT_TRUE(bad.violation);
  EXPECT_GT(bad.worst_pair().delta_lb, 0.01);
}

TEST(AUDIT_SPLIT, SearchAndTestSamplesAreIndependentStreams) {
  EXPECT_NE(audit_stream_id(0, 0, 0), audit_stream_id(1, 0, 0));
  EXPECT_NE(audit_stream_id(0, 0, 0), audit_stream_id(0, 0, 1));
  EXPECT_NE(audit_stream_id(0, 1, 0), audit_stream_id(0, 0, 1));
  // the chosen event is the one with the largest projected bound: cell 0 here
  const auto fams = rr_families();
  const std::vector<std::vector<std::uint64_t>> a = {{700, 300, 0, 0}}, b = {{300, 700, 0, 0}};
  const auto e = choose_event(fams, a, b, 1000, 1000, 1e-7, 0.0, 5);
  EXPECT_EQ(e.lo, e.hi);
  EXPECT_TRUE((e.lo == 0 && !e.swapped) || (e.lo == 1 && e.swapped));
  EXPECT_GT(e.search_score, 0.0);
}

TEST(AUDIT_THREADS, SameResultForAnyThreadCount) {
  audit_config cfg;
  cfg.seed = 14;
  cfg.search_samples = cfg.test_samples = 100000;  // not a multiple of the chunk
  cfg.chunk = 4096;
  cfg.epsilon = 1.0;
  std::vector<audit_report> reps;
  for (unsigned t : {1u, 2u, 5u}) {
    cfg.threads = t;
    reps.push_back(run_rr_audit(randomized_response{1.0}, cfg));
  }
  for (const auto& r : reps) {
    EXPECT_EQ(r.eps_lb, reps[0].eps_lb);
    EXPECT_EQ(r.worst_pair().count_num, reps[0].worst_pair().count_num);
    EXPECT_EQ(r.worst_pair().count_den, reps[0].worst_pair().count_den);
    EXPECT_EQ(r.worst_pair().event.description, reps[0].worst_pair().event.description);
  }
}

TEST(AUDIT_NEIGHBOURS, PairsRespectSensitivity) {
  for (const auto& p : vector_pairs(5, 2.0)) EXPECT_NEAR((p.first - p.second).norm(), 2.0, 1e-12);
  for (const auto& p : utility_pairs(6, 1.5))
    for (std::size_t i = 0; i < 6; ++i) EXPECT_LE(std::fabs(p.first[i] - p.second[i]), 1.5);
  for (const auto& p : query_pairs(4, 1.0))
    for (std::size_t i = 0; i < 4; ++i) EXPECT_LE(std::fabs(p.first[i] - p.second[i]), 1.0);
  EXPECT_THROW(scalar_pairs(0.0), std::domain_error);
  EXPECT_THROW(utility_pairs(1, 1.0), std::domain_error);
}

}  // namespace

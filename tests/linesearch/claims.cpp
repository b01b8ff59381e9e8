// Regression of the linesearch paper's claims (spec/linesearch.md LS.CLAIM.HEADLINE,
// LS.CLAIM.BUDGET) on a CI-sized
// real data set: tests/regression/data/linesearch_fertility_3000.csv, every 84th row of AER's
// Fertility (scripts/linesearch_make_subset.sh), logistic loss, μ = 0.001, §5.4 defaults.
// Built twice: CI (label regression) and, with DPREF_LS_SLOW, the full 254,654-row file of
// scripts/real_data.sh (label slow; skipped when data/real/fertility.csv is absent).
//
// Every run is deterministic (fixed seeds). Error statements: the headline comparison uses
// 10 independent seeds per algorithm; if the two algorithms' objectives were exchangeable, all
// 10 paired comparisons would agree with probability 2·2^-10 ≈ 0.002 (sign test), so an
// all-agreeing outcome is not a seed accident at that level.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "dpref/io/dataset.hpp"
#include "dpref/linesearch/linesearch.hpp"

#ifndef DPREF_LS_SUBSET
#error \
    "DPREF_LS_SUBSET (path of tests/regression/data/linesearch_fertility_3000.csv) must be defined"
#endif

namespace {

using namespace dpref;
namespace ls = dpref::linesearch;

const problems::linear_erm<double>* problem() {
#ifdef DPREF_LS_SLOW
  static const std::string path = DPREF_LS_FULL;
#else
  static const std::string path = DPREF_LS_SUBSET;
#endif
  static const problems::linear_erm<double>* P = [] {
    if (!std::ifstream(path).good()) return static_cast<problems::linear_erm<double>*>(nullptr);
    auto d = io::read_csv_binary<double>(path);
    return new problems::linear_erm<double>(d.X, d.y, problems::margin_loss<double>::logistic());
  }();
  return P;
}

#ifdef DPREF_LS_SLOW
constexpr int kSeeds = 5;
#define VARIANT_NAME(name) name##FullSize  // distinct ctest names for the slow build
#else
constexpr int kSeeds = 10;
#define VARIANT_NAME(name) name
#endif

// The paper's headline (§5.6, Figures 3–4): DP-BLSGD beats DP-SGD in objective at ε = 0.2.
// FINDING (not reproduced): with the printed algorithm and the §5.4 defaults, DP-SGD (fixed
// η = 1, T = 50, calibrated exact subsampled-Gaussian RDP) reaches a LOWER objective than
// DP-BLSGD in every seed on the 3,000-row subset: NOISYBTLS's noise (ε_BT = ε/100: Lap(2000)
// on the threshold of a clipped sum over ~300 examples) dominates the Armijo query, the
// search accepts steps along the noisy gradient (σ/m̄ ≈ 5 per coordinate) and CHEB, which
// only reacts to failed searches, rarely raises ρ_grad. This test guards that finding; it is
// recorded in spec/linesearch.md and must be revisited if the algorithm changes.
TEST(LS_CLAIM_HEADLINE, VARIANT_NAME(DpBlsgdVersusDpSgdAtEps02)) {
  const auto* P = problem();
#ifdef DPREF_LS_SLOW
  // Skip reason: the slow full-size variant reads data/real/ (made by scripts/real_data.sh, not
  // committed). The CI variant reads the committed subset and fails if it is missing.
  if (!P) GTEST_SKIP() << "data file absent (run scripts/real_data.sh)";
#else
  ASSERT_NE(P, nullptr) << "committed subset missing: " << DPREF_LS_SUBSET;
#endif
  const double F0 = P->value(vector<double>::Zero(P->dimension()));
  const double Fstar = P->value(ls::non_private(*P));
  ls::params<double> bp;
  bp.epsilon = 0.2;
  ls::params<double> sp;
  sp.algorithm = ls::algorithm::dpsgd;
  sp.epsilon = 0.2;
  sp.noise_multiplier = ls::dp_sgd_sigma(sp) / sp.C_grad;
  int sgd_better = 0;
  double mb = 0, ms = 0;
  for (int k = 0; k < kSeeds; ++k) {
    const auto b = ls::run(*P, bp, philox_stream(1000 + static_cast<std::uint64_t>(k)));
    const auto s = ls::run(*P, sp, philox_stream(2000 + static_cast<std::uint64_t>(k)));
    EXPECT_LE(b.privacy.guarantee.epsilon, 0.2);
    EXPECT_LE(s.privacy.guarantee.epsilon, 0.2);
    const double fb = P->value(b.w), fs = P->value(s.w);
    std::printf("[LS.CLAIM.HEADLINE] seed %d: DP-BLSGD F=%.5f (%lld iterations)  DP-SGD F=%.5f\n",
                k, fb, b.calls.iterations, fs);
    sgd_better += fs < fb;
    mb += fb / kSeeds;
    ms += fs / kSeeds;
  }
  std::printf(
      "[LS.CLAIM.HEADLINE] n=%ld F(0)=%.5f F*=%.5f mean DP-BLSGD=%.5f mean DP-SGD=%.5f; "
      "DP-SGD lower in %d/%d seeds\n",
      static_cast<long>(P->size()), F0, Fstar, mb, ms, sgd_better, kSeeds);
#ifndef DPREF_LS_SLOW
  EXPECT_EQ(sgd_better, kSeeds);  // the finding (paper's claim NOT reproduced at this size)
#endif
}

// Every algorithm's accountant ends within the target ε (§4.3; certified conversion): DP-BLSGD
// at ε = 0.05 (orders up to 500 needed at δ = 1e-8) and every algorithm at ε = 1.6 (orders
// 2..128).
TEST(LS_CLAIM_BUDGET, VARIANT_NAME(AccountantFinalEpsilonWithinTarget)) {
  const auto* P = problem();
#ifdef DPREF_LS_SLOW
  // Skip reason: the slow full-size variant reads data/real/ (made by scripts/real_data.sh, not
  // committed). The CI variant reads the committed subset and fails if it is missing.
  if (!P) GTEST_SKIP() << "data file absent (run scripts/real_data.sh)";
#else
  ASSERT_NE(P, nullptr) << "committed subset missing: " << DPREF_LS_SUBSET;
#endif
  const philox_stream st(3000);
  const auto eps_of = [&](const ls::params<double>& p, const philox_stream& stream) {
    const auto r = ls::run(*P, p, stream);
    EXPECT_EQ(r.privacy.ledger.total().epsilon, r.privacy.guarantee.epsilon);
    return r.privacy.guarantee.epsilon;
  };
  ls::params<double> p;
  p.epsilon = 0.05;
  EXPECT_LE(eps_of(p, st), 0.05);
  p.epsilon = 1.6;
  p.max_order = 128;
  EXPECT_LE(eps_of(p, st), 1.6);
  p.algorithm = ls::algorithm::blsgd_ac;
  EXPECT_LE(eps_of(p, st), 1.6);
  p.algorithm = ls::algorithm::blsgd;
  p.noise = ls::btls_noise::gaussian;
  EXPECT_LE(eps_of(p, st), 1.6);
  p.noise = ls::btls_noise::laplace;
  p.algorithm = ls::algorithm::blgd;
  EXPECT_LE(eps_of(p, st), 1.6);
  p.algorithm = ls::algorithm::dpagd;
  EXPECT_LE(eps_of(p, st), 1.6);
  p.algorithm = ls::algorithm::dpsgd;
  EXPECT_LE(eps_of(p, philox_stream(4000)), 1.6);
}

}  // namespace

// Audits of pwa's public constants (ctest label `audit`; spec/privacy_bounds.md PRIV.PWA.AUDIT):
// one release of the shipped path (pwa::run with a one-step configuration) on a neighbouring
// pair in which a record violates the declared constant as a magnitude bound by a large factor,
// at the claimed ε read from the run's ledger, and a negative control calling the lower-level
// engine with the enforcement off at the noise scale of the declared constant, which must be
// flagged.
//  - bmax below the resolution of the utilities, secure mode: b_1 = 2^−53 − 2^−106 vs
//    2^−53 + 2^−105 at a_1ᵀx = 1 (|b_1 − b′_1| = 1.5·2^−105 <= bmax = 2^−103, |b_1| = 2^50·bmax):
//    run's ledger Δu includes the rounding of fl(1 + b_1) — pass; the engine
//    pwa::private_subgradient with Δu = bmax (no rounding term, no clamp) — flagged: the computed
//    utilities differ by 2^−52 = 2^51·bmax, so one candidate's probability is 1/2 on one side
//    and exp(−2^50)-small on the other.
//  - records 1000·bmax (idealised): b = 1000·1 vs b + bmax(1, −1, …, −1), m = 10, x^(1) = 0:
//    pass with power (tight pair); negative control the engine at Δu = bmax/2 — flagged.
// Statistical plan (as tests/pwa/pwa_audit.cpp): fixed seeds, search and test samples per side
// and pair as stated, false-alarm probability 1e-6 per audit (Clopper–Pearson), so a correct
// release is flagged with probability <= 1e-6.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "audit/audit_support.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/pwa/run.hpp"

namespace {

using namespace dpref::audit;
using dpref::noise_mode;
using dpref::philox_stream;
using namespace dpref::audit::test_support;
namespace pwa = dpref::pwa;
using vec = Eigen::VectorXd;

audit_config bounds_config(std::uint64_t seed, double eps, std::uint64_t n) {
  return make_config(seed, n, eps);
}

std::vector<event_family<std::size_t>> candidates(std::size_t m) {
  return {index_family<std::size_t>(
      "candidate", [](std::size_t i) { return i; }, m, false)};
}

/// A fresh stream per call from the auditor's chunk stream (pwa::run reads a copy of its
/// stream, so the chunk stream must be advanced here).
philox_stream fresh(philox_stream& s) { return philox_stream(s(), s()); }

// ---- bmax below the utilities' resolution, secure mode --------------------------------------

constexpr double kTinyBmax = 0x1p-103;

pwa::problem<double> straddle_problem(const vec& b) {
  return pwa::problem<double>(Eigen::MatrixXd::Ones(2, 1), b,
                              pwa::polytope<double>::box_only(1, 1.0), kTinyBmax);
}

std::vector<neighbour_pair<vec>> straddle_pairs() {
  vec b(2), b2(2);
  b << 0x1p-53 - 0x1p-106, 0;
  b2 << 0x1p-53 + 0x1p-105, 0;
  return {{"b_1 = 2^-53 - 2^-106 vs 2^-53 + 2^-105 (bmax = 2^-103), a_1 x = 1", b, b2}};
}

pwa::params<double> one_step(noise_mode release) {
  pwa::params<double> p;
  p.algorithm = pwa::algorithm_kind::private_subgradient;
  p.epsilon = 1;
  p.iterations = 1;
  p.step = 0.5;
  p.start = std::vector<double>{1.0};
  p.release = release;
  return p;
}

TEST(PRIV_PWA_AUDIT, SecureSelectionWithBmaxBelowTheUtilitiesResolutionPasses) {
  const auto p = one_step(noise_mode::secure);
  const auto pairs = straddle_pairs();
  const double claimed =
      pwa::run(straddle_problem(pairs[0].first), p, philox_stream(1)).privacy.guarantee.epsilon;
  const auto m = [&p](const vec& b, philox_stream& s) {
    return static_cast<std::size_t>(pwa::run(straddle_problem(b), p, fresh(s)).selected[0]);
  };
  const auto r = run_audit<vec, std::size_t>(m, pairs, candidates(2),
                                             bounds_config(2701, claimed, std::uint64_t{1} << 13));
  EXPECT_TRUE(audit_passes("PRIV pwa secure Algorithm 2 (pwa::run), bmax = 2^-103", r));
}

TEST(PRIV_PWA_AUDIT, SelectionWithoutTheRoundingTermIsFlagged) {
  // the engine at the declared Δu = bmax: scale 2·bmax/ε, utilities of the unclamped b
  pwa::subgradient_params<double> sp;
  sp.epsilon = 1;
  sp.iterations = 1;
  sp.step = 0.5;
  sp.x1 = vec::Ones(1);
  sp.trace = sp.evaluate = false;
  const auto m = [&sp](const vec& b, philox_stream& s) {
    return static_cast<std::size_t>(
        pwa::private_subgradient(s, straddle_problem(b), sp).selected[0]);
  };
  const auto r = run_audit<vec, std::size_t>(m, straddle_pairs(), candidates(2),
                                             bounds_config(2702, 1.0, std::uint64_t{1} << 13));
  EXPECT_TRUE(
      audit_flagged("PRIV NEG pwa Algorithm 2 without the rounding term, bmax = 2^-103", r, 1.0));
}

// ---- records 1000·bmax, idealised ----------------------------------------------------------

constexpr Eigen::Index kBoundsM = 10;

pwa::problem<double> far_problem(const vec& b) {
  return pwa::problem<double>(Eigen::MatrixXd::Ones(kBoundsM, 1), b,
                              pwa::polytope<double>::box_only(1, 1.0), 1.0);
}

std::vector<neighbour_pair<vec>> far_pairs() {
  const vec b = vec::Constant(kBoundsM, 1000.0);
  vec b2 = b - vec::Ones(kBoundsM);
  b2[0] = 1001;
  return {{"b = 1000 (1000 bmax) vs b + bmax (1, -1, ..., -1)", b, b2}};
}

TEST(PRIV_PWA_AUDIT, SelectionWithRecordsFarAboveBmaxPasses) {
  auto p = one_step(noise_mode::idealised);
  p.start = std::vector<double>{0.0};
  const double claimed =
      pwa::run(far_problem(far_pairs()[0].first), p, philox_stream(1)).privacy.guarantee.epsilon;
  const auto m = [&p](const vec& b, philox_stream& s) {
    return static_cast<std::size_t>(pwa::run(far_problem(b), p, fresh(s)).selected[0]);
  };
  const auto r = run_audit<vec, std::size_t>(m, far_pairs(), candidates(kBoundsM),
                                             bounds_config(2703, claimed, std::uint64_t{1} << 16));
  // tight: the pair attains Δu = bmax in both directions
  EXPECT_TRUE(audit_passes("PRIV pwa Algorithm 2 (pwa::run), records 1000 bmax", r, 0.5 * claimed));
}

TEST(PRIV_PWA_AUDIT, SelectionAtHalfTheSensitivityIsFlagged) {
  pwa::subgradient_params<double> sp;
  sp.epsilon = 1;
  sp.iterations = 1;
  sp.step = 0.5;
  sp.trace = sp.evaluate = false;
  sp.scale_factor = 0.5;  // Δu = bmax/2
  const auto m = [&sp](const vec& b, philox_stream& s) {
    return static_cast<std::size_t>(pwa::private_subgradient(s, far_problem(b), sp).selected[0]);
  };
  const auto r = run_audit<vec, std::size_t>(m, far_pairs(), candidates(kBoundsM),
                                             bounds_config(2704, 1.0, std::uint64_t{1} << 16));
  EXPECT_TRUE(audit_flagged("PRIV NEG pwa Algorithm 2 at bmax/2, records 1000 bmax", r));
}

}  // namespace

// Audit of the public constants of ev Algorithm 2 (spec/privacy_bounds.md, ev section,
// PRIV.EV.AUDIT; ctest label `audit`).
//
// ev's ledger relies on L = λ/m² (derived from the public m), on Δ derived from the declared
// adjacency (δr, δE) — both valid for EVERY feasible database, so no record can exceed them — on
// the public start (ε_1 = 0: the data-dependent start is refused), and in secure mode on the ℓ∞
// clamp C of the lattice release. The audits below check that with a record far beyond the
// adjacency constants in magnitude the shipped release stays private at the claimed ε, and that
// switching the one refusal off is caught:
//   pass  ev::run (the shipped path), K = 2 — one noisy release p̂^(2), p̂^(1) = p^(1) public —
//         on the worst-case adjacent pair with a huge record: user 0 has r̄ = (10⁵, 5 + δr),
//         E = 10⁴ + 20 (≈ 7600 δr and 830 δE) in D, r̄′ = (10⁵, 5), E′ = E + δE in D′; zero
//         start and d = 0 make step 3 project x0 = 0, so ‖p^(2)(D) − p^(2)(D′)‖ = LΔ* exactly
//         (the scaled EV-E1 example): the realised loss equals the claim;
//         idealised and secure (`release = secure`, clamp C = 10⁶ above |p|);
//   NEG   the engine Algorithm 2 runs (ev::detail::run_algorithm2, which `run` calls after
//         params.validate) with start = projected_zero, i.e. without the refusal of the
//         data-dependent start, at the noise scale `run` uses for the declared constants:
//         p̂^(1) = p^(1)(D) ≠ p^(1)(D′) is released exactly (idealised and secure);
//   NEG   the shipped run on a change ten times beyond the adjacency (r̄ by 10 δr, E by 10 δE):
//         no neighbour, the certificate does not cover it — flagged (the audit has power).
// Statistical plan: fixed seeds, 2^15 (secure 2^14; negative controls 2^13) search + test
// outputs per side (one pair), false-alarm
// probability 1e-6 (Clopper–Pearson), claimed ε = the REQUESTED budget ε = 1 (the ledger's total
// must be <= it); the noise scale of the idealised run is checked against s = K(K−1)LΔ*/(2ε)
// written here. Events: thresholds on the ℓ2 likelihood-ratio statistic of p̂^(2) and on the
// projection of p̂^(1) onto p^(1)(D′) − p^(1)(D) (the public-start leak); in secure mode also the
// low-order bits of p̂^(2)[0].
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "audit/audit_support.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/ev/run.hpp"

namespace {

using namespace dpref;
using namespace dpref::audit::test_support;
using mat = matrix<double>;

// outputs per side and phase: every output is a whole ev::run (calibration and ledger
// included, ≈ 50 µs idealised, ≈ 100 µs secure), so the passing audits use 2^15 / 2^14 and the
// negative controls, whose loss is 10 ε or unbounded, 2^13
constexpr std::uint64_t kPassSamples = 1u << 15, kSecureSamples = 1u << 14, kNegSamples = 1u << 13;
constexpr double kEps = 1;  // the requested (claimed) budget
constexpr double kBoundsDeltaR = 13.2, kBoundsDeltaE = 12.0;
constexpr double kRate = 1e5, kEnergy = 1e4 + 20;  // the huge record of user 0
constexpr double kClamp = 1e6;                     // secure mode: above every |p_t|

/// The pair: user 0 changes by (fr·δr, fe·δE) from r̄ = (10⁵, 5 + fr δr), E = 10⁴ + 20.
struct pair_of {
  ev::problem<double> d, d_prime;
  std::string name;
};

pair_of make_pair(double fr, double fe) {
  ev::charging_specs<double> s;
  s.max_rate.resize(2, 2);
  s.energy.resize(2);
  s.max_rate.col(0) << kRate, 5 + fr * kBoundsDeltaR;
  s.energy[0] = kEnergy;
  s.max_rate.col(1) << 3.3, 3.3;  // user 1, fixed
  s.energy[1] = 5;
  auto s2 = s;
  s2.max_rate(1, 0) = 5;
  s2.energy[0] = kEnergy + fe * kBoundsDeltaE;
  const vector<double> zero = vector<double>::Zero(2);  // d = 0: p^(1) = 0 with the zero start
  const std::string change = fr == 1 && fe == 1
                                 ? "(δr, δE)"
                                 : "(" + std::to_string(static_cast<int>(fr)) + " δr, " +
                                       std::to_string(static_cast<int>(fe)) + " δE)";
  return {ev::problem<double>(zero, 1.0, s), ev::problem<double>(zero, 1.0, s2),
          "user 0 huge record, change " + change};
}

ev::params<double> one_release(noise_mode mode) {
  ev::params<double> p;
  p.iterations = 2;  // K = 2: the whole ε on the one noisy release k = 2
  p.epsilon = kEps;
  p.step = 1;
  p.delta_r = kBoundsDeltaR;
  p.delta_e = kBoundsDeltaE;
  p.sensitivity_bound = ev::sensitivity_bound::tight;
  p.release = mode;
  p.release_clamp = kClamp;
  return p;
}

/// Δ* of errata EV-E1 written out; s = K(K−1)LΔ*/(2ε) = Δ*/ε at K = 2, L = 1.
double delta_star() {
  return std::sqrt(kBoundsDeltaR * kBoundsDeltaR +
                   (kBoundsDeltaR + kBoundsDeltaE) * (kBoundsDeltaR + kBoundsDeltaE));
}

struct input {
  const ev::problem<double>* prob;
};

/// Events: the ℓ2 likelihood-ratio statistic of p̂^(2) for centres c, c2 (the exact p^(2) of D,
/// D′ under the public p̂^(1)); the projection of p̂^(1) on the direction between the two
/// p^(1) of `first` (zero when p^(1) is public); secure: the low-order bits of p̂^(2)[0].
std::vector<audit::event_family<mat>> families(const vector<double>& c, const vector<double>& c2,
                                               const vector<double>& first,
                                               const vector<double>& first2, bool bits) {
  std::vector<audit::event_family<mat>> out;
  const double r = (c2 - c).norm();
  out.push_back(audit::threshold_family<mat>(
      "l2 likelihood-ratio statistic of p^(2)",
      [c, c2](const mat& y) {
        return static_cast<double>((y.col(1) - c2).norm() - (y.col(1) - c).norm());
      },
      -r, r, 120));
  const vector<double> diff = first2 - first;
  const vector<double> dir = diff.norm() > 0 ? vector<double>(diff.normalized())
                                             : vector<double>(vector<double>::Unit(2, 0));
  const double a = dir.dot(first), b = dir.dot(first2);
  out.push_back(audit::threshold_family<mat>(
      "projection of p^(1) on p^(1)(D')-p^(1)(D)",
      [dir](const mat& y) { return static_cast<double>(dir.dot(y.col(0))); }, std::min(a, b) - 1,
      std::max(a, b) + 1, 40));
  if (bits)
    out.push_back(audit::lowbits_family<mat>(
        "low-order bits of p^(2)[0]", [](const mat& y) { return y(0, 1); },
        audit::lowbits_layout{-40, 20, 52}));
  return out;
}

/// Audits `mechanism` on the pair with the centres of `params` (exact p^(k) by replay).
template <class Mechanism>
audit::audit_report audit_pair(const pair_of& pr, const ev::params<double>& params,
                               const Mechanism& mechanism, std::uint64_t seed, bool bits,
                               std::uint64_t samples, ev::start_kind start = ev::start_kind::zero) {
  // the exact p^(1), p^(2) of each side (p̂^(1) = p^(1) on each side: no noise at k = 1)
  // (replayed as Algorithm 1's field list: validate refuses projected_zero for Algorithm 2 and
  // secure mode for Algorithm 1; replay_gradients uses only the start, the steps and η)
  auto replay_params = params;
  replay_params.algorithm = ev::algorithm_kind::projected_gradient;
  replay_params.release = noise_mode::idealised;
  replay_params.start = start;
  const auto centres = [&](const ev::problem<double>& q) {
    mat h = mat::Zero(2, 2);
    h.col(0) = ev::replay_gradients(q, replay_params, h).col(0);  // p̂^(1) = p^(1)
    return ev::replay_gradients(q, replay_params, h);
  };
  const mat g = centres(pr.d), g2 = centres(pr.d_prime);
  const auto fams = families(g.col(1), g2.col(1), g.col(0), g2.col(0), bits);
  const std::vector<audit::neighbour_pair<input>> pairs = {{pr.name, {&pr.d}, {&pr.d_prime}}};
  return audit::run_audit<input, mat>(mechanism, pairs, fams, make_config(seed, samples, kEps));
}

/// The shipped release: ev::run, one output = the released T × K matrix; every output its own
/// stream key (two words of the auditor's sample stream).
auto shipped(const ev::params<double>& params) {
  return [params](const input& in, philox_stream& st) -> mat {
    const std::uint64_t key = st();
    const philox_stream run_stream(key, st());
    return ev::run(*in.prob, params, run_stream).released;
  };
}

/// The engine without the public-start refusal (test only: run_algorithm2 is what ev::run calls
/// after params.validate, which refuses projected_zero for Algorithm 2).
auto engine_with_data_dependent_start(ev::params<double> params) {
  params.start = ev::start_kind::projected_zero;
  return [params](const input& in, philox_stream& st) -> mat {
    const std::uint64_t key = st();
    const philox_stream run_stream(key, st());
    return ev::detail::run_algorithm2(*in.prob, params, run_stream, ev::progress_fn{}).released;
  };
}

/// The shipped run's certificate on `prob`: ledger total <= the claim; idealised scale = Δ*/ε.
void check_certificate(const ev::problem<double>& prob, const ev::params<double>& params) {
  const auto r = ev::run(prob, params, philox_stream(1));
  EXPECT_LE(r.privacy.guarantee.epsilon, kEps);
  if (params.release == noise_mode::idealised) {
    EXPECT_NEAR(r.noise_scale, delta_star() / kEps, 1e-12 * delta_star());
  }
  ASSERT_FALSE(r.privacy.enforced.empty());
}

/// The shipped release on the adjacent pair with the huge record passes at the claimed ε, with
/// power (the realised loss of the pair is ε).
void expect_huge_record_passes(noise_mode mode, std::uint64_t seed, std::uint64_t samples,
                               const std::string& what) {
  const pair_of pr = make_pair(1, 1);
  const auto params = one_release(mode);
  check_certificate(pr.d, params);
  const auto r = audit_pair(pr, params, shipped(params), seed, mode == noise_mode::secure, samples);
  EXPECT_TRUE(audit_passes(what, r, 0.5 * kEps));
}

/// NEG: the engine without the refusal of the data-dependent start is flagged.
void expect_data_dependent_start_flagged(noise_mode mode, std::uint64_t seed,
                                         const std::string& what) {
  const pair_of pr = make_pair(1, 1);
  const auto params = one_release(mode);
  const auto r =
      audit_pair(pr, params, engine_with_data_dependent_start(params), seed,
                 mode == noise_mode::secure, kNegSamples, ev::start_kind::projected_zero);
  EXPECT_TRUE(audit_flagged(what, r));
}

TEST(PRIV_EV_AUDIT, HugeRecordAdjacentPairPassesAtTheClaimedEpsilon) {
  expect_huge_record_passes(noise_mode::idealised, 27001, kPassSamples,
                            "PRIV ev Algorithm 2 K=2, huge record (r̄ 1e5, E 1e4), change (δr, δE)");
}

TEST(PRIV_EV_AUDIT, HugeRecordAdjacentPairPassesInSecureMode) {
  expect_huge_record_passes(noise_mode::secure, 27002, kSecureSamples,
                            "PRIV ev secure Algorithm 2 K=2, huge record, change (δr, δE)");
}

TEST(PRIV_EV_AUDIT, DataDependentStartWithoutTheRefusalIsFlagged) {
  auto refused = one_release(noise_mode::idealised);
  refused.start = ev::start_kind::projected_zero;
  const pair_of pr = make_pair(1, 1);
  EXPECT_THROW(ev::run(pr.d, refused, philox_stream(1)), invalid_parameter);  // shipped: refused
  expect_data_dependent_start_flagged(
      noise_mode::idealised, 27003,
      "NEG ev engine K=2 with the data-dependent start (refusal off)");
}

TEST(PRIV_EV_AUDIT, DataDependentStartWithoutTheRefusalIsFlaggedInSecureMode) {
  expect_data_dependent_start_flagged(
      noise_mode::secure, 27004,
      "NEG ev secure engine K=2 with the data-dependent start (refusal off)");
}

TEST(PRIV_EV_AUDIT, ChangeTenTimesBeyondTheAdjacencyIsFlagged) {
  const pair_of pr = make_pair(10, 10);
  const auto params = one_release(noise_mode::idealised);
  const auto r = audit_pair(pr, params, shipped(params), 27005, false, kNegSamples);
  EXPECT_TRUE(audit_flagged("NEG ev Algorithm 2 K=2, change (10 δr, 10 δE): not a neighbour", r));
}

}  // namespace

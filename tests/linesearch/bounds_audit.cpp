// Audits of the public bounds of the linesearch releases (spec/privacy_bounds.md, linesearch
// section, PRIV.LINESEARCH.AUDIT): for each constant, a neighbouring pair in which ONE record
// violates the declared bound by a large factor (a gradient of norm 1000 C_grad, a loss of
// 1000 C_obj, ‖x‖ = 1000 R). The release at the claimed ε must pass (the enforcement holds):
// OUTPERT secure through linesearch::run; DP-SGD (both modes) and OUTPERT (idealised) through
// the release function the run calls (dp_sgd_noisy_sum, output_perturbation_release) on the
// parameters the run fixes, checked bit for bit against linesearch::run (calling run per sample
// costs its accounting, 2 ms); NOISYBTLS and DP-AGD's NoisyMin through the functions dp_blsgd
// and dp_agd call (armijo_query + noisy_btls, noisy_min_scores + noisy_min). The NEGATIVE
// CONTROL is the same function with its own clip parameter set to "no enforcement" (C = max
// double, R = max double), at the noise of the run: test code, no hook in the library; it
// must be flagged.
//
// Statistical plan: fixed seeds; 2^15 search + 2^15 test outputs per side (2^14 where every
// sample solves a minimisation; 2^16 for the SVT / NoisyMin indices); false alarm α = 1e-6 per
// audit (Clopper–Pearson, AUDIT.AUDITOR), so a correct release is flagged with probability
// <= 1e-6 (the file: <= 6e-6). Idealised releases are searched with threshold events only
// (their floating-point low-order-bit weakness is the separate finding of
// SEC.LINESEARCH.AUDIT); secure releases also with low-order bits. About 8 s CPU.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "audit/audit_support.hpp"
#include "audit/secure_audit_support.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "dpref/random/laplace.hpp"

namespace dpref {
namespace {

namespace ls = dpref::linesearch;
namespace acc = dpref::accounting;
namespace ss = audit::secure_support;
using audit::neighbour_pair;
using namespace audit::test_support;

constexpr double kNoClip = std::numeric_limits<double>::max();  // "no enforcement"
constexpr double kViolation = 1000;                             // factor over the bound

audit::audit_config config(std::uint64_t seed, double eps, double delta, std::uint64_t n) {
  philox_stream warm(0);             // the Laplace table, built in the main thread (see audit.cpp)
  (void)laplace<double>(warm, 1.0);  // not a release: builds the table
  return ss::config(seed, eps, delta, n);
}

// ---------------------------------------------------------------- C_grad: DP-SGD, one step

// n = 1 example (label +1, logistic, μ = 1e-3) with features x·1 in d dimensions; at w0 = 0 its
// gradient is −(x/2)·1. D: x = 0 (gradient 0, so D is {x = 0} and, for the clipped sum, the
// empty data set: add/remove adjacency), D': x = 2000 (gradient norm 1000·√d against
// C_grad = 1). One DP-SGD step at q = 1, η = n̄ = 1 releases w_1 = −(clipped sum + noise).
ls::problem<double> examples_at(double x, Eigen::Index d, Eigen::Index n = 1) {
  matrix<double> X = matrix<double>::Constant(d, n, x);
  vector<double> y = vector<double>::Ones(n);
  return ls::problem<double>(X, y, problems::margin_loss<double>::logistic(), 1e-3);
}

struct sgd_setup {
  ls::params<double> p;
  double sigma = 0;
  std::optional<mechanisms::snapped_gaussian_params> sp;
  acc::guarantee<double> claimed;
};

sgd_setup make_sgd(noise_mode m, Eigen::Index d) {
  sgd_setup o;
  o.p.algorithm = ls::algorithm::dpsgd;
  o.p.epsilon = 1;
  o.p.delta = 1e-5;
  o.p.max_order = 64;
  o.p.q = 1;
  o.p.iterations = 1;
  o.p.sgd_eta = 1;
  o.p.C_grad = 1;
  o.p.release = m;
  // the library's calibration for the request, once; then a fixed parameter of every draw
  const auto r = ls::run(examples_at(0.0, d), o.p, philox_stream(1));
  o.p.noise_multiplier = *r.noise_multiplier * (1 + 1e-9);
  const auto r2 = ls::run(examples_at(0.0, d), o.p, philox_stream(1));
  o.claimed = r2.privacy.guarantee;
  acc::certifier<double> c;
  o.sigma = c.up(c.in(*o.p.noise_multiplier) * c.in(o.p.C_grad));
  if (m == noise_mode::secure) o.sp = ls::dp_sgd_snapped(o.p, o.sigma, 1, d);
  return o;
}

// One DP-SGD release by the function dp_sgd's loop calls (dp_sgd_noisy_sum: Poisson batch,
// clipped sum, noise of the step's event), on the plan fixed once by the library; the clip is
// the event's sensitivity: C_grad as in the run, or kNoClip for the NEGATIVE CONTROL (the same
// σ and lattice parameters). w_1 = w_0 − (η/n̄) g̃ with η = n̄ = 1.
vector<double> sgd_release(const sgd_setup& o, double x, Eigen::Index d, philox_stream& s,
                           double clip,
                           const std::optional<mechanisms::snapped_gaussian_params>& sp) {
  const std::uint64_t a = s(), b = s();
  philox_stream st = philox_stream(a, b).substream(0);
  std::vector<Eigen::Index> batch;
  const vector<double> w = vector<double>::Zero(d);
  vector<double> g(d);
  ls::dp_sgd_noisy_sum(st, examples_at(x, d), w, o.p.q,
                       acc::gaussian_mechanism<double>{clip, o.sigma}, sp, batch, g);
  return w - (o.p.sgd_eta / o.p.q) * g;
}

// The audited releases are linesearch::run's: the same bits on 64 streams per mode and input.
TEST(PRIV_LINESEARCH_AUDIT, DpSgdReleaseGivesTheRunsBits) {
  for (const noise_mode m : {noise_mode::idealised, noise_mode::secure})
    for (const Eigen::Index d : {1, 16}) {
      const auto o = make_sgd(m, d);
      for (std::uint64_t k = 0; k < 64; ++k)
        for (const double x : {0.0, 1.0, 2 * kViolation}) {
          philox_stream s1(77, k), s2(77, k);
          const std::uint64_t a = s1(), b = s1();
          EXPECT_EQ(ls::run(examples_at(x, d), o.p, philox_stream(a, b)).w,
                    sgd_release(o, x, d, s2, o.p.C_grad, o.sp));
        }
    }
}

const std::vector<neighbour_pair<double>> kGradPair = {
    {"x = 0 vs x = 2000 (gradient norm 1000 x C_grad)", 0.0, 2 * kViolation}};

TEST(PRIV_LINESEARCH_AUDIT, DpSgdClipsAnUnderstatedGradientBound) {
  const auto o = make_sgd(noise_mode::idealised, 1);
  const auto fam = std::vector<audit::event_family<double>>{
      audit::threshold_family<double>("threshold", identity, -6 * o.sigma, 6 * o.sigma, 120)};
  const auto m = [&o](const double& x, philox_stream& s) {
    return sgd_release(o, x, 1, s, o.p.C_grad, o.sp)[0];
  };
  const auto r = audit::run_audit<double, double>(
      m, kGradPair, fam, config(2701, o.claimed.epsilon, o.claimed.delta, 1u << 15));
  EXPECT_TRUE(audit_passes("linesearch DP-SGD one step, x 1000 over C_grad, idealised", r));
  EXPECT_LE(r.eps_lb, o.claimed.epsilon);
  const auto neg = [&o](const double& x, philox_stream& s) {
    return sgd_release(o, x, 1, s, kNoClip, o.sp)[0];
  };
  const auto rn = audit::run_audit<double, double>(
      neg, kGradPair,
      {audit::threshold_family<double>("threshold", identity, -6 * o.sigma, 2 * kViolation, 200)},
      config(2702, o.claimed.epsilon, o.claimed.delta, 1u << 15));
  EXPECT_TRUE(audit_flagged("NEG linesearch DP-SGD one step without the clip, idealised", rn,
                            o.claimed.epsilon));
}

TEST(PRIV_LINESEARCH_AUDIT, SecureDpSgdClipsAndTheClampAloneDoesNot) {
  // d = 16, default clamp n·C_grad = 1: the unclipped gradient (−1000 per coordinate) is
  // clamped to −1 per coordinate, an l2 shift of √16 = 4 C_grad; the clipped one moves by
  // C_grad. Statistic: the sum of the coordinates (the sufficient statistic of equal shifts).
  constexpr Eigen::Index d = 16;
  const auto o = make_sgd(noise_mode::secure, d);
  ASSERT_EQ(o.sp->clamp, 1.0);  // n·C_grad
  const double sd = 4 * o.sigma;
  const std::vector<ss::vector_statistic> stats = {
      {"sum of coordinates", [](const ss::vec& y) { return y.sum(); }, -6 * sd, 6 * sd, 120}};
  const auto fam = ss::vector_families(stats, {}, 0);
  const std::vector<neighbour_pair<double>> pair = {
      {"x = 0 vs x = 2000 in 16 coordinates", 0.0, 2 * kViolation}};
  // (ε, δ) = (1, 1e-5), 2^15 samples per side
  const auto audit_d16 = [&pair, &fam](const auto& m, std::uint64_t seed) {
    return audit::run_audit<double, ss::vec>(m, pair, fam, config(seed, 1.0, 1e-5, 1u << 15));
  };
  const auto m = [&o](const double& x, philox_stream& s) -> ss::vec {
    return sgd_release(o, x, d, s, o.p.C_grad, o.sp);
  };
  const auto r = audit_d16(m, 2711);
  EXPECT_TRUE(audit_passes("linesearch DP-SGD one step, x 1000 over C_grad, secure d = 16", r));
  EXPECT_LE(r.eps_lb, 1.0);
  // NEGATIVE CONTROL: no enforcement anywhere — the float clip off AND the lattice's own ball
  // per example widened to 10^6 (the event's Δ2 raised with it so that the parameters validate;
  // the noise is the run's): the coordinate clamp of the sum alone is left
  auto open = *o.sp;
  open.record_radius = 1e6;
  open.sensitivity = 1e6;
  const auto neg = [&o, open](const double& x, philox_stream& s) -> ss::vec {
    return sgd_release(o, x, d, s, kNoClip, open);
  };
  // the lattice ball alone (float clip off, the run's parameters) still enforces C_grad
  const auto ball = [&o](const double& x, philox_stream& s) -> ss::vec {
    return sgd_release(o, x, d, s, kNoClip, o.sp);
  };
  const auto rb = audit_d16(ball, 2713);
  EXPECT_TRUE(
      audit_passes("linesearch secure DP-SGD, float clip off, lattice ball on, d = 16", rb));
  EXPECT_LE(rb.eps_lb, 1.0);
  EXPECT_TRUE(audit_flagged(
      "NEG linesearch secure DP-SGD without the clip or the ball (clamp only), d = 16",
      audit_d16(neg, 2712), 1.0));
}

// ------------------------------------------------------------------ C_obj: NOISYBTLS, NoisyMin

// Hinge loss, μ = 0, d = 2, public w = e1 and direction g = e2: example (a, b), y = +1 has
// margin a − ηb along the line (tests/linesearch/audit.cpp). The violating example (−999, −5000)
// has f(w) = 1000 = 1000·C_obj and f(w − ηg) = 0 for every η >= 0.2: clipped, it shifts every
// query by +C_obj (the worst case of Theorem 1); unclipped by +1000.
using problems::linear_erm;
constexpr double kCobj = 1.0;
constexpr long kMaxIt = 8;

linear_erm<double> rows(const std::vector<std::array<double, 2>>& r) {
  matrix<double> X(2, static_cast<Eigen::Index>(r.size()));
  vector<double> y = vector<double>::Ones(static_cast<Eigen::Index>(r.size()));
  for (std::size_t i = 0; i < r.size(); ++i)
    X.col(static_cast<Eigen::Index>(i)) << r[i][0], r[i][1];
  return linear_erm<double>(X, y, problems::margin_loss<double>::hinge(), 0.0);
}

const std::vector<std::array<double, 2>> kBase = {{0.5, 0.3}, {1.2, 1.0}, {0.9, -0.4},
                                                  {0.2, 0.6}, {1.4, 2.0}, {0.7, 0.1}};

std::vector<neighbour_pair<linear_erm<double>>> objective_pairs(std::array<double, 2> bad) {
  auto plus = kBase;
  plus.push_back(bad);
  return {{"add an example with f(w) = 1000 C_obj", rows(kBase), rows(plus)}};
}

// The public line of the C_obj audits on all of P's examples: w = e1, direction e2.
problems::line_evaluator<double> objective_line(const linear_erm<double>& P) {
  std::vector<Eigen::Index> all(static_cast<std::size_t>(P.size()));
  std::iota(all.begin(), all.end(), Eigen::Index(0));
  vector<double> w(2), g(2);
  w << 1, 0;
  g << 0, 1;
  return ls::make_line(P, std::span<const Eigen::Index>(all), w, g);
}

// One NOISYBTLS call as dp_blsgd makes it (armijo_query on make_line, the event's scales),
// clipping at C (C_obj, or kNoClip for the negative control); output: selected index or max_it.
std::size_t btls_index(const linear_erm<double>& P, philox_stream& s, double C) {
  ls::btls_params<double> cfg;
  cfg.max_it = kMaxIt;
  const auto line = objective_line(P);
  const ls::armijo_query query(line, cfg.alpha * line.g_squared(), C);
  const auto r = ls::noisy_btls(s, query, 1.0, ls::btls_event(cfg.noise, 1.0, kCobj, kMaxIt), cfg);
  return r.found ? r.queries - 1 : static_cast<std::size_t>(kMaxIt);
}

/// A C_obj audit (2^16 samples per side, index events `name` over `cells` cells): the release
/// index(P, s, C_obj) passes at `claimed`; without objective clipping (C = kNoClip, the
/// NEGATIVE CONTROL, seed + 1) it is flagged.
template <class Index>
void expect_objective_clip_enforced(const Index& index, const std::string& name, std::size_t cells,
                                    std::array<double, 2> bad, double claimed, std::uint64_t seed,
                                    const std::string& what, const std::string& neg_what) {
  const auto fam = std::vector<audit::event_family<std::size_t>>{audit::index_family<std::size_t>(
      name, [](std::size_t i) { return i; }, cells, true)};
  const auto pairs = objective_pairs(bad);
  const auto audit_at = [&](double C, std::uint64_t sd) {
    const auto m = [&index, C](const linear_erm<double>& P, philox_stream& s) {
      return index(P, s, C);
    };
    return audit::run_audit<linear_erm<double>, std::size_t>(m, pairs, fam,
                                                             config(sd, claimed, 0, 1u << 16));
  };
  EXPECT_TRUE(audit_passes(what, audit_at(kCobj, seed)));
  EXPECT_TRUE(audit_flagged(neg_what, audit_at(kNoClip, seed + 1), claimed));
}

TEST(PRIV_LINESEARCH_AUDIT, NoisyBtlsClipsAnUnderstatedObjectiveBound) {
  const auto [b1, b2] = ls::btls_scales(ls::btls_noise::laplace, 1.0, kCobj);
  const double claimed = acc::svt_laplace_privacy(kCobj, b1, b2).eps;  // ε_BT = 1
  expect_objective_clip_enforced(btls_index, "selected step index", kMaxIt + 1, {-999.0, -5000.0},
                                 claimed, 2721,
                                 "linesearch NOISYBTLS, a loss 1000 x C_obj (armijo_query)",
                                 "NEG linesearch NOISYBTLS without objective clipping");
}

// DP-AGD's report-noisy-min over 8 + 1 candidate steps k/8 along e2 (noisy_min_scores, the
// run's scale C_obj/ε_nm with ε_nm = 1). The violating example (−999, −10000) has f = 1000 at
// step 0 and 0 at every step >= 1/8: clipped, it adds +C_obj to score 0 only (monotone).
std::size_t noisy_min_index(const linear_erm<double>& P, philox_stream& s, double C) {
  const auto line = objective_line(P);
  std::vector<double> scores;
  ls::noisy_min_scores(line, 1.0, 8, C, scores);
  return ls::noisy_min(s, scores, ls::noisy_min_scale(kCobj, 1.0));
}

TEST(PRIV_LINESEARCH_AUDIT, DpAgdNoisyMinClipsAnUnderstatedObjectiveBound) {
  // claimed: ε_nm = 1 of the pure event, Lap(C_obj/ε_nm)
  expect_objective_clip_enforced(
      noisy_min_index, "selected candidate", 9, {-999.0, -10000.0}, 1.0, 2731,
      "linesearch DP-AGD NoisyMin, a loss 1000 x C_obj (noisy_min_scores)",
      "NEG linesearch DP-AGD NoisyMin without objective clipping");
}

// ------------------------------------------------------------------------ R: OUTPERT, one release

// n = 41 examples in d = 1, label +1, logistic, μ = 1/2, R = 1, ε = 1 (replace-one): 40 at
// x = −1 hold w* near −0.65; the 41st is x = 0 (D) or x = 1000 (D', 1000 R). Scaled into the
// R-ball it moves w* by less than 2R/(nμ) = 0.098; unscaled it pulls w* to about 0 (a shift of
// 6.6 times the sensitivity).
ls::problem<double> outpert_data(double x) {
  matrix<double> X = matrix<double>::Constant(1, 41, -1.0);
  X(0, 40) = x;
  return ls::problem<double>(X, vector<double>::Ones(41), problems::margin_loss<double>::logistic(),
                             0.5);
}

ls::params<double> outpert_params(noise_mode m) {
  ls::params<double> p;
  p.algorithm = ls::algorithm::outpert;
  p.epsilon = 1;
  p.R = 1.0;
  p.release = m;
  return p;
}

double outpert_run(const ls::params<double>& p, double x, philox_stream& s) {
  const std::uint64_t a = s(), b = s();
  return ls::run(outpert_data(x), p, philox_stream(a, b)).w[0];
}

/// The R audit of a release on x = 0 vs x = 1000 (1000 R) at ε = 1, 2^14 samples per side.
template <class Mechanism>
audit::audit_report row_audit(const Mechanism& m,
                              const std::vector<audit::event_family<double>>& fam,
                              std::uint64_t seed) {
  const std::vector<neighbour_pair<double>> pair = {
      {"x = 0 vs x = 1000 (1000 R)", 0.0, kViolation}};
  return audit::run_audit<double, double>(m, pair, fam, config(seed, 1.0, 0, 1u << 14));
}

TEST(PRIV_LINESEARCH_AUDIT, OutputPerturbationScalesAnUnderstatedFeatureBound) {
  const auto p = outpert_params(noise_mode::idealised);
  const auto r0 = ls::run(outpert_data(0.0), p, philox_stream(1));
  const double scale = *r0.noise_scale;
  ASSERT_LE(r0.privacy.guarantee.epsilon, 1.0);
  const auto fam = std::vector<audit::event_family<double>>{
      audit::threshold_family<double>("threshold", identity, -0.65 - 8 * scale, 8 * scale, 160)};
  // the release function output_perturbation calls, at the run's scale, with the row bound R
  // (R = 1 as in the run) or without it (R = max double: no row is scaled; NEGATIVE CONTROL)
  const auto release = [scale](double x, philox_stream& s, double R) {
    const std::uint64_t a = s(), b = s();
    philox_stream st = philox_stream(a, b).substream(0);
    return ls::output_perturbation_release(outpert_data(x), R, scale, st)[0];
  };
  for (std::uint64_t k = 0; k < 16; ++k)  // the run's bits
    for (const double x : {0.0, kViolation}) {
      philox_stream s1(78, k), s2(78, k);
      EXPECT_EQ(outpert_run(p, x, s1), release(x, s2, 1.0));
    }
  const auto m = [&](const double& x, philox_stream& s) { return release(x, s, 1.0); };
  EXPECT_TRUE(
      audit_passes("linesearch OUTPERT, ||x|| = 1000 R, idealised", row_audit(m, fam, 2741)));
  const auto neg = [&](const double& x, philox_stream& s) { return release(x, s, kNoClip); };
  EXPECT_TRUE(audit_flagged("NEG linesearch OUTPERT without the row scaling",
                            row_audit(neg, fam, 2742), 1.0));
}

TEST(PRIV_LINESEARCH_AUDIT, SecureOutputPerturbationScalesAnUnderstatedFeatureBound) {
  const auto p = outpert_params(noise_mode::secure);
  const auto r0 = ls::run(outpert_data(0.0), p, philox_stream(1));
  const double scale = *r0.noise_scale;
  const auto fam = ss::scalar_families(-0.65 - 8 * scale, 8 * scale, 160, {});
  const auto m = [&p](const double& x, philox_stream& s) { return outpert_run(p, x, s); };
  const auto r = row_audit(m, fam, 2751);
  EXPECT_TRUE(audit_passes("linesearch OUTPERT, ||x|| = 1000 R, secure (run)", r));
  EXPECT_LE(r.eps_lb, 1.0);
  // NEGATIVE CONTROL: the lattice release of output_perturbation (its parameters for this
  // request: sensitivity 2R/(nμ), clamp R/μ) on its minimiser without the row bound (R = max).
  const auto sp = mechanisms::snapped_vector_laplace_for(
      ls::output_perturbation_sensitivity(1.0, 41, 0.5), 1.0, 1, std::nextafter(2.0, 1e308));
  ASSERT_EQ(sp.scale, scale);
  const auto neg = [&sp](const double& x, philox_stream& s) {
    const std::uint64_t a = s(), b = s();
    philox_stream st = philox_stream(a, b).substream(0);
    return mechanisms::snapped_vector_laplace(
        st, ls::output_perturbation_minimiser(outpert_data(x), kNoClip), sp)[0];
  };
  EXPECT_TRUE(audit_flagged("NEG linesearch secure OUTPERT without the row scaling",
                            row_audit(neg, fam, 2752), 1.0));
}

}  // namespace
}  // namespace dpref

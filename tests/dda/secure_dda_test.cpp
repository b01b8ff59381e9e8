// Secure mode of dda Algorithm 1 (issue 20 part 2, spec/dda.md SEC.DDA): the lattice Gaussian
// ζ = snapped_gaussian(ĝ) (clamp C = L), its ledger (snapped_gaussian × WOR 1 of q, accounted by
// WBK on the snapped RDP curve: SEC.ACC.GAUSS.WOR), the budget, the lattice of the released
// values, the refusals, and the JSON. Expected values are derived here, not read back.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/ledger_json.hpp"
#include "dpref/dda/json.hpp"
#include "dpref/io/json.hpp"
#include "support/dda_data.hpp"
#include "support/ledger_roundtrip.hpp"
#include "support/messages.hpp"
#include "support/secure_refusals.hpp"

namespace dpref {
namespace {

using dpref::test::message_of;

dda::problem<double> secure_small_problem(int nodes = 10) {
  return test::dda_synthetic_problem(400, 5, 7, nodes);
}

dda::params<double> secure_small_params(noise_mode m = noise_mode::secure) {
  auto p = test::dda_base_params(200);
  p.optimum = false;
  p.release = m;
  return p;
}

dda::network secure_complete_edges(int n = 10) { return test::dda_complete_network(n); }

accounting::subsampling<double> wor(long long m, long long n) {
  accounting::subsampling<double> w;
  w.scheme = accounting::sampling_scheme::without_replacement;
  w.relation = accounting::neighbouring::replace_one;
  w.sample_size = m;
  w.population = n;
  return w;
}

// ------------------------------------------------------------------- SEC.ACC.GAUSS.WOR --

TEST(SEC_ACC_GAUSS_WOR, SnappedGaussianWithoutReplacementIsTheEquivalentGaussian) {
  // Δ2 = 2, k = 0, d = 4, σ_g² = 16: ρ = (2 + √4)²/(2·16) = 1/2, the RDP curve α/2 of the
  // Gaussian {Δ = 4, σ = 4} (s = 1). WBK Theorem 9 depends on the curve only, so both events
  // with the same sample of 1 of 10 account the same ε (the snapped one never lower).
  for (const long long count : {1LL, 30LL}) {
    accounting::accounting_options<double> opt;
    opt.delta = 1e-6;
    accounting::ledger<double> snapped(opt), gauss(opt);
    auto es = accounting::make_event<double>(
        accounting::snapped_gaussian_mechanism<double>{2.0, 0, 16, 1, 4}, count);
    es.sampling = wor(1, 10);
    snapped.record(es);
    auto eg =
        accounting::make_event<double>(accounting::gaussian_mechanism<double>{4.0, 4.0}, count);
    eg.sampling = wor(1, 10);
    gauss.record(eg);
    const auto a = snapped.total(), b = gauss.total();
    EXPECT_GE(a.epsilon, b.epsilon);
    EXPECT_NEAR(a.epsilon, b.epsilon, 1e-9 * b.epsilon);
    EXPECT_EQ(a.delta, b.delta);
    // unsampled, the snapped event is also the Gaussian {4, 4} (RDP α/2); sampling 1 of 10
    // amplifies it
    accounting::ledger<double> full(opt), full_g(opt);
    full.record(accounting::make_event<double>(
        accounting::snapped_gaussian_mechanism<double>{2.0, 0, 16, 1, 4}, count));
    full_g.record(
        accounting::make_event<double>(accounting::gaussian_mechanism<double>{4.0, 4.0}, count));
    EXPECT_NEAR(full.total().epsilon, full_g.total().epsilon, 1e-9 * full_g.total().epsilon);
    EXPECT_GT(full.total().epsilon, 1.5 * a.epsilon);
    // the ledger JSON re-reads to the same guarantee (what `dpref account` does)
    const auto back = accounting::read_ledger<double>(
        io::node(io::document::from_value(accounting::ledger_value(snapped), "ledger")));
    EXPECT_EQ(back.total().epsilon, a.epsilon);
  }
}

// ------------------------------------------------------------------------------ SEC.DDA --

TEST(SEC_DDA, LedgerIsSnappedAndWithinBudget) {
  const auto prob = secure_small_problem();
  const auto net = secure_complete_edges();
  const auto r = dda::run(prob, net, secure_small_params(), philox_stream(20261121, 1));
  ASSERT_NO_FATAL_FAILURE(test::expect_secure_snapped_ledger(r, 0.8, 1e-5, 2));
  const auto& e = r.privacy.ledger.events()[0];
  const auto& sg = std::get<accounting::snapped_gaussian_mechanism<double>>(e.what);
  EXPECT_EQ(sg.sensitivity, 2.0);  // Δ = 2L, L = params.lipschitz = 1
  EXPECT_EQ(sg.dimension, 5);
  ASSERT_TRUE(e.sampling.has_value());
  EXPECT_EQ(e.sampling->sample_size, 1);
  EXPECT_EQ(e.sampling->population, 40);  // q = 400/10
  // σ_g² >= (σ/2^k)² (rounded up), and the inflation √d 2^k is small against Δ
  const long double sg2 = static_cast<long double>(sg.variance_num) / sg.variance_den;
  const long double s_k = std::ldexp(static_cast<long double>(r.sigma), -sg.grid_exponent);
  EXPECT_GE(sg2, s_k * s_k * (1 - 1e-15L));
  EXPECT_LE(std::sqrt(5.0) * std::ldexp(1.0, sg.grid_exponent), 2.0 * 1e-2);
  EXPECT_EQ(e.count, r.privacy.ledger.events()[0].count);
  EXPECT_EQ(r.privacy.ledger.events()[1].kind(), "approx");
  // idealised σ of the same setting: the secure σ is larger (inflation) but only slightly
  const auto ideal =
      dda::run(prob, net, secure_small_params(noise_mode::idealised), philox_stream(20261121, 1));
  EXPECT_EQ(ideal.privacy.noise, noise_mode::idealised);
  EXPECT_GE(r.sigma, ideal.sigma);
  EXPECT_LE(r.sigma, ideal.sigma * 1.02);
  // the ledger re-read gives the run's guarantee bit for bit
  test::expect_ledger_roundtrip(r);
}

TEST(SEC_DDA, ReleasedMessagesLieOnTheLattice) {
  // T = 1, edge activation with one edge: the two active nodes i, j get
  // z_i = z_j = (ζ_i + ζ_j)/2 (z^(1) = 0, a_1 = 1, w = 1/2): exact, on the grid 2^(k−1); the
  // inactive nodes keep z = 0.
  const auto prob = secure_small_problem();
  auto p = secure_small_params();
  p.iterations = 1;
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const auto r = dda::run(prob, secure_complete_edges(), p, philox_stream(seed, 1));
    const int k =
        std::get<accounting::snapped_gaussian_mechanism<double>>(r.privacy.ledger.events()[0].what)
            .grid_exponent;
    int active = 0;
    for (Eigen::Index i = 0; i < r.z.cols(); ++i) {
      active += r.z.col(i).squaredNorm() > 0;
      for (Eigen::Index c = 0; c < r.z.rows(); ++c) {
        const double u = std::ldexp(r.z(c, i), 1 - k);
        EXPECT_EQ(u, std::nearbyint(u)) << "z(" << c << ", " << i << ") = " << r.z(c, i);
      }
    }
    EXPECT_EQ(active, 2);
  }
  // negative control: the idealised messages are not on that grid
  p.release = noise_mode::idealised;
  const auto r = dda::run(prob, secure_complete_edges(), p, philox_stream(1, 1));
  int off = 0;
  for (Eigen::Index i = 0; i < r.z.cols(); ++i)
    for (Eigen::Index c = 0; c < r.z.rows(); ++c) {
      const double u = std::ldexp(r.z(c, i), 30);
      off += u != std::nearbyint(u);
    }
  EXPECT_GT(off, 0);
}

TEST(SEC_DDA, InflationIsAccountedAndOverBudgetRefused) {
  // At the idealised σ the secure ledger (inflated sensitivity 2L + √d 2^k, grid variance
  // rounded up) exceeds the budget once the grid is coarse: d = 400 coordinates and σ/L large
  // (the grid rule keeps σ/2^k <= 2^14, so √d 2^k >= 20 σ 2^-15). plan_privacy refuses it
  // before any draw; the secure calibration raises σ instead.
  dda::privacy_setup<double> s;
  s.lipschitz = 1;
  s.iota = 0.2;
  s.q_local = 2;
  s.T = 2000;
  s.eps = 0.5;
  s.target_delta = 1e-6;
  const double sigma = dda::calibrated_sigma(s, dda::calibration_kind::rdp);
  privacy_budget_request<double> req;
  req.epsilon = s.eps;
  req.delta = s.target_delta;
  EXPECT_NO_THROW(plan_privacy(dda::plan_ledger(s, sigma), req, "test"));
  EXPECT_THROW(plan_privacy(dda::plan_ledger_secure(s, sigma, 400), req, "test"),
               accounting::budget_exceeded);
  const double sigma_secure = dda::calibrated_sigma_secure(s, 400);
  EXPECT_GT(sigma_secure, sigma);
  const auto g = dda::plan_ledger_secure(s, sigma_secure, 400).total();
  EXPECT_LE(g.epsilon, s.eps);
  EXPECT_LE(g.delta, s.target_delta);
}

TEST(SEC_DDA, SameSeedSameBytesAndThreads) {
  const auto prob = secure_small_problem();
  auto p = secure_small_params();
  p.iterations = 60;
  const auto a = dda::run(prob, secure_complete_edges(), p, philox_stream(9, 1));
  p.threads = 3;
  const auto b = dda::run(prob, secure_complete_edges(), p, philox_stream(9, 1));
  ASSERT_EQ(a.x_bar.size(), b.x_bar.size());
  for (Eigen::Index i = 0; i < a.x_bar.size(); ++i) EXPECT_EQ(a.x_bar[i], b.x_bar[i]);
  for (Eigen::Index i = 0; i < a.z.size(); ++i) EXPECT_EQ(a.z(i), b.z(i));
}

TEST(SEC_DDA, RefusedOffDoubleAndOffRdp) {
  test::expect_secure_refused_off_double<dda::params<long double>, dda::params<mp50>>("dda");
  for (const auto c : {dda::calibration_kind::none, dda::calibration_kind::sound_chain}) {
    dda::params<double> p;
    p.release = noise_mode::secure;
    p.calibration = c;
    EXPECT_EQ(message_of([&] { p.validate(); }),
              "dda::params.release must be idealised unless calibration = rdp (the secure ledger "
              "is calibrated by the accountant; none releases no noise), got secure");
  }
  dda::params<double> pf;
  pf.release = noise_mode::secure;
  pf.fast_noise = true;
  EXPECT_EQ(message_of([&] { pf.validate(); }),
            "dda::params.release must be idealised when fast_noise = true, got secure");
}

TEST(SEC_DDA, JsonSaysSecure) {
  const auto run = [](const std::string& release) {
    return dda::run_json<double>(io::document::parse(
        R"({"problem": {"records": 200, "dimension": 3},
            "network": {"nodes": 5},
            "params": {"iterations": 30, "optimum": false, "release": ")" +
            release + R"("}})",
        "doc"));
  };
  const io::json s = run("secure"), i = run("idealised");
  EXPECT_EQ(s["privacy"]["noise"], "secure");
  EXPECT_EQ(i["privacy"]["noise"], "idealised");
}

}  // namespace
}  // namespace dpref

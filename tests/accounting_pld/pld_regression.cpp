// Regression tests of the PLD accountant (spec/accounting_pld.md): the mpmath goldens of
// scripts/gen_pld_golden.py (ACC.PLD.GOLDEN, ACC.RDP.FRAC) and the eight DP-SGD configurations
// (ACC.PLD.DPSGD), each with a negative control.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accounting_pld/pld_support.hpp"
#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/pld.hpp"
#include "dpref/accounting/rdp_fractional.hpp"

namespace {

namespace P = dpref::accounting::pld;
namespace A = dpref::accounting;
using dpref::accounting::certifier;
using dpref::accounting::work_real;
using dpref::test::pldref::opts;
using P::estimate;
using json = nlohmann::json;

json load(const char* path) {
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << path;
  return json::parse(f);
}

/// Golden value (45 digits) compared through MPFR: returns golden as double rounded down / up.
struct golden_value {
  double lo, hi;
};
golden_value parse(const std::string& s) {
  certifier<double> c;
  const work_real v{s};
  return {c.down(v), c.up(v)};
}

/// The mechanism and the query of one golden case; returns (pessimistic, optimistic) values.
struct sandwich {
  double pess, opt;
};

P::privacy_loss_distribution build(const json& cs, estimate kind, double sigma_scale = 1.0) {
  const std::string kind_s = cs["kind"];
  const auto& in = cs["inputs"];
  const double h = 1e-3;
  if (kind_s == "gaussian_composed_delta" || kind_s == "gaussian_composed_epsilon") {
    const double sens = in[0], sigma = double(in[1]) * sigma_scale;
    const int k = in[2];
    const double hh = std::clamp(0.02 * sens / sigma, 5e-4, 5e-3);
    return P::self_compose(P::discretise(P::gaussian(sens, sigma), opts(hh, kind)),
                           static_cast<std::uint64_t>(k), opts(hh, kind));
  }
  if (kind_s == "laplace_delta")
    return P::discretise(P::laplace(in[0], double(in[1]) * sigma_scale), opts(h, kind));
  if (kind_s == "rr_composed_delta") {
    const int kc = in[2];
    return P::self_compose(P::discretise(P::randomized_response(in[0], in[1]), opts(h, kind)),
                           static_cast<std::uint64_t>(kc), opts(h, kind));
  }
  if (kind_s == "bounded_range_delta")
    return P::discretise(P::exponential_mechanism_worst_case(in[0]), opts(1e-4, kind));
  if (kind_s == "dgauss_delta")
    return P::discretise(P::discrete_gaussian(in[1], double(in[0]) * sigma_scale), opts(h, kind));
  if (kind_s == "dlaplace_delta")
    return P::discretise(P::discrete_laplace(in[0], double(in[1]) * sigma_scale), opts(h, kind));
  if (kind_s == "subsampled_gaussian_delta" || kind_s == "subsampled_gaussian_delta_2fold") {
    const auto m =
        P::subsample(P::gaussian(1, double(in[1]) * sigma_scale), P::sampling::poisson(in[0]));
    auto d = P::discretise(m, opts(5e-4, kind));
    if (kind_s == "subsampled_gaussian_delta_2fold") d = P::compose(d, d, opts(5e-4, kind));
    return d;
  }
  if (kind_s == "three_point_gaussian_delta")
    return P::discretise(P::subsample(P::gaussian(1, double(in[1]) * sigma_scale),
                                      P::sampling::poisson(in[0], P::neighbouring::replace_one)),
                         opts(5e-4, kind));
  ADD_FAILURE() << "unknown kind " << kind_s;
  return {};
}

/// Evaluates one case: δ at ε (or ε at δ) from the pessimistic and optimistic PLDs.
sandwich evaluate(const json& cs, double sigma_scale = 1.0) {
  const std::string kind_s = cs["kind"];
  const auto& in = cs["inputs"];
  const auto pe = build(cs, estimate::pessimistic, sigma_scale);
  const auto op = build(cs, estimate::optimistic, sigma_scale);
  if (kind_s == "gaussian_composed_epsilon")
    return {pe.epsilon_for_delta(in[3]), op.epsilon_for_delta(in[3])};
  const std::size_t ei = (kind_s == "gaussian_composed_delta" || kind_s == "rr_composed_delta") ? 3
                         : (kind_s.rfind("subsampled", 0) == 0 ||
                            kind_s == "three_point_gaussian_delta" || kind_s == "dlaplace_delta")
                             ? 2
                         : (kind_s == "bounded_range_delta") ? 1
                                                             : 2;
  const double eps = in[ei];
  if (kind_s.rfind("subsampled", 0) == 0) {
    const bool remove = in[3] == "remove";
    const auto& dp = remove ? pe.remove : *pe.add;
    const auto& dop = remove ? op.remove : *op.add;
    return {dp.delta_for_epsilon(eps), dop.delta_for_epsilon(eps)};
  }
  return {pe.delta_for_epsilon(eps), op.delta_for_epsilon(eps)};
}

// ------------------------------------------------------------------------------ ACC.PLD.GOLDEN
TEST(ACC_PLD_GOLDEN, CertifiedAboveAndOptimisticBelowEveryGolden) {
  const json g = load(DPREF_PLD_GOLDEN);
  int n = 0;
  for (const auto& cs : g["cases"]) {
    const std::string kind = cs["kind"];
    if (kind == "rdp_frac") continue;
    const golden_value v = parse(cs["value"]);
    const sandwich s = evaluate(cs);
    EXPECT_GE(s.pess, v.lo) << cs.dump();
    EXPECT_LE(s.opt, v.hi) << cs.dump();
    // and close: certified within 0.5% (optimistic 1%) of the golden, or 1e-12 absolute
    EXPECT_LE(s.pess, v.hi * 1.005 + 1e-12) << cs.dump();
    EXPECT_GE(s.opt, v.lo * 0.99 - 1e-12) << cs.dump();
    ++n;
  }
  EXPECT_GE(n, 40);
}

// Negative control: a σ off by 1% makes the certified value fail the golden upper-bound test
// (or the optimistic one the lower-bound test) on most cases.
TEST(ACC_PLD_GOLDEN, NegativeControlSigmaOffByOnePercentFails) {
  const json g = load(DPREF_PLD_GOLDEN);
  int failed = 0, total = 0;
  for (const auto& cs : g["cases"]) {
    const std::string kind = cs["kind"];
    if (kind == "rdp_frac" || kind == "rr_composed_delta" || kind == "bounded_range_delta")
      continue;
    const golden_value v = parse(cs["value"]);
    if (!(v.lo > 1e-12)) continue;
    const sandwich s = evaluate(cs, 1.01);
    ++total;
    if (s.pess < v.lo || s.opt > v.hi) ++failed;
  }
  EXPECT_GE(failed, total * 8 / 10) << failed << " of " << total;
}

// ------------------------------------------------------------------------------ ACC.RDP.FRAC
TEST(ACC_RDP_FRAC, CertifiedAboveTheMpmathIntegralAndTight) {
  const json g = load(DPREF_PLD_GOLDEN);
  int n = 0;
  for (const auto& cs : g["cases"]) {
    if (cs["kind"] != "rdp_frac") continue;
    const auto& in = cs["inputs"];
    const golden_value v = parse(cs["value"]);
    const double e =
        A::poisson_subsampled_gaussian_rdp_frac<double>(in[0], in[1], {double(in[2])}).eps[0];
    EXPECT_GE(e, v.lo) << cs.dump();
    EXPECT_LE(e, v.hi * (1 + 0x1p-44)) << cs.dump();
    // the same at 50 digits: agrees with the 45-digit golden to its last digits
    const auto m = A::poisson_subsampled_gaussian_rdp_frac<dpref::mp50>(
        dpref::mp50(double(in[0])), dpref::mp50(double(in[1])), {dpref::mp50(double(in[2]))});
    certifier<double> c;
    const work_real gv{cs["value"].get<std::string>()};
    const work_real mv(m.eps[0].str(60, std::ios_base::scientific));  // 60 digits: exact enough
    using std::abs;
    EXPECT_TRUE(abs(mv - gv) <= gv * work_real(1e-43)) << cs.dump();
    ++n;
  }
  EXPECT_GE(n, 9);
}

TEST(ACC_RDP_FRAC, NegativeControlSigmaOffByOnePercentFails) {
  const json g = load(DPREF_PLD_GOLDEN);
  for (const auto& cs : g["cases"]) {
    if (cs["kind"] != "rdp_frac") continue;
    const auto& in = cs["inputs"];
    const golden_value v = parse(cs["value"]);
    const double e = A::poisson_subsampled_gaussian_rdp_frac<double>(in[0], double(in[1]) * 1.01,
                                                                     {double(in[2])})
                         .eps[0];
    EXPECT_LT(e, v.lo) << cs.dump();  // the upper-bound test would reject it
  }
}

TEST(ACC_RDP_FRAC_GRID, DefaultGridContainsOpacusGrid) {
  const auto g = A::default_rdp_orders<double>();
  for (int x = 1; x < 100; ++x)
    EXPECT_NE(std::find(g.begin(), g.end(), 1 + x / 10.0), g.end()) << x;
  for (int a = 12; a < 64; ++a) EXPECT_NE(std::find(g.begin(), g.end(), double(a)), g.end()) << a;
  EXPECT_TRUE(std::is_sorted(g.begin(), g.end()));
  EXPECT_EQ(g.back(), 256.0);
}

// ------------------------------------------------------------------------------ ACC.PLD.DPSGD
// The eight DP-SGD configurations of issue #15 at δ = 1e-5: RDP (integer grid), RDP (fractional
// grid, stored — recomputed by the slow test), PLD certified and optimistic side by side.
TEST(ACC_PLD_DPSGD, EightConfigurationsSideBySide) {
  const json t = load(DPREF_PLD_DPSGD);
  const double delta = t["delta"];
  for (const auto& cs : t["configs"]) {
    const double q = cs["q"], sigma = cs["sigma"], h = cs["interval"];
    const auto steps = static_cast<std::uint64_t>(cs["steps"]);
    const auto m = P::subsample(P::gaussian(1, sigma), P::sampling::poisson(q));
    const double pess = P::self_compose(P::discretise(m, opts(h, estimate::pessimistic)), steps,
                                        opts(h, estimate::pessimistic))
                            .epsilon_for_delta(delta);
    const double opt = P::self_compose(P::discretise(m, opts(h, estimate::optimistic)), steps,
                                       opts(h, estimate::optimistic))
                           .epsilon_for_delta(delta);
    const auto c =
        A::poisson_subsampled_gaussian_rdp<double>(q, sigma, A::integer_orders<double>(2, 256));
    const double rdp_int = A::rdp_to_dp(A::compose_rdp_steps(c, steps), delta).guarantee.eps;
    const double rdp_frac = cs["rdp_frac"];
    EXPECT_NEAR(pess, double(cs["pld_pessimistic"]), 1e-9 * pess) << cs.dump();
    EXPECT_NEAR(opt, double(cs["pld_optimistic"]), 1e-9 * opt) << cs.dump();
    EXPECT_EQ(rdp_int, double(cs["rdp_integer"])) << cs.dump();  // existing numbers unchanged
    EXPECT_LE(opt, pess);
    EXPECT_LE(pess - opt, 2e-3 * pess) << cs.dump();  // the sandwich is tight
    EXPECT_LE(opt, rdp_frac);                         // optimistic below every upper bound
    EXPECT_LE(rdp_frac, rdp_int);
    EXPECT_LT(pess, 0.95 * rdp_int) << cs.dump();  // PLD is 5-13% below RDP
    if (cs.contains("exact")) {
      EXPECT_LE(opt, double(cs["exact"]));
      EXPECT_GE(pess, double(cs["exact"]));
    }
  }
}

}  // namespace

// ------------------------------------------------------------------------- ACC.PLD.ADAPTIVE
namespace {

// The eight DP-SGD configurations at the accountant's default options (adaptive interval):
// within 0.1% of dp_accounting's recorded pessimistic ε (bench/data/dp_accounting_pld.json,
// interval 1e-4) and at least the optimistic PLD of the table (a certified lower bound of the
// exact ε).
TEST(ACC_PLD_ADAPTIVE, EightConfigurationsWithinOneThousandthOfDpAccounting) {
  const json rec = load(DPREF_DP_ACCOUNTING);
  const json table = load(DPREF_PLD_DPSGD);
  ASSERT_EQ(rec["rows"].size(), table["configs"].size());
  for (std::size_t i = 0; i < rec["rows"].size(); ++i) {
    const auto& r = rec["rows"][i];
    const auto& t = table["configs"][i];
    ASSERT_EQ(double(r["q"]), double(t["q"]));
    ASSERT_EQ(double(r["sigma"]), double(t["sigma"]));
    A::event<double> e =
        A::make_event<double>(A::gaussian_mechanism<double>{1.0, r["sigma"]}, r["steps"]);
    if (double(r["q"]) < 1) {
      A::subsampling<double> s;
      s.rate = r["q"];
      e.sampling = s;
    }
    A::accounting_options<double> o;
    o.method = A::accounting_method::pld;
    o.delta = rec["delta"];
    const double eps = A::account<double>({e}, o).epsilon;
    const double dp = r["epsilon"];
    EXPECT_LE(eps, dp * 1.001) << r.dump();
    EXPECT_GE(eps, dp * 0.999) << r.dump();
    EXPECT_GE(eps, double(t["pld_optimistic"])) << r.dump();
    if (t.contains("exact")) {
      EXPECT_GE(eps, double(t["exact"]) * (1 - 1e-12)) << r.dump();
    }
  }
}

}  // namespace

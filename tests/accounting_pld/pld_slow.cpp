// Slow PLD / fractional-RDP checks (label `slow`, spec/accounting_pld.md): the fractional-order
// RDP column of the eight DP-SGD configurations (certified, 99 fractional orders each), the
// composition cost over 10^3 … 10^6 steps, and a wide composed-Gaussian sweep.
// With DPREF_PLD_WRITE_TABLE=<path> the DP-SGD table is (re)written as JSON to <path>.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "accounting_pld/pld_support.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/pld.hpp"
#include "dpref/accounting/rdp_fractional.hpp"

namespace {

namespace P = dpref::accounting::pld;
namespace A = dpref::accounting;
using dpref::test::pldref::opts;
using P::estimate;
using json = nlohmann::json;
using clk = std::chrono::steady_clock;

double ms_since(clk::time_point t) {
  return std::chrono::duration<double, std::milli>(clk::now() - t).count();
}

struct config {
  double q, sigma;
  std::uint64_t steps;
  double interval;
};
const config kConfigs[] = {{0.01, 1.1, 10000, 5e-4},    {0.001, 0.8, 100000, 1e-4},
                           {0.1, 2.0, 1000, 2.5e-3},    {0.05, 1.0, 5000, 2.5e-3},
                           {0.004, 1.0, 25000, 2.5e-4}, {0.02, 0.6, 3000, 2.5e-3},
                           {1.0, 5.0, 100, 1e-3},       {0.25, 3.0, 400, 2.5e-3}};

// ------------------------------------------------------------------------------ ACC.PLD.DPSGD
TEST(ACC_PLD_DPSGD, FractionalGridColumnAndTable) {
  const double delta = 1e-5;
  json out;
  out["delta"] = delta;
  out["generator"] = "tests/accounting_pld/pld_slow.cpp (DPREF_PLD_WRITE_TABLE)";
  json stored;
  if (!std::getenv("DPREF_PLD_WRITE_TABLE")) {
    std::ifstream f(DPREF_PLD_DPSGD);
    stored = json::parse(f);
  }
  std::size_t i = 0;
  for (const config& c : kConfigs) {
    json row;
    row["q"] = c.q;
    row["sigma"] = c.sigma;
    row["steps"] = c.steps;
    row["interval"] = c.interval;
    const auto m = P::subsample(P::gaussian(1, c.sigma), P::sampling::poisson(c.q));
    auto t0 = clk::now();
    const double pess = P::self_compose(P::discretise(m, opts(c.interval, estimate::pessimistic)),
                                        c.steps, opts(c.interval, estimate::pessimistic))
                            .epsilon_for_delta(delta);
    row["pld_ms"] = ms_since(t0);
    const double opt = P::self_compose(P::discretise(m, opts(c.interval, estimate::optimistic)),
                                       c.steps, opts(c.interval, estimate::optimistic))
                           .epsilon_for_delta(delta);
    t0 = clk::now();
    const auto ci =
        A::poisson_subsampled_gaussian_rdp<double>(c.q, c.sigma, A::integer_orders<double>(2, 256));
    const double rdp_int = A::rdp_to_dp(A::compose_rdp_steps(ci, c.steps), delta).guarantee.eps;
    row["rdp_integer_ms"] = ms_since(t0);
    t0 = clk::now();
    const auto cf = A::poisson_subsampled_gaussian_rdp_frac<double>(
        c.q, c.sigma, A::default_rdp_orders<double>());
    const auto rf = A::rdp_to_dp(A::compose_rdp_steps(cf, c.steps), delta);
    row["rdp_fractional_ms"] = ms_since(t0);
    row["rdp_integer"] = rdp_int;
    row["rdp_frac"] = rf.guarantee.eps;
    row["rdp_frac_order"] = rf.order;
    row["pld_pessimistic"] = pess;
    row["pld_optimistic"] = opt;
    if (c.q == 1.0) {
      const auto [lo, hi] =
          dpref::test::pldref::gauss_eps_bracket(std::sqrt(double(c.steps)) / c.sigma, delta);
      row["exact"] = hi;
      EXPECT_GE(pess, lo);
      EXPECT_LE(opt, hi);
    }
    EXPECT_LE(opt, pess);
    EXPECT_LE(opt, rf.guarantee.eps);
    EXPECT_LE(rf.guarantee.eps, rdp_int);
    if (!stored.is_null()) {
      const auto& s = stored["configs"][i];
      EXPECT_EQ(rf.guarantee.eps, double(s["rdp_frac"])) << row.dump();
    }
    std::cout << row.dump() << std::endl;
    out["configs"].push_back(row);
    ++i;
  }
  if (const char* path = std::getenv("DPREF_PLD_WRITE_TABLE")) {
    std::ofstream f(path);
    f << out.dump(1) << "\n";
  }
}

// ------------------------------------------------------------------------------
// ACC.PLD.SELFCOMPOSE
TEST(ACC_PLD_SELFCOMPOSE, StepsSweepTenToTheThreeToTenToTheSix) {
  const auto m = P::subsample(P::gaussian(1, 1.1), P::sampling::poisson(0.01));
  double prev = 0;
  for (const std::uint64_t k : {1000ull, 10000ull, 100000ull, 1000000ull}) {
    const double h = k >= 1000000 ? 2.5e-4 : 1e-3;
    auto t0 = clk::now();
    const auto pe = P::self_compose(P::discretise(m, opts(h, estimate::pessimistic)), k,
                                    opts(h, estimate::pessimistic));
    const double ep = pe.epsilon_for_delta(1e-5);
    const double tms = ms_since(t0);
    const double eo = P::self_compose(P::discretise(m, opts(h, estimate::optimistic)), k,
                                      opts(h, estimate::optimistic))
                          .epsilon_for_delta(1e-5);
    std::cout << "steps " << k << " h " << h << " pess " << ep << " opt " << eo << " error "
              << pe.remove.error << " ms " << tms << std::endl;
    EXPECT_LE(eo, ep);
    EXPECT_GT(ep, prev);
    EXPECT_LT(ep - eo, 5e-3 * ep);
    prev = ep;
  }
}

// ------------------------------------------------------------------------------ ACC.PLD.SANDWICH
TEST(ACC_PLD_SANDWICH, ManyStepGaussiansUpToTenToTheFive) {
  for (const std::uint64_t k : {1000ull, 30000ull, 100000ull}) {
    const double sigma = 100.0;
    const double mu = std::sqrt(double(k)) / sigma;
    const double h = 5e-4;
    const auto pe =
        P::self_compose(P::discretise(P::gaussian(1, sigma), opts(h, estimate::pessimistic)), k,
                        opts(h, estimate::pessimistic));
    const auto op =
        P::self_compose(P::discretise(P::gaussian(1, sigma), opts(h, estimate::optimistic)), k,
                        opts(h, estimate::optimistic));
    const auto [lo, hi] = dpref::test::pldref::gauss_eps_bracket(mu, 1e-6);
    EXPECT_GE(pe.epsilon_for_delta(1e-6), lo) << k;
    EXPECT_LE(pe.epsilon_for_delta(1e-6), hi * 1.002) << k;
    EXPECT_LE(op.epsilon_for_delta(1e-6), hi) << k;
  }
}

}  // namespace

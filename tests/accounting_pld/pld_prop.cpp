// Property tests of the PLD accountant and the fractional-order RDP (spec/accounting_pld.md),
// RapidCheck with the fixed CI seed (RC_PARAMS=seed=20261121 max_success=100).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "accounting_pld/pld_support.hpp"
#include "dpref/accounting/accounting.hpp"
#include "dpref/accounting/pld.hpp"
#include "dpref/accounting/rdp_fractional.hpp"
#include "support/generators.hpp"

namespace {

namespace P = dpref::accounting::pld;
namespace A = dpref::accounting;
using dpref::test::positive_log_uniform;
using dpref::test::real_in;
using dpref::test::pldref::opts;
using P::estimate;

/// Gaussian δ(ε) with μ in long double (erfcl; |error| ~ 1e-18 relative, far below the
/// tolerances of the properties).
long double gauss_delta_ld(long double mu, long double eps) {
  auto phic = [](long double x) { return 0.5L * std::erfc(x / std::sqrt(2.0L)); };
  return phic(eps / mu - mu / 2) - std::exp(eps) * phic(eps / mu + mu / 2);
}
/// exact ε(δ) of the Gaussian by bisection, to ~1e-15 relative
double gauss_eps_ld(long double mu, long double delta) {
  long double lo = 0, hi = 1;
  if (gauss_delta_ld(mu, 0) <= delta) return 0;
  while (gauss_delta_ld(mu, hi) > delta) hi *= 2;
  for (int i = 0; i < 80; ++i) {
    const long double mid = (lo + hi) / 2;
    (gauss_delta_ld(mu, mid) > delta ? lo : hi) = mid;
  }
  return static_cast<double>((lo + hi) / 2);
}

// ------------------------------------------------------------------------------ ACC.PLD.SANDWICH
// For composed Gaussians (exact value: one Gaussian with σ/√k) the certified ε is >= exact and
// within 0.2%; the optimistic ε is <= exact.
RC_GTEST_PROP(ACC_PLD_SANDWICH, ComposedGaussiansCertifiedAboveOptimisticBelowWithin02Percent, ()) {
  const double sigma = *positive_log_uniform<double>(0.5, 20.0);
  const int k = *rc::gen::inRange(1, 201);
  const double delta = *positive_log_uniform<double>(1e-9, 1e-2);
  const double mu1 = 1 / sigma;
  const double h = std::clamp(0.05 * mu1, 1e-3, 0.02);
  const auto m = P::gaussian(1, sigma);
  const auto pe = P::self_compose(P::discretise(m, opts(h, estimate::pessimistic)),
                                  static_cast<std::uint64_t>(k), opts(h, estimate::pessimistic));
  const auto op = P::self_compose(P::discretise(m, opts(h, estimate::optimistic)),
                                  static_cast<std::uint64_t>(k), opts(h, estimate::optimistic));
  const double exact = gauss_eps_ld(std::sqrt(static_cast<long double>(k)) * mu1, delta);
  const double ep = pe.epsilon_for_delta(delta), eo = op.epsilon_for_delta(delta);
  RC_ASSERT(ep >= exact * (1 - 1e-13));
  RC_ASSERT(eo <= exact * (1 + 1e-13) + 1e-15);
  RC_ASSERT(ep <= exact * 1.002 + 1e-9);
}

// Poisson-subsampled Gaussians: one step against the closed form, k steps against each other
// and against the certified RDP bound (optimistic <= every valid upper bound).
RC_GTEST_PROP(ACC_PLD_SANDWICH, SubsampledGaussiansOptimisticBelowCertifiedAndRdp, ()) {
  const double q = *positive_log_uniform<double>(0.005, 0.5);
  const double sigma = *positive_log_uniform<double>(0.6, 4.0);
  const int k = *rc::gen::inRange(1, 301);
  const double delta = *positive_log_uniform<double>(1e-8, 1e-3);
  const double h = 2e-3;
  const auto m = P::subsample(P::gaussian(1, sigma), P::sampling::poisson(q));
  const auto pe1 = P::discretise(m, opts(h, estimate::pessimistic));
  const auto op1 = P::discretise(m, opts(h, estimate::optimistic));
  for (const double eps : {-0.2, 0.0, 0.05, 0.5}) {
    const double xr = dpref::test::pldref::subsampled_delta(q, sigma, eps, true);
    const double xa = dpref::test::pldref::subsampled_delta(q, sigma, eps, false);
    RC_ASSERT(pe1.remove.delta_for_epsilon(eps) >= xr * (1 - 0x1p-50));
    RC_ASSERT(op1.remove.delta_for_epsilon(eps) <= xr * (1 + 0x1p-50));
    RC_ASSERT(pe1.add->delta_for_epsilon(eps) >= xa * (1 - 0x1p-50));
    RC_ASSERT(op1.add->delta_for_epsilon(eps) <= xa * (1 + 0x1p-50));
  }
  const auto pe =
      P::self_compose(pe1, static_cast<std::uint64_t>(k), opts(h, estimate::pessimistic));
  const auto op =
      P::self_compose(op1, static_cast<std::uint64_t>(k), opts(h, estimate::optimistic));
  const double ep = pe.epsilon_for_delta(delta), eo = op.epsilon_for_delta(delta);
  const auto c =
      A::poisson_subsampled_gaussian_rdp<double>(q, sigma, A::integer_orders<double>(2, 128));
  const double er = A::rdp_to_dp(A::compose_rdp_steps(c, k), delta).guarantee.eps;
  RC_ASSERT(eo <= ep);
  RC_ASSERT(eo <= er);
}

// ------------------------------------------------------------------------------ ACC.RDP.FRAC
// Fractional orders: between the certified integer neighbours (ε(α) is non-decreasing) and below
// the chord of (α − 1)ε(α) between them ((α − 1)ε(α) is convex in α).
RC_GTEST_PROP(ACC_RDP_FRAC, BetweenIntegerNeighboursAndBelowTheConvexChord, ()) {
  const double q = *positive_log_uniform<double>(0.001, 0.5);
  const double sigma = *positive_log_uniform<double>(0.5, 5.0);
  const int n = *rc::gen::inRange(2, 11);
  const double t = *real_in<double>(0.05, 0.95);
  const double alpha = n + t;
  const auto fr = A::poisson_subsampled_gaussian_rdp_frac<double>(q, sigma, {alpha});
  const auto in = A::poisson_subsampled_gaussian_rdp<double>(
      q, sigma, {static_cast<double>(n), static_cast<double>(n + 1)});
  const double e = fr.eps[0];
  RC_ASSERT(e >= in.eps[0] * (1 - 1e-12));
  RC_ASSERT(e <= in.eps[1] * (1 + 1e-12));
  const double chord = (1 - t) * (n - 1) * in.eps[0] + t * n * in.eps[1];
  RC_ASSERT((alpha - 1) * e <= chord * (1 + 1e-12));
}

// Integer orders given to the fractional entry point are bit-identical to the integer function.
RC_GTEST_PROP(ACC_RDP_FRAC, IntegerOrdersAreBitIdentical, ()) {
  const double q = *positive_log_uniform<double>(1e-4, 1.0);
  const double sigma = *positive_log_uniform<double>(0.3, 10.0);
  const auto orders = A::integer_orders<double>(2, 64);
  const auto a = A::poisson_subsampled_gaussian_rdp<double>(q, sigma, orders);
  const auto b = A::poisson_subsampled_gaussian_rdp_frac<double>(q, sigma, orders);
  RC_ASSERT(a.eps == b.eps);
}

}  // namespace

// DP-SGD (Abadi et al. 2016), the first baseline of the linesearch comparison (§5.3): Poisson(q)
// batches, clipped per-example gradients (6), Gaussian noise N(0, s²C²) on the sum, normalised
// by q·n, fixed step η for T steps; s is the smallest noise multiplier whose exact
// subsampled-Gaussian RDP (Mironov–Talwar–Zhang) over T steps converts to <= ε at δ. A fixed
// plan, checked by plan_privacy before the first draw. Secure mode (SEC.LINESEARCH): the snapped
// Gaussian. spec/linesearch.md LS.DPSGD, LS.LEDGER.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/linesearch/bounds.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/dp_blsgd.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/linesearch/run_ledger.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/vector_laplace.hpp"
#include "dpref/run/report.hpp"

namespace dpref::linesearch {

/// The plan of DP-SGD: T steps of the Gaussian mechanism {C_grad, σ} on a Poisson(q) sample
/// (no sampling at q = 1). @spec LS.DPSGD
template <real_scalar Real>
accounting::ledger<Real> dp_sgd_plan(const params<Real>& p, const Real& sigma) {
  accounting::event<Real> e = accounting::make_event<Real>(
      accounting::gaussian_mechanism<Real>{p.C_grad, sigma}, p.iterations,
      "DP-SGD step: clipped gradient sum + N(0, σ²I) on a Poisson sample (Abadi et al. 2016)");
  e.sampling = detail::poisson_sampling(p.q);
  accounting::ledger<Real> l(detail::ledger_options(p));
  l.record(std::move(e));
  return l;
}

/// Secure DP-SGD (SEC.LINESEARCH): the lattice Gaussian of one step at σ (snapped_gradient with
/// C = C_grad and the clamp params.clamp or n·C_grad).
inline mechanisms::snapped_gaussian_params dp_sgd_snapped(const params<double>& p, double sigma,
                                                          long long n, long long d) {
  return snapped_gradient(p.C_grad, sigma, p.clamp ? *p.clamp : static_cast<double>(n) * p.C_grad,
                          d);
}

/// The secure plan: T snapped_gaussian events (inflated sensitivity C_grad + √d 2^k, grid
/// variance rounded up) on the same Poisson(q) sample; the accountant amplifies them by the
/// generic Zhu–Wang Poisson bound (the MTZ bound is for the continuous Gaussian only).
/// @spec SEC.LINESEARCH
inline accounting::ledger<double> dp_sgd_plan_secure(const params<double>& p, double sigma,
                                                     long long n, long long d) {
  accounting::event<double> e = dp_sgd_snapped(p, sigma, n, d)
                                    .event<double>(p.iterations,
                                                   "DP-SGD step, secure: lattice Gaussian of the "
                                                   "clipped gradient sum on a Poisson sample");
  e.sampling = detail::poisson_sampling(p.q);
  accounting::ledger<double> l(detail::ledger_options(p));
  l.record(std::move(e));
  return l;
}

/// Smallest σ whose secure plan is within (ε, δ). @spec SEC.LINESEARCH
inline double dp_sgd_sigma_secure(const params<double>& p, long long n, long long d) {
  const auto ok = [&](const double& sigma) {
    const auto g = dp_sgd_plan_secure(p, sigma, n, d).total();
    return !(g.epsilon > p.epsilon) && !(g.delta > p.delta);
  };
  return accounting::smallest_satisfying<double>(ok, p.C_grad, "linesearch::params", "epsilon");
}

/// Smallest σ (rounded up, certified by the ledger's own accountant: the exact Poisson-subsampled
/// Gaussian RDP of Mironov–Talwar–Zhang over T steps, Balle 2020 conversion) whose plan is within
/// (ε, δ); the noise multiplier is σ/C_grad. @throws invalid_parameter if no σ is attainable
/// @spec LS.DPSGD
template <real_scalar Real>
Real dp_sgd_sigma(const params<Real>& p) {
  const auto ok = [&](const Real& sigma) {
    const auto g = dp_sgd_plan(p, sigma).total();
    return !(g.epsilon > p.epsilon) && !(g.delta > p.delta);
  };
  return accounting::smallest_satisfying<Real>(ok, p.C_grad, "linesearch::params", "epsilon");
}

/// One DP-SGD release (the body of dp_sgd's loop, Abadi et al. 2016): a Poisson(q) sample drawn
/// from st, its clipped gradient sum Σ clip(∇f_i(w), m.sensitivity) (6) and the noise of the
/// step's event, N(0, m.sigma² I), into g; with sp, the lattice Gaussian of the sum of the
/// examples' clipped gradients, each put in the ball of radius C_grad on the grid and summed in
/// integers (SEC.LINESEARCH, SEC.GAUSS.SUM). The clip is the event's sensitivity
/// (PRIV.LINESEARCH.C_GRAD). The audits call this function. @spec LS.DPSGD
template <real_scalar Real, linesearch_problem<Real> Problem>
void dp_sgd_noisy_sum(philox_stream& st, const Problem& P, const vector<Real>& w, const Real& q,
                      const accounting::gaussian_mechanism<Real>& m,
                      const std::optional<mechanisms::snapped_gaussian_params>& sp,
                      std::vector<Eigen::Index>& batch, vector<Real>& g) {
  poisson_batch(st, P.size(), q, batch);
  if constexpr (std::is_same_v<Real, double>) {
    if (sp) {  // SEC.LINESEARCH: each example's clipped gradient is one record of the sum
      lattice_gradient_sum(st, P, std::span<const Eigen::Index>(batch), w, *sp, g);
      return;
    }
  } else {
    (void)sp;  // idealised only below double
  }
  P.clipped_gradient_sum(w, batch, m.sensitivity, g);
  add_gaussian_noise(st, g, m);
}

/// DP-SGD run on any linesearch_problem (linear ERM, the §5.7 MLP): Poisson(q) batches, clipped
/// sum + N(0, σ²I), ÷ m̄, fixed step sgd_eta for T = iterations steps. σ = noise_multiplier·C_grad
/// if given (the plan must then fit the request unless allow_over_budget), else dp_sgd_sigma.
/// @spec LS.DPSGD LS.MLP
template <real_scalar Real, linesearch_problem<Real> Problem>
result<Real> dp_sgd(const Problem& P, const params<Real>& p, const philox_stream& stream) {
  p.validate();
  const Eigen::Index n = P.size(), d = P.dimension();
  if (p.w0)
    param_checker("linesearch::params")
        .require(p.w0->size() == d, "w0", "of the problem's dimension " + std::to_string(d),
                 p.w0->size());
  accounting::certifier<Real> c;
  const bool secure = p.release == noise_mode::secure;
  std::optional<mechanisms::snapped_gaussian_params> sp;
  Real sigma(0);
  result<Real> res;
  if constexpr (std::is_same_v<Real, double>) {
    if (secure) {  // SEC.LINESEARCH: planned and checked before any draw
      const auto nn = static_cast<long long>(n), dd = static_cast<long long>(d);
      sigma = p.noise_multiplier ? c.up(c.in(*p.noise_multiplier) * c.in(p.C_grad))
                                 : dp_sgd_sigma_secure(p, nn, dd);
      res.privacy = detail::final_privacy(dp_sgd_plan_secure(p, sigma, nn, dd), p,
                                          "linesearch::run (DP-SGD, secure)");
      res.privacy.noise = noise_mode::secure;
      sp = dp_sgd_snapped(p, sigma, nn, dd);
    }
  }
  if (!secure) {
    sigma = p.noise_multiplier ? c.up(c.in(*p.noise_multiplier) * c.in(p.C_grad)) : dp_sgd_sigma(p);
    res.privacy = detail::final_privacy(dp_sgd_plan(p, sigma), p, "linesearch::run (DP-SGD)");
  }
  const accounting::gaussian_mechanism<Real> m{p.C_grad, sigma};
  res.privacy.enforced = {gradient_clip_bound(p.C_grad)};
  if (sp) {
    res.privacy.enforced.front().how +=
        "; secure: again on the grid, exactly: each example's rounded gradient is clamped into "
        "the l2 ball of radius C_grad and the integers are summed exactly (SEC.GAUSS.SUM), so "
        "no floating-point rounding of the clip or the sum can exceed the ledger's C_grad";
    res.privacy.enforced.push_back(
        clamp_bound(Real(sp->clamp), "the clipped gradient sum (default n*C_grad)"));
  }
  res.noise_multiplier = c.down(c.in(sigma) / c.in(p.C_grad));
  const Real nbar = p.q * Real(static_cast<long long>(n));
  vector<Real> w = p.w0 ? *p.w0 : vector<Real>(vector<Real>::Zero(d)), g(d);
  std::vector<Eigen::Index> batch;
  detail::progress_clock clock;
  res.status = status::completed;
  for (long long t = 0; t < p.iterations; ++t) {
    if (p.progress && clock.due()) p.progress("DP-SGD step " + std::to_string(t));
    philox_stream st = stream.substream(static_cast<std::uint64_t>(t));
    dp_sgd_noisy_sum(st, P, w, p.q, m, sp, batch, g);
    const vector<Real> next = w - (p.sgd_eta / nbar) * g;
    if (!next.allFinite()) {
      res.status = status::diverged;
      res.message = "an iterate became non-finite at step " + std::to_string(t) +
                    "; the last finite iterate is returned (the plan's guarantee is reported)";
      break;
    }
    w = next;
    ++res.calls.gradients;
    ++res.calls.iterations;
    ++res.calls.updates;
    res.steps.push_back(p.sgd_eta);
    if (p.trace && p.diagnostics) res.diagnostics.objective_trace.push_back(P.value(w));
    if (p.observer) p.observer(t + 1, w);
  }
  res.w = w;
  res.iterations = res.calls.iterations;
  if (res.message.empty())
    res.message = "the planned " + std::to_string(p.iterations) + " steps ran";
  return res;
}

}  // namespace dpref::linesearch

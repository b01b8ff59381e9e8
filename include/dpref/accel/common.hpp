// The engine of the accel algorithms (DP-GD (2.4), DP-SHB (3.1), DP-NAG (4.1), DP-NAG-opt,
// DP-MASG, DP-MASG-opt); parameters in accel/params.hpp; spec/accel.md ACCEL.ENGINE.
//
// Engine, step t = 0..T−1 (iteration t+1 of the paper), reading only substream t of the
// caller's (seed, stream):
//   1. if m < n: B_t = m indices drawn without replacement (partial Fisher–Yates with
//      secure::uniform_int, exact; the permutation is restored afterwards, O(m) per step);
//   2. the gradient point y_t: x_t (GD, HB) or z_t = (1 + β)x_t − βx_{t−1} (NAG (4.1));
//   3. g = ∇F_{B_t}(y_t) (2.7) (∇F at m = n) plus η_t, η_{t,i} ~ Laplace(b_t) i.i.d. (2.8),
//      drawn by the reference inversion sampler (the double draw is the rounding of the
//      50-digit draw of the same stream);
//   4. x_{t+1} = y_t − α_t g (+ β(x_t − x_{t−1}) for HB).
// The privacy plan (b_t and the ledger, accel/privacy_plan.hpp) is fixed and accounted
// (ARCH.BUDGET) before any noise is drawn. Secure mode (SEC.ACCEL): step 3 releases
// g̃ = mechanisms::snapped_laplace_sum of the step's per-example gradients (each in the l1 ball of
// radius Δ1/2 on the grid) plus the public regulariser term (accel/secure_gradient.hpp) instead of
// g + η; the iterate x_{t+1} is a post-processing of g̃. The double path allocates only at setup
// (idealised mode): no allocation or virtual call per iteration.
#pragma once

#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/accel/params.hpp"
#include "dpref/accel/privacy_plan.hpp"
#include "dpref/accel/result.hpp"
#include "dpref/accel/secure_gradient.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/uniform_int.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel {
namespace detail {

template <class Problem>
using problem_real = std::remove_cvref_t<decltype(std::declval<const Problem&>().l1_sensitivity())>;

/// params.validate() plus the checks that need the problem; returns the resolved m.
/// @throws invalid_parameter naming the field
template <class Problem, real_scalar Real>
long long validate_common(const Problem& P, const params<Real>& p) {
  p.validate();
  const param_checker c("accel::params");
  const long long n = P.size();
  const long long m = p.m ? *p.m : n;
  c.require(m <= n, "m", "in [1, n] with n = " + std::to_string(n), m);
  if (p.x0)
    c.require(static_cast<long long>(p.x0->size()) == static_cast<long long>(P.dimension()), "x0",
              "of size d = " + std::to_string(P.dimension()), p.x0->size());
  return m;
}

/// The public smoothness of a run: params.L if given, else the problem's public bound.
template <class Problem, real_scalar Real>
Real public_L(const Problem& P, const params<Real>& p) {
  return p.L ? *p.L : Real(P.public_smoothness());
}

/// α = params.alpha, or c/L with the public L.
template <class Problem, real_scalar Real>
Real resolve_alpha(const Problem& P, const params<Real>& p) {
  return p.alpha ? *p.alpha : p.c / public_L(P, p);
}

/// β = (1 − √(μα))/(1 + √(μα)) (accel Theorem 4.1 and §5); requires μα <= 1.
template <real_scalar Real>
Real nesterov_beta(const Real& mu, const Real& alpha) {
  using std::sqrt;
  if (!(mu * alpha <= Real(1)))
    param_checker("accel::params")
        .fail("alpha", "<= 1/mu (mu = " + ::dpref::detail::to_text(mu) + ")", alpha);
  const Real r = sqrt(mu * alpha);
  return (Real(1) - r) / (Real(1) + r);
}

template <real_scalar Real>
bool all_finite(const vector<Real>& x) {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!is_finite_value(x[i])) return false;
  return true;
}

/// Runs a resolved plan. @spec ACCEL.ENGINE
template <class Problem, real_scalar Real>
result<Real> execute(const Problem& P, const params<Real>& p, long long m, const plan<Real>& pl,
                     result<Real> r, const philox_stream& stream) {
  if (r.privacy.is_private) r.privacy.enforced = enforced_bounds(P, p);  // PRIV.BOUNDS
  const long long n = P.size();
  const auto d = static_cast<Eigen::Index>(P.dimension());
  const auto T = static_cast<long long>(pl.alpha.size());
  vector<Real> x = p.x0 ? *p.x0 : vector<Real>(vector<Real>::Constant(d, Real(10)));
  vector<Real> xprev = x, y(d), g(d), xnew(d), offset(d);
  std::vector<long long> perm, swaps;
  if (m < n) {
    perm.resize(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0LL);
    swaps.resize(static_cast<std::size_t>(m));
  }
  if (p.trace) {
    r.trace.reserve(static_cast<std::size_t>(T) + 1);
    r.trace.push_back(P.value(x));
  }
  r.iterations = T;
  r.batch = m;
  r.status = status::completed;
  for (long long t = 0; t < T; ++t) {
    const auto k = static_cast<std::size_t>(t);
    philox_stream s = stream.substream(static_cast<std::uint64_t>(t));
    if (pl.restart[k]) xprev = x;
    const Real& a = pl.alpha[k];
    const Real& be = pl.beta[k];
    if (pl.kind == method::nesterov)
      y = (Real(1) + be) * x - be * xprev;  // accel (4.1) z_t
    else
      y = x;
    if (m < n) {
      // B_t: m of n without replacement (accel (2.7)), exact uniform indices.
      for (long long j = 0; j < m; ++j) {
        // not privacy noise: the sample B_t (accounted as the event's sampling, m of n)
        const long long pick = j + secure::uniform_int<std::int64_t>(s, n - j);
        swaps[static_cast<std::size_t>(j)] = pick;
        std::swap(perm[static_cast<std::size_t>(j)], perm[static_cast<std::size_t>(pick)]);
      }
    }
    const std::span<const long long> batch(perm.data(),
                                           m < n ? static_cast<std::size_t>(m) : std::size_t{0});
    if (!pl.snapped.empty()) {
      if constexpr (std::is_same_v<Real, double>)  // SEC.ACCEL: g̃ = snapped sum (2.7)-(2.8)
        g = secure_gradient(P, y, batch, s, pl.snapped[pl.snapped.size() == 1 ? 0 : k], offset);
    } else {
      if (m < n)
        P.minibatch_gradient_into(y, batch, g);
      else
        P.gradient_into(y, g);
      if (!pl.laplace.empty()) {  // (2.8): the step's measurement, charged by the ledger
        const auto& nu = pl.laplace[pl.laplace.size() == 1 ? 0 : k];
        if (nu.scale > Real(0)) nu.add_to(s, g);
      }
    }
    if (m < n)  // restore the permutation (O(m))
      for (long long j = m - 1; j >= 0; --j)
        std::swap(perm[static_cast<std::size_t>(j)],
                  perm[static_cast<std::size_t>(swaps[static_cast<std::size_t>(j)])]);
    if (pl.kind == method::heavy_ball)
      xnew = x - a * g + be * (x - xprev);  // accel (3.1)
    else
      xnew = y - a * g;  // accel (2.4) / (4.1)
    if (!all_finite(xnew)) {
      r.status = status::diverged;
      r.message = "an iterate became non-finite at step " + std::to_string(t + 1) +
                  "; x is the last finite iterate";
      break;
    }
    xprev.swap(x);
    x.swap(xnew);
    if (p.trace) r.trace.push_back(P.value(x));
  }
  r.x = std::move(x);
  if (r.status == status::completed) r.message = "all planned iterations ran";
  return r;
}

/// The constant-momentum methods DP-SHB (accel (3.1)) and DP-NAG (accel (4.1)): α and β fixed
/// over the T steps, uniform split of Proposition 3.1. β defaults to
/// (1 − √(μα))/(1 + √(μα)); with `check_nesterov_range` (NAG, Theorem 4.1) μα <= 1 is required
/// even when β is given. The result is labelled `algorithm`.
template <class Problem, real_scalar Real>
result<Real> run_constant_momentum(algorithm_kind algorithm, method kind, bool check_nesterov_range,
                                   const Problem& problem, const params<Real>& p,
                                   const philox_stream& stream) {
  const long long m = validate_common(problem, p);
  const Real a = resolve_alpha(problem, p);
  Real be;
  if (check_nesterov_range || !p.beta) {
    const Real nb = nesterov_beta(problem.strong_convexity(), a);
    be = p.beta ? *p.beta : nb;
  } else {
    be = *p.beta;
  }
  plan<Real> pl;
  pl.kind = kind;
  pl.alpha.assign(static_cast<std::size_t>(p.iterations), a);
  pl.beta.assign(static_cast<std::size_t>(p.iterations), be);
  pl.restart.assign(static_cast<std::size_t>(p.iterations), 0);
  result<Real> r;
  r.algorithm = algorithm;
  r.alpha = a;
  r.beta = be;
  r.smoothness = public_L(problem, p);
  uniform_noise(p, problem.l1_sensitivity(), problem.size(), m, p.iterations, pl, r,
                static_cast<long long>(problem.dimension()));
  return execute(problem, p, m, pl, std::move(r), stream);
}

}  // namespace detail
}  // namespace dpref::accel

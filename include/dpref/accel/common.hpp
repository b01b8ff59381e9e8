// Shared parameters, result and engine of the accel algorithms (DP-GD (2.4), DP-SHB (3.1),
// DP-NAG (4.1), DP-NAG-opt, DP-MASG, DP-MASG-opt).
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
// The privacy plan (b_t and the ledger) is fixed before any noise is drawn; the ledger then
// records the per-step losses ε_t = ε(S₁, b_t, n, m) of (3.3) (rounded up).
// The double path allocates only at setup: no allocation or virtual call per iteration.
#pragma once

#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/accel/calibration.hpp"
#include "dpref/accounting/ledger.hpp"
#include "dpref/error.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/uniform_int.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel {

/// How the gradient noise is chosen.
enum class noise_mode {
  calibrated,  ///< b_t from ε (Prop 3.1 uniform split, or Prop 4.2 for the -opt variants)
  fixed,       ///< b_t = params.noise_scale for every t; the ledger records the implied ε
  none         ///< no noise (non-private; the ledger stays empty)
};

/// Run outcome.
enum class run_status {
  completed,  ///< all planned iterations ran and every iterate is finite
  diverged    ///< an iterate became non-finite; the run stopped, x is the last finite iterate
};

/// Parameters shared by the accel algorithms (each algorithm validates what it uses).
template <real_scalar Real>
struct params {
  long long T = 100;     ///< iterations (the -opt variants may run T′ ≤ T, Remark 4.1)
  long long m = 0;       ///< minibatch size in [1, n]; 0 means m = n (full batch)
  Real eps = Real(1);    ///< total privacy budget ε (noise_mode::calibrated)
  Real alpha = Real(0);  ///< step size α; 0 means α = c/L
  Real c = Real(1);      ///< step scale: α = c/L when alpha == 0 (accel §5)
  /// Smoothness L used for α = c/L, the momentum and the MASG / optimised-split schedules.
  /// 0 means problem.public_smoothness() (B²/4 + 2λ for logistic regression). A caller-given L
  /// is DECLARED PUBLIC: it must not be computed from the private data (the paper's data-based
  /// L differs between neighbours and would leak through every parameter it sets).
  Real L = Real(0);
  std::optional<Real> beta;  ///< momentum (GD: unused); default (1 − √(μα))/(1 + √(μα))
  vector<Real> x0;           ///< start; empty means x0 = 10·1 (accel §5)
  noise_mode noise = noise_mode::calibrated;
  Real noise_scale = Real(0);  ///< b for noise_mode::fixed
  bool trace = false;          ///< record F(x_t), t = 0..T′
  std::optional<Real> E0;      ///< -opt variants: choose T′ ≤ T by Remark 4.1 with this E0
  long long masg_p = 1;        ///< MASG p >= 1 of (4.7)
  long long masg_n1 = 0;       ///< MASG first-stage length n_1 (0: ⌈√κ ln 2^{p+2}⌉)
};

/// Result of a run.
template <real_scalar Real>
struct result {
  vector<Real> x;                           ///< final iterate x_{T′}
  std::vector<Real> trace;                  ///< F(x_t), t = 0..T′ (if params.trace)
  std::vector<Real> noise_scales;           ///< b_t, t = 1..T′ (empty for noise_mode::none)
  accounting::privacy_ledger<Real> ledger;  ///< per-step losses (3.3)
  Real eps_spent = Real(0);                 ///< ledger total ε (= ε up to upward rounding)
  long long iterations = 0;                 ///< T′ actually planned
  long long batch = 0;                      ///< m used
  Real alpha = Real(0);                     ///< α (first stage for MASG)
  Real beta = Real(0);                      ///< β (first stage for MASG; 0 for GD)
  run_status status = run_status::completed;
};

namespace detail {

enum class method { gd, heavy_ball, nesterov };

/// A fully resolved run: per-step α_t, β_t, b_t and momentum restarts.
template <real_scalar Real>
struct plan {
  method kind = method::gd;
  std::vector<Real> alpha, beta, b;
  std::vector<char> restart;  ///< set x_{t−1} = x_t before step t (MASG stage starts)
};

template <class Problem>
using problem_real = std::remove_cvref_t<decltype(std::declval<const Problem&>().l1_sensitivity())>;

/// Validation of the shared parameters; returns the resolved m.
template <class Problem, real_scalar Real>
long long validate_common(const char* fn, const Problem& P, const params<Real>& p) {
  if (p.T < 1 || p.T > 100000000) fail_domain(fn, "params.T", "in [1, 1e8]", p.T);
  const long long n = P.size();
  const long long m = p.m == 0 ? n : p.m;
  if (m < 1 || m > n) fail_domain(fn, "params.m", "in [1, n] (or 0 for n)", p.m);
  if (p.x0.size() != 0 && p.x0.size() != P.dimension())
    fail_argument(fn, "params.x0.size()", "0 or d", p.x0.size());
  for (Eigen::Index i = 0; i < p.x0.size(); ++i) require_finite(fn, "params.x0[i]", p.x0[i]);
  if (p.noise == noise_mode::calibrated) accounting::require_epsilon(fn, "params.eps", p.eps);
  if (p.noise == noise_mode::fixed) require_positive(fn, "params.noise_scale", p.noise_scale);
  require_nonnegative(fn, "params.alpha", p.alpha);
  require_nonnegative(fn, "params.L", p.L);
  if (p.alpha == Real(0)) {
    require_positive(fn, "params.c", p.c);
  }
  if (p.E0) require_nonnegative(fn, "params.E0", *p.E0);
  return m;
}

/// The public smoothness of a run: params.L if given, else the problem's public bound.
template <class Problem, real_scalar Real>
Real public_L(const Problem& P, const params<Real>& p) {
  return p.L > Real(0) ? p.L : Real(P.public_smoothness());
}

/// α = params.alpha, or c/L with the public L.
template <class Problem, real_scalar Real>
Real resolve_alpha(const Problem& P, const params<Real>& p) {
  return p.alpha > Real(0) ? p.alpha : p.c / public_L(P, p);
}

/// β = (1 − √(μα))/(1 + √(μα)) (accel Theorem 4.1 and §5); requires μα <= 1.
template <real_scalar Real>
Real nesterov_beta(const char* fn, const Real& mu, const Real& alpha) {
  using std::sqrt;
  if (!(mu * alpha <= Real(1))) fail_domain(fn, "params.alpha", "<= 1/mu", alpha);
  const Real r = sqrt(mu * alpha);
  return (Real(1) - r) / (Real(1) + r);
}

/// Uniform split (Prop 3.1): b = S₁/(mε₀) for every step; ledger: T events of ε(S₁, b, n, m).
/// Fixed: b = noise_scale. None: no noise.
template <real_scalar Real>
void uniform_noise(const params<Real>& p, const Real& S1, long long n, long long m, long long T,
                   plan<Real>& pl, result<Real>& r) {
  if (p.noise == noise_mode::none) {
    pl.b.assign(static_cast<std::size_t>(T), Real(0));
    return;
  }
  const Real b = p.noise == noise_mode::fixed ? p.noise_scale : prop31(S1, p.eps, T, n, m).b;
  pl.b.assign(static_cast<std::size_t>(T), b);
  r.noise_scales = pl.b;
  const Real e = iteration_epsilon(S1, b, n, m);
  r.ledger.record({"accel.laplace_step",
                   {{"b", b}, {"S1", S1}, {"n", Real(n)}, {"m", Real(m)}},
                   accounting::pure_dp<Real>{e},
                   T});
}

/// Optimised split (Prop 4.2 / Remark 4.2): ε_t = a_t^{1/3}/Σ a^{1/3} · ε; b_t = S₁/(mε₀(ε_t))
/// (= (4.5) at m = n); ledger: one event per step with ε(S₁, b_t, n, m).
template <real_scalar Real>
void optimised_noise(const params<Real>& p, const Real& S1, long long n, long long m,
                     const std::vector<Real>& weights, plan<Real>& pl, result<Real>& r) {
  const long long T = static_cast<long long>(weights.size());
  if (p.noise != noise_mode::calibrated) {
    uniform_noise(p, S1, n, m, T, pl, r);
    return;
  }
  const auto opt = prop42(weights, S1, n, p.eps);
  pl.b.resize(weights.size());
  for (std::size_t t = 0; t < weights.size(); ++t) {
    pl.b[t] = m == n ? opt.b[t] : prop31(S1, opt.eps[t], 1, n, m).b;
    const Real e = iteration_epsilon(S1, pl.b[t], n, m);
    r.ledger.record({"accel.laplace_step",
                     {{"t", Real(static_cast<long long>(t) + 1)},
                      {"b", pl.b[t]},
                      {"S1", S1},
                      {"n", Real(n)},
                      {"m", Real(m)}},
                     accounting::pure_dp<Real>{e},
                     1});
  }
  r.noise_scales = pl.b;
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
  const long long n = P.size();
  const auto d = static_cast<Eigen::Index>(P.dimension());
  const auto T = static_cast<long long>(pl.alpha.size());
  vector<Real> x = p.x0.size() == 0 ? vector<Real>(vector<Real>::Constant(d, Real(10))) : p.x0;
  vector<Real> xprev = x, y(d), g(d), xnew(d);
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
        const long long pick = j + secure::uniform_int<std::int64_t>(s, n - j);
        swaps[static_cast<std::size_t>(j)] = pick;
        std::swap(perm[static_cast<std::size_t>(j)], perm[static_cast<std::size_t>(pick)]);
      }
      P.minibatch_gradient_into(
          y, std::span<const long long>(perm.data(), static_cast<std::size_t>(m)), g);
      for (long long j = m - 1; j >= 0; --j)
        std::swap(perm[static_cast<std::size_t>(j)],
                  perm[static_cast<std::size_t>(swaps[static_cast<std::size_t>(j)])]);
    } else {
      P.gradient_into(y, g);
    }
    if (pl.b[k] > Real(0))
      for (Eigen::Index i = 0; i < d; ++i) g[i] += laplace<Real>(s, pl.b[k]);  // (2.8)
    if (pl.kind == method::heavy_ball)
      xnew = x - a * g + be * (x - xprev);  // accel (3.1)
    else
      xnew = y - a * g;  // accel (2.4) / (4.1)
    if (!all_finite(xnew)) {
      r.status = run_status::diverged;
      break;
    }
    xprev.swap(x);
    x.swap(xnew);
    if (p.trace) r.trace.push_back(P.value(x));
  }
  r.x = std::move(x);
  r.eps_spent = r.ledger.total(Real(0)).eps;
  return r;
}

/// The constant-momentum methods DP-SHB (accel (3.1)) and DP-NAG (accel (4.1)): α and β fixed
/// over the T steps, uniform split of Proposition 3.1. β defaults to
/// (1 − √(μα))/(1 + √(μα)); with `check_nesterov_range` (NAG, Theorem 4.1) μα <= 1 is required
/// even when β is given.
template <class Problem, real_scalar Real>
result<Real> run_constant_momentum(const char* fn, method kind, bool check_nesterov_range,
                                   const Problem& problem, const params<Real>& p,
                                   const philox_stream& stream) {
  const long long m = validate_common(fn, problem, p);
  const Real a = resolve_alpha(problem, p);
  Real be;
  if (check_nesterov_range || !p.beta) {
    const Real nb = nesterov_beta(fn, problem.strong_convexity(), a);
    be = p.beta ? *p.beta : nb;
  } else {
    be = *p.beta;
  }
  if (!(be >= Real(0) && be < Real(1))) fail_domain(fn, "params.beta", "in [0, 1)", be);
  plan<Real> pl;
  pl.kind = kind;
  pl.alpha.assign(static_cast<std::size_t>(p.T), a);
  pl.beta.assign(static_cast<std::size_t>(p.T), be);
  pl.restart.assign(static_cast<std::size_t>(p.T), 0);
  result<Real> r;
  r.alpha = a;
  r.beta = be;
  uniform_noise(p, problem.l1_sensitivity(), problem.size(), m, p.T, pl, r);
  return execute(problem, p, m, pl, std::move(r), stream);
}

}  // namespace detail
}  // namespace dpref::accel

// The privacy plan of the accel algorithms, fixed and accounted before any noise is drawn
// (ARCH.BUDGET): the per-step Laplace scales b_t (uniform split of Prop 3.1, optimised split of
// Prop 4.2, or a fixed scale) and the ledger that certifies them; spec/accel.md ACCEL.LEDGER.
//
// Ledger (ACCEL.LEDGER): step t is the typed event
//   laplace{sensitivity = S₁/m (rounded up), scale = b_t}
//   + subsampling{without_replacement, sample_size m, population n, replace_one} (m < n),
// whose pure ε the accountant amplifies to ln(1 + (m/n)(e^{S₁/(m b_t)} − 1)) — exactly the
// per-step loss ε(S₁, b_t, n, m) of accel (3.3) — so `dpref account` re-derives the run's ε.
//
// Secure mode (params.release = secure, double only; spec/accel.md SEC.ACCEL): step 3 releases
// g̃ = mechanisms::snapped_laplace_sum instead of g + η (accel/secure_gradient.hpp): each example's
// loss gradient divided by m is rounded to the grid 2^k (secure::lattice_rule with Δ1 = S₁/m,
// per-step inflation d) and put in the l1 ball of radius Δ1/2 there, exactly; the integers are
// summed exactly with the rounded public regulariser term 2λy, clamped to the public [−C, C]
// (params.clamp, default 2^10 S₁), plus exact discrete Laplace noise of integer scale t_t; the
// iterate x_{t+1} is a post-processing of g̃ (and of public quantities). Ledger: step t is
//   snapped_laplace{Δ1 = S₁/m, k, t_t, d} + the same subsampling,
// pure ε = (Δ1 + d 2^k)/(2^k t_t) amplified as (3.3); calibrated: t_t is the smallest integer
// with that ε <= Δ1/b_t (the idealised per-step ε₀), so the requested ε is still met.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/accel/calibration.hpp"
#include "dpref/accel/params.hpp"
#include "dpref/accel/result.hpp"
#include "dpref/accounting/accountant.hpp"
#include "dpref/mechanisms/laplace.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/noise_mode.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel::detail {

enum class method { gd, heavy_ball, nesterov };

/// A fully resolved run: per-step α_t, β_t, b_t and momentum restarts.
template <real_scalar Real>
struct plan {
  method kind = method::gd;
  std::vector<Real> alpha, beta, b;
  std::vector<char> restart;  ///< set x_{t−1} = x_t before step t (MASG stage starts)
  /// Secure mode: the lattice release of step t (one entry for a uniform plan, else T).
  std::vector<mechanisms::snapped_laplace_params> snapped;
  /// Idealised private mode: the Laplace measurement of step t, laplace{Δ1 = S₁/m, b_t} (one
  /// entry for a uniform plan, else T), whose events are the plan's ledger and which draws the
  /// noise of (2.8) (ARCH.MEASUREMENTS); empty without noise.
  std::vector<mechanisms::laplace_noise<Real>> laplace;
};

/// The sampling of a step (accel (2.7)): m of n without replacement, replace-one neighbours;
/// none at m = n (full batch).
template <real_scalar Real>
std::optional<accounting::subsampling<Real>> step_sampling(long long n, long long m) {
  if (m >= n) return std::nullopt;
  accounting::subsampling<Real> s;
  s.scheme = accounting::sampling_scheme::without_replacement;
  s.sample_size = m;
  s.population = n;
  s.relation = accounting::neighbouring::replace_one;
  return s;
}

/// Calls add(b_t, count, label) once with count T for a uniform plan (one event of T steps),
/// else once per step t with count 1.
template <real_scalar Real, class Add>
void for_each_step_event(const std::vector<Real>& b, bool uniform, const std::string& what,
                         Add&& add) {
  if (uniform) {
    if (!b.empty()) add(b.front(), static_cast<long long>(b.size()), what + ", every step");
  } else {
    for (std::size_t t = 0; t < b.size(); ++t)
      add(b[t], 1, what + ", step t = " + std::to_string(t + 1));
  }
}

/// The ledger of the steps with scales b (ACCEL.LEDGER): one laplace event of Δ1 = S₁/m
/// (rounded up) per distinct scale, amplified by sampling m of n without replacement; the
/// accountant's pure ε of each is ε(S₁, b, n, m) of (3.3).
/// `noise` receives the measurement of each event (the laplace_noise that draws it).
template <real_scalar Real>
accounting::ledger<Real> step_ledger(const std::vector<Real>& b, bool uniform, const Real& S1,
                                     long long n, long long m,
                                     std::vector<mechanisms::laplace_noise<Real>>& noise) {
  accounting::certifier<Real> c;
  const Real sens = c.up(c.in(S1) / accounting::work_real(m));
  const auto sampling = step_sampling<Real>(n, m);
  accounting::ledger<Real> l;
  noise.clear();
  const auto add = [&](const Real& scale, long long count, std::string label) {
    noise.emplace_back(sens, scale);
    l.record(noise.back().event(count, std::move(label), sampling));
  };
  const std::string what = m < n ? "accel (2.7)-(2.8) + (3.3): Laplace(b) on the gradient of m of "
                                   "n examples drawn without replacement, Δ1 = S1/m"
                                 : "accel (2.8): Laplace(b) on the full gradient, Δ1 = S1/n";
  for_each_step_event(b, uniform, what, add);
  return l;
}

/// step_ledger without keeping the measurements.
template <real_scalar Real>
accounting::ledger<Real> step_ledger(const std::vector<Real>& b, bool uniform, const Real& S1,
                                     long long n, long long m) {
  std::vector<mechanisms::laplace_noise<Real>> noise;
  return step_ledger(b, uniform, S1, n, m, noise);
}

/// Raises every b_t by a few ulps while the certified ε of the plan exceeds ε (the rounding of
/// Δ1 = S₁/m and of the composition); returns the accepted ledger. Fixed noise is not raised.
/// `noise` receives the measurements of the accepted ledger.
template <real_scalar Real>
accounting::ledger<Real> calibrated_ledger(std::vector<Real>& b, bool uniform, const Real& S1,
                                           long long n, long long m, const Real& eps,
                                           std::vector<mechanisms::laplace_noise<Real>>& noise) {
  for (int attempt = 0; attempt < 48; ++attempt) {
    accounting::ledger<Real> l = step_ledger(b, uniform, S1, n, m, noise);
    if (!(l.total().epsilon > eps)) return l;
    accounting::certifier<Real> c;  // b ← b·(1 + 2^(attempt+2)·u), rounded up
    const accounting::work_real bump =
        accounting::work_real(1) +
        c.in(machine_epsilon<Real>()) * accounting::work_real(4LL << attempt);
    for (Real& x : b) x = c.up(c.in(x)*bump);
  }
  throw std::logic_error("accel: no noise scale certifies epsilon");
}

/// Secure mode (SEC.ACCEL): the lattice release of one step with (idealised) scale b: grid by
/// secure::lattice_rule(Δ1, b, d, C) (coarse enough that b/2^k <= 2^52); calibrated: the
/// smallest integer t with certified (Δ1 + d 2^k)/(2^k t) <= Δ1/b (rounded down), i.e. at most
/// the idealised per-step ε₀; fixed: t = ⌈b/2^k⌉ (the ledger accounts what it costs).
inline mechanisms::snapped_laplace_params snapped_step(double sens, double b, long long d, double C,
                                                       bool calibrated) {
  mechanisms::snapped_laplace_params sp;
  sp.sensitivity = sens;
  sp.dimension = d;
  sp.clamp = C;
  int eb = 0;
  (void)std::frexp(b, &eb);  // b < 2^eb
  const int k = secure::lattice_rule(sens, b, static_cast<double>(d), C, 20);
  sp.grid_exponent = k > eb - 52 ? k : eb - 52;
  std::int64_t t = 0;
  if (calibrated) {
    accounting::certifier<double> c;
    const double eps0 = c.down(c.in(sens) / c.in(b));
    t = accounting::snapped_laplace_grid_scale(sens, eps0, sp.grid_exponent, d);
  } else {
    t = secure::laplace_grid_scale(b, sp.grid_exponent);
  }
  sp.scale = std::ldexp(static_cast<double>(t), sp.grid_exponent);  // exact: t <= 2^52
  sp.shape = mechanisms::clamp_set::sum_of_l1_balls;  // SEC.LAPLACE.SUM: Δ1 enforced on the grid
  sp.record_radius = sens / 2;                        // exact; >= B/m since Δ1 >= S₁/m = 2B/m
  sp.validate();
  return sp;
}

/// The secure ledger (SEC.ACCEL): step_ledger with snapped_laplace events; fills pl.snapped.
template <real_scalar Real>
accounting::ledger<Real> snapped_ledger(const std::vector<Real>& b, bool uniform, const Real& S1,
                                        long long n, long long m, long long d, const Real& C,
                                        bool calibrated, plan<Real>& pl) {
  if constexpr (!std::is_same_v<Real, double>) {
    (void)b, (void)uniform, (void)S1, (void)n, (void)m, (void)d, (void)C, (void)calibrated,
        (void)pl;
    throw std::logic_error("accel: release = secure needs double");
  } else {
    accounting::certifier<Real> c;
    const Real sens = c.up(c.in(S1) / accounting::work_real(m));
    const auto sampling = step_sampling<Real>(n, m);
    pl.snapped.clear();
    accounting::ledger<Real> l;
    const std::string what =
        m < n ? "accel (2.7)-(2.8) + (3.3), secure: snapped Laplace on the clamped gradient of m "
                "of n examples drawn without replacement, Δ1 = S1/m"
              : "accel (2.8), secure: snapped Laplace on the clamped full gradient, Δ1 = S1/n";
    const auto add = [&](const Real& scale, long long count, std::string label) {
      pl.snapped.push_back(snapped_step(sens, scale, d, C, calibrated));
      auto e = pl.snapped.back().template event<Real>(count, std::move(label));
      e.sampling = sampling;
      l.record(std::move(e));
    };
    for_each_step_event(b, uniform, what, add);
    return l;
  }
}

/// Secure mode: the public clamp C of the gradient's coordinates, params.clamp or 2^10 S₁.
template <real_scalar Real>
Real secure_clamp(const params<Real>& p, const Real& S1) {
  return p.clamp ? *p.clamp : Real(1024) * S1;
}

/// PRIV.BOUNDS: the public constants the ledger's sensitivity Δ1 = S₁/m relies on, with their
/// enforcement (spec/privacy_bounds.md, accel section):
///   logistic regression (5.1): l1_bound B, refused per record by the problem's constructor, so
///     the per-example loss gradients of neighbours differ by at most S₁ = 2B in ℓ1 (5.2);
///   quadratic (3.16): no records (Q, a public), so the gradient's sensitivity is 0 <= S₁;
///   secure release: each example's share of ∇F_{B_t} in the l1 ball of radius Δ1/2 on the grid
///     (exact, SEC.LAPLACE.SUM), so Δ1 holds whatever the floating-point gradient; clamp C on
///     every coordinate of the sum (1-Lipschitz, Δ1 unchanged; C bounds the lattice range only).
/// A private run on a problem of another kind is refused (its S₁ would be an unchecked claim).
/// @throws std::invalid_argument for a problem without an enforced sensitivity
/// @spec PRIV.BOUNDS PRIV.ACCEL.L1_BOUND PRIV.ACCEL.CLAMP
template <class Problem, real_scalar Real>
std::vector<enforced_bound<Real>> enforced_bounds(const Problem& P, const params<Real>& p) {
  std::vector<enforced_bound<Real>> out;
  if constexpr (requires {
                  P.l1_bound();
                  P.features();
                  P.labels();
                }) {
    out.push_back({"l1_bound", Real(P.l1_bound()), enforcement::refuse,
                   "every record's exact ||u_i||_1 is checked against B when the problem is "
                   "built and a record above it is refused (naming it) before anything is "
                   "computed; with labels in {-1, 1} the per-example loss gradients of neighbours "
                   "then differ by at most S1 = 2B in l1 (accel (5.2)), the l1 sensitivity S1/m "
                   "of the Laplace noise"});
  } else if constexpr (requires {
                         P.Q();
                         P.minimiser();
                       }) {
    out.push_back({"l1_sensitivity", Real(P.l1_sensitivity()), enforcement::derived,
                   "the quadratic (3.16) holds no records: its gradient is a function of the "
                   "public Q and a only, so its sensitivity is 0 <= the declared S1 (accel "
                   "Section 3.2)"});
  } else {
    throw std::invalid_argument(
        "accel::run: a private run needs a problem whose l1 sensitivity is enforced "
        "(problems::logistic_regression or problems::quadratic; spec/privacy_bounds.md)");
  }
  if (p.release == ::dpref::noise_mode::secure) {
    out.push_back({"clamp", secure_clamp(p, Real(P.l1_sensitivity())), enforcement::clip,
                   "every coordinate of the integer sum (examples and the public regulariser "
                   "term) is clamped to [-C, C] on the lattice; the clamp is 1-Lipschitz per "
                   "coordinate, so the l1 sensitivity S1/m is unchanged (C bounds the lattice "
                   "range only, SEC.LATTICE.CLAMP)"});
    if constexpr (requires { P.l1_bound(); }) {
      accounting::certifier<Real> c;  // Δ1/2 with Δ1 = S₁/m rounded up, as snapped_ledger
      const long long m = p.m ? *p.m : P.size();
      out.push_back({"record_radius",
                     c.up(c.in(Real(P.l1_sensitivity())) / accounting::work_real(m)) / Real(2),
                     enforcement::clip,
                     "each example's loss gradient divided by m is rounded to the lattice and put "
                     "in the l1 ball of radius S1/(2m) there, in exact integer arithmetic, before "
                     "the exact integer sum (SEC.LAPLACE.SUM, SEC.LATTICE.L1CLAMP): one example "
                     "replaced moves the sum by at most S1/m plus the lattice inflation d 2^k the "
                     "event charges, whatever floating-point error the gradient carries"});
    }
  }
  return out;
}

/// Plans the privacy of the run (before any draw): r.privacy from the ledger of pl.b.
template <real_scalar Real>
void plan_steps(const params<Real>& p, bool uniform, const Real& S1, long long n, long long m,
                plan<Real>& pl, result<Real>& r, long long d) {
  if (p.noise == noise_mode::none) {
    r.privacy = non_private<Real>();
    return;
  }
  if (p.release == ::dpref::noise_mode::secure) {
    const Real C = secure_clamp(p, S1);
    const bool cal = p.noise == noise_mode::calibrated;
    accounting::ledger<Real> l = snapped_ledger(pl.b, uniform, S1, n, m, d, C, cal, pl);
    // calibrated: raise b_t by a few ulps while the rounding of the composition exceeds ε
    for (int attempt = 0; cal && attempt < 48 && l.total().epsilon > p.epsilon; ++attempt) {
      accounting::certifier<Real> c;
      const accounting::work_real bump =
          accounting::work_real(1) +
          c.in(machine_epsilon<Real>()) * accounting::work_real(4LL << attempt);
      for (Real& x : pl.b) x = c.up(c.in(x)*bump);
      l = snapped_ledger(pl.b, uniform, S1, n, m, d, C, cal, pl);
    }
    r.privacy = plan_privacy(std::move(l),
                             privacy_budget_request<Real>{p.epsilon, Real(0), p.allow_over_budget},
                             "accel::run");
    r.privacy.noise = ::dpref::noise_mode::secure;
    // the scales actually used: t_t 2^k (t_t >= 1 grid steps)
    for (std::size_t t = 0; t < pl.b.size(); ++t) pl.b[t] = Real(pl.snapped[uniform ? 0 : t].scale);
    r.noise_scales = pl.b;
    r.eps_spent = r.privacy.guarantee.epsilon;
    return;
  }
  auto l = p.noise == noise_mode::calibrated
               ? calibrated_ledger(pl.b, uniform, S1, n, m, p.epsilon, pl.laplace)
               : step_ledger(pl.b, uniform, S1, n, m, pl.laplace);
  r.privacy = plan_privacy(std::move(l),
                           privacy_budget_request<Real>{p.epsilon, Real(0), p.allow_over_budget},
                           "accel::run");
  r.noise_scales = pl.b;
  r.eps_spent = r.privacy.guarantee.epsilon;
}

/// Uniform split (Prop 3.1): b = S₁/(mε₀) for every step (ledger: T events of (3.3)).
/// Fixed: b = noise_scale. None: no noise.
template <real_scalar Real>
void uniform_noise(const params<Real>& p, const Real& S1, long long n, long long m, long long T,
                   plan<Real>& pl, result<Real>& r, long long d) {
  if (p.noise == noise_mode::none) {
    pl.b.assign(static_cast<std::size_t>(T), Real(0));
    plan_steps(p, true, S1, n, m, pl, r, d);
    return;
  }
  const Real b = p.noise == noise_mode::fixed ? *p.noise_scale : prop31(S1, p.epsilon, T, n, m).b;
  pl.b.assign(static_cast<std::size_t>(T), b);
  plan_steps(p, true, S1, n, m, pl, r, d);
}

/// Optimised split (Prop 4.2 / Remark 4.2): ε_t = a_t^{1/3}/Σ a^{1/3} · ε; b_t = S₁/(mε₀(ε_t))
/// (= (4.5) at m = n); ledger: one event per step.
template <real_scalar Real>
void optimised_noise(const params<Real>& p, const Real& S1, long long n, long long m,
                     const std::vector<Real>& weights, plan<Real>& pl, result<Real>& r,
                     long long d) {
  const long long T = static_cast<long long>(weights.size());
  if (p.noise != noise_mode::calibrated) {
    uniform_noise(p, S1, n, m, T, pl, r, d);
    return;
  }
  const auto opt = prop42(weights, S1, n, p.epsilon);
  pl.b.resize(weights.size());
  for (std::size_t t = 0; t < weights.size(); ++t)
    pl.b[t] = m == n ? opt.b[t] : prop31(S1, opt.eps[t], 1, n, m).b;
  plan_steps(p, false, S1, n, m, pl, r, d);
}

}  // namespace dpref::accel::detail

// Shared parameters, result and engine of the accel algorithms (DP-GD (2.4), DP-SHB (3.1),
// DP-NAG (4.1), DP-NAG-opt, DP-MASG, DP-MASG-opt); spec/accel.md ACCEL.PARAMS, ACCEL.LEDGER.
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
// The privacy plan (b_t and the ledger) is fixed and accounted (plan_privacy, ARCH.BUDGET)
// before any noise is drawn. Ledger (ACCEL.LEDGER): step t is the typed event
//   laplace{sensitivity = S₁/m (rounded up), scale = b_t}
//   + subsampling{without_replacement, sample_size m, population n, replace_one} (m < n),
// whose pure ε the accountant amplifies to ln(1 + (m/n)(e^{S₁/(m b_t)} − 1)) — exactly the
// per-step loss ε(S₁, b_t, n, m) of accel (3.3) — so `dpref account` re-derives the run's ε.
// The double path allocates only at setup: no allocation or virtual call per iteration.
//
// Secure mode (params.release = secure, double only; spec/accel.md SEC.ACCEL): step 3 releases
// g̃ = mechanisms::snapped_laplace(∇F_{B_t}(y_t)) instead of g + η: every coordinate clamped to
// the public [−C, C] (params.clamp, default 2^10 S₁), rounded to the grid 2^k (secure::lattice_rule
// with Δ1 = S₁/m, per-step inflation d) plus exact discrete Laplace noise of integer scale t_t;
// the iterate x_{t+1} is a post-processing of g̃ (and of public quantities). Ledger: step t is
//   snapped_laplace{Δ1 = S₁/m, k, t_t, d} + the same subsampling,
// pure ε = (Δ1 + d 2^k)/(2^k t_t) amplified as (3.3); calibrated: t_t is the smallest integer
// with that ε <= Δ1/b_t (the idealised per-step ε₀), so the requested ε is still met.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/accel/calibration.hpp"
#include "dpref/accounting/accountant.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/noise_mode.hpp"
#include "dpref/params.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/uniform_int.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel {

/// The six algorithms of accel, selected by params.algorithm.
enum class algorithm_kind { gd, shb, nag, nag_opt, masg, masg_opt };
constexpr auto enum_names(algorithm_kind) {
  return std::array{std::pair{algorithm_kind::gd, std::string_view("gd")},
                    std::pair{algorithm_kind::shb, std::string_view("shb")},
                    std::pair{algorithm_kind::nag, std::string_view("nag")},
                    std::pair{algorithm_kind::nag_opt, std::string_view("nag_opt")},
                    std::pair{algorithm_kind::masg, std::string_view("masg")},
                    std::pair{algorithm_kind::masg_opt, std::string_view("masg_opt")}};
}

/// How the gradient noise is chosen.
enum class noise_mode {
  calibrated,  ///< b_t from ε (Prop 3.1 uniform split, or Prop 4.2 for the -opt variants)
  fixed,       ///< b_t = params.noise_scale for every t; the ledger accounts the implied ε
  none         ///< no noise (non-private: no guarantee is claimed, no ledger)
};
constexpr auto enum_names(noise_mode) {
  return std::array{std::pair{noise_mode::calibrated, std::string_view("calibrated")},
                    std::pair{noise_mode::fixed, std::string_view("fixed")},
                    std::pair{noise_mode::none, std::string_view("none")}};
}

/// Parameters of the accel algorithms (field list: JSON keys and `dpref accel run` flags).
/// Absent optionals mean the documented default (no "0 means auto").
/// @spec ACCEL.PARAMS ARCH.PARAMS ARCH.PUBLIC
template <real_scalar Real>
struct params {
  static constexpr long long max_iterations = 100000000;

  algorithm_kind algorithm = algorithm_kind::nag_opt;
  Real epsilon = Real(1);      ///< total budget ε (a bound: calibrated and fixed noise)
  long long iterations = 100;  ///< T (the -opt variants may run T′ ≤ T, Remark 4.1)
  std::optional<long long> m;  ///< minibatch size in [1, n]; absent: m = n (full batch)
  std::optional<Real> alpha;   ///< step size α; absent: α = c/L
  Real c = Real(1);            ///< step scale: α = c/L when alpha is absent (accel §5)
  /// Public smoothness L for α = c/L, the momentum and the MASG / optimised-split schedules.
  /// Absent: problem.public_smoothness() (B²/4 + 2λ for logistic regression, from the public
  /// B and λ). A given L is DECLARED PUBLIC: it must not be computed from the private data.
  std::optional<Real> L;
  std::optional<Real> beta;  ///< momentum (SHB, NAG); default (1 − √(μα))/(1 + √(μα))
  std::optional<vector<Real>> x0;  ///< start (public); absent: x0 = 10·1 (accel §5)
  noise_mode noise = noise_mode::calibrated;
  std::optional<Real> noise_scale;  ///< b for noise = fixed
  bool trace = false;               ///< record F(x_t), t = 0..T′ (non-private)
  std::optional<Real> E0;           ///< -opt variants: choose T′ ≤ T by Remark 4.1 with E0
  long long masg_p = 1;             ///< MASG p >= 1 of (4.7)
  std::optional<long long> masg_n1;  ///< MASG first-stage length n_1 (absent: ⌈√κ ln 2^{p+2}⌉)
  bool allow_over_budget = false;    ///< run even if a fixed noise scale exceeds ε
  bool fstar = false;  ///< accel::run: also F* by a certified non-private solve (ACCEL.FSTAR)
  /// How the noise is released (SEC.MODE): idealised (Laplace added in floating point) or
  /// secure (lattice release, SEC.ACCEL; double only).
  ::dpref::noise_mode release = ::dpref::noise_mode::idealised;
  /// Secure mode: public clamp C of the gradient's coordinates; absent: 2^10 S₁ (S₁ = 2B public).
  std::optional<Real> clamp;

  template <class V>
  void fields(V&& v) {
    v("algorithm", algorithm,
      "gd (DP-GD (2.4)), shb (DP-SHB (3.1)), nag (DP-NAG (4.1)), nag_opt (DP-NAG with the "
      "split of Prop 4.2), masg (DP-MASG (4.7)) or masg_opt (DP-MASG with Prop 4.2)");
    v("epsilon", epsilon, "total privacy budget ε > 0 (a bound: the certified guarantee <= ε)");
    v("iterations", iterations, "T in [1, 1e8] (the -opt variants with E0 run T' <= T)");
    v("m", m, "minibatch size in [1, n], drawn without replacement; absent: n (full batch)");
    v("alpha", alpha, "step size α > 0; absent: c/L");
    v("c", c, "step scale c > 0: α = c/L when alpha is absent");
    v("L", L,
      "public smoothness L > 0 (declared public: never computed from the data); absent: "
      "B²/4 + 2λ from the public l1 bound B");
    v("beta", beta, "momentum β in [0, 1) of shb / nag; absent: (1 − √(μα))/(1 + √(μα))");
    v("x0", x0, "start x0 (public, d entries); absent: 10·1 (accel §5)");
    v("noise", noise,
      "calibrated (b_t from ε), fixed (b = noise_scale) or none (non-private baseline)");
    v("noise_scale", noise_scale, "Laplace scale b > 0 when noise = fixed");
    v("trace", trace, "record the objective F(x_t) of every iterate (non-private)");
    v("E0", E0, "-opt variants: choose T' <= T minimising (4.6) with this E0 >= 0 (Remark 4.1)");
    v("masg_p", masg_p, "MASG p in [1, 60] of (4.7)");
    v("masg_n1", masg_n1, "MASG first-stage length n_1 >= 1; absent: ⌈√κ ln 2^{p+2}⌉");
    v("allow_over_budget", allow_over_budget,
      "run even if the guarantee of a fixed noise_scale exceeds epsilon (reported budget_met "
      "= false)");
    v("fstar", fstar,
      "also report F* from a certified non-private solve (ACCEL.FSTAR; non-private)");
    v("release", release,
      "idealised (Laplace noise added in floating point) or secure (lattice release: the "
      "guarantee holds for the released doubles; precision double only; SEC.ACCEL)");
    v("clamp", clamp,
      "release = secure: public bound C > 0 on each coordinate of the minibatch gradient "
      "(clamped before the release; never from the data); absent: 2^10·S1");
  }

  /// The checks that need no problem.
  /// @throws invalid_parameter "accel::params.<field> must be <condition>, got <value>"
  /// @spec ACCEL.PARAMS
  void validate() const {
    const param_checker ch("accel::params");
    ch.positive("epsilon", epsilon);
    ch.at_least<long long>("iterations", iterations, 1, max_iterations);
    if (m) ch.at_least<long long>("m", *m, 1);
    if (alpha) ch.positive("alpha", *alpha);
    ch.positive("c", c);
    if (L) ch.positive("L", *L);
    if (beta)
      ch.require(is_finite_value(*beta) && *beta >= Real(0) && *beta < Real(1), "beta", "in [0, 1)",
                 *beta);
    if (x0)
      for (Eigen::Index i = 0; i < x0->size(); ++i) ch.finite("x0", (*x0)[i]);
    if (noise == noise_mode::fixed) {
      if (!noise_scale) ch.fail("noise_scale", "given when noise = fixed", std::string("none"));
      ch.positive("noise_scale", *noise_scale);
    } else {
      if (noise_scale) ch.fail("noise_scale", "absent unless noise = fixed", *noise_scale);
    }
    if (E0) ch.nonnegative("E0", *E0);
    ch.at_least<long long>("masg_p", masg_p, 1, 60);
    if (masg_n1) ch.at_least<long long>("masg_n1", *masg_n1, 1, max_iterations);
    if (release == ::dpref::noise_mode::secure) {
      if constexpr (!std::is_same_v<Real, double>)
        ch.fail("release",
                "idealised unless the precision is double (the lattice release is defined on "
                "doubles, spec/secure_release.md)",
                std::string("secure"));
      if (noise == noise_mode::none)
        ch.fail("release", "idealised when noise = none (a non-private run releases no noise)",
                std::string("secure"));
    }
    if (clamp) {
      ch.positive("clamp", *clamp);
      ch.require(release == ::dpref::noise_mode::secure, "clamp", "absent unless release = secure",
                 *clamp);
      ch.require(*clamp <= Real(1e300), "clamp", "<= 1e300", *clamp);
    }
  }
};

/// Result of a run (ARCH.RESULT): the shared report (status, iterations T′, privacy with the
/// ledger and the certified guarantee), the released x_{T′} and the public calibration.
/// @spec ACCEL.RESULT ARCH.RESULT
template <real_scalar Real>
struct result : run_report<Real> {
  algorithm_kind algorithm = algorithm_kind::gd;
  vector<Real> x;                  ///< final iterate x_{T′}
  std::vector<Real> trace;         ///< F(x_t), t = 0..T′ (if params.trace; non-private)
  std::vector<Real> noise_scales;  ///< b_t, t = 1..T′ (empty for noise_mode::none)
  Real eps_spent = Real(0);        ///< privacy.guarantee.epsilon (0 for noise_mode::none)
  long long batch = 0;             ///< m used
  Real alpha = Real(0);            ///< α (first stage for MASG)
  Real beta = Real(0);             ///< β (first stage for MASG; 0 for GD)
  Real smoothness = Real(0);       ///< the public L the run used
};

namespace detail {

enum class method { gd, heavy_ball, nesterov };

/// A fully resolved run: per-step α_t, β_t, b_t and momentum restarts.
template <real_scalar Real>
struct plan {
  method kind = method::gd;
  std::vector<Real> alpha, beta, b;
  std::vector<char> restart;  ///< set x_{t−1} = x_t before step t (MASG stage starts)
  /// Secure mode: the lattice release of step t (one entry for a uniform plan, else T).
  std::vector<mechanisms::snapped_laplace_params> snapped;
};

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

/// The ledger of the steps with scales b (ACCEL.LEDGER): one laplace event of Δ1 = S₁/m
/// (rounded up) per distinct scale, amplified by sampling m of n without replacement; the
/// accountant's pure ε of each is ε(S₁, b, n, m) of (3.3).
template <real_scalar Real>
accounting::ledger<Real> step_ledger(const std::vector<Real>& b, bool uniform, const Real& S1,
                                     long long n, long long m) {
  accounting::certifier<Real> c;
  const Real sens = c.up(c.in(S1) / accounting::work_real(m));
  std::optional<accounting::subsampling<Real>> sampling;
  if (m < n) {
    accounting::subsampling<Real> s;
    s.scheme = accounting::sampling_scheme::without_replacement;
    s.sample_size = m;
    s.population = n;
    s.relation = accounting::neighbouring::replace_one;
    sampling = s;
  }
  accounting::ledger<Real> l;
  const auto add = [&](const Real& scale, long long count, std::string label) {
    auto e = accounting::make_event<Real>(accounting::laplace_mechanism<Real>{sens, scale}, count,
                                          std::move(label));
    e.sampling = sampling;
    l.record(std::move(e));
  };
  const std::string what = m < n ? "accel (2.7)-(2.8) + (3.3): Laplace(b) on the gradient of m of "
                                   "n examples drawn without replacement, Δ1 = S1/m"
                                 : "accel (2.8): Laplace(b) on the full gradient, Δ1 = S1/n";
  if (uniform) {
    if (!b.empty()) add(b.front(), static_cast<long long>(b.size()), what + ", every step");
  } else {
    for (std::size_t t = 0; t < b.size(); ++t)
      add(b[t], 1, what + ", step t = " + std::to_string(t + 1));
  }
  return l;
}

/// Raises every b_t by a few ulps while the certified ε of the plan exceeds ε (the rounding of
/// Δ1 = S₁/m and of the composition); returns the accepted ledger. Fixed noise is not raised.
template <real_scalar Real>
accounting::ledger<Real> calibrated_ledger(std::vector<Real>& b, bool uniform, const Real& S1,
                                           long long n, long long m, const Real& eps) {
  for (int attempt = 0; attempt < 48; ++attempt) {
    accounting::ledger<Real> l = step_ledger(b, uniform, S1, n, m);
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
    std::optional<accounting::subsampling<Real>> sampling;
    if (m < n) {
      accounting::subsampling<Real> s;
      s.scheme = accounting::sampling_scheme::without_replacement;
      s.sample_size = m;
      s.population = n;
      s.relation = accounting::neighbouring::replace_one;
      sampling = s;
    }
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
    if (uniform) {
      if (!b.empty()) add(b.front(), static_cast<long long>(b.size()), what + ", every step");
    } else {
      for (std::size_t t = 0; t < b.size(); ++t)
        add(b[t], 1, what + ", step t = " + std::to_string(t + 1));
    }
    return l;
  }
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
    const Real C = p.clamp ? *p.clamp : Real(1024) * S1;
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
  auto l = p.noise == noise_mode::calibrated ? calibrated_ledger(pl.b, uniform, S1, n, m, p.epsilon)
                                             : step_ledger(pl.b, uniform, S1, n, m);
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
  vector<Real> x = p.x0 ? *p.x0 : vector<Real>(vector<Real>::Constant(d, Real(10)));
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
    if (!pl.snapped.empty()) {
      if constexpr (std::is_same_v<Real, double>)  // SEC.ACCEL: g̃ = snapped (2.8)
        g = mechanisms::snapped_laplace(s, g, pl.snapped[pl.snapped.size() == 1 ? 0 : k]);
    } else if (pl.b[k] > Real(0)) {
      for (Eigen::Index i = 0; i < d; ++i) g[i] += laplace<Real>(s, pl.b[k]);  // (2.8)
    }
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
/// even when β is given.
template <class Problem, real_scalar Real>
result<Real> run_constant_momentum(method kind, bool check_nesterov_range, const Problem& problem,
                                   const params<Real>& p, const philox_stream& stream) {
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
  r.alpha = a;
  r.beta = be;
  r.smoothness = public_L(problem, p);
  uniform_noise(p, problem.l1_sensitivity(), problem.size(), m, p.iterations, pl, r,
                static_cast<long long>(problem.dimension()));
  return execute(problem, p, m, pl, std::move(r), stream);
}

}  // namespace detail
}  // namespace dpref::accel

// Parameters and result of the accel algorithms (DP-GD (2.4), DP-SHB (3.1), DP-NAG (4.1),
// DP-NAG-opt, DP-MASG, DP-MASG-opt): the one field list behind the JSON keys and the
// `dpref accel run` flags; spec/accel.md ACCEL.PARAMS, ACCEL.RESULT.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/noise_mode.hpp"
#include "dpref/params.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel {

/// The six algorithms of accel, selected by params.algorithm.
enum class algorithm_kind { gd, shb, nag, nag_opt, masg, masg_opt };
DPREF_ENUM_NAMES(algorithm_kind, gd, shb, nag, nag_opt, masg, masg_opt)

/// How the gradient noise is chosen.
enum class noise_mode {
  calibrated,  ///< b_t from ε (Prop 3.1 uniform split, or Prop 4.2 for the -opt variants)
  fixed,       ///< b_t = params.noise_scale for every t; the ledger accounts the implied ε
  none         ///< no noise (non-private: no guarantee is claimed, no ledger)
};
DPREF_ENUM_NAMES(noise_mode, calibrated, fixed, none)

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
  bool trace = false;  ///< record F(x_t), t = 0..T′ (non-private: a private run needs diagnostics)
  std::optional<Real> E0;            ///< -opt variants: choose T′ ≤ T by Remark 4.1 with E0
  long long masg_p = 1;              ///< MASG p >= 1 of (4.7)
  std::optional<long long> masg_n1;  ///< MASG first-stage length n_1 (absent: ⌈√κ ln 2^{p+2}⌉)
  bool allow_over_budget = false;    ///< run even if a fixed noise scale exceeds ε
  bool fstar = false;  ///< accel::run: also F* by a certified non-private solve (ACCEL.FSTAR)
  /// Also compute the non-private diagnostics (F(x_{T′}), and with trace / fstar the objective
  /// trace, F* and the data's certified L). A private run computes none of them without it
  /// (PRIV.RELEASE); trace and fstar are refused in a private run without it.
  bool diagnostics = false;
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
    v("trace", trace,
      "record the objective F(x_t) of every iterate (non-private: a private run needs "
      "diagnostics = true and reports it under non_private)");
    v("E0", E0, "-opt variants: choose T' <= T minimising (4.6) with this E0 >= 0 (Remark 4.1)");
    v("masg_p", masg_p, "MASG p in [1, 60] of (4.7)");
    v("masg_n1", masg_n1, "MASG first-stage length n_1 >= 1; absent: ⌈√κ ln 2^{p+2}⌉");
    v("allow_over_budget", allow_over_budget,
      "run even if the guarantee of a fixed noise_scale exceeds epsilon (reported budget_met "
      "= false)");
    v("fstar", fstar,
      "also report F* from a certified non-private solve and the data's certified L (ACCEL.FSTAR; "
      "non-private: a private run needs diagnostics = true)");
    v("diagnostics", diagnostics,
      "also compute non-private diagnostics (functions of the data without noise: the objective "
      "F(x_T'), with trace the objective trace, with fstar F* and the data's certified L) under "
      "non_private; NOT covered by the privacy guarantee");
    v("release", release,
      "idealised (Laplace noise added in floating point) or secure (lattice release: the "
      "guarantee holds for the released doubles; precision double only; SEC.ACCEL)");
    v("clamp", clamp,
      "release = secure: public bound C > 0 on each coordinate of the minibatch gradient "
      "(clamped before the release; never from the data); absent: 2^10·S1");
  }

  /// The fields that apply only to some algorithms or modes (HARD.APPLIES): given explicitly
  /// where they do not apply, io::read_fields refuses them.
  template <class A>
  void applicability(A&& a) const {
    const std::string alg = " (algorithm is " + std::string(io::enum_to_string(algorithm)) + ")";
    const std::string noi = " (noise is " + std::string(io::enum_to_string(noise)) + ")";
    a("epsilon", noise != noise_mode::none,
      "applies only to a private run" + noi + ": noise none releases no noise");
    a("noise_scale", noise == noise_mode::fixed, "applies only to noise fixed" + noi);
    a("allow_over_budget", noise == noise_mode::fixed, "applies only to noise fixed" + noi);
    a("E0", algorithm == algorithm_kind::nag_opt || algorithm == algorithm_kind::masg_opt,
      "applies only to algorithm nag_opt or masg_opt" + alg);
    for (const char* f : {"masg_p", "masg_n1"})
      a(f, algorithm == algorithm_kind::masg || algorithm == algorithm_kind::masg_opt,
        "applies only to algorithm masg or masg_opt" + alg);
    a("c", !alpha.has_value(), "applies only when alpha is absent (α = c/L; alpha is given)");
    a("clamp", release == ::dpref::noise_mode::secure, "applies only to release secure");
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
    // PRIV.RELEASE: outputs that exist only as non-private diagnostics are never silently
    // computed (nor silently dropped) in a private run
    if (noise != noise_mode::none && !diagnostics) {
      ch.require(!trace, "trace",
                 "false in a private run unless diagnostics = true (F(x_t) is not private)",
                 std::string("true"));
      ch.require(!fstar, "fstar",
                 "false in a private run unless diagnostics = true (F* is not private)",
                 std::string("true"));
    }
    ch.at_least<long long>("masg_p", masg_p, 1, 60);
    if (masg_n1) ch.at_least<long long>("masg_n1", *masg_n1, 1, max_iterations);
    if (release == ::dpref::noise_mode::secure) {
      ch.require_double_for_secure<Real>();
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

}  // namespace dpref::accel

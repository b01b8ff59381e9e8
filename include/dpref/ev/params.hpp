// Parameters of every ev algorithm (spec/architecture.md ARCH.PARAMS, spec/ev.md EV.PARAMS):
// one struct, the algorithm selected by `algorithm`:
//   private_projected_gradient  ev Algorithm 2 (ε-DP, Theorem 6)
//   projected_gradient          ev Algorithm 1 (non-private)
//   projected_sgd               ev Algorithm 3 on the EV problem, ĝ_k = p^(k) + N(0, σ²I)
//                               (non-private: σ is not calibrated)
//   optimum                     the certified solve of U* (non-private; spec/ev.md EV.OPT)
// The public constants the guarantee depends on are fields: the adjacency (δr, δE) and which
// bound on the projection's sensitivity calibrates the noise (ev Theorem 8 or errata EV-E1);
// L = λ/m² comes from the problem's public description (units, households), never from the
// private specs (ARCH.PUBLIC). Non-private diagnostics of Algorithm 2 (objective traces, U*, the
// loads and exact gradients in the document) only with `diagnostics` (PRIV.RELEASE).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/enum_names.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/noise_mode.hpp"
#include "dpref/params.hpp"
#include "dpref/scalar.hpp"

namespace dpref::ev {

/// Which algorithm `run` executes.
enum class algorithm_kind {
  private_projected_gradient,
  projected_gradient,
  projected_sgd,
  optimum
};
DPREF_ENUM_NAMES(algorithm_kind, private_projected_gradient, projected_gradient, projected_sgd,
                 optimum)

/// How r_i^(1) is chosen (spec/ev.md EV.START.PUBLIC).
enum class start_kind {
  zero,           ///< r_i^(1) = 0 (public)
  public_vector,  ///< r_i^(1) = v for every user, v = params.start_vector (public: one vector
                  ///< shared by every user cannot carry a user's data)
  projected_zero  ///< r_i^(1) = Π_{C_i}(0): depends on the private C_i; refused by Algorithm 2
                  ///< (errata EV-E2: p^(1) would leak, ε = ∞)
};
DPREF_ENUM_NAMES(start_kind, zero, public_vector, projected_zero)

/// Parameters of `ev::run` (field list: JSON keys and `dpref ev run` flags).
/// @spec EV.PARAMS ARCH.PARAMS
template <real_scalar Real>
struct params {
  /// Bounds stated in the messages (work bounds can be lifted with `force`; memory bounds not).
  static constexpr long long max_iterations = 100000;
  static constexpr long long max_optimum_iterations = 10000000;
  static constexpr int max_threads = 256;
  static constexpr double max_epsilon = 1e6, max_step = 1e15, max_eta = 1e6, max_adjacency = 1e6;
  static constexpr double max_start = 1e6, max_gradient_noise = 1e6;
  static constexpr double max_release_clamp = 1e15;

  algorithm_kind algorithm = algorithm_kind::private_projected_gradient;
  Real epsilon = Real(1) / 10;
  long long iterations = 20;
  Real step = Real(10);
  bool constant_step = false;
  Real eta = Real(1);
  Real delta_r = Real(132) / 10;
  Real delta_e = Real(12);
  ev::sensitivity_bound sensitivity_bound = ev::sensitivity_bound::tight;
  start_kind start = start_kind::zero;
  std::vector<Real> start_vector;
  Real gradient_noise = Real(0);
  int threads = 1;
  bool trace = false;
  bool optimum = false;
  bool diagnostics = false;
  long long optimum_max_iterations = 2000;
  Real optimum_relative_gap = Real(1) / Real(10000000000LL);
  bool force = false;
  noise_mode release = noise_mode::idealised;
  Real release_clamp = Real(1000);

  template <class V>
  void fields(V&& v) {
    v("algorithm", algorithm,
      "private_projected_gradient (ev Algorithm 2, ε-DP), projected_gradient (Algorithm 1), "
      "projected_sgd (Algorithm 3) or optimum (certified U*); only the first is private");
    v("epsilon", epsilon,
      "total privacy budget ε in (0, 1e6] of Algorithm 2 (a bound: the certified guarantee is "
      "<= ε)");
    v("iterations", iterations, "K in [1, 1e5] (Algorithm 2: K >= 2)");
    v("step", step, "c in (0, 1e15]: α_k = c/√k (or c with constant_step)");
    v("constant_step", constant_step, "α_k = c (projected_gradient only)");
    v("eta", eta, "η in [1, 1e6]: averaging θ_k = (η+1)/(η+k) (Algorithms 2, 3)");
    v("delta_r", delta_r, "adjacency δr in [0, 1e6]: ‖r̄ − r̄′‖₁ <= δr (kW)");
    v("delta_e", delta_e, "adjacency δE in [0, 1e6]: |E − E′| <= δE (kW·slot)");
    v("sensitivity_bound", sensitivity_bound,
      "Δ of the projection: tight (errata EV-E1) or paper (ev Theorem 8: 2δr + δE)");
    v("start", start,
      "r_i^(1): zero, public_vector (start_vector) or projected_zero (data-dependent; not with "
      "Algorithm 2)");
    v("start_vector", start_vector, "the public start v ∈ R^T of start = public_vector");
    v("gradient_noise", gradient_noise,
      "σ in [0, 1e6] of Algorithm 3's gradient noise N(0, σ²I) (projected_sgd only; not "
      "calibrated: no privacy)");
    v("threads", threads, "threads of the distributed step in [1, 256] (bit-identical results)");
    v("trace", trace,
      "record the objective traces U(Σ r^(k)) (non-private; private_projected_gradient: needs "
      "diagnostics)");
    v("optimum", optimum,
      "also solve the certified optimum U* for the relative suboptimality (non-private; "
      "private_projected_gradient: needs diagnostics)");
    v("optimum_max_iterations", optimum_max_iterations,
      "iteration cap of the certified optimum, in [1, 1e7]");
    v("optimum_relative_gap", optimum_relative_gap,
      "stop the optimum when the duality gap <= this · U, in (0, 1)");
    v("force", force, "lift the work bound iterations × columns × T <= 2e10");
    v("diagnostics", diagnostics,
      "also compute non-private diagnostics (functions of the data without noise: the loads, "
      "objectives, exact gradients p^(k), and with trace / optimum the objective traces, U* and "
      "the relative suboptimality) under non_private; NOT covered by the privacy guarantee");
    v("release", release,
      "idealised (continuous ℓ2-Laplace w_k added in floating point) or secure (lattice "
      "ℓ2-Laplace: the guarantee holds for the released doubles; precision double, "
      "private_projected_gradient only; spec/ev.md SEC.EV)");
    v("release_clamp", release_clamp,
      "public clamp C in (0, 1e15] of secure mode: every coordinate of p^(k) is clamped to "
      "[−C, C] before the lattice release (same units as p; a bias only if |p_t| > C)");
  }

  /// The fields that apply only to some algorithms or modes (HARD.APPLIES): given explicitly
  /// where they do not apply, io::read_fields refuses them.
  template <class A>
  void applicability(A&& a) const {
    const std::string alg = " (algorithm is " + std::string(io::enum_to_string(algorithm)) + ")";
    const bool priv = algorithm == algorithm_kind::private_projected_gradient;
    for (const char* f : {"epsilon", "delta_r", "delta_e", "sensitivity_bound"})
      a(f, priv, "applies only to the private algorithm private_projected_gradient" + alg);
    a("constant_step", algorithm == algorithm_kind::projected_gradient,
      "applies only to algorithm projected_gradient" + alg);
    a("gradient_noise", algorithm == algorithm_kind::projected_sgd,
      "applies only to algorithm projected_sgd" + alg);
    a("start_vector", start == start_kind::public_vector,
      "applies only to start public_vector (start is " + std::string(io::enum_to_string(start)) +
          ")");
    for (const char* f : {"optimum_max_iterations", "optimum_relative_gap"})
      a(f, optimum || algorithm == algorithm_kind::optimum,
        "applies only with optimum = true or algorithm optimum");
    a("release_clamp", release == noise_mode::secure,
      "applies only to release secure (release is idealised)");
  }

  /// @throws invalid_parameter "ev::params.<field> must be <condition>, got <value>"
  /// @spec EV.PARAMS
  void validate() const {
    const param_checker c("ev::params");
    const bool priv = algorithm == algorithm_kind::private_projected_gradient;
    const std::string_view name =
        enum_names(algorithm_kind{})[static_cast<std::size_t>(algorithm)].second;
    c.at_least<long long>("iterations", iterations, priv ? 2 : 1, max_iterations);
    c.positive("epsilon", epsilon);
    c.require(epsilon <= Real(max_epsilon), "epsilon", "finite and in (0, 1e6]", epsilon);
    c.positive("step", step);
    c.require(step <= Real(max_step), "step", "finite and in (0, 1e15]", step);
    c.require(!constant_step || algorithm == algorithm_kind::projected_gradient, "constant_step",
              "false for " + std::string(name) +
                  " (α_k = c/√k in ev Algorithms 2 and 3; constant steps: projected_gradient)",
              std::string("true"));
    c.in_closed("eta", eta, Real(1), Real(max_eta), "finite and in [1, 1e6]");
    c.in_closed("delta_r", delta_r, Real(0), Real(max_adjacency), "finite and in [0, 1e6]");
    c.in_closed("delta_e", delta_e, Real(0), Real(max_adjacency), "finite and in [0, 1e6]");
    if (priv)
      c.require(delta_r > Real(0) || delta_e > Real(0), "delta_e",
                "> 0 when delta_r = 0 (the sensitivity Δ of Algorithm 2 must be > 0)", delta_e);
    if (priv && start == start_kind::projected_zero)
      c.fail("start",
             "zero or public_vector for private_projected_gradient (errata EV-E2: a "
             "data-dependent r_i^(1) makes p^(1) leak)",
             std::string("projected_zero"));
    if (start == start_kind::public_vector) {
      c.require(!start_vector.empty(), "start_vector",
                "non-empty (of size T) when start = public_vector", start_vector.size());
      for (const Real& x : start_vector)
        c.in_closed("start_vector", x, Real(-max_start), Real(max_start),
                    "finite entries in [-1e6, 1e6]");
    } else {
      c.require(start_vector.empty(), "start_vector", "empty unless start = public_vector",
                start_vector.size());
    }
    c.in_closed("gradient_noise", gradient_noise, Real(0), Real(max_gradient_noise),
                "finite and in [0, 1e6]");
    c.require(gradient_noise == Real(0) || algorithm == algorithm_kind::projected_sgd,
              "gradient_noise", "0 unless algorithm = projected_sgd", gradient_noise);
    c.at_least<int>("threads", threads, 1, max_threads);
    // PRIV.RELEASE: a private run computes non-private diagnostics only when asked for them
    if (priv && !diagnostics) {
      c.require(!trace, "trace",
                "false for private_projected_gradient unless diagnostics = true (U(Σ r^(k)) is "
                "a function of every user's constraints without noise, not covered by the "
                "guarantee)",
                std::string("true"));
      c.require(!optimum, "optimum",
                "false for private_projected_gradient unless diagnostics = true (U* is a "
                "function of every user's constraints without noise, not covered by the "
                "guarantee)",
                std::string("true"));
    }
    c.at_least<long long>("optimum_max_iterations", optimum_max_iterations, 1,
                          max_optimum_iterations);
    c.unit_open("optimum_relative_gap", optimum_relative_gap);
    c.in_open_closed("release_clamp", release_clamp, Real(0), Real(max_release_clamp),
                     "finite and in (0, 1e15]");
    if (release == noise_mode::secure) {
      c.require_secure_release_allowed<Real>(priv, name);
    }
  }
};

}  // namespace dpref::ev

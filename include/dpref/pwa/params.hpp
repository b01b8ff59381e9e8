// Parameters of every pwa algorithm (spec/architecture.md ARCH.PARAMS, spec/pwa.md PWA.PARAMS):
// one struct, the mechanism selected by `algorithm`:
//   private_subgradient    pwa Algorithms 1-2 (ε-DP: k exponential mechanisms of ε/k, Thm 15)
//   perturb_data           M_P, pwa Theorem 16 (ε-DP: ℓ2-Laplace on b, then the exact LP)
//   perturb_solution       M_S, pwa §4.2 / Theorem 17 (ε-DP: ℓ2-Laplace on x_opt)
//   exponential            M_E, pwa Theorem 19 (ε-DP: one exact sample of exp(−ε f/(2bmax)))
//   regular_subgradient    the non-private subgradient method (pwa (12), Figure 1's reference)
//   optimum                the certified epigraph LP (non-private)
// The public constants the guarantee depends on (bmax, c, the polytope, release_clamp in secure
// mode) are part of the public description (problem_spec, params); Δ of M_P is √m·bmax and Δ of
// M_S is diam(P), both computed from public quantities only (ARCH.PUBLIC), and pwa::run lists how
// each is enforced on the data (spec/privacy_bounds.md, pwa section). A private run computes no
// function of the private b outside its release unless `diagnostics` is set (PRIV.RELEASE).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/enum_names.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/noise_mode.hpp"
#include "dpref/params.hpp"
#include "dpref/pwa/laplace_mechanisms.hpp"
#include "dpref/pwa/private_subgradient.hpp"
#include "dpref/scalar.hpp"

namespace dpref::pwa {

/// Which algorithm `run` executes.
enum class algorithm_kind {
  private_subgradient,
  perturb_data,
  perturb_solution,
  exponential,
  regular_subgradient,
  optimum
};
DPREF_ENUM_NAMES(algorithm_kind, private_subgradient, perturb_data, perturb_solution, exponential,
                 regular_subgradient, optimum)

/// Whether an algorithm releases anything under a privacy guarantee.
constexpr bool is_private(algorithm_kind a) {
  return a != algorithm_kind::regular_subgradient && a != algorithm_kind::optimum;
}

/// The exact samplers of M_E (spec/pwa_sampler.md). The paper's Metropolis chain is not offered
/// by `run`: its law is not the target density, so no guarantee could be certified (errata
/// PWA-E5; it stays available in `dpref pwa sample`).
enum class sampler_kind { rejection, envelope, inverse_cdf };
DPREF_ENUM_NAMES(sampler_kind, rejection, envelope, inverse_cdf)

/// Parameters of `pwa::run` (field list: JSON keys and `dpref pwa run` flags).
/// @spec PWA.PARAMS ARCH.PARAMS
template <real_scalar Real>
struct params {
  static constexpr long long max_iterations = 10000000;
  static constexpr double max_epsilon = 1e6, max_step = 1e15, max_release_clamp = 1e15;

  algorithm_kind algorithm = algorithm_kind::private_subgradient;
  Real epsilon = Real(1) / 10;
  long long iterations = 100;
  std::optional<Real> step;
  pwa::step_rule step_rule = pwa::step_rule::constant;
  projection_mode projection = projection_mode::none;
  std::optional<std::vector<Real>> start;
  pwa::noise_rule noise_rule = pwa::noise_rule::theorem9;
  sampler_kind sampler = sampler_kind::rejection;
  long long max_attempts = 100000000;
  bool trace = false;
  bool optimum = false;
  bool diagnostics = false;
  noise_mode release = noise_mode::idealised;
  Real release_clamp = Real(1000);

  template <class V>
  void fields(V&& v) {
    v("algorithm", algorithm,
      "private_subgradient (pwa Algorithms 1-2), perturb_data (M_P, Theorem 16), "
      "perturb_solution (M_S, Theorem 17), exponential (M_E, Theorem 19), regular_subgradient "
      "or optimum (both non-private)");
    v("epsilon", epsilon,
      "total privacy budget ε in (0, 1e6] (a bound: the certified guarantee is <= ε)");
    v("iterations", iterations, "k of Algorithm 2 in [1, 1e7] (subgradient methods)");
    v("step", step,
      "step α in (0, 1e15] of the subgradient methods; absent: R/(G√k), which minimises the "
      "first term of Theorem 24 (public: R = diam P, G = max‖a_i‖)");
    v("step_rule", step_rule, "α_i = α (constant) or α/√i (inverse_sqrt)");
    v("projection", projection,
      "none (pwa as printed) or box: clamp the subgradient iterates / M_S's output into the box "
      "(post-processing; errata PWA-E2; P without rows Gx <= h only)");
    v("start", start, "x^(1) ∈ P of the subgradient methods (public); absent: the origin");
    v("noise_rule", noise_rule,
      "M_S noise scale: theorem9 (Δ/ε, exactly ε-DP) or paper (√d·Δ/ε as printed: (ε/√d)-DP; "
      "errata PWA-E4)");
    v("sampler", sampler, "M_E sampler: rejection, envelope or inverse_cdf (d = 1), all exact");
    v("max_attempts", max_attempts, "M_E proposals per sample, in [1, 1e12]");
    v("trace", trace,
      "record f(x^(i)) of every iterate (non-private; a private algorithm needs diagnostics)");
    v("optimum", optimum,
      "also solve the certified optimum for the (non-private) suboptimality (a private "
      "algorithm needs diagnostics)");
    v("diagnostics", diagnostics,
      "also compute non-private diagnostics (functions of the data without noise: f(x) of the "
      "output, the best iterate, the trace, the optimum, M_E's proposal counts) under "
      "non_private; NOT covered by the privacy guarantee");
    v("release", release,
      "idealised (ℓ2-Laplace added in floating point) or secure (lattice ℓ2-Laplace for M_P and "
      "M_S; exact selections / rejection sampler for Algorithm 2 and M_E): the guarantee holds "
      "for the released doubles; precision double, private algorithms only (spec/pwa.md "
      "SEC.PWA)");
    v("release_clamp", release_clamp,
      "public clamp C in (0, 1e15] of secure mode: every b_i is clamped to [−C, C] before the "
      "lattice release of M_P and before the utilities of Algorithm 2 and M_E, whose computed "
      "utilities' rounding (bounded with C) is in the ledger (a bias only if |b_i| > C; M_S "
      "clamps to the box c)");
  }

  /// The fields that apply only to some algorithms or modes (HARD.APPLIES): given explicitly
  /// where they do not apply, io::read_fields refuses them.
  template <class A>
  void applicability(A&& a) const {
    const std::string alg = " (algorithm is " + std::string(io::enum_to_string(algorithm)) + ")";
    const bool subgradient = algorithm == algorithm_kind::private_subgradient ||
                             algorithm == algorithm_kind::regular_subgradient;
    a("epsilon", is_private(algorithm), "applies only to a private algorithm" + alg);
    for (const char* f : {"iterations", "step", "step_rule", "start"})
      a(f, subgradient,
        "applies only to algorithm private_subgradient or regular_subgradient" + alg);
    a("projection", subgradient || algorithm == algorithm_kind::perturb_solution,
      "applies only to the subgradient methods and perturb_solution" + alg);
    a("noise_rule", algorithm == algorithm_kind::perturb_solution,
      "applies only to algorithm perturb_solution" + alg);
    for (const char* f : {"sampler", "max_attempts"})
      a(f, algorithm == algorithm_kind::exponential, "applies only to algorithm exponential" + alg);
    a("release_clamp", release == noise_mode::secure && algorithm == algorithm_kind::perturb_data,
      "applies only to release secure with algorithm perturb_data" + alg);
  }

  /// @throws invalid_parameter "pwa::params.<field> must be <condition>, got <value>"
  /// @spec PWA.PARAMS
  void validate() const {
    const param_checker c("pwa::params");
    const bool subgradient = algorithm == algorithm_kind::private_subgradient ||
                             algorithm == algorithm_kind::regular_subgradient;
    const std::string name(
        enum_names(algorithm_kind{})[static_cast<std::size_t>(algorithm)].second);
    c.positive("epsilon", epsilon);
    c.require(epsilon <= Real(max_epsilon), "epsilon", "finite and in (0, 1e6]", epsilon);
    c.at_least<long long>("iterations", iterations, 1, max_iterations);
    if (step) {
      c.positive("step", *step);
      c.require(*step <= Real(max_step), "step", "finite and in (0, 1e15]", *step);
    }
    if (start)
      for (const Real& x : *start) c.finite("start", x);
    c.require(!start || subgradient, "start",
              "absent unless algorithm is private_subgradient or regular_subgradient",
              std::string("a vector"));
    c.require(projection == projection_mode::none || subgradient ||
                  algorithm == algorithm_kind::perturb_solution,
              "projection", "none for " + name + " (box: subgradient methods and M_S)",
              std::string("box"));
    c.require(
        noise_rule == pwa::noise_rule::theorem9 || algorithm == algorithm_kind::perturb_solution,
        "noise_rule", "theorem9 unless algorithm = perturb_solution", std::string("paper"));
    c.at_least<long long>("max_attempts", max_attempts, 1, 1000000000000LL);
    // PRIV.RELEASE: a private run computes no function of the private b outside its release
    // unless the caller asks for diagnostics; the fields that only produce such values are
    // refused rather than ignored
    if (is_private(algorithm) && !diagnostics) {
      c.require(!optimum, "optimum",
                "false for the private " + name +
                    " unless diagnostics = true (the certified optimum and the suboptimality "
                    "are functions of the private b without noise)",
                std::string("true"));
      c.require(!trace, "trace",
                "false for the private " + name +
                    " unless diagnostics = true (f(x^(i)) of every iterate is a function of the "
                    "private b without noise)",
                std::string("true"));
    }
    c.in_open_closed("release_clamp", release_clamp, Real(0), Real(max_release_clamp),
                     "finite and in (0, 1e15]");
    if (release == noise_mode::secure) {
      c.require_secure_release_allowed<Real>(is_private(algorithm), name);
      c.require(algorithm != algorithm_kind::exponential || sampler == sampler_kind::rejection,
                "sampler",
                "rejection when release = secure (the envelope and inverse_cdf proposals are "
                "computed by floating-point inversion from the data: their low-order bits are "
                "not covered)",
                std::string(enum_names(sampler_kind{})[static_cast<std::size_t>(sampler)].second));
    }
  }
};

}  // namespace dpref::pwa

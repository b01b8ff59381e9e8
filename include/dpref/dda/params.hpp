// Parameters of dda::run (spec/architecture.md ARCH.PARAMS, spec/dda.md DDA.PARAMS): the privacy
// request (ε, δ), which calibration sets σ, the public constants the guarantee depends on (the
// Lipschitz bound L of Assumption 3, ARCH.PUBLIC), and the schedules of Algorithm 1.
//   calibration = rdp             σ: smallest σ whose ledger the accountant certifies within
//                                 (ε, δ) (calibration (c) of spec/dda.md)
//               = sound_chain     σ of the errata DDA-E1 chain (calibration (b))
//               = paper_theorem1  σ of dda Theorem 1 as printed, without its preconditions
//                                 (calibration (a), DDA-E4): over budget, needs
//                                 allow_over_budget and is reported "budget_met": false
//               = none            σ = 0: conventional (non-private) DDA, no guarantee
// release = secure (spec/dda.md SEC.DDA; double, calibration rdp only): step 6 releases the
// lattice Gaussian ζ = snapped_gaussian(clip(ĝ)) (ℓ2 clip, and the ℓ2 ball C = L enforced on the
// grid), σ calibrated for its ledger. Every private run clips ĝ to ‖ĝ‖₂ <= L (PRIV.DDA.LIPSCHITZ)
// and computes non-private diagnostics only with diagnostics = true (PRIV.RELEASE).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "dpref/dda/dp_dda.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/noise_mode.hpp"
#include "dpref/params.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

/// Which calibration sets σ (see the file comment).
enum class calibration_kind { rdp, sound_chain, paper_theorem1, none };
DPREF_ENUM_NAMES(calibration_kind, rdp, sound_chain, paper_theorem1, none)

/// Parameters of `dda::run` (field list: JSON keys and `dpref dda run` flags).
/// @spec DDA.PARAMS ARCH.PARAMS
template <real_scalar Real>
struct params {
  static constexpr long long max_iterations = 100000000;
  static constexpr int max_threads = 256;

  calibration_kind calibration = calibration_kind::rdp;
  Real epsilon = Real(8) / 10;
  Real delta = Real(1) / 100000;
  Real delta0 = Real(1) / 100;
  Real delta_prime = Real(1) / 1000000;
  bool allow_over_budget = false;
  bool active_set_hidden = false;
  Real lipschitz = Real(1);
  long long iterations = 1000;
  weight_schedule a_schedule = weight_schedule::constant;
  gamma_schedule g_schedule = gamma_schedule::sqrt_t;
  Real gamma = Real(1);
  int max_order = 64;
  long long trace_every = 0;
  int threads = 1;
  bool fast_noise = false;
  bool optimum = false;
  bool diagnostics = false;
  long long optimum_max_epochs = 3000;
  Real optimum_tolerance = Real(1) / 10000000;
  noise_mode release = noise_mode::idealised;

  template <class V>
  void fields(V&& v) {
    v("calibration", calibration,
      "σ of Algorithm 1: rdp (certified, calibration (c)), sound_chain (errata DDA-E1), "
      "paper_theorem1 (dda Theorem 1 as printed; over budget) or none (non-private DDA)");
    v("epsilon", epsilon, "privacy budget ε > 0 (a bound: the run fails rather than exceed it)");
    v("delta", delta, "privacy budget δ in (0, 1) (RDP conversion + binomial tail)");
    v("delta0", delta0, "δ₀ in (0, 1) of dda Theorem 1 (paper_theorem1, sound_chain)");
    v("delta_prime", delta_prime, "δ′ in (0, 1) of the advanced composition (sound_chain)");
    v("allow_over_budget", allow_over_budget,
      "run paper_theorem1 even though its certified guarantee exceeds the budget "
      "(\"budget_met\": false)");
    v("active_set_hidden", active_set_hidden,
      "assume the active nodes N^(t) are hidden (ι/q amplification; NOT dda Definition 1)");
    v("lipschitz", lipschitz,
      "public bound L > 0 of Assumption 3 (‖ĝ‖ <= L for every record; Δ = 2L); never computed "
      "from the data");
    v("iterations", iterations, "T in [1, 1e8]");
    v("a_schedule", a_schedule, "a_t of Algorithm 1: constant (a_t = 1) or linear (a_t = t)");
    v("gamma_schedule", g_schedule, "γ_t: zero, constant (γ) or sqrt_t (γ√t)");
    v("gamma", gamma, "γ >= 0 of the γ_t schedule");
    v("max_order", max_order, "largest RDP order of the accountant, in [2, 256]");
    v("trace_every", trace_every,
      "snapshot every k iterations (0: no trace; non_private: a private run needs diagnostics)");
    v("threads", threads, "worker threads in [1, 256] (bit-identical results)");
    v("fast_noise", fast_noise,
      "double only: the fast Gaussian sampler instead of the reference one");
    v("diagnostics", diagnostics,
      "also compute non-private diagnostics (F(x̄), test accuracy, the empirical Lipschitz "
      "constant, the trace's objective and consensus, the F* bracket with optimum) under "
      "non_private: functions of the data without noise, NOT covered by the privacy guarantee "
      "(PRIV.RELEASE)");
    v("optimum", optimum,
      "also bracket F* (non-private prox-SDCA, spec/dda.md DDA.FSTAR) for the suboptimality "
      "F(x̄) − F* of dda §5 (non_private; a private run needs diagnostics)");
    v("optimum_max_epochs", optimum_max_epochs, "epoch cap of the F* solve, in [1, 1e6]");
    v("optimum_tolerance", optimum_tolerance,
      "stop the F* solve when upper − lower <= this, in (0, 1)");
    v("release", release,
      "idealised (Gaussian noise added in floating point) or secure (lattice Gaussian: the "
      "guarantee holds for the released doubles; double, calibration rdp; SEC.DDA)");
  }

  /// The fields that apply only to some calibrations or options (HARD.APPLIES): given
  /// explicitly where they do not apply, io::read_fields refuses them.
  template <class A>
  void applicability(A&& a) const {
    const std::string cal =
        " (calibration is " + std::string(io::enum_to_string(calibration)) + ")";
    const bool priv = calibration != calibration_kind::none;
    a("delta0",
      calibration == calibration_kind::paper_theorem1 ||
          calibration == calibration_kind::sound_chain,
      "applies only to calibration paper_theorem1 or sound_chain" + cal);
    a("delta_prime", calibration == calibration_kind::sound_chain,
      "applies only to calibration sound_chain" + cal);
    a("allow_over_budget", calibration == calibration_kind::paper_theorem1,
      "applies only to calibration paper_theorem1" + cal);
    for (const char* f : {"epsilon", "delta", "active_set_hidden", "fast_noise"})
      a(f, priv, "applies only to a private run (calibration none adds no noise)");
    a("optimum_max_epochs", optimum, "applies only with optimum = true");
    a("optimum_tolerance", optimum, "applies only with optimum = true");
  }

  /// @throws invalid_parameter "dda::params.<field> must be <condition>, got <value>"
  /// @spec DDA.PARAMS
  void validate() const {
    const param_checker c("dda::params");
    c.positive("epsilon", epsilon);
    c.unit_open("delta", delta);
    c.unit_open("delta0", delta0);
    c.unit_open("delta_prime", delta_prime);
    c.require(!allow_over_budget || calibration == calibration_kind::paper_theorem1,
              "allow_over_budget",
              "false unless calibration = paper_theorem1 (the only unsound calibration "
              "reproduced on purpose)",
              std::string("true"));
    c.positive("lipschitz", lipschitz);
    c.at_least<long long>("iterations", iterations, 1, max_iterations);
    c.nonnegative("gamma", gamma);
    c.at_least<int>("max_order", max_order, 2, 256);
    c.at_least<long long>("trace_every", trace_every, 0, max_iterations);
    c.at_least<int>("threads", threads, 1, max_threads);
    c.require(!fast_noise || std::is_same_v<Real, double>, "fast_noise",
              "false unless the precision is double", std::string("true"));
    // PRIV.RELEASE: a private run computes functions of the data without noise only on request
    const bool is_private = calibration != calibration_kind::none;
    c.require(!optimum || diagnostics || !is_private, "optimum",
              "false unless diagnostics = true in a private run (the F* bracket is a function of "
              "the data without noise)",
              std::string("true"));
    c.require(trace_every == 0 || diagnostics || !is_private, "trace_every",
              "0 unless diagnostics = true in a private run (the trace's objective values are "
              "functions of the data without noise)",
              trace_every);
    c.at_least<long long>("optimum_max_epochs", optimum_max_epochs, 1, 1000000);
    c.unit_open("optimum_tolerance", optimum_tolerance);
    if (release == noise_mode::secure) {
      c.require_double_for_secure<Real>();
      c.require(calibration == calibration_kind::rdp, "release",
                "idealised unless calibration = rdp (the secure ledger is calibrated by the "
                "accountant; none releases no noise)",
                std::string("secure"));
      c.require(!fast_noise, "release", "idealised when fast_noise = true", std::string("secure"));
    }
  }

  /// The engine's parameters at σ.
  [[nodiscard]] algorithm_params<Real> engine(const Real& sigma) const {
    algorithm_params<Real> e;
    e.iterations = iterations;
    e.a = a_schedule;
    e.g = g_schedule;
    e.gamma = gamma;
    e.sigma = sigma;
    e.trace_every = trace_every;
    e.threads = static_cast<unsigned>(threads);
    e.fast_noise = fast_noise;
    return e;
  }
};

}  // namespace dpref::dda

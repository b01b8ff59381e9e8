// The types of the Algorithm 1 engine (dda/dp_dda.hpp; spec/dda.md DDA.ALG1, DDA.RUN): the
// weight and γ schedules with their values a_t, A_t, γ_t, the engine's parameters with an
// explicit σ, the snapshots of a trace and the result of a run.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/run/report.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

/// a_t of Algorithm 1: 1 (Corollaries 3.4/3.6) or t (Corollaries 3.2/3.5).
enum class weight_schedule { constant, linear };
/// γ_t: 0 (Cor. 3.2/3.5), γ (dda §5.2), γ√t (Cor. 3.4/3.6, §5.3).
enum class gamma_schedule { zero, constant, sqrt_t };
constexpr auto enum_names(weight_schedule) {
  return std::array{std::pair{weight_schedule::constant, std::string_view("constant")},
                    std::pair{weight_schedule::linear, std::string_view("linear")}};
}
constexpr auto enum_names(gamma_schedule) {
  return std::array{std::pair{gamma_schedule::zero, std::string_view("zero")},
                    std::pair{gamma_schedule::constant, std::string_view("constant")},
                    std::pair{gamma_schedule::sqrt_t, std::string_view("sqrt_t")}};
}

/// Parameters of the Algorithm 1 engine with an explicit σ (validated at entry); the contract's
/// `params` (params.hpp) derives them after calibrating σ. @spec DDA.ALG1
template <real_scalar Real>
struct algorithm_params {
  long long iterations = 100;  ///< T >= 1
  weight_schedule a = weight_schedule::constant;
  gamma_schedule g = gamma_schedule::sqrt_t;
  Real gamma = Real(1);       ///< γ of the γ_t schedule (>= 0)
  Real sigma = Real(0);       ///< σ of ν ~ N(0, σ²I) (0: non-private)
  long long trace_every = 0;  ///< snapshot every k iterations (0: none)
  unsigned threads = 1;       ///< worker threads (results identical for any value)
  bool fast_noise = false;    ///< double only: dpref::fast::gaussian instead of the reference
  bool trace_nodes = false;   ///< snapshots also keep every x̃_i^(t) (d×n each)
  /// ℓ2 bound C of the sampled subgradient (PRIV.DDA.LIPSCHITZ): ĝ is clipped to ‖ĝ‖₂ <= C
  /// before the noise, so one round's ℓ2 sensitivity is 2C for ANY data. dda::run sets
  /// C = params.lipschitz in every private run; absent: ĝ is used as computed (conventional DDA).
  std::optional<Real> clip;
  /// Secure mode (SEC.DDA, double only): ζ = snapped_gaussian(ĝ) with these public parameters
  /// instead of ĝ + ν (sigma is then ignored).
  std::optional<mechanisms::snapped_gaussian_params> secure;
  /// The Gaussian measurement of step 6 whose event the run's ledger charges (dda::run sets it
  /// from the planned round, gaussian{Δ2 = 2L, σ}; ARCH.MEASUREMENTS): ν is drawn by it, so its
  /// σ must equal `sigma`. Absent: an engine run without a ledger (the noise, if any, is then
  /// the unaccounted gaussian{0, sigma}).
  std::optional<mechanisms::gaussian_noise<Real>> noise;
};

template <real_scalar Real>
Real weight_at(weight_schedule a, long long t) {
  return a == weight_schedule::constant ? Real(1) : Real(t);
}
/// A_t = Σ_{τ<=t} a_τ (exact integers: t or t(t+1)/2; A_0 = 0).
template <real_scalar Real>
Real cumulative_weight(weight_schedule a, long long t) {
  if (a == weight_schedule::constant) return Real(t);
  return Real(t % 2 == 0 ? (t / 2) * (t + 1) : t * ((t + 1) / 2));
}
template <real_scalar Real>
Real gamma_at(gamma_schedule g, const Real& gamma, long long t) {
  using std::sqrt;
  switch (g) {
    case gamma_schedule::zero:
      return Real(0);
    case gamma_schedule::constant:
      return t == 0 ? Real(0) : gamma;
    case gamma_schedule::sqrt_t:
      return gamma * Real(sqrt(Real(t)));
  }
  return Real(0);
}

/// State after iteration t: x̄ = (1/n)Σ_i x̃_i^(t), ỹ^(t), and the consensus error
/// (1/n)Σ_i‖x_i^(t+1) − y^(t+1)‖ of Lemma 4.5.
template <real_scalar Real>
struct snapshot {
  long long t = 0;
  vector<Real> x_bar;
  vector<Real> y_tilde;
  Real consensus = Real(0);
  matrix<Real> x_tilde;  ///< d×n x̃_i^(t) (only with trace_nodes)
};

/// Result of a run: the shared run_report (status, message, iterations, privacy with the ledger)
/// plus the outputs of Algorithm 1. @spec DDA.RUN ARCH.RESULT
template <real_scalar Real>
struct result : run_report<Real> {
  matrix<Real> x_tilde;  ///< d×n: x̃_i^(T) = A_T^{-1} Σ_t a_t x_i^(t) (Algorithm 1 output)
  vector<Real> x_bar;    ///< (1/n) Σ_i x̃_i^(T) (the point evaluated in dda §5)
  vector<Real> y_tilde;  ///< ỹ^(T) = A_T^{-1} Σ_t a_t y^(t), y of (8)
  matrix<Real> z;        ///< d×n: z_i^(T+1) (the released messages of the last round)
  std::vector<long long> active_rounds;  ///< per node: rounds in which it was active
  std::vector<snapshot<Real>> trace;
  Real iota = Real(1);
  Real sigma = Real(0);     ///< σ of the noise ν ~ N(0, σ²I)
  std::string calibration;  ///< which calibration produced σ ("none": non-private)
  /// Node of column 0 of x_tilde and z: 0 except on ranks > 0 of a distributed run, which hold
  /// only their own nodes (DIST.DDA; rank 0 holds the whole result).
  int first_node = 0;
};
}  // namespace dpref::dda

// ev Algorithm 2: differentially private distributed projected gradient descent.
//   w_1 = 0; w_k ~ density ∝ exp(−2ε‖w‖/(K(K−1)LΔ)) for k >= 2            (step 1)
//   p̂^(k) = ∇U(Σ_i r_i^(k)) + w_k                                        (step 2)
//   r_i^(k+1) = Π_{C_i}(r_i^(k) − α_k p̂^(k)), α_k = c/√k                  (step 3)
//   r̂_i^(k+1) = (1 − θ_k) r̂_i^(k) + θ_k r_i^(k+1), θ_k = (η+1)/(η+k)
// Privacy (Theorem 6, Lemma 13): given p̂^(1..k−1), p^(k) has ℓ2 sensitivity (k−1)LΔ (r_i^(1)
// public, errata EV-E2), so p̂^(k) is ε_k = 2(k−1)ε/(K(K−1))-DP and Σε_k = ε. The run's ledger
// holds one typed event per release (calibration.hpp) and is planned before the first draw.
// spec/ev.md EV.ALG2, EV.THM6.SCHEDULE, EV.LEMMA13, EV.NOISE.GAMMA.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/ev/calibration.hpp"
#include "dpref/ev/common.hpp"
#include "dpref/ev/iterations.hpp"
#include "dpref/ev/secure.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/run/report.hpp"

namespace dpref::ev {

/// w_k of step 1: 0 for k = 1, else the ℓ2-Laplace noise of `release` (the measurement of
/// release k, whose event the plan ledger charges) in R^T, drawn from substream k of the
/// caller's stream (so that w_k does not depend on what was drawn before, and the double draw
/// is the rounding of the 50-digit draw). ‖w_k‖ ~ Gamma(T, s) (EV-E3).
/// @spec EV.NOISE.GAMMA ARCH.MEASUREMENTS
template <real_scalar Real>
vector<Real> gradient_noise(const philox_stream& stream, long long k, Eigen::Index horizon,
                            const mechanisms::vector_laplace_noise<Real>& release) {
  if (k <= 1) return vector<Real>::Zero(horizon);
  philox_stream sk = stream.substream(static_cast<std::uint64_t>(k));
  return release.draw(sk, static_cast<std::size_t>(horizon));
}

/// w_k at scale s (the draw of any release of scale s: the sensitivity does not enter the draw).
/// @spec EV.NOISE.GAMMA
template <real_scalar Real>
vector<Real> gradient_noise(const philox_stream& stream, long long k, Eigen::Index horizon,
                            const Real& scale) {
  return gradient_noise<Real>(stream, k, horizon,
                              mechanisms::vector_laplace_noise<Real>(Real(0), scale));
}

namespace detail {

/// The calibration of Algorithm 2 on `prob` (certified L from the public λ and m; Δ from the
/// public adjacency; never from the specs).
/// @throws invalid_parameter if Δ = 0 at T = 1 (tight bound with δE = 0)
template <real_scalar Real>
algorithm2_plan<Real> plan_algorithm2(const problem<Real>& prob, const params<Real>& p) {
  const auto t = static_cast<std::size_t>(prob.horizon());
  if (p.sensitivity_bound == sensitivity_bound::tight && t == 1)
    param_checker("ev::params")
        .require(p.delta_e > Real(0), "delta_e",
                 "> 0 at T = 1 with the tight bound (Δ = δE, errata EV-E1)", p.delta_e);
  return calibrate_algorithm2(p.iterations, prob.objective_scale(), prob.households(), p.delta_r,
                              p.delta_e, t, p.sensitivity_bound, p.epsilon);
}

/// The public constants Algorithm 2's ledger relies on and how each is made true of the data the
/// run processes (spec/privacy_bounds.md PRIV.BOUNDS, ev section): L from the public m and units,
/// Δ from the public adjacency (δr, δE) — both derived, valid for every feasible database — and,
/// in secure mode, the clamp C of the lattice release (an ℓ∞ clip, not an ℓ2 bound: the ℓ2
/// sensitivity is Lemma 13's Δ^(k) whatever C is).
/// @spec PRIV.BOUNDS
template <real_scalar Real>
std::vector<enforced_bound<Real>> algorithm2_enforced(const problem<Real>& prob,
                                                      const params<Real>& p) {
  std::vector<enforced_bound<Real>> out;
  out.push_back(
      {"households", prob.households(), enforcement::derived,
       "L = λ/m² (λ = 1 in paper units, m in household units) is the exact Lipschitz constant of "
       "p = ∇U in the load Σ_i r_i (ev §VI-D), computed from the public m and units and rounded "
       "up; the slope of ∇U involves no user's data, so no record can exceed it"});
  const std::string adjacency =
      "; Δ (Theorem 8, tight value errata EV-E1) holds for every pair of feasible specs "
      "(ev::problem refuses an infeasible one naming its column and value) and Lemma 13 gives "
      "Δ^(k) = (k−1)LΔ from the public start (projected_zero refused), so no record can make it "
      "false; a larger change is no neighbour (group privacy: ε per multiple of the bound)";
  out.push_back({"delta_r", p.delta_r, enforcement::derived,
                 "defines the adjacency (one user's ‖r̄ − r̄′‖₁ <= δr)" + adjacency});
  out.push_back({"delta_e", p.delta_e, enforcement::derived,
                 "defines the adjacency (one user's |E − E′| <= δE)" + adjacency});
  if (p.release == noise_mode::secure)
    out.push_back({"release_clamp", p.release_clamp, enforcement::clip,
                   "ℓ∞ clip: every coordinate of p^(k) is clamped to [−C, C] inside the lattice "
                   "release before rounding (the range of the grid); the clamp is 1-Lipschitz "
                   "per coordinate, so the ℓ2 sensitivity stays Lemma 13's Δ^(k), which does not "
                   "use C"});
  return out;
}

/// ev Algorithm 2 (see the file comment); `params` validated by the caller.
template <real_scalar Real>
result<Real> run_algorithm2(const problem<Real>& prob, const params<Real>& params,
                            const philox_stream& stream, const progress_fn& progress,
                            const parallel::communicator& comm = parallel::serial()) {
  const long long K = params.iterations;
  const Eigen::Index t = prob.horizon();
  const bool secure = params.release == noise_mode::secure;
  Real s{};
  accounting::ledger<Real> ledger;
  std::vector<mechanisms::vector_laplace_noise<Real>> releases;    // k = 2..K
  std::vector<mechanisms::snapped_vector_laplace_params> lattice;  // secure: k = 2..K
  if (!secure) {
    algorithm2_plan<Real> plan = plan_algorithm2(prob, params);
    s = plan.scale;
    ledger = std::move(plan.ledger);
    releases = std::move(plan.releases);
  } else if constexpr (std::is_same_v<Real, double>) {
    // SEC.EV: lattice ℓ2-Laplace releases calibrated for the inflated Δ^(k) + √T 2^g_k
    plan_algorithm2(prob, params);  // the same checks of the public constants
    secure_algorithm2_plan plan =
        calibrate_algorithm2_secure(K, prob.objective_scale(), prob.households(), params.delta_r,
                                    params.delta_e, static_cast<std::size_t>(t),
                                    params.sensitivity_bound, params.epsilon, params.release_clamp);
    s = plan.max_scale();
    ledger = std::move(plan.ledger);
    lattice = std::move(plan.releases);
  } else {
    throw std::logic_error("ev::run: release = secure at a precision other than double");
  }
  result<Real> res;
  res.algorithm = algorithm_kind::private_projected_gradient;
  // ARCH.BUDGET: the whole plan is accounted before the first draw; a guarantee above the
  // request throws budget_exceeded here, before anything is released
  res.privacy =
      plan_privacy(std::move(ledger), privacy_budget_request<Real>{params.epsilon, Real(0), false},
                   "ev::run (Algorithm 2)");
  res.privacy.noise = params.release;
  res.privacy.enforced = algorithm2_enforced(prob, params);  // PRIV.BOUNDS
  res.noise_scale = s;
  const auto broadcast = [&](long long k, [[maybe_unused]] const vector<Real>& p,
                             vector<Real>& p_hat) {
    if (!secure) {
      // w_k by the measurement of release k (its event is in the ledger; k = 1: w_1 = 0)
      p_hat += gradient_noise<Real>(stream, k, prob.horizon(),
                                    k >= 2 ? releases[static_cast<std::size_t>(k - 2)]
                                           : mechanisms::vector_laplace_noise<Real>(Real(0), s));
    } else if constexpr (std::is_same_v<Real, double>) {
      if (k >= 2) {  // SEC.EV: p̂^(k) on the grid 2^g_k (k = 1: p^(1) is public, no noise)
        p_hat = secure_gradient_release(stream, k, p, lattice[static_cast<std::size_t>(k - 2)]);
      }
    }
  };
  iterate(prob, params, true,
          {"Algorithm 2", "p̂^(k)", " (ev Algorithm 2); the guarantee covers the released p̂^(1..K)"},
          broadcast, progress, comm, res);
  return res;
}

}  // namespace detail

/// Lemma 13 coupling: replays step 3 of Algorithm 2 on `prob` driven by a GIVEN released
/// sequence p̂^(1..K) (columns of `released`, e.g. from a run on an adjacent database) and
/// returns the exact gradients p^(k) = ∇U(Σ_i r_i^(k)) of this database, k = 1..K (T × K).
/// @throws invalid_parameter for invalid params; std::invalid_argument if released is not T × K
/// @spec EV.LEMMA13
template <real_scalar Real>
matrix<Real> replay_gradients(const problem<Real>& prob, const params<Real>& params,
                              const matrix<Real>& released) {
  constexpr const char* fn = "dpref::ev::replay_gradients";
  params.validate();
  const long long K = params.iterations;
  const Eigen::Index t = prob.horizon();
  if (released.rows() != t || released.cols() != K)
    fail_argument(fn, "released", "T × K",
                  std::to_string(released.rows()) + " × " + std::to_string(released.cols()));
  iteration_state<Real> st(prob,
                           detail::initial_schedules(prob, params.start, params.start_vector));
  matrix<Real> out(t, K);
  vector<Real> p(t);
  for (long long k = 1; k <= K; ++k) {
    prob.gradient(st.load, p);
    out.col(k - 1) = p;
    const vector<Real> p_hat = released.col(k - 1);
    st.step(prob, p_hat, detail::step_size(params.step, k, false),
            detail::averaging_weight(params.eta, k), params.threads);
  }
  return out;
}

}  // namespace dpref::ev

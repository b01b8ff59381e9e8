// Secure mode of ev Algorithm 2 (spec/ev.md SEC.EV, spec/secure_release.md SEC.MODE,
// SEC.VLAPLACE): step 1's p̂^(k) = p^(k) + w_k is released by the lattice ℓ2-Laplace
//   p̂^(k) = 2^g_k (round(clamp(p^(k), −C, C)/2^g_k) + round(W)),  W ∝ exp(−‖W‖₂/t_k),
// C = params.release_clamp (PUBLIC: a caller-given bound on the gradient's coordinates, never
// computed from the data; clamping is 1-Lipschitz, so Lemma 13's Δ^(k) = (k−1)LΔ still bounds the
// clamped query's ℓ2 sensitivity). Each release k = 2..K meets the share ε_k of Theorem 6's
// schedule for the INFLATED sensitivity Δ^(k) + √T 2^g_k (SEC.ACC.VLAPLACE): t_k is the smallest
// integer with (Δ^(k) + √T 2^g_k)/(2^g_k t_k) <= ε_k, so the ledger's total (pure composition)
// is <= ε; it is checked against ε before the first draw (plan_privacy), and the shares are
// lowered by a few ulps if the accountant's upward rounding puts the total above ε. Precision
// double only (the lattice release is defined on doubles; params.validate refuses the others).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/ev/calibration.hpp"
#include "dpref/ev/problem.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "dpref/params.hpp"
#include "dpref/random/philox_stream.hpp"

namespace dpref::ev {

/// Grid precision s of the lattice rule (SEC.LATTICE.RULE): 2^g <= min(Δ/√T, b)/2^s.
inline constexpr int secure_grid_precision = 20;

/// The secure calibration of one Algorithm 2 run: the lattice ℓ2-Laplace parameters of every
/// release k = 2..K (index k − 2) and the plan ledger (built before any noise is drawn).
/// @spec SEC.EV
struct secure_algorithm2_plan {
  double lipschitz = 0;    ///< certified L = λ/m²
  double sensitivity = 0;  ///< certified Δ
  std::vector<mechanisms::snapped_vector_laplace_params> releases;
  accounting::ledger<double> ledger;
  /// The largest scale t_k 2^g_k (in p units) of the run (the result's noise_scale).
  [[nodiscard]] double max_scale() const {
    double s = 0;
    for (const auto& r : releases) {
      const double b = std::ldexp(static_cast<double>(r.grid_scale()), r.grid_exponent);
      s = b > s ? b : s;
    }
    return s;
  }
};

/// Calibrates secure Algorithm 2 for (K, λ, m, δr, δE, T, Δ-bound, ε, C) (see the file comment).
/// @throws std::domain_error / invalid_parameter for invalid arguments; std::logic_error if no
///   shares certify ε (never observed: the first attempt does)
/// @spec SEC.EV
inline secure_algorithm2_plan calibrate_algorithm2_secure(long long K, double objective_scale,
                                                          double households, double delta_r,
                                                          double delta_e, std::size_t horizon,
                                                          sensitivity_bound which, double eps,
                                                          double clamp) {
  secure_algorithm2_plan p;
  p.lipschitz = lipschitz_bound(objective_scale, households);
  p.sensitivity = sensitivity_upper(delta_r, delta_e, horizon, which);
  const std::vector<double> shares = epsilon_schedule(K, eps);  // ε_k = 2(k−1)ε/(K(K−1))
  const auto d = static_cast<long long>(horizon);
  for (int attempt = 0; attempt < 48; ++attempt) {
    // shares lowered by the factor 1 − 2^(attempt − 50) after the first attempt (any rounding
    // of the product is fine: the ledger's total is what is checked)
    const double shrink = attempt == 0 ? 1.0 : 1.0 - std::ldexp(1.0, attempt - 50);
    p.releases.clear();
    p.ledger = accounting::ledger<double>{};
    p.ledger.record(accounting::make_event<double>(
        accounting::pure_mechanism<double>{0.0}, 1,
        "ev Algorithm 2, k = 1: p^(1) released without noise, data-independent (public start "
        "r^(1), errata EV-E2)"));
    for (long long k = 2; k <= K; ++k) {
      const double dk = gradient_sensitivity(k, p.lipschitz, p.sensitivity);  // (k−1)LΔ, up
      const mechanisms::snapped_vector_laplace_params r = mechanisms::snapped_vector_laplace_for(
          dk, shares[static_cast<std::size_t>(k - 1)] * shrink, d, clamp, secure_grid_precision);
      p.ledger.record(r.event<double>(
          1, "ev Algorithm 2 step 1 (secure), k = " + std::to_string(k) +
                 ": lattice ℓ2-Laplace of clamp(p^(k), −C, C), Δ^(k) = (k−1)LΔ (Lemma 13) + "
                 "√T 2^g (rounding)"));
      p.releases.push_back(r);
    }
    if (!(p.ledger.total().epsilon > eps)) return p;
  }
  throw std::logic_error(
      "dpref::ev::calibrate_algorithm2_secure: no budget shares certify epsilon");
}

/// p̂^(k) of secure Algorithm 2: the lattice ℓ2-Laplace release of p^(k) with the parameters of
/// release k (k >= 2), the noise drawn from substream k of the run's stream (the substream of
/// the idealised w_k: same seed → same bytes, independent of threads and ranks).
/// @spec SEC.EV
inline vector<double> secure_gradient_release(const philox_stream& stream, long long k,
                                              const vector<double>& p,
                                              const mechanisms::snapped_vector_laplace_params& r) {
  philox_stream sk = stream.substream(static_cast<std::uint64_t>(k));
  return mechanisms::snapped_vector_laplace(sk, p, r);
}

}  // namespace dpref::ev

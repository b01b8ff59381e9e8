// Privacy calibration of ev Algorithm 2 (Han–Topcu–Pappas): the ε_k schedule of the proof of
// Theorem 6, the noise scale of step 1, and the plan ledger of a run (spec/ev.md EV.THM6.SCHEDULE,
// EV.CAL.CERTIFIED).
//
// Every public constant enters as a certified upper bound (L = λ/m², Δ of ev (9) or errata
// EV-E1, Δ^(k) = (k−1)LΔ of Lemma 13: rounded UP), budget shares are rounded DOWN and the noise
// scale UP; the plan ledger (one vector-Laplace event per released p̂^(k)) is then accounted and,
// if the accountant's own upward rounding puts its total above the requested ε (by an ulp or
// so), the scale is raised by a few ulps until ledger.total() <= ε: the reported guarantee is
// the ledger's total and never exceeds the request.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/error.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/mechanisms/vector_laplace.hpp"
#include "dpref/scalar.hpp"

namespace dpref::ev {

/// Proof of Theorem 6: ε_1 = 0, ε_k = 2(k−1)ε/(K(K−1)) for k = 2..K (Σε_k = ε), each
/// rounded down so that the sum never exceeds ε.
/// @param K iterations >= 2 @param eps total ε > 0 @return ε_1..ε_K
/// @spec ACC.CAL.EV EV.THM6.SCHEDULE
template <real_scalar Real>
std::vector<Real> epsilon_schedule(long long K, const Real& eps) {
  if (K < 2) fail_domain("dpref::ev::epsilon_schedule", "K", ">= 2", K);
  accounting::require_epsilon("dpref::ev::epsilon_schedule", "eps", eps);
  accounting::certifier<Real> c;
  const accounting::work_real kk(K), e = c.in(eps);
  std::vector<Real> out;
  out.reserve(static_cast<std::size_t>(K));
  for (long long k = 1; k <= K; ++k)
    out.push_back(c.down(2 * accounting::work_real(k - 1) * e / (kk * (kk - 1))));
  return out;
}

/// Noise scale s = K(K−1)LΔ/(2ε) of Algorithm 2 step 1 (density ∝ exp(−‖w‖/s);
/// ε_k/Δ^(k) = 2ε/(K(K−1)LΔ), Lemma 13), rounded up.
/// @spec ACC.CAL.EV EV.ALG2
template <real_scalar Real>
Real noise_scale(long long K, const Real& lipschitz, const Real& sensitivity, const Real& eps) {
  if (K < 2) fail_domain("dpref::ev::noise_scale", "K", ">= 2", K);
  require_positive("dpref::ev::noise_scale", "lipschitz", lipschitz);
  require_positive("dpref::ev::noise_scale", "sensitivity", sensitivity);
  accounting::require_epsilon("dpref::ev::noise_scale", "eps", eps);
  accounting::certifier<Real> c;
  const accounting::work_real kk(K);
  return c.up(kk * (kk - 1) * c.in(lipschitz)*c.in(sensitivity) / (2 * c.in(eps)));
}

/// Certified upper bound of L = λ/m² (ev §VI-D), the Lipschitz constant of ∇U in x = Σ r_i.
/// @spec EV.CAL.CERTIFIED
template <real_scalar Real>
Real lipschitz_bound(const Real& objective_scale, const Real& households) {
  require_positive("dpref::ev::lipschitz_bound", "objective_scale", objective_scale);
  require_positive("dpref::ev::lipschitz_bound", "households", households);
  accounting::certifier<Real> c;
  const accounting::work_real m = c.in(households);
  return c.up(c.in(objective_scale) / (m * m));
}

/// Certified upper bound of the projection's ℓ2 sensitivity Δ (ev (9) for `paper`, errata
/// EV-E1 for `tight`), the value projection_sensitivity computes to nearest.
/// @spec EV.CAL.CERTIFIED
template <real_scalar Real>
Real sensitivity_upper(const Real& delta_r, const Real& delta_e, std::size_t horizon,
                       sensitivity_bound which) {
  (void)projection_sensitivity(delta_r, delta_e, horizon, which);  // validates the arguments
  accounting::certifier<Real> c;
  const accounting::work_real r = c.in(delta_r), e = c.in(delta_e);
  if (which == sensitivity_bound::paper) return c.up(2 * r + e);
  if (horizon == 1) return delta_e;
  using std::sqrt;
  return c.up(sqrt(r * r + (r + e) * (r + e)));
}

/// Δ^(k) = (k−1)·L·Δ of Lemma 13 (the ℓ2 sensitivity of p^(k) given p̂^(1..k−1)), rounded up.
/// @spec EV.LEMMA13 EV.CAL.CERTIFIED
template <real_scalar Real>
Real gradient_sensitivity(long long k, const Real& lipschitz, const Real& sensitivity) {
  if (k < 1) fail_domain("dpref::ev::gradient_sensitivity", "k", ">= 1", k);
  accounting::certifier<Real> c;
  return c.up(accounting::work_real(k - 1) * c.in(lipschitz)*c.in(sensitivity));
}

/// The calibration of one Algorithm 2 run: the certified constants, the noise scale and the
/// ledger of every release it will make (built before any noise is drawn).
template <real_scalar Real>
struct algorithm2_plan {
  Real lipschitz{};    ///< certified L = λ/m²
  Real sensitivity{};  ///< certified Δ
  Real scale{};        ///< s of step 1
  /// The ℓ2-Laplace measurement of release k = 2..K (index k − 2): {Δ^(k), s}. The ledger's
  /// events are theirs and step 1 draws w_k with them (ARCH.MEASUREMENTS).
  std::vector<mechanisms::vector_laplace_noise<Real>> releases;
  accounting::ledger<Real> ledger;
};

/// The measurements of releases k = 2..K at scale s: vector_laplace{Δ^(k) = (k−1)LΔ, s}
/// (Lemma 13, Theorem 6). @spec EV.THM6.SCHEDULE ARCH.MEASUREMENTS
template <real_scalar Real>
std::vector<mechanisms::vector_laplace_noise<Real>> algorithm2_releases(long long K,
                                                                        const Real& lipschitz,
                                                                        const Real& sensitivity,
                                                                        const Real& scale) {
  std::vector<mechanisms::vector_laplace_noise<Real>> out;
  for (long long k = 2; k <= K; ++k)
    out.emplace_back(gradient_sensitivity(k, lipschitz, sensitivity), scale);
  return out;
}

/// The plan ledger of the releases (algorithm2_releases; index k − 2): k = 1 a pure ε = 0 event
/// (p^(1) is data-independent: public start, errata EV-E2), k = 2..K the event of release k.
/// @spec EV.THM6.SCHEDULE
template <real_scalar Real>
accounting::ledger<Real> algorithm2_ledger_of(
    const std::vector<mechanisms::vector_laplace_noise<Real>>& releases) {
  accounting::ledger<Real> l;
  l.record(accounting::make_event<Real>(
      accounting::pure_mechanism<Real>{Real(0)}, 1,
      "ev Algorithm 2, k = 1: p^(1) released without noise, data-independent (public start r^(1), "
      "errata EV-E2)"));
  for (std::size_t j = 0; j < releases.size(); ++j)
    l.record(releases[j].event(
        1, "ev Algorithm 2 step 1, k = " + std::to_string(j + 2) +
               ": p^(k) + w_k, Δ^(k) = (k−1)LΔ (Lemma 13), density ∝ exp(−‖w‖/s)"));
  return l;
}

/// The plan ledger for scale s: k = 1 a pure ε = 0 event (p^(1) is data-independent: public
/// start, errata EV-E2), k = 2..K one vector-Laplace event (Δ^(k), s) each (Theorem 6).
/// @spec EV.THM6.SCHEDULE
template <real_scalar Real>
accounting::ledger<Real> algorithm2_ledger(long long K, const Real& lipschitz,
                                           const Real& sensitivity, const Real& scale) {
  return algorithm2_ledger_of(algorithm2_releases(K, lipschitz, sensitivity, scale));
}

/// Calibrates Algorithm 2 for (K, λ, m, Δ-bound, ε): s = noise_scale with the certified L and Δ,
/// raised by a few ulps while the accounted plan exceeds ε (see the file comment).
/// @throws std::domain_error for invalid arguments; std::logic_error if no scale certifies ε
/// (never observed: the first or second attempt does)
/// @spec EV.CAL.CERTIFIED EV.THM6.SCHEDULE
template <real_scalar Real>
algorithm2_plan<Real> calibrate_algorithm2(long long K, const Real& objective_scale,
                                           const Real& households, const Real& delta_r,
                                           const Real& delta_e, std::size_t horizon,
                                           sensitivity_bound which, const Real& eps) {
  algorithm2_plan<Real> p;
  p.lipschitz = lipschitz_bound(objective_scale, households);
  p.sensitivity = sensitivity_upper(delta_r, delta_e, horizon, which);
  p.scale = noise_scale(K, p.lipschitz, p.sensitivity, eps);
  for (int attempt = 0; attempt < 48; ++attempt) {
    p.releases = algorithm2_releases(K, p.lipschitz, p.sensitivity, p.scale);
    p.ledger = algorithm2_ledger_of(p.releases);
    if (!(p.ledger.total().epsilon > eps)) return p;
    accounting::certifier<Real> c;  // s ← s·(1 + 2^(attempt+2)·u), rounded up
    const accounting::work_real bump =
        accounting::work_real(1) +
        c.in(machine_epsilon<Real>()) * accounting::work_real(4LL << attempt);
    p.scale = c.up(c.in(p.scale) * bump);
  }
  throw std::logic_error("dpref::ev::calibrate_algorithm2: no noise scale certifies epsilon");
}

// Explicit instances (src/instances/ev.cpp); EXT is `extern` for consumers.
#define DPREF_EV_CALIBRATION_INSTANCES(EXT, R)                          \
  EXT template std::vector<R> epsilon_schedule<R>(long long, const R&); \
  EXT template R noise_scale<R>(long long, const R&, const R&, const R&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_EV_EXTERN_CALIBRATION(R) DPREF_EV_CALIBRATION_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_EV_EXTERN_CALIBRATION)
#undef DPREF_EV_EXTERN_CALIBRATION
#endif

}  // namespace dpref::ev

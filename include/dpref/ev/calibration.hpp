// Privacy calibration of ev Algorithm 2 (Han–Topcu–Pappas): the ε_k schedule of the proof of
// Theorem 6 and the noise scale of step 1. Noise scales are rounded up and budget shares down,
// so the guarantee always holds.
#pragma once

#include <cstddef>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::ev {

/// Proof of Theorem 6: ε_1 = 0, ε_k = 2(k−1)ε/(K(K−1)) for k = 2..K (Σε_k = ε), each
/// rounded down so that the sum never exceeds ε.
/// @param K iterations >= 2 @param eps total ε > 0 @return ε_1..ε_K
/// @spec ACC.CAL.EV
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

// Report-noisy-max (Dwork–Roth §3.3) with Laplace noise, in its "min" orientation: the index of
// argmin_k (score_k + Lap(b)) over candidates k = 0..m−1 (spec/mechanisms.md MECH.NOISY_MAX).
// With scores of sensitivity Δ that move all the same way under a neighbouring change
// (monotone), b = Δ/ε makes the released index ε-DP (Dwork–Roth Claim 3.9); otherwise 2Δ/b.
//
// report_noisy_max is the mechanism as a measurement (spec/architecture.md ARCH.MEASUREMENTS):
// one object holds Δ, b and monotonicity, selects with b and returns the ledger event
// pure{ε} with ε = Δ/b (2Δ/b if not monotone) rounded up, from the same members.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/event.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/measurement.hpp"
#include "dpref/random/laplace.hpp"

namespace dpref::mechanisms {

/// argmin_k (scores[k] + Lap(b)), one draw per candidate in index order; ties keep the first.
/// @param s bit stream @param scores the m >= 1 candidates' scores @param scale b > 0
/// @throws std::domain_error for b <= 0 @spec MECH.NOISY_MAX
template <real_scalar Real>
std::size_t report_noisy_min(philox_stream& s, const std::vector<Real>& scores, const Real& scale) {
  std::size_t best = 0;
  Real best_v(0);
  for (std::size_t k = 0; k < scores.size(); ++k) {
    const Real v = scores[k] + laplace<Real>(s, scale);
    if (k == 0 || v < best_v) {
      best = k;
      best_v = v;
    }
  }
  return best;
}

/// Report-noisy-min/max with Laplace noise as a measurement (see the file comment).
/// @spec MECH.NOISY_MAX ARCH.MEASUREMENTS
template <real_scalar Real>
struct report_noisy_max : measurement<report_noisy_max<Real>, Real> {
  Real sensitivity{};     ///< sensitivity Δ of every score
  Real scale{};           ///< Laplace scale b of each score's noise
  bool monotone = false;  ///< the scores all move the same way under a neighbouring change

  report_noisy_max() = default;
  report_noisy_max(const Real& score_sensitivity, const Real& b, bool is_monotone)
      : sensitivity(score_sensitivity), scale(b), monotone(is_monotone) {}

  /// ε = Δ/b (monotone) or 2Δ/b, rounded up (ACC.CERT.UP).
  [[nodiscard]] Real epsilon() const {
    accounting::certifier<Real> c;
    return monotone ? c.up(c.in(sensitivity) / c.in(scale))
                    : c.up(2 * c.in(sensitivity) / c.in(scale));
  }
  /// The accounting kind of this selection: pure{ε} with ε of epsilon() (rounded up).
  [[nodiscard]] accounting::pure_mechanism<Real> mechanism() const { return {epsilon()}; }
  /// The selected index: argmin_k (scores[k] + Lap(b)) (report_noisy_min).
  [[nodiscard]] std::size_t select_min(philox_stream& s, const std::vector<Real>& scores) const {
    return report_noisy_min<Real>(s, scores, scale);
  }
};

}  // namespace dpref::mechanisms

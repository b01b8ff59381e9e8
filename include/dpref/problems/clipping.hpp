// Gradient and objective clipping of linesearch §4.2 / Algorithm 2 line 5 and §4.1:
//   clip(g, C) = g / max(1, ‖g‖₂/C)                                   linesearch (6)
//   f̄ = min(f, C_obj) for f ≥ 0, so f̄ ∈ [0, C_obj]                   (errata LS-E2)
// Theorem 1 needs f(w; d) ∈ [0, Δ_f] for Δ_q = Δ_f (add/remove adjacency); a loss that can be
// negative would need Δ_q = 2Δ_f (LS-E2), so clip_objective refuses negative values.
// spec/linesearch.md LS.EQ6, LS.LSE2.
#pragma once

#include <cmath>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::problems {

/// Factor s = 1/max(1, norm/C) ∈ (0, 1] with which clip(g, C) = s·g, given norm = ‖g‖₂.
/// @param norm ‖g‖₂ >= 0 @param C threshold > 0 @throws std::domain_error for invalid input
/// @spec LS.EQ6
template <real_scalar Real>
Real clip_factor(const Real& norm, const Real& C) {
  require_positive("dpref::problems::clip_factor", "C", C);
  require_nonnegative("dpref::problems::clip_factor", "norm", norm);
  return norm > C ? Real(C / norm) : Real(1);
}

/// clip(g, C) of linesearch (6), in place; returns the factor applied.
/// @spec LS.EQ6
template <real_scalar Real>
Real clip_in_place(vector<Real>& g, const Real& C) {
  const Real s = clip_factor<Real>(g.norm(), C);
  if (s < Real(1)) g *= s;
  return s;
}

/// min(f, C_obj) for a non-negative loss value f (errata LS-E2: the result lies in [0, C_obj]).
/// @throws std::domain_error if f < 0 or C_obj <= 0 @spec LS.LSE2
template <real_scalar Real>
Real clip_objective(const Real& f, const Real& C_obj) {
  require_nonnegative("dpref::problems::clip_objective", "f", f);
  require_positive("dpref::problems::clip_objective", "C_obj", C_obj);
  return f < C_obj ? f : C_obj;
}

}  // namespace dpref::problems

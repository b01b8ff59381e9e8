// What every line evaluator of linesearch Algorithm 1 line 7 shares (NOISYBTLS queries on one
// line w − ηg): ‖w − ηg‖² = ‖w‖² − 2η wᵀg + η²‖g‖² from three numbers computed once, the
// clipping min(f, C_obj) that makes C_obj the query sensitivity (PRIV.LINESEARCH.C_OBJ) and the
// sum over the batch in its order. spec/linesearch.md LS.ERM, LS.MLP.
#pragma once

#include "dpref/scalar.hpp"

namespace dpref::problems {

/// Base of a line evaluator `Derived` with for_each_clipped(eta, C_obj, each) (CRTP).
template <real_scalar Real, class Derived>
class line_evaluator_base {
 public:
  /// ‖g‖².
  [[nodiscard]] const Real& g_squared() const { return gg_; }
  /// Σ_{i∈B} min(f(w − ηg; d_i), C_obj), summed in the order of B.
  [[nodiscard]] Real clipped_sum(const Real& eta, const Real& C_obj) const {
    Real s(0);
    static_cast<const Derived&>(*this).for_each_clipped(eta, C_obj, [&](const Real& f) { s += f; });
    return s;
  }

 protected:
  line_evaluator_base(const vector<Real>& w, const vector<Real>& g)
      : ww_(w.squaredNorm()), wg_(w.dot(g)), gg_(g.squaredNorm()) {}
  /// μ‖w − ηg‖²/2, the squared norm clamped at 0 against rounding.
  [[nodiscard]] Real regulariser(const Real& mu, const Real& eta) const {
    Real wsq = ww_ - Real(2) * eta * wg_ + eta * eta * gg_;
    if (wsq < Real(0)) wsq = Real(0);
    return mu * wsq / 2;
  }
  /// min(f, C_obj); a NaN loss counts as C_obj.
  [[nodiscard]] static Real clip(const Real& f, const Real& C_obj) { return f < C_obj ? f : C_obj; }

 private:
  Real ww_, wg_, gg_;
};

}  // namespace dpref::problems

// Scalar margin losses φ(z) of a linear classifier, z = y·wᵀx with y ∈ {−1, +1}: logistic,
// hinge (dda (27), linesearch §5) and the Huberized hinge of Chaudhuri–Monteleoni–Sarwate 2011
// (linesearch §5, h = 0.5). Shared by the accel, linesearch and dda problems: a per-example
// (sub)gradient is φ′(z)·y·x. All three are convex and 1-Lipschitz in z: |φ′(z)| ≤ 1.
// @spec PROBLEMS.MARGIN_LOSS
#pragma once

#include <string_view>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::problems {

enum class margin_loss_kind { logistic, hinge, huberized_hinge };

/// φ and a (sub)derivative φ′ for one loss. @spec PROBLEMS.MARGIN_LOSS
template <real_scalar Real>
struct margin_loss {
  margin_loss_kind kind = margin_loss_kind::logistic;
  Real h = Real(1) / 2;  ///< Huberization width (huberized_hinge only), h > 0

  static margin_loss logistic() { return {margin_loss_kind::logistic, Real(1) / 2}; }
  static margin_loss hinge() { return {margin_loss_kind::hinge, Real(1) / 2}; }
  static margin_loss huberized_hinge(const Real& width = Real(1) / 2) {
    require_positive("margin_loss::huberized_hinge", "h", width);
    return {margin_loss_kind::huberized_hinge, width};
  }

  /// φ(z): logistic ln(1 + e^{−z}) (evaluated without overflow); hinge max(0, 1 − z);
  /// Huberized hinge 0 for z > 1 + h, (1 + h − z)²/(4h) for |1 − z| ≤ h, 1 − z for z < 1 − h.
  [[nodiscard]] Real value(const Real& z) const {
    using std::exp;
    using std::log1p;
    switch (kind) {
      case margin_loss_kind::logistic:
        return z > Real(0) ? log1p(exp(-z)) : -z + log1p(exp(z));
      case margin_loss_kind::hinge:
        return z < Real(1) ? Real(1) - z : Real(0);
      case margin_loss_kind::huberized_hinge:
        if (z > Real(1) + h) return Real(0);
        if (z < Real(1) - h) return Real(1) - z;
        return (Real(1) + h - z) * (Real(1) + h - z) / (Real(4) * h);
    }
    return Real(0);
  }

  /// φ′(z) (for the hinge the subgradient −1 for z < 1 and 0 for z ≥ 1). |φ′| ≤ 1.
  [[nodiscard]] Real derivative(const Real& z) const {
    using std::exp;
    switch (kind) {
      case margin_loss_kind::logistic:
        return z > Real(0) ? -exp(-z) / (Real(1) + exp(-z)) : -Real(1) / (Real(1) + exp(z));
      case margin_loss_kind::hinge:
        return z < Real(1) ? Real(-1) : Real(0);
      case margin_loss_kind::huberized_hinge:
        if (z > Real(1) + h) return Real(0);
        if (z < Real(1) - h) return Real(-1);
        return -(Real(1) + h - z) / (Real(2) * h);
    }
    return Real(0);
  }

  [[nodiscard]] std::string_view name() const {
    switch (kind) {
      case margin_loss_kind::logistic:
        return "logistic";
      case margin_loss_kind::hinge:
        return "hinge";
      case margin_loss_kind::huberized_hinge:
        return "huberized_hinge";
    }
    return "";
  }
};

}  // namespace dpref::problems

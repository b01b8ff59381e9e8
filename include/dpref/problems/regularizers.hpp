// Regularisers h(x) of composite objectives f(x) + h(x) and their closed-form minimisers:
// ℓ1 h = φ‖x‖₁, ℓ2 h = (μ/2)‖x‖₂², indicator of a box [lo, hi]^d or of a centred ℓ2 ball of
// radius r, or none. Used by the dda problem (dda (1), (6)) and shared with linesearch.
//
// API (all members const, generic over Real, no allocation beyond the returned vector):
//  - value(x): h(x) (+∞ outside the set for indicators);
//  - strong_convexity(): μ of dda Assumption 1 (μ for ℓ2, 0 otherwise);
//  - dual_argmin(z, c, γ): argmin_x ⟨z, x⟩ + c·h(x) + (γ/2)‖x‖² (dda (2), (6), (8) with
//    d(x) = ½‖x‖²): ℓ1 −soft(z, cφ)/γ, ℓ2 −z/(cμ + γ), box clip(−z/γ), ball Π(−z/γ), none −z/γ;
//  - prox(v, t): argmin_x t·h(x) + ½‖x − v‖² = dual_argmin(−v, t, 1).
// Every closed form uses only +, −, ×, /, comparisons and (ball) one square root, in Real.
// @spec DDA.REG
#pragma once

#include <limits>
#include <string>
#include <string_view>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::problems {

enum class regularizer_kind { none, l1, l2, box, ball };

/// A regulariser h with its closed-form dual-averaging minimiser. @spec DDA.REG
template <real_scalar Real>
struct regularizer {
  regularizer_kind kind = regularizer_kind::none;
  Real weight = Real(0);            ///< φ (ℓ1) or μ (ℓ2)
  Real lo = Real(0), hi = Real(0);  ///< box bounds (box only)
  Real radius = Real(0);            ///< ball radius (ball only)

  static regularizer none() { return {}; }
  /// h = φ‖x‖₁, φ >= 0. @throws std::domain_error
  static regularizer l1(const Real& phi) {
    require_nonnegative("regularizer::l1", "phi", phi);
    return {regularizer_kind::l1, phi, Real(0), Real(0), Real(0)};
  }
  /// h = (μ/2)‖x‖², μ >= 0. @throws std::domain_error
  static regularizer l2(const Real& mu) {
    require_nonnegative("regularizer::l2", "mu", mu);
    return {regularizer_kind::l2, mu, Real(0), Real(0), Real(0)};
  }
  /// Indicator of [lo, hi]^d, lo <= hi. @throws std::domain_error
  static regularizer box(const Real& lower, const Real& upper) {
    require_finite("regularizer::box", "lo", lower);
    require_finite("regularizer::box", "hi", upper);
    if (!(lower <= upper)) fail_domain("regularizer::box", "hi", ">= lo", upper);
    return {regularizer_kind::box, Real(0), lower, upper, Real(0)};
  }
  /// Indicator of {‖x‖₂ <= r}, r > 0. @throws std::domain_error
  static regularizer ball(const Real& r) {
    require_positive("regularizer::ball", "radius", r);
    return {regularizer_kind::ball, Real(0), Real(0), Real(0), r};
  }

  /// μ of dda Assumption 1 (i).
  [[nodiscard]] Real strong_convexity() const {
    return kind == regularizer_kind::l2 ? weight : Real(0);
  }
  /// Whether h is an indicator (then ι·h = h, dda §3.2).
  [[nodiscard]] bool is_indicator() const {
    return kind == regularizer_kind::box || kind == regularizer_kind::ball;
  }

  /// h(x); +∞ outside the set for indicators.
  [[nodiscard]] Real value(const vector<Real>& x) const {
    using std::abs;
    switch (kind) {
      case regularizer_kind::none:
        return Real(0);
      case regularizer_kind::l1: {
        Real s(0);
        for (Eigen::Index i = 0; i < x.size(); ++i) s += abs(x[i]);
        return weight * s;
      }
      case regularizer_kind::l2:
        return weight * x.squaredNorm() / 2;
      case regularizer_kind::box:
        for (Eigen::Index i = 0; i < x.size(); ++i)
          if (x[i] < lo || x[i] > hi) return std::numeric_limits<Real>::infinity();
        return Real(0);
      case regularizer_kind::ball:
        return x.squaredNorm() <= radius * radius ? Real(0) : std::numeric_limits<Real>::infinity();
    }
    return Real(0);
  }

  /// argmin_x ⟨z, x⟩ + c·h(x) + (γ/2)‖x‖² written into `out` (dda (6) with c = ιA_{t+1},
  /// γ = γ_{t+1}). Needs cμ + γ > 0 for ℓ2 and γ > 0 otherwise.
  /// @throws std::domain_error when the minimiser does not exist or is not unique
  void dual_argmin_into(const Eigen::Ref<const vector<Real>>& z, const Real& c, const Real& gamma,
                        Eigen::Ref<vector<Real>> out) const {
    if (kind == regularizer_kind::l2) {
      const Real den = c * weight + gamma;
      if (!(den > Real(0)))
        fail_domain("regularizer::dual_argmin", "c*mu + gamma", "> 0 (unique minimiser)", den);
      for (Eigen::Index i = 0; i < z.size(); ++i) out[i] = -z[i] / den;
      return;
    }
    if (!(gamma > Real(0)))
      fail_domain("regularizer::dual_argmin", "gamma", "> 0 (unique minimiser)", gamma);
    switch (kind) {
      case regularizer_kind::l1: {
        const Real thr = c * weight;  // soft threshold at cφ
        for (Eigen::Index i = 0; i < z.size(); ++i) {
          if (z[i] > thr)
            out[i] = -(z[i] - thr) / gamma;
          else if (z[i] < -thr)
            out[i] = -(z[i] + thr) / gamma;
          else
            out[i] = Real(0);
        }
        return;
      }
      case regularizer_kind::box:
        for (Eigen::Index i = 0; i < z.size(); ++i) {
          Real v = -z[i] / gamma;
          out[i] = v < lo ? lo : (v > hi ? hi : v);
        }
        return;
      case regularizer_kind::ball: {
        using std::sqrt;
        for (Eigen::Index i = 0; i < z.size(); ++i) out[i] = -z[i] / gamma;
        const Real n2 = out.squaredNorm();
        if (n2 > radius * radius) {
          const Real s = radius / Real(sqrt(n2));
          for (Eigen::Index i = 0; i < z.size(); ++i) out[i] *= s;
        }
        return;
      }
      default:
        for (Eigen::Index i = 0; i < z.size(); ++i) out[i] = -z[i] / gamma;
        return;
    }
  }

  /// Returning form of dual_argmin_into.
  [[nodiscard]] vector<Real> dual_argmin(const vector<Real>& z, const Real& c,
                                         const Real& gamma) const {
    vector<Real> out(z.size());
    dual_argmin_into(z, c, gamma, out);
    return out;
  }

  /// prox_{t h}(v) = argmin_x t·h(x) + ½‖x − v‖², t >= 0.
  [[nodiscard]] vector<Real> prox(const vector<Real>& v, const Real& t) const {
    require_nonnegative("regularizer::prox", "t", t);
    vector<Real> mz = -v;
    return dual_argmin(mz, t, Real(1));
  }

  [[nodiscard]] std::string name() const {
    switch (kind) {
      case regularizer_kind::none:
        return "none";
      case regularizer_kind::l1:
        return "l1";
      case regularizer_kind::l2:
        return "l2";
      case regularizer_kind::box:
        return "box";
      case regularizer_kind::ball:
        return "ball";
    }
    return "";
  }
};

}  // namespace dpref::problems

// Privacy-loss laws of the PLD accountant (spec/accounting_pld.md, ACC.PLD.*): for a dominating
// pair (P, Q) the law of the privacy loss L = log dP/dQ under P (and under Q), described by
//   * continuous parts: tail functions T_P(l) = P(L > l), G_P(l) = P(L <= l), T_Q, G_Q, each
//     returned with an absolute error bound that also covers an uncertainty dl of the argument;
//   * atoms: (loss, P-mass, Q-mass), each with an error bound;
//   * a mass at L = +infinity.
// Everything is evaluated in long double with the error model of numeric.hpp; nothing is
// cached globally and every object is immutable after construction (thread-safe to share).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "dpref/accounting/pld/numeric.hpp"

namespace dpref::accounting::pld::detail {

/// The four tails of a continuous part at one loss value.
struct tail4 {
  val tp, gp, tq, gq;
};

/// A continuous (atomless) part of a privacy-loss law.
class continuous_law {
 public:
  virtual ~continuous_law() = default;
  /// Tails at a loss whose exact value lies in [l - dl, l + dl]; the error bounds cover the
  /// tails at every point of that interval. l may be ±infinity (then dl is ignored).
  [[nodiscard]] virtual tail4 tails(ld l, ld dl) const = 0;
  /// Total P- and Q-mass of the part (1 for a complete continuous law), with error bounds.
  [[nodiscard]] virtual val mass_p() const = 0;
  [[nodiscard]] virtual val mass_q() const = 0;
  /// Closed interval outside of which the part has no mass (may be infinite).
  [[nodiscard]] virtual ld lmin() const = 0;
  [[nodiscard]] virtual ld lmax() const = 0;
  /// True if the reversed pair (Q, P) has the same part (law of -L under Q = law of L under P).
  [[nodiscard]] virtual bool symmetric() const { return true; }
};

/// A point mass of the privacy loss: loss value and P-/Q-masses, each with an error bound.
struct atom {
  val loss;
  val p;
  val q;
};

/// One direction of a mechanism: continuous parts + atoms + mass at +infinity.
struct direction_law {
  std::vector<std::shared_ptr<const continuous_law>> parts;
  std::vector<atom> atoms;
  val inf_mass{};  ///< P(L = +inf); [lo, hi] = [v - e, v + e]
};

// ------------------------------------------------------------------------------------------
// Tail helpers with error bounds.

/// sup of the standard normal density over [y - dy, y + dy].
inline ld norm_pdf_sup(ld y, ld dy) {
  const ld a = std::fabs(y) - dy;
  return norm_pdf(a > 0 ? a : 0) * (1 + kRel);
}
/// Φc(y) for an argument known within dy (plus its own rounding), with error bound.
inline val sf_b(ld y, ld dy) {
  if (std::isinf(y)) return {y > 0 ? 0.0L : 1.0L, 0};
  const ld v = norm_sf(y);
  return {v, v * kRel + norm_pdf_sup(y, dy) * (dy + 2 * kUL * std::fabs(y))};
}
inline val cdf_b(ld y, ld dy) {
  if (std::isinf(y)) return {y > 0 ? 1.0L : 0.0L, 0};
  const ld v = norm_cdf(y);
  return {v, v * kRel + norm_pdf_sup(y, dy) * (dy + 2 * kUL * std::fabs(y))};
}

// ------------------------------------------------------------------------------------------
// Gaussian: P = N(s, 1), Q = N(0, 1), s = Δ/σ; L = s x - s²/2.

class gaussian_law final : public continuous_law {
 public:
  explicit gaussian_law(ld s) : s_(s) {}
  [[nodiscard]] tail4 tails(ld l, ld dl) const override {
    if (std::isinf(l)) {
      const ld t = l > 0 ? 0.0L : 1.0L;
      return {{t, 0}, {1 - t, 0}, {t, 0}, {1 - t, 0}};
    }
    const ld x = l / s_ + s_ / 2;
    const ld dx = dl / s_ + 4 * kUL * (std::fabs(l / s_) + s_ + std::fabs(x));
    const ld y = x - s_;
    const ld dy = dx + 2 * kUL * (std::fabs(x) + s_);
    return {sf_b(y, dy), cdf_b(y, dy), sf_b(x, dx), cdf_b(x, dx)};
  }
  [[nodiscard]] val mass_p() const override { return {1, 0}; }
  [[nodiscard]] val mass_q() const override { return {1, 0}; }
  [[nodiscard]] ld lmin() const override { return -kInf; }
  [[nodiscard]] ld lmax() const override { return kInf; }

 private:
  ld s_;
};

// ------------------------------------------------------------------------------------------
// Laplace, continuous part: P = Lap(Δ, b), Q = Lap(0, b), e = Δ/b; on (-e, e) the loss is
// (2x - Δ)/b and P(L ∈ (l, e)) = (1 - e^{-(e-l)/2})/2. Atoms at ±e are added separately.

class laplace_cont_law final : public continuous_law {
 public:
  explicit laplace_cont_law(ld e) : e_(e), mass_(-0.5L * std::expm1(-e)) {}
  [[nodiscard]] tail4 tails(ld l, ld dl) const override {
    const val m{mass_, mass_ * kRel};
    if (!(l < e_ + dl) || !(l > -e_ - dl)) {
      if (l >= e_) return {{0, 0}, m, {0, 0}, m};
      return {m, {0, 0}, m, {0, 0}};
    }
    const ld lc = std::clamp(l, -e_, e_);
    // density sups over the argument interval: f_P = e^{-(e-l)/2}/4, f_Q = e^{-(e+l)/2}/4
    const ld fp = 0.25L * std::exp(std::min<ld>(0, -(e_ - lc - dl) / 2)) * (1 + kRel);
    const ld fq = 0.25L * std::exp(std::min<ld>(0, -(e_ + lc - dl) / 2)) * (1 + kRel);
    const ld a = (e_ - lc) / 2, b = (e_ + lc) / 2;
    const ld tp = -0.5L * std::expm1(-a);
    const ld gp = -0.5L * std::exp(-a) * std::expm1(-b);
    const ld tq = 0.5L * std::exp(-e_) * std::expm1(a);
    const ld gq = -0.5L * std::expm1(-b);
    const ld dd = dl + 4 * kUL * (e_ + std::fabs(lc));
    return {{tp, tp * kRel + fp * dd},
            {gp, gp * kRel + fp * dd},
            {tq, tq * kRel + fq * dd},
            {gq, gq * kRel + fq * dd}};
  }
  [[nodiscard]] val mass_p() const override { return {mass_, mass_ * kRel}; }
  [[nodiscard]] val mass_q() const override { return {mass_, mass_ * kRel}; }
  [[nodiscard]] ld lmin() const override { return -e_; }
  [[nodiscard]] ld lmax() const override { return e_; }

 private:
  ld e_, mass_;
};

// ------------------------------------------------------------------------------------------
// Worst case of an ε-bounded-range mechanism (the exponential mechanism): the pair whose
// hockey-stick curve is the pointwise maximum over t ∈ [0, ε] of the binary pairs with losses
// {t, t - ε}. Its loss has P-density e^{(ε+l)/2} / (2(e^ε - 1)) on [-ε, ε] (spec derivation).

class bounded_range_law final : public continuous_law {
 public:
  explicit bounded_range_law(ld eps) : e_(eps), em1_(std::expm1(eps)), omm_(-std::expm1(-eps)) {}
  [[nodiscard]] tail4 tails(ld l, ld dl) const override {
    if (!(l < e_ + dl) || !(l > -e_ - dl)) {
      if (l >= e_) return {{0, 0}, {1, 0}, {0, 0}, {1, 0}};
      return {{1, 0}, {0, 0}, {1, 0}, {0, 0}};
    }
    const ld lc = std::clamp(l, -e_, e_);
    const ld fp = 0.5L * std::exp((e_ + std::min(e_, lc + dl)) / 2) / em1_ * (1 + kRel);
    const ld fq = 0.5L * std::exp((e_ - std::max(-e_, lc - dl)) / 2) / em1_ * (1 + kRel);
    const ld tp = -std::expm1((lc - e_) / 2) / omm_;
    const ld gp = std::expm1((e_ + lc) / 2) / em1_;
    const ld tq = std::expm1((e_ - lc) / 2) / em1_;
    const ld gq = -std::expm1(-(e_ + lc) / 2) / omm_;
    const ld dd = dl + 4 * kUL * (e_ + std::fabs(lc));
    return {{tp, tp * kRel + fp * dd},
            {gp, gp * kRel + fp * dd},
            {tq, tq * kRel + fq * dd},
            {gq, gq * kRel + fq * dd}};
  }
  [[nodiscard]] val mass_p() const override { return {1, 0}; }
  [[nodiscard]] val mass_q() const override { return {1, 0}; }
  [[nodiscard]] ld lmin() const override { return -e_; }
  [[nodiscard]] ld lmax() const override { return e_; }

 private:
  ld e_, em1_, omm_;
};

// ------------------------------------------------------------------------------------------
// Poisson-subsampled Gaussian under replace-one: P = (1-q)N(0,1) + qN(s,1),
// Q = (1-q)N(0,1) + qN(-s,1) (x in units of σ). With y = e^{s x}, c = q e^{-s²/2}/(1-q):
// e^L = (1 + c y)/(1 + c/y), increasing in x; solved in closed form for y.

class gaussian_three_point_law final : public continuous_law {
 public:
  gaussian_three_point_law(ld s, ld q)
      : s_(s), q_(q), logc_(std::log(q) - s * s / 2 - std::log1p(-q)) {}
  [[nodiscard]] tail4 tails(ld l, ld dl) const override {
    if (std::isinf(l)) {
      const ld t = l > 0 ? 0.0L : 1.0L;
      return {{t, 0}, {1 - t, 0}, {t, 0}, {1 - t, 0}};
    }
    // log y from the positive root of c y² + (1 - R) y - R c = 0, R = e^l.
    const ld rm1 = std::expm1(l);
    const ld c = std::exp(logc_);
    const ld root = std::hypot(rm1, 2 * c * std::exp(l / 2));  // sqrt((R-1)² + 4 R c²)
    ld logy;
    if (rm1 >= 0)
      logy = std::log(rm1 + root) - std::log(2 * c);
    else
      logy = std::log(2 * c) + l - std::log(-rm1 + root);
    const ld x = logy / s_;
    // |Δ log y| <= kRel (4 + |log y| + 2|log c| + |l|); the loss is 1-Lipschitz-inverse at most
    // 1/min(d l/d log y) — dl is 0 for this law (it is never transformed further).
    const ld dlogy =
        kRel * (4 + std::fabs(logy) + 2 * std::fabs(logc_) + std::fabs(l)) + (dl > 0 ? kInf : 0);
    const ld dx = dlogy / s_ + 2 * kUL * std::fabs(x);
    const ld w0 = 1 - q_;
    auto mix = [&](val a, val b) { return scale(a, w0, kUL) + scale(b, q_, 0); };
    return {mix(sf_b(x, dx), sf_b(x - s_, dx + kUL * (std::fabs(x) + s_))),
            mix(cdf_b(x, dx), cdf_b(x - s_, dx + kUL * (std::fabs(x) + s_))),
            mix(sf_b(x, dx), sf_b(x + s_, dx + kUL * (std::fabs(x) + s_))),
            mix(cdf_b(x, dx), cdf_b(x + s_, dx + kUL * (std::fabs(x) + s_)))};
  }
  [[nodiscard]] val mass_p() const override { return {1, 0}; }
  [[nodiscard]] val mass_q() const override { return {1, 0}; }
  [[nodiscard]] ld lmin() const override { return -kInf; }
  [[nodiscard]] ld lmax() const override { return kInf; }

 private:
  ld s_, q_, logc_;
};

// ------------------------------------------------------------------------------------------
// Poisson-type transforms of a part (rate r):
//   remove: (P', Q') = ((1-r)Q + rP, Q),  L' = log(1 - r + r e^L)  (increasing in L);
//   add:    (P'', Q'') = (Q, (1-r)Q + rP), L'' = -log(1 - r + r e^L) (decreasing in L).
// Tails follow from the base tails at c = L^{-1}(l); for the add direction the strict and
// non-strict tails swap roles, which is exact for a continuous part.

enum class transform_dir { remove, add };

class poisson_transform_law final : public continuous_law {
 public:
  poisson_transform_law(std::shared_ptr<const continuous_law> base, ld r, transform_dir d)
      : base_(std::move(base)), r_(r), d_(d) {}

  [[nodiscard]] tail4 tails(ld l, ld dl) const override {
    const val mp = base_->mass_p(), mq = base_->mass_q();
    const ld w0 = 1 - r_;
    auto mix = [&](const val& fq, const val& fp) { return scale(fq, w0, kUL) + scale(fp, r_, 0); };
    if (d_ == transform_dir::remove) {
      // L' > log(1 - r) always: below that every mass lies above l.
      if (l == -kInf || std::expm1(l) <= -r_) return {mix(mq, mp), {0, 0}, mq, {0, 0}};
      if (l == kInf) return {{0, 0}, mix(mq, mp), {0, 0}, mq};
      const ld v = std::expm1(l) / r_;
      const ld c = std::log1p(v);
      const ld dv = std::fabs(v) * (kLibm + 2 * kUL) + std::exp(l) * dl / r_;
      const ld dc = (kLibm + kUL) * std::fabs(c) + dv / (1 + v) * (1 + kRel);
      const tail4 b = base_->tails(c, dc);
      return {mix(b.tq, b.tp), mix(b.gq, b.gp), b.tq, b.gq};
    }
    // add direction: L'' < -log(1 - r) always.
    if (l == kInf || std::expm1(-l) <= -r_) return {{0, 0}, mq, {0, 0}, mix(mq, mp)};
    if (l == -kInf) return {mq, {0, 0}, mix(mq, mp), {0, 0}};
    const ld v = std::expm1(-l) / r_;
    const ld c = std::log1p(v);  // L'' > l  <=>  L < c
    const ld dv = std::fabs(v) * (kLibm + 2 * kUL) + std::exp(-l) * dl / r_;
    const ld dc = (kLibm + kUL) * std::fabs(c) + dv / (1 + v) * (1 + kRel);
    const tail4 b = base_->tails(c, dc);
    return {b.gq, b.tq, mix(b.gq, b.gp), mix(b.tq, b.tp)};
  }
  [[nodiscard]] val mass_p() const override {
    if (d_ == transform_dir::remove)
      return scale(base_->mass_q(), 1 - r_, kUL) + scale(base_->mass_p(), r_, 0);
    return base_->mass_q();
  }
  [[nodiscard]] val mass_q() const override {
    if (d_ == transform_dir::remove) return base_->mass_q();
    return scale(base_->mass_q(), 1 - r_, kUL) + scale(base_->mass_p(), r_, 0);
  }
  [[nodiscard]] ld lmin() const override {
    if (d_ == transform_dir::remove) return std::log1p(r_ * std::expm1(base_->lmin())) - kRel;
    return -std::log1p(r_ * std::expm1(base_->lmax())) - kRel;
  }
  [[nodiscard]] ld lmax() const override {
    if (d_ == transform_dir::remove) return std::log1p(r_ * std::expm1(base_->lmax())) + kRel;
    return -std::log1p(r_ * std::expm1(base_->lmin())) + kRel;
  }
  [[nodiscard]] bool symmetric() const override { return false; }

 private:
  std::shared_ptr<const continuous_law> base_;
  ld r_;
  transform_dir d_;
};

/// Transform of an atom (loss L, P-mass p, Q-mass q) of the base pair:
///   remove: (log(1 - r + r e^L), (1-r) q + r p, q);  add: (-log(1 - r + r e^L), q, (1-r) q + r p).
/// d/dL log(1 - r + r e^L) lies in [0, 1], so the loss error does not grow.
inline atom transform_atom(const atom& a, ld r, transform_dir d) {
  const ld t = r * std::expm1(a.loss.v);
  const ld nl = std::log1p(t);
  const ld e = kRel * (std::fabs(nl) + std::fabs(t) / (1 + t)) + a.loss.e + 0x1p-16000L;
  const val mixed = scale(a.q, 1 - r, kUL) + scale(a.p, r, 0);
  if (d == transform_dir::remove) return {{nl, e}, mixed, a.q};
  return {{-nl, e}, a.q, mixed};
}

// ------------------------------------------------------------------------------------------
// Symmetrisation (sampling without replacement, replace-one): from W (one direction) the
// symmetric pair S whose losses > 0 follow W under P and W's Q-law mirrored below 0, with the
// remaining mass as an atom at 0 (spec ACC.PLD.SUBSAMPLE.WOR).

class symmetrised_law final : public continuous_law {
 public:
  symmetrised_law(std::shared_ptr<const continuous_law> w, val tp0, val tq0)
      : w_(std::move(w)), tp0_(tp0), tq0_(tq0) {}
  [[nodiscard]] tail4 tails(ld l, ld dl) const override {
    const val tot = tp0_ + tq0_;
    if (l >= 0) {
      const tail4 a = w_->tails(l, dl);
      return {a.tp, tq0_ + (tp0_ - a.tp), a.tq, tp0_ + (tq0_ - a.tq)};
    }
    const tail4 a = w_->tails(-l, dl);
    return {tot - a.tq, a.tq, tot - a.tp, a.tp};
  }
  [[nodiscard]] val mass_p() const override { return tp0_ + tq0_; }
  [[nodiscard]] val mass_q() const override { return tp0_ + tq0_; }
  [[nodiscard]] ld lmin() const override { return -std::max<ld>(0, w_->lmax()); }
  [[nodiscard]] ld lmax() const override { return std::max<ld>(0, w_->lmax()); }

 private:
  std::shared_ptr<const continuous_law> w_;
  val tp0_, tq0_;
};

/// Symmetrises a direction law W (continuous parts + atoms, no mass at infinity).
inline direction_law symmetrise(const direction_law& w) {
  direction_law s;
  val p_pos{0, 0};  // P_W(L > 0) + Q_W(L > 0)
  for (const auto& part : w.parts) {
    const tail4 t0 = part->tails(0, 0);
    s.parts.push_back(std::make_shared<symmetrised_law>(part, t0.tp, t0.tq));
    p_pos = p_pos + t0.tp + t0.tq;
  }
  for (const atom& a : w.atoms) {
    if (a.loss.lo() > 0) {
      s.atoms.push_back(a);
      s.atoms.push_back({{-a.loss.v, a.loss.e}, a.q, a.p});
      p_pos = p_pos + a.p + a.q;
    } else if (a.loss.hi() > 0) {
      // sign of the loss not certain: treat as an atom at 0 (its share stays in the remainder)
    }
  }
  const val zero_mass = val{1, 0} - p_pos;
  if (zero_mass.hi() > 0) {
    const ld v = std::max<ld>(0, zero_mass.v);
    const ld e = zero_mass.e + (v - zero_mass.v);
    s.atoms.push_back({{0, 0}, {v, e}, {v, e}});
  }
  return s;
}

}  // namespace dpref::accounting::pld::detail

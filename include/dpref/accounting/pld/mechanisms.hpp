// Mechanisms of the PLD accountant (spec/accounting_pld.md, ACC.PLD.MECH and ACC.PLD.SUBSAMPLE):
// builders return a `mechanism` = the privacy-loss laws of a dominating pair in both
// neighbouring directions (one law when the pair is symmetric), ready for `discretise`.
// Conventions: "remove" is the pair (P, Q) = (M(D), M(D')) where D' is D without the record;
// "add" is the reversed pair. Additive-noise mechanisms also remember their noise so that
// `subsample` can build the subsampled dominating pairs.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/pld/laws.hpp"
#include "dpref/error.hpp"

namespace dpref::accounting::pld {

/// Neighbouring relation of the analysis.
enum class neighbouring {
  add_remove,  ///< D' = D plus or minus one record (both directions are reported)
  replace_one  ///< D' = D with one record replaced
};

/// Subsampling scheme.
enum class sampling_scheme {
  poisson,             ///< every record independently with probability q
  without_replacement  ///< a uniformly random batch of m of the n records
};

/// Subsampling transform parameters (scheme, rate, neighbouring relation).
struct sampling {
  sampling_scheme scheme = sampling_scheme::poisson;
  double rate = 1.0;   ///< q (Poisson); m/n (without replacement, set by the factory)
  std::int64_t m = 0;  ///< batch size (without replacement)
  std::int64_t n = 0;  ///< dataset size (without replacement; for add_remove the larger one)
  neighbouring relation = neighbouring::add_remove;

  static sampling poisson(double q, neighbouring r = neighbouring::add_remove) {
    sampling s;
    s.scheme = sampling_scheme::poisson;
    s.rate = q;
    s.relation = r;
    return s;
  }
  static sampling without_replacement(std::int64_t m, std::int64_t n,
                                      neighbouring r = neighbouring::replace_one) {
    sampling s;
    s.scheme = sampling_scheme::without_replacement;
    s.m = m;
    s.n = n;
    s.rate = n > 0 ? static_cast<double>(m) / static_cast<double>(n) : 0.0;
    s.relation = r;
    return s;
  }
};

/// Noise of an additive mechanism (what `subsample` needs).
enum class noise_kind { none, gaussian, laplace, discrete_laplace, discrete_gaussian };

/// A mechanism as the privacy-loss law(s) of a dominating pair.
class mechanism {
 public:
  mechanism() = default;
  /// Law of the remove direction (the only one if symmetric()).
  [[nodiscard]] const detail::direction_law& remove_law() const { return *remove_; }
  /// Law of the add direction (== remove_law() when symmetric()).
  [[nodiscard]] const detail::direction_law& add_law() const { return add_ ? *add_ : *remove_; }
  [[nodiscard]] bool symmetric() const { return !add_; }
  [[nodiscard]] const std::string& description() const { return description_; }
  [[nodiscard]] noise_kind noise() const { return noise_; }
  [[nodiscard]] double sensitivity() const { return sensitivity_; }
  [[nodiscard]] double noise_scale() const { return scale_; }

  // construction (used by the builders)
  mechanism(detail::direction_law remove, std::string description)
      : remove_(std::make_shared<const detail::direction_law>(std::move(remove))),
        description_(std::move(description)) {}
  mechanism(detail::direction_law remove, detail::direction_law add, std::string description)
      : remove_(std::make_shared<const detail::direction_law>(std::move(remove))),
        add_(std::make_shared<const detail::direction_law>(std::move(add))),
        description_(std::move(description)) {}
  mechanism& with_noise(noise_kind k, double sensitivity, double scale) {
    noise_ = k;
    sensitivity_ = sensitivity;
    scale_ = scale;
    return *this;
  }

 private:
  std::shared_ptr<const detail::direction_law> remove_, add_;
  std::string description_;
  noise_kind noise_ = noise_kind::none;
  double sensitivity_ = 0, scale_ = 0;
};

namespace detail {

/// Weighted shifts of a mixture pair of an additive noise μ: P = Σ w_i μ(· - a_i),
/// Q = Σ v_i μ(· - b_i) (shifts in units of the sensitivity).
struct mixture_pair {
  std::vector<std::pair<ld, ld>> p;  // (weight, shift)
  std::vector<std::pair<ld, ld>> q;
};

/// Integer-supported noise: pmf(z) with relative error, tails, constant-loss lumps.
class integer_noise {
 public:
  virtual ~integer_noise() = default;
  /// log of the unnormalised pmf u(z) (exact up to kRel absolute in the log).
  [[nodiscard]] virtual ld log_u(ld z) const = 0;
  /// 1/normaliser as an interval [lo, hi].
  [[nodiscard]] virtual std::pair<ld, ld> inv_norm() const = 0;
  /// half-width K: the loss of a mixture with shifts in [smin, smax] is enumerated on
  /// [smin - K, smax + K]; beyond, either lumps (constant loss) or tail bounds are used.
  [[nodiscard]] virtual std::int64_t reach(ld tail) const = 0;
  /// Upper bound of Σ_{u >= m} pmf(u) (normalised), m >= 1.
  [[nodiscard]] virtual ld tail_bound(std::int64_t m) const = 0;
  /// True if the loss is constant beyond the enumerated range (discrete Laplace).
  [[nodiscard]] virtual bool constant_beyond() const = 0;
  /// Exact normalised mass Σ_{u >= m} pmf(u) for constant_beyond noises (with rel. error kRel).
  [[nodiscard]] virtual ld tail_exact(std::int64_t m) const { return tail_bound(m); }
};

class discrete_laplace_noise final : public integer_noise {
 public:
  explicit discrete_laplace_noise(ld t) : t_(t), c_(std::tanh(1 / (2 * t))) {}
  [[nodiscard]] ld log_u(ld z) const override { return -std::fabs(z) / t_; }
  [[nodiscard]] std::pair<ld, ld> inv_norm() const override {
    return {c_ * (1 - kRel), c_ * (1 + kRel)};
  }
  [[nodiscard]] std::int64_t reach(ld) const override { return 0; }
  [[nodiscard]] ld tail_bound(std::int64_t m) const override {
    return std::exp(-static_cast<ld>(m) / t_) / (1 + std::exp(-1 / t_)) * (1 + kRel);
  }
  [[nodiscard]] bool constant_beyond() const override { return true; }
  [[nodiscard]] ld tail_exact(std::int64_t m) const override {
    return std::exp(-static_cast<ld>(m) / t_) / (1 + std::exp(-1 / t_));
  }

 private:
  ld t_, c_;
};

class discrete_gaussian_noise final : public integer_noise {
 public:
  explicit discrete_gaussian_noise(ld sigma) : s2_(sigma * sigma), sigma_(sigma) {
    // normaliser Σ_z e^{-z²/2σ²} over |z| <= K plus a tail bound
    const std::int64_t k = reach(0x1p-200L);
    ld z = 1;
    for (std::int64_t x = 1; x <= k; ++x) z += 2 * std::exp(-static_cast<ld>(x) * x / (2 * s2_));
    const ld tail = 2 * raw_tail(k + 1);
    const ld rel = kRel + static_cast<ld>(k) * kUL * 4;
    inv_lo_ = 1 / ((z + tail) * (1 + rel));
    inv_hi_ = 1 / (z * (1 - rel));
  }
  [[nodiscard]] ld log_u(ld z) const override { return -z * z / (2 * s2_); }
  [[nodiscard]] std::pair<ld, ld> inv_norm() const override { return {inv_lo_, inv_hi_}; }
  [[nodiscard]] std::int64_t reach(ld tail) const override {
    return static_cast<std::int64_t>(std::ceil(sigma_ * std::sqrt(-2 * std::log(tail)) + 2));
  }
  [[nodiscard]] ld tail_bound(std::int64_t m) const override { return raw_tail(m) * inv_hi_; }
  [[nodiscard]] bool constant_beyond() const override { return false; }

 private:
  /// Σ_{u >= m} e^{-u²/2σ²} <= e^{-m²/2σ²} / (1 - e^{-m/σ²}) (ratio of consecutive terms).
  [[nodiscard]] ld raw_tail(std::int64_t m) const {
    const ld mm = static_cast<ld>(m);
    return std::exp(-mm * mm / (2 * s2_)) / (-std::expm1(-mm / s2_)) * (1 + kRel);
  }
  ld s2_, sigma_, inv_lo_ = 0, inv_hi_ = 0;
};

/// Atoms of a mixture pair of an integer noise with integer shifts; tails beyond the
/// enumerated range are lumped exactly (constant loss) or bounded (one-sided: the upper tail
/// goes to +infinity for pessimistic use together with the lower tail; optimistic use drops both).
inline direction_law integer_mixture_law(const integer_noise& mu, const mixture_pair& mp, ld tail) {
  ld smin = 0, smax = 0;
  bool first = true;
  for (const auto* side : {&mp.p, &mp.q})
    for (const auto& [w, a] : *side) {
      if (first || a < smin) smin = a;
      if (first || a > smax) smax = a;
      first = false;
    }
  const std::int64_t k = mu.reach(tail);
  const auto zlo = static_cast<std::int64_t>(smin) - k, zhi = static_cast<std::int64_t>(smax) + k;
  const auto inv = mu.inv_norm();  // not a structured binding: clang 14 cannot capture one
  const ld in_lo = inv.first, in_hi = inv.second;
  direction_law law;
  auto mix_log = [&](const std::vector<std::pair<ld, ld>>& side, ld z) {
    // log Σ w e^{log_u(z - a)}
    ld m = -kInf;
    for (const auto& [w, a] : side) m = std::max(m, std::log(w) + mu.log_u(z - a));
    ld s = 0;
    for (const auto& [w, a] : side) s += w * std::exp(mu.log_u(z - a) - m);
    return m + std::log(s);
  };
  auto mass = [&](ld logu) {
    const ld v = std::exp(logu);
    const ld lo = v * in_lo * (1 - kRel), hi = v * in_hi * (1 + kRel);
    return val{(lo + hi) / 2, (hi - lo) / 2};
  };
  for (std::int64_t z = zlo; z <= zhi; ++z) {
    const ld zz = static_cast<ld>(z);
    const ld lp = mix_log(mp.p, zz), lq = mix_log(mp.q, zz);
    const ld loss = lp - lq;
    law.atoms.push_back({{loss, kRel * (4 + std::fabs(lp) + std::fabs(lq))}, mass(lp), mass(lq)});
  }
  // beyond the range: masses Σ_i w_i Σ_{z > zhi} pmf(z - a_i) and Σ_i w_i Σ_{z < zlo} pmf(z - a_i)
  auto side_tail = [&](const std::vector<std::pair<ld, ld>>& side, bool upper, bool exact) {
    ld s = 0;
    for (const auto& [w, a] : side) {
      const auto m =
          upper ? zhi + 1 - static_cast<std::int64_t>(a) : static_cast<std::int64_t>(a) - (zlo - 1);
      s += w * (exact ? mu.tail_exact(m) : mu.tail_bound(m));
    }
    return s;
  };
  if (mu.constant_beyond()) {
    for (const bool upper : {true, false}) {
      const ld p = side_tail(mp.p, upper, true), q = side_tail(mp.q, upper, true);
      if (p > 0 && q > 0) {
        const ld loss = std::log(p) - std::log(q);
        law.atoms.push_back(
            {{loss, 4 * kRel * (1 + std::fabs(loss))}, {p, 2 * kRel * p}, {q, 2 * kRel * q}});
      }
    }
  } else {
    // both bounded tails go to +infinity (pessimistic) or are dropped (optimistic): the
    // loss may decrease in z (add direction), so neither end is known to be the larger loss.
    const ld up = side_tail(mp.p, true, false) + side_tail(mp.p, false, false);
    law.inf_mass = {up / 2, up / 2};
  }
  return law;
}

inline void require_pos(const char* fn, const char* what, double x) {
  if (!std::isfinite(x) || !(x > 0)) fail_domain(fn, what, "finite and > 0", x);
}

}  // namespace detail

/// Gaussian mechanism N(0, σ²) on a query of ℓ2 sensitivity Δ: pair (N(Δ, σ²), N(0, σ²)).
/// @spec ACC.PLD.GAUSS
inline mechanism gaussian(double sensitivity, double sigma) {
  detail::require_pos("pld::gaussian", "sensitivity", sensitivity);
  detail::require_pos("pld::gaussian", "sigma", sigma);
  detail::direction_law law;
  law.parts.push_back(std::make_shared<detail::gaussian_law>(static_cast<detail::ld>(sensitivity) /
                                                             static_cast<detail::ld>(sigma)));
  return mechanism(std::move(law), "gaussian").with_noise(noise_kind::gaussian, sensitivity, sigma);
}

/// Laplace mechanism Lap(b) on a query of ℓ1 sensitivity Δ: continuous part on (−Δ/b, Δ/b) and
/// atoms at ±Δ/b.
/// @spec ACC.PLD.LAPLACE
inline mechanism laplace(double sensitivity, double scale) {
  detail::require_pos("pld::laplace", "sensitivity", sensitivity);
  detail::require_pos("pld::laplace", "scale", scale);
  using detail::ld;
  const ld e = static_cast<ld>(sensitivity) / static_cast<ld>(scale);
  detail::direction_law law;
  law.parts.push_back(std::make_shared<detail::laplace_cont_law>(e));
  const ld ee = std::exp(-e);
  const ld de = detail::kUL * e;  // rounding of Δ/b
  law.atoms.push_back({{e, de}, {0.5L, 0}, {0.5L * ee, ee * detail::kRel}});
  law.atoms.push_back({{-e, de}, {0.5L * ee, ee * detail::kRel}, {0.5L, 0}});
  return mechanism(std::move(law), "laplace").with_noise(noise_kind::laplace, sensitivity, scale);
}

namespace detail {
inline mixture_pair plain_pair(ld shift) { return {{{1, shift}}, {{1, 0}}}; }

/// Integer noise Noise(scale) on an integer query of sensitivity 1 <= Δ <= 2^22 (checked around
/// `check_scale`), enumerated up to the mass `tail`.
template <class Noise, class CheckScale>
mechanism integer_query(const char* fn, const char* name, noise_kind kind, std::int64_t sensitivity,
                        double scale, ld tail, CheckScale check_scale) {
  if (sensitivity < 1) fail_domain(fn, "sensitivity", ">= 1", sensitivity);
  check_scale();
  if (sensitivity > (1 << 22)) fail_domain(fn, "sensitivity", "<= 2^22", sensitivity);
  const Noise mu(scale);
  auto law = integer_mixture_law(mu, plain_pair(static_cast<ld>(sensitivity)), tail);
  return mechanism(std::move(law), name).with_noise(kind, static_cast<double>(sensitivity), scale);
}
}  // namespace detail

/// Discrete Laplace noise P(z) ∝ exp(−|z|/t) on an integer query of sensitivity Δ >= 1.
/// @spec ACC.PLD.DLAPLACE
inline mechanism discrete_laplace(std::int64_t sensitivity, double scale) {
  constexpr const char* fn = "pld::discrete_laplace";
  return detail::integer_query<detail::discrete_laplace_noise>(
      fn, "discrete_laplace", noise_kind::discrete_laplace, sensitivity, scale, 0x1p-200L,
      [&] { detail::require_pos(fn, "scale", scale); });
}

/// Discrete Gaussian noise N_Z(0, σ²) (P(z) ∝ exp(−z²/2σ²)) on an integer query of sensitivity
/// Δ >= 1. The mass beyond σ·sqrt(2·200 ln 2) of the enumerated range is bounded (< 2^-190).
/// @spec ACC.PLD.DGAUSS
inline mechanism discrete_gaussian(std::int64_t sensitivity, double sigma) {
  constexpr const char* fn = "pld::discrete_gaussian";
  return detail::integer_query<detail::discrete_gaussian_noise>(
      fn, "discrete_gaussian", noise_kind::discrete_gaussian, sensitivity, sigma, 0x1p-100L, [&] {
        detail::require_pos(fn, "sigma", sigma);
        if (sigma > 1e5) fail_domain(fn, "sigma", "<= 1e5", sigma);
      });
}

/// k-ary randomized response with parameter ε0 (report the true value with probability
/// e^{ε0}/(e^{ε0} + k − 1), each other value with 1/(e^{ε0} + k − 1)), replace-one
/// neighbouring: atoms at ±ε0 and (k > 2) at 0.
/// @spec ACC.PLD.RR
inline mechanism randomized_response(double eps0, std::int64_t k) {
  detail::require_pos("pld::randomized_response", "eps0", eps0);
  if (k < 2) fail_domain("pld::randomized_response", "k", ">= 2", k);
  using detail::kRel;
  using detail::ld;
  const ld e = eps0, em = std::exp(-e), km1 = static_cast<ld>(k - 1);
  const ld hi = 1 / (1 + km1 * em);   // e^ε/(e^ε + k − 1)
  const ld lo = em / (1 + km1 * em);  // 1/(e^ε + k − 1)
  detail::direction_law law;
  law.atoms.push_back({{e, 0}, {hi, hi * kRel}, {lo, lo * kRel}});
  law.atoms.push_back({{-e, 0}, {lo, lo * kRel}, {hi, hi * kRel}});
  if (k > 2) {
    const ld mid = static_cast<ld>(k - 2) * lo;
    law.atoms.push_back({{0, 0}, {mid, mid * kRel}, {mid, mid * kRel}});
  }
  return mechanism(std::move(law), "randomized_response");
}

/// Worst case over all ε-bounded-range mechanisms — in particular the exponential mechanism
/// sampling ∝ exp(ε u/(2Δu)) (and ∝ exp(ε u/Δu) for monotone utilities): the pair whose
/// hockey-stick curve is δ(ε') = (e^{ε/2} − e^{ε'/2})²/(e^ε − 1) for 0 <= ε' <= ε (closed form;
/// spec ACC.PLD.EXPMECH for the derivation). Symmetric.
/// @spec ACC.PLD.EXPMECH
inline mechanism exponential_mechanism_worst_case(double eps) {
  detail::require_pos("pld::exponential_mechanism_worst_case", "eps", eps);
  if (eps > 700) fail_domain("pld::exponential_mechanism_worst_case", "eps", "<= 700", eps);
  detail::direction_law law;
  law.parts.push_back(std::make_shared<detail::bounded_range_law>(eps));
  return mechanism(std::move(law), "exponential_mechanism_worst_case");
}

/// Amplification by subsampling of an additive-noise mechanism (gaussian, laplace,
/// discrete_laplace, discrete_gaussian). Dominating pairs (μ the noise, Δ the sensitivity =
/// largest contribution of one record, γ the sampling rate):
///   poisson, add_remove:   remove ((1−q)μ + qμ_Δ, μ), add (μ, (1−q)μ + qμ_Δ);
///   poisson, replace_one:  ((1−q)μ + qμ_Δ, (1−q)μ + qμ_{−Δ}) (symmetric);
///   without_replacement (m of n), add_remove: as Poisson add/remove with γ = m/n (n the larger
///     dataset) and shift 2Δ;
///   without_replacement, replace_one: the symmetrisation of ((1−γ)μ + γμ_{2Δ}, μ), γ = m/n.
/// @throws std::domain_error for invalid rates, non-additive mechanisms, or the one unsupported
///         combination (Laplace noise with Poisson sampling under replace_one).
/// @spec ACC.PLD.SUBSAMPLE.POISSON ACC.PLD.SUBSAMPLE.WOR
inline mechanism subsample(const mechanism& base, const sampling& s) {
  constexpr const char* fn = "pld::subsample";
  using detail::ld;
  using detail::transform_dir;
  const noise_kind nk = base.noise();
  if (nk == noise_kind::none)
    fail_argument(fn, "base", "an additive-noise mechanism (gaussian, laplace, discrete_*)",
                  base.description());
  ld r = 0;
  bool wor = s.scheme == sampling_scheme::without_replacement;
  if (!wor) {
    if (!std::isfinite(s.rate) || !(s.rate > 0) || s.rate > 1)
      fail_domain(fn, "rate", "in (0, 1]", s.rate);
    r = s.rate;
  } else {
    if (s.n < 1) fail_domain(fn, "n", ">= 1", s.n);
    if (s.m < 1 || s.m > s.n) fail_domain(fn, "m", "in [1, n]", s.m);
    r = static_cast<ld>(s.m) / static_cast<ld>(s.n);
  }
  const double sens = base.sensitivity(), sc = base.noise_scale();
  const ld shift = wor ? 2 : 1;  // in units of the sensitivity
  const bool full = (r == 1);
  const std::string desc =
      base.description() + (wor ? "/wor" : "/poisson") +
      (s.relation == neighbouring::add_remove ? "/add_remove" : "/replace_one");
  auto rebuild = [&](double sensitivity) {
    switch (nk) {
      case noise_kind::gaussian:
        return gaussian(sensitivity, sc);
      case noise_kind::laplace:
        return laplace(sensitivity, sc);
      case noise_kind::discrete_laplace:
        return discrete_laplace(static_cast<std::int64_t>(sensitivity), sc);
      default:
        return discrete_gaussian(static_cast<std::int64_t>(sensitivity), sc);
    }
  };
  const bool integer = nk == noise_kind::discrete_laplace || nk == noise_kind::discrete_gaussian;
  std::unique_ptr<detail::integer_noise> inoise;
  if (nk == noise_kind::discrete_laplace)
    inoise = std::make_unique<detail::discrete_laplace_noise>(sc);
  if (nk == noise_kind::discrete_gaussian)
    inoise = std::make_unique<detail::discrete_gaussian_noise>(sc);
  const ld d = static_cast<ld>(sens) * shift;

  // Poisson replace-one: three-point mixture.
  if (!wor && s.relation == neighbouring::replace_one) {
    if (full) return rebuild(2 * sens);
    if (integer) {
      detail::mixture_pair mp{{{1 - r, 0}, {r, static_cast<ld>(sens)}},
                              {{1 - r, 0}, {r, -static_cast<ld>(sens)}}};
      auto law = detail::integer_mixture_law(*inoise, mp, 0x1p-100L);
      return mechanism(std::move(law), desc);
    }
    if (nk == noise_kind::laplace)
      fail_argument(fn, "base",
                    "not Laplace noise with Poisson sampling under replace_one (not implemented)",
                    base.description());
    detail::direction_law law;
    law.parts.push_back(std::make_shared<detail::gaussian_three_point_law>(
        static_cast<ld>(sens) / static_cast<ld>(sc), r));
    return mechanism(std::move(law), desc);
  }
  // Shift-d base pair, then the remove/add transforms with rate r.
  if (full && !wor) return rebuild(sens);
  if (integer) {
    detail::mixture_pair rem{{{1 - r, 0}, {r, d}}, {{1, 0}}};
    detail::mixture_pair add{{{1, 0}}, {{1 - r, 0}, {r, d}}};
    if (full) rem = detail::plain_pair(d), add = detail::mixture_pair{{{1, 0}}, {{1, d}}};
    auto lr = detail::integer_mixture_law(*inoise, rem, 0x1p-100L);
    if (s.relation == neighbouring::replace_one) return mechanism(detail::symmetrise(lr), desc);
    auto la = detail::integer_mixture_law(*inoise, add, 0x1p-100L);
    return mechanism(std::move(lr), std::move(la), desc);
  }
  const mechanism b = rebuild(static_cast<double>(d));
  auto transform = [&](transform_dir dir) {
    detail::direction_law law;
    if (full) return b.remove_law();
    for (const auto& part : b.remove_law().parts)
      law.parts.push_back(std::make_shared<detail::poisson_transform_law>(part, r, dir));
    for (const auto& a : b.remove_law().atoms)
      law.atoms.push_back(detail::transform_atom(a, r, dir));
    return law;
  };
  if (s.relation == neighbouring::replace_one)
    return mechanism(detail::symmetrise(transform(transform_dir::remove)), desc);
  return mechanism(transform(transform_dir::remove), transform(transform_dir::add), desc);
}

}  // namespace dpref::accounting::pld

// Discretised privacy-loss distributions: certified discretisation (pessimistic connect-the-dots
// and optimistic garbling sweep), composition by FFT with a round-off bound, self-composition
// by repeated squaring, δ(ε), ε(δ) and the privacy profile (spec/accounting_pld.md).
//
// Certification invariant of a discrete_pld with masses m, infinity mass m_∞ and `error` E:
// there is a non-negative measure ω on the same grid, with ω_∞ at +∞, such that
//   pessimistic: H_true(t) <= H_ω(t) for all t >= 0,   optimistic: H_true(t) >= H_ω(t),
// where H_ω(t) = Σ_j ω_j (1 − t e^{−l_j})_+ + ω_∞ is the hockey-stick curve, and
//   Σ_j |m_j − ω_j| + |m_∞ − ω_∞| <= E.
// Hence δ_true(ε) <= Σ_{l_j > ε} m_j (1 − e^{ε − l_j}) + m_∞ + E (pessimistic), and the same
// minus 2E bounds it from below for the optimistic variant.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dpref/accounting/pld/discrete_pld.hpp"
#include "dpref/accounting/pld/discretisation.hpp"
#include "dpref/accounting/pld/fft.hpp"
#include "dpref/accounting/pld/mechanisms.hpp"
#include "dpref/accounting/pld/power.hpp"
#include "dpref/error.hpp"

namespace dpref::accounting::pld {

namespace detail {

/// Removes leading/trailing zero masses, clamps negatives (free: the certified measure is
/// non-negative) and moves tails of mass <= tau: pessimistic — lower tail up to the first kept
/// loss, upper tail to +∞; optimistic — lower tail dropped, upper tail down to the last kept
/// loss.
inline void truncate(discrete_pld& d, double tau) {
  auto& m = d.masses;
  for (double& x : m)
    if (!(x > 0)) x = 0;
  std::size_t lo = 0, hi = m.size();
  long double s = 0;
  while (lo + 1 < hi && s + m[lo] <= tau) s += m[lo++];
  const long double low = s;
  s = 0;
  while (hi > lo + 1 && s + m[hi - 1] <= tau) s += m[--hi];
  const long double up = s;
  const bool pess = d.kind == estimate::pessimistic;
  double moved_err = 0;
  if (pess) {
    const long double v = m[lo] + low;
    m[lo] = static_cast<double>(v);
    d.infinity_mass = static_cast<double>(d.infinity_mass + up);
    moved_err = static_cast<double>((v + d.infinity_mass) * 0x1p-52L +
                                    (low + up) * static_cast<long double>(m.size()) * 0x1p-63L);
  } else {
    const long double v = m[hi - 1] + up;
    m[hi - 1] = static_cast<double>(v);
    moved_err =
        static_cast<double>(v * 0x1p-52L + up * static_cast<long double>(m.size()) * 0x1p-63L);
  }
  d.error += moved_err;
  d.truncated_mass += static_cast<double>(low + up);
  if (lo > 0 || hi < m.size()) {
    m = std::vector<double>(m.begin() + static_cast<std::ptrdiff_t>(lo),
                            m.begin() + static_cast<std::ptrdiff_t>(hi));
    d.offset += static_cast<std::int64_t>(lo);
  }
}

inline long double sum_of(const std::vector<double>& m) {
  long double s = 0;
  for (const double x : m) s += x;
  return s;
}

/// Composition of two discrete PLDs of the same kind and grid.
inline discrete_pld compose_one(const discrete_pld& a, const discrete_pld& b, double tau,
                                fft_plan& plan, double weight = 1,
                                std::size_t max_points = std::size_t{1} << 26) {
  if (a.kind != b.kind)
    fail_argument("pld::compose", "b.kind", "equal to a.kind", static_cast<int>(b.kind));
  if (a.interval != b.interval)
    fail_argument("pld::compose", "b.interval", "equal to a.interval", b.interval);
  // memory bound: the composed grid must stay below 2^26 points (512 MiB of masses)
  if (a.masses.size() + b.masses.size() > (std::size_t{1} << 26))
    fail_domain("pld::compose", "grid points of the composition",
                "<= 2^26 (512 MiB): use a coarser interval or the RDP accountant",
                a.masses.size() + b.masses.size());
  if (a.masses.size() + b.masses.size() > max_points)
    fail_domain("pld::compose", "grid points of the composition",
                "<= options.max_points = " + std::to_string(max_points) +
                    " (raise pld_max_points, use a coarser pld_interval or the RDP accountant)",
                a.masses.size() + b.masses.size());
  discrete_pld c;
  c.kind = a.kind;
  c.interval = a.interval;
  c.offset = a.offset + b.offset;
  double conv_err = 0;
  c.masses = (&a == &b) ? convolve(a.masses, a.masses, plan, conv_err, weight)
                        : convolve(a.masses, b.masses, plan, conv_err, weight);
  const long double ma = sum_of(a.masses), mb = sum_of(b.masses);
  const long double ia = a.infinity_mass, ib = b.infinity_mass;
  const long double inf = ia * (mb + ib) + ma * ib;
  c.infinity_mass = static_cast<double>(inf);
  // ℓ1 error of the product of extended vectors: E_a ‖b‖ + ‖ω_a‖ E_b + FFT + rounding
  const long double na = ma + ia, nb = mb + ib;
  const long double e =
      a.error * nb + (na + a.error) * b.error + conv_err + inf * 0x1p-50L +
      (na * nb) * static_cast<long double>(a.masses.size() + b.masses.size()) * 0x1p-63L;
  c.error = static_cast<double>(e * (1 + 0x1p-40L));
  c.truncated_mass = a.truncated_mass + b.truncated_mass;
  // tails below the round-off level are indistinguishable from noise: truncate those too
  truncate(c, tau + conv_err);
  return c;
}

/// Certified δ(ε) of one direction (upper bound if pessimistic, lower bound if optimistic).
inline double delta_of(const discrete_pld& d, double eps) {
  const ld e = eps;
  const ld h = d.interval;
  ld s = 0, mtot = 0, lmax = 0;
  std::size_t cnt = 0;
  for (std::size_t j = 0; j < d.masses.size(); ++j) {
    const ld m = d.masses[j];
    mtot += m;
    const ld l = static_cast<ld>(d.offset + static_cast<std::int64_t>(j)) * h;
    lmax = std::max(lmax, std::fabs(l));
    if (l > e && m > 0) {
      s += m * -std::expm1(e - l);
      ++cnt;
    }
  }
  const ld err = s * (static_cast<ld>(cnt + 4) * kUL + 4 * kLibm) +
                 mtot * 0x1p-60L * (std::fabs(e) + lmax + 1);
  if (d.kind == estimate::pessimistic)
    return std::min(1.0, round_up(s + err + d.infinity_mass + d.error));
  return std::max(0.0, round_down(s - err + d.infinity_mass - d.error));
}

}  // namespace detail

inline double discrete_pld::total_mass() const {
  return static_cast<double>(detail::sum_of(masses) + infinity_mass);
}

/// @spec ACC.PLD.QUERY
inline double discrete_pld::delta_for_epsilon(double eps) const {
  if (std::isnan(eps)) fail_domain("pld::delta_for_epsilon", "eps", "not NaN", eps);
  if (eps == std::numeric_limits<double>::infinity())
    return kind == estimate::pessimistic
               ? std::min(1.0, detail::round_up(static_cast<detail::ld>(infinity_mass) + error))
               : std::max(0.0, infinity_mass - error);
  return detail::delta_of(*this, eps);
}

/// @spec ACC.PLD.QUERY
inline double discrete_pld::epsilon_for_delta(double delta) const {
  using detail::ld;
  if (!std::isfinite(delta) || !(delta > 0) || !(delta < 1))
    fail_domain("pld::epsilon_for_delta", "delta", "in (0, 1)", delta);
  const bool pess = kind == estimate::pessimistic;
  const double inf = std::numeric_limits<double>::infinity();
  // pessimistic: smallest certified ε >= 0 with δ_up(ε) <= δ;
  // optimistic: an ε_lo >= 0 with δ_low(ε_lo) >= δ (then the exact ε is >= ε_lo).
  auto ok = [&](double e) {
    const double d = detail::delta_of(*this, e);
    return pess ? d <= delta : d >= delta;
  };
  if (pess && (infinity_mass + error >= delta)) return inf;
  if (pess && ok(0.0)) return 0.0;
  if (!pess && !ok(0.0)) return 0.0;
  // candidate from the exact piecewise form A_k − e^{ε − l_k} B_k on (l_{k−1}, l_k]
  const std::size_t n = masses.size();
  std::vector<ld> A(n + 1, 0), B(n + 1, 0);
  const ld eh = std::exp(-static_cast<ld>(interval));
  for (std::size_t k = n; k-- > 0;) {
    A[k] = A[k + 1] + masses[k];
    B[k] = masses[k] + eh * B[k + 1];
  }
  const ld target = static_cast<ld>(delta) - infinity_mass - (pess ? error : -error);
  // D(l_k) = A_{k+1} − e^{−h} B_{k+1}, decreasing in k; find the first k with D(l_k) <= target
  std::size_t lo = 0, hi = n;  // answer in [lo, hi]
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    const ld dk = A[mid + 1] - eh * B[mid + 1];
    if (dk <= target)
      hi = mid;
    else
      lo = mid + 1;
  }
  double cand;
  if (lo >= n) {
    cand = loss(n - 1);
  } else {
    const ld lk =
        static_cast<ld>(offset + static_cast<std::int64_t>(lo)) * static_cast<ld>(interval);
    const ld num = A[lo] - target;
    cand = (num > 0 && B[lo] > 0) ? static_cast<double>(lk + std::log(num / B[lo]))
                                  : static_cast<double>(lk);
    if (std::isnan(cand)) cand = static_cast<double>(lk);
  }
  cand = std::max(cand, 0.0);
  // certify by stepping in the safe direction
  double step = std::ldexp(std::max(1.0, std::fabs(cand)), -50);
  if (pess) {
    if (ok(cand)) {
      // try to lower a little (the candidate may be slightly above the certified optimum)
      for (int i = 0; i < 8; ++i) {
        const double c2 = std::max(0.0, cand - step);
        if (c2 == cand || !ok(c2)) break;
        cand = c2;
      }
      return cand;
    }
    for (int i = 0; i < 4000; ++i) {
      cand += step;
      if (ok(cand)) return cand;
      step *= 2;
    }
    return inf;
  }
  if (ok(cand)) return cand;
  for (int i = 0; i < 4000; ++i) {
    cand = std::max(0.0, cand - step);
    if (cand == 0.0 || ok(cand)) return cand;
    step *= 2;
  }
  return 0.0;
}

/// @spec ACC.PLD.QUERY
inline std::vector<profile_point> discrete_pld::profile(const std::vector<double>& epsilons) const {
  std::vector<profile_point> out;
  out.reserve(epsilons.size());
  for (const double e : epsilons) out.push_back({e, delta_for_epsilon(e)});
  return out;
}

/// Whole profile at the grid losses >= 0 (O(n) after suffix sums; each δ carries its own
/// explicit error term for the cancellation in A − e^{−h} B).
/// @spec ACC.PLD.QUERY
inline std::vector<profile_point> discrete_pld::profile() const {
  using detail::ld;
  const std::size_t n = masses.size();
  std::vector<ld> A(n + 1, 0), B(n + 1, 0);
  const ld eh = std::exp(-static_cast<ld>(interval));
  for (std::size_t k = n; k-- > 0;) {
    A[k] = A[k + 1] + std::max(0.0, masses[k]);
    B[k] = std::max(0.0, masses[k]) + eh * B[k + 1];
  }
  std::vector<profile_point> out;
  const bool pess = kind == estimate::pessimistic;
  for (std::size_t k = 0; k < n; ++k) {
    const double l = loss(k);
    if (l < 0) continue;
    const ld d = A[k + 1] - eh * B[k + 1];
    const ld err = (static_cast<ld>(n) + 8) * detail::kUL * 4 * (A[k + 1] + B[k + 1]) +
                   2 * detail::kLibm * B[k + 1] +
                   (A[k + 1] + B[k + 1]) * 0x1p-60L * (std::fabs(static_cast<ld>(l)) + 1);
    const double v = pess ? std::min(1.0, detail::round_up(d + err + infinity_mass + error))
                          : std::max(0.0, detail::round_down(d - err + infinity_mass - error));
    out.push_back({l, v});
    if (A[k + 1] == 0) break;
  }
  return out;
}

/// Discretises a mechanism (both directions).
/// @spec ACC.PLD.DISCRETISE
inline privacy_loss_distribution discretise(const mechanism& m, const options& o = {}) {
  detail::validate_options("pld::discretise", o);
  auto one = [&](const detail::direction_law& law) {
    return o.kind == estimate::pessimistic ? detail::discretise_pessimistic(law, o)
                                           : detail::discretise_optimistic(law, o);
  };
  privacy_loss_distribution out;
  out.remove = one(m.remove_law());
  if (!m.symmetric()) out.add = one(m.add_law());
  return out;
}

/// Composition (heterogeneous): PLD of running a then b. Both must have the same interval and
/// kind; tails of mass <= options.tail_mass are truncated (charged as described in `truncate`).
/// @spec ACC.PLD.COMPOSE
inline privacy_loss_distribution compose(const privacy_loss_distribution& a,
                                         const privacy_loss_distribution& b,
                                         const options& o = {}) {
  detail::validate_options("pld::compose", o);
  detail::fft_plan plan;
  privacy_loss_distribution c;
  c.remove = detail::compose_one(a.remove, b.remove, o.tail_mass, plan, 1, o.max_points);
  if (!a.symmetric() || !b.symmetric())
    c.add = detail::compose_one(a.add_or_remove(), b.add_or_remove(), o.tail_mass, plan, 1,
                                o.max_points);
  return c;
}

/// Composition of many PLDs by a balanced tree (one FFT plan shared).
/// @spec ACC.PLD.COMPOSE
inline privacy_loss_distribution compose_all(std::vector<privacy_loss_distribution> list,
                                             const options& o = {}) {
  detail::validate_options("pld::compose_all", o);
  if (list.empty()) fail_argument("pld::compose_all", "list", "non-empty", 0);
  detail::fft_plan plan;
  while (list.size() > 1) {
    std::vector<privacy_loss_distribution> next;
    next.reserve((list.size() + 1) / 2);
    for (std::size_t i = 0; i + 1 < list.size(); i += 2) {
      privacy_loss_distribution c;
      c.remove = detail::compose_one(list[i].remove, list[i + 1].remove, o.tail_mass, plan, 1,
                                     o.max_points);
      if (!list[i].symmetric() || !list[i + 1].symmetric())
        c.add = detail::compose_one(list[i].add_or_remove(), list[i + 1].add_or_remove(),
                                    o.tail_mass, plan, 1, o.max_points);
      next.push_back(std::move(c));
    }
    if (list.size() % 2) next.push_back(std::move(list.back()));
    list = std::move(next);
  }
  return std::move(list.front());
}

/// k-fold self-composition. Pessimistic: one FFT, a pointwise k-th power and one inverse FFT
/// on a window chosen by Chernoff bounds (pld/power.hpp, ACC.PLD.POWER), then a truncation
/// with options.tail_mass. Optimistic: repeated squaring, O(log k) convolutions; a truncation
/// of an intermediate result holding c copies uses the tail mass options.tail_mass·c/k, so
/// each truncation contributes at most options.tail_mass to the final δ.
/// @spec ACC.PLD.SELFCOMPOSE ACC.PLD.POWER
inline privacy_loss_distribution self_compose(const privacy_loss_distribution& a, std::uint64_t k,
                                              const options& o = {}) {
  detail::validate_options("pld::self_compose", o);
  if (k < 1) fail_domain("pld::self_compose", "k", ">= 1", k);
  detail::fft_plan plan;
  auto power = [&](const discrete_pld& base0) {
    if (base0.kind == estimate::pessimistic && k > 1 && !o.squaring) {
      discrete_pld c = detail::fft_power(base0, k, o.tail_mass, o.max_points);
      detail::truncate(c, o.tail_mass);
      return c;
    }
    const double kk = static_cast<double>(k);
    discrete_pld base = base0;
    std::optional<discrete_pld> result;
    std::uint64_t rem = k, cb = 1, cr = 0;
    while (rem) {
      if (rem & 1) {
        if (result) {
          cr += cb;
          result = detail::compose_one(*result, base, o.tail_mass * static_cast<double>(cr) / kk,
                                       plan, kk / static_cast<double>(cr), o.max_points);
        } else {
          result = base;
          cr = cb;
        }
      }
      rem >>= 1;
      if (rem) {
        cb *= 2;
        base = detail::compose_one(base, base, o.tail_mass * static_cast<double>(cb) / kk, plan,
                                   kk / static_cast<double>(cb), o.max_points);
      }
    }
    return *result;
  };
  privacy_loss_distribution c;
  c.remove = power(a.remove);
  if (a.add) c.add = power(*a.add);
  return c;
}

}  // namespace dpref::accounting::pld

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
#include <utility>
#include <vector>

#include "dpref/accounting/pld/fft.hpp"
#include "dpref/accounting/pld/mechanisms.hpp"
#include "dpref/error.hpp"

namespace dpref::accounting::pld {

/// Direction of the discretisation error.
enum class estimate {
  pessimistic,  ///< every δ / ε reported is an upper bound of the exact value
  optimistic    ///< every δ / ε reported is a lower bound of the exact value
};

/// Discretisation and truncation options.
struct options {
  double interval = 1e-3;    ///< grid spacing h of the privacy loss
  double tail_mass = 1e-15;  ///< mass per truncation (discretisation range, each composition)
  estimate kind = estimate::pessimistic;
};

/// One point of a privacy profile.
struct profile_point {
  double epsilon;
  double delta;
};

/// A privacy-loss distribution of one neighbouring direction on the grid {(offset + j) h}.
struct discrete_pld {
  estimate kind = estimate::pessimistic;
  double interval = 1e-3;      ///< h
  std::int64_t offset = 0;     ///< masses[0] sits at loss offset·h
  std::vector<double> masses;  ///< P-masses (non-negative)
  double infinity_mass = 0;    ///< P-mass at loss +∞ (tails sent to +∞ are included)
  double error = 0;            ///< E of the certification invariant (round-off of FFTs, sums)
  double truncated_mass = 0;   ///< informational: mass moved by range truncations

  [[nodiscard]] double loss(std::size_t j) const {
    return static_cast<double>(static_cast<detail::ld>(offset + static_cast<std::int64_t>(j)) *
                               static_cast<detail::ld>(interval));
  }
  [[nodiscard]] double total_mass() const;
  [[nodiscard]] double delta_for_epsilon(double eps) const;
  [[nodiscard]] double epsilon_for_delta(double delta) const;
  [[nodiscard]] std::vector<profile_point> profile(const std::vector<double>& epsilons) const;
  [[nodiscard]] std::vector<profile_point> profile() const;
};

/// The PLD of a mechanism: remove direction and (if not symmetric) add direction; δ(ε) is the
/// larger of the two.
struct privacy_loss_distribution {
  discrete_pld remove;
  std::optional<discrete_pld> add;  ///< empty: symmetric (same as remove)

  [[nodiscard]] bool symmetric() const { return !add.has_value(); }
  [[nodiscard]] const discrete_pld& add_or_remove() const { return add ? *add : remove; }
  [[nodiscard]] estimate kind() const { return remove.kind; }
  [[nodiscard]] double delta_for_epsilon(double eps) const {
    const double r = remove.delta_for_epsilon(eps);
    return add ? std::max(r, add->delta_for_epsilon(eps)) : r;
  }
  [[nodiscard]] double epsilon_for_delta(double delta) const {
    const double r = remove.epsilon_for_delta(delta);
    return add ? std::max(r, add->epsilon_for_delta(delta)) : r;
  }
  /// Certified profile at the given ε (δ = max over the directions).
  [[nodiscard]] std::vector<profile_point> profile(const std::vector<double>& epsilons) const {
    auto p = remove.profile(epsilons);
    if (add) {
      const auto q = add->profile(epsilons);
      for (std::size_t i = 0; i < p.size(); ++i) p[i].delta = std::max(p[i].delta, q[i].delta);
    }
    return p;
  }
  /// The whole profile: δ at every grid loss >= 0 up to where δ stops changing (δ is of the
  /// form A − B e^ε between consecutive grid losses).
  [[nodiscard]] std::vector<profile_point> profile() const {
    if (!add) return remove.profile();
    std::vector<double> eps;
    for (const auto* d : {&remove, &*add})
      for (const auto& pt : d->profile()) eps.push_back(pt.epsilon);
    std::sort(eps.begin(), eps.end());
    eps.erase(std::unique(eps.begin(), eps.end()), eps.end());
    return profile(eps);
  }
};

namespace detail {

inline void validate_options(const char* fn, const options& o) {
  if (!std::isfinite(o.interval) || !(o.interval >= 1e-7) || o.interval > 1)
    fail_domain(fn, "options.interval", "in [1e-7, 1]", o.interval);
  if (!std::isfinite(o.tail_mass) || !(o.tail_mass > 0) || o.tail_mass > 1e-3)
    fail_domain(fn, "options.tail_mass", "in (0, 1e-3]", o.tail_mass);
}

/// Upper bound of P(finite L > l) and of P(L <= l) of a law.
inline ld upper_mass(const direction_law& law, ld l) {
  ld s = 0;
  for (const auto& part : law.parts) s += std::max<ld>(0, part->tails(l, 0).tp.hi());
  for (const auto& a : law.atoms)
    if (a.loss.hi() > l) s += a.p.hi();
  return s;
}
inline ld lower_mass(const direction_law& law, ld l) {
  ld s = 0;
  for (const auto& part : law.parts) s += std::max<ld>(0, part->tails(l, 0).gp.hi());
  for (const auto& a : law.atoms)
    if (a.loss.lo() <= l) s += a.p.hi();
  return s;
}

/// Grid index range [jlo, jhi] outside of which each side carries mass <= tau.
inline std::pair<std::int64_t, std::int64_t> grid_range(const direction_law& law, double h,
                                                        ld tau) {
  ld lmax = -kInf, lmin = kInf;
  for (const auto& part : law.parts) {
    lmax = std::max(lmax, part->lmax());
    lmin = std::min(lmin, part->lmin());
  }
  for (const auto& a : law.atoms) {
    lmax = std::max(lmax, a.loss.hi());
    lmin = std::min(lmin, a.loss.lo());
  }
  if (!(lmax >= lmin)) lmax = lmin = 0;
  auto search = [&](bool upper) {
    // monotone predicate: ok(l) = mass beyond l <= tau
    auto ok = [&](ld l) { return upper ? upper_mass(law, l) <= tau : lower_mass(law, l) <= tau; };
    const ld edge = upper ? lmax : lmin;
    ld good, bad;
    if (std::isfinite(edge)) {
      good = edge + (upper ? 1 : -1) * (std::fabs(edge) * 1e-12L + 1e-12L);
      bad = upper ? std::min<ld>(lmin, 0) - 1 : std::max<ld>(lmax, 0) + 1;
      if (!std::isfinite(bad)) bad = upper ? -1 : 1;
      if (ok(bad)) return bad;
    } else {
      ld step = 1;
      bad = upper ? std::max<ld>(std::isfinite(lmin) ? lmin : -1, -1)
                  : std::min<ld>(std::isfinite(lmax) ? lmax : 1, 1);
      if (ok(bad)) return bad;
      good = bad + (upper ? step : -step);
      while (!ok(good)) {
        step *= 2;
        good = bad + (upper ? step : -step);
        if (step > 1e7L)
          fail_domain("pld::discretise", "mechanism",
                      "with a tail <= tail_mass inside |loss| <= 1e7", static_cast<double>(step));
      }
    }
    for (int it = 0; it < 200 && std::fabs(good - bad) > h * 0.25; ++it) {
      const ld mid = (good + bad) / 2;
      (ok(mid) ? good : bad) = mid;
    }
    return good;
  };
  const ld hi = search(true), lo = search(false);
  const auto jhi = static_cast<std::int64_t>(std::ceil(hi / h));
  auto jlo = static_cast<std::int64_t>(std::floor(lo / h));
  if (jlo >= jhi) jlo = jhi - 1;
  if (jhi - jlo > (std::int64_t{1} << 27))
    fail_domain("pld::discretise", "options.interval", "large enough for <= 2^27 grid points", h);
  return {jlo, jhi};
}

/// Cell masses between two tail evaluations (lower boundary a, upper b): P((a, b]), Q((a, b]).
inline std::pair<val, val> cell_masses(const tail4& a, const tail4& b) {
  const val p = (a.tp.v <= b.gp.v) ? a.tp - b.tp : b.gp - a.gp;
  const val q = (a.tq.v <= b.gq.v) ? a.tq - b.tq : b.gq - a.gq;
  return {p, q};
}
/// E_P[1 − e^{t − L}; cell] = P(cell) − e^t Q(cell).
inline val excess(const val& p, const val& q, ld t) { return p - scale(q, std::exp(t), kLibm); }

inline ld pos(ld x) { return x > 0 ? x : 0; }

/// Pessimistic connect-the-dots: each cell's mass is split between its two end nodes so that
/// its P- and Q-mass are preserved (a Blackwell refinement of the pair); upper bounds used.
inline discrete_pld discretise_pessimistic(const direction_law& law, const options& o) {
  const double h = o.interval;
  const auto [jlo, jhi] = grid_range(law, h, o.tail_mass);
  const auto n = static_cast<std::size_t>(jhi - jlo + 1);
  std::vector<ld> node(n), acc(n, 0);
  std::vector<int> cnt(n, 0);
  for (std::size_t i = 0; i < n; ++i) node[i] = node_down(jlo + static_cast<std::int64_t>(i), h);
  ld inf = pos(law.inf_mass.hi());
  auto add = [&](std::size_t i, ld v) {
    acc[i] += v;
    ++cnt[i];
  };
  auto split = [&](std::size_t i, const val& p, const val& e) {
    // cell (node[i], node[i+1]]: b = e/(1 − e^{−w}) to node i+1, a = p − b to node i
    const ld w = (node[i + 1] - node[i]) * (1 - 0x1p-62L);
    const ld b = pos(e.hi()) / (-std::expm1(-w)) * (1 + 4 * kLibm);
    add(i + 1, b);
    add(i, pos(p.hi() - b));
  };
  std::vector<tail4> t(n);
  for (const auto& part : law.parts) {
    for (std::size_t i = 0; i < n; ++i) t[i] = part->tails(node[i], 0);
    add(0, pos(t[0].gp.hi()));
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const auto [p, q] = cell_masses(t[i], t[i + 1]);
      split(i, p, excess(p, q, node[i]));
    }
    // above the top node: the excess δ(ν_top) goes to +∞, the rest to the top node
    const val p = t[n - 1].tp, e = excess(p, t[n - 1].tq, node[n - 1]);
    inf += pos(e.hi());
    add(n - 1, pos(p.hi() - e.hi()));
  }
  for (const auto& a : law.atoms) {
    const ld l = a.loss.hi(), p = pos(a.p.hi());
    if (p == 0) continue;
    if (l <= node[0]) {
      add(0, p);
    } else if (l > node[n - 1]) {
      const ld f = std::exp(node[n - 1] - l);
      inf += p * -std::expm1(node[n - 1] - l) * (1 + 2 * kLibm);
      add(n - 1, p * f * (1 + 2 * kLibm));
    } else {
      auto i =
          static_cast<std::size_t>(std::upper_bound(node.begin(), node.end(), l) - node.begin());
      i = std::min(std::max<std::size_t>(i, 1), n - 1) - 1;  // node[i] < l <= node[i+1]
      const val pv{p, 0};
      split(i, pv, val{p * -std::expm1(node[i] - l), p * 2 * kLibm});
    }
  }
  discrete_pld out;
  out.kind = estimate::pessimistic;
  out.interval = h;
  out.offset = jlo;
  out.masses.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    out.masses[i] = round_up(acc[i] * (1 + (cnt[i] + 2) * 0x1p-63L));
  out.infinity_mass = round_up(inf * (1 + 0x1p-56L));
  out.truncated_mass = 0;
  return out;
}

/// Optimistic garbling sweep. The loss axis is cut into pieces (sub-cells of width h/K between
/// consecutive boundaries, and the atoms); sweeping in increasing loss, pieces are merged into one atom per
/// grid node ν_j until the merged excess E_P[1 − e^{ν_j − L}] becomes >= 0, the last piece only
/// by the fraction that brings the excess to 0. Merging (and proportional splitting) of outcomes
/// is a garbling of the pair, and an atom of excess >= 0 has loss >= ν_j, so placing it at ν_j
/// rounds its loss down: the result is dominated by the true pair. Lower bounds throughout.
inline discrete_pld discretise_optimistic(const direction_law& law, const options& o) {
  constexpr int kSub = 2;
  const double h = o.interval;
  const auto [jlo, jhi] = grid_range(law, h, o.tail_mass);
  const auto n = static_cast<std::size_t>(jhi - jlo + 1);
  std::vector<ld> node(n);
  for (std::size_t i = 0; i < n; ++i) node[i] = node_up(jlo + static_cast<std::int64_t>(i), h);
  // sub-cell boundaries: node[0] − h, then kSub per grid step, the last piece up to +∞
  const std::size_t nb = kSub * (n + 1) + 1;
  std::vector<ld> bound(nb);
  for (std::size_t k = 0; k < nb; ++k)
    bound[k] = node_up(kSub * (jlo - 1) + static_cast<std::int64_t>(k), h / kSub);
  bound[nb - 1] = kInf;
  struct piece {
    ld key;    // ordering key (upper boundary / atom loss)
    val p, q;  // P- and Q-mass (continuous piece) — or loss in p for atoms (see is_atom)
    bool is_atom;
    ld loss_lo;
  };
  std::vector<piece> pieces;
  pieces.reserve(nb + law.atoms.size());
  if (!law.parts.empty()) {
    std::vector<val> pp(nb - 1), qq(nb - 1);
    std::vector<tail4> t(nb);
    for (const auto& part : law.parts) {
      for (std::size_t k = 0; k < nb; ++k) t[k] = part->tails(bound[k], 0);
      for (std::size_t k = 0; k + 1 < nb; ++k) {
        const auto [p, q] = cell_masses(t[k], t[k + 1]);
        pp[k] = pp[k] + p;
        qq[k] = qq[k] + q;
      }
    }
    for (std::size_t k = 0; k + 1 < nb; ++k)
      pieces.push_back({k + 2 < nb ? bound[k + 1] : kInf, pp[k], qq[k], false, bound[k]});
  }
  for (const auto& a : law.atoms)
    if (a.loss.lo() > bound[0]) pieces.push_back({a.loss.lo(), a.p, a.q, true, a.loss.lo()});
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const piece& x, const piece& y) { return x.key < y.key; });
  // lower bound of the excess P − e^ν Q of a whole piece relative to node ν (and its P lower bound)
  auto excess_lo = [&](const piece& pc, ld nu) -> ld {
    if (pc.is_atom) {
      const ld f = -std::expm1(nu - pc.loss_lo);  // 1 − e^{ν − l}
      const ld v = f >= 0 ? pos(pc.p.lo()) * f : pc.p.hi() * f;
      return v - std::fabs(v) * 2 * kLibm;
    }
    return excess(pc.p, pc.q, nu).lo();
  };
  // Sweep up (atoms are lifted by mass from above) or downwards (lowered by mass from
  // below): both give valid measures; the one with the larger mean loss is kept (a rising
  // sweep loses accuracy below an upper edge of the support, a downward one above a lower edge).
  auto sweep = [&](bool up) {
    std::vector<ld> acc(n, 0);
    std::size_t j = up ? 0 : n - 1;
    ld acc_p = 0, acc_e = 0, acc_q = 0;  // P lower bound, excess lower bound, Q upper bound
    auto add_frac = [&](const piece& pc, ld f, ld e_lo) {
      acc_p += f * pos(pc.p.lo());
      const ld t = f * e_lo;
      acc_e = (acc_e + t) - (std::fabs(acc_e) + std::fabs(t)) * 0x1p-62L;
      const ld qh =
          pc.is_atom ? pc.p.hi() * std::exp(-pc.loss_lo) * (1 + 2 * kLibm) : pos(pc.q.hi());
      acc_q += f * qh * (1 + 0x1p-62L);
    };
    auto emit = [&]() {
      acc[j] += acc_p;
      acc_p = acc_e = acc_q = 0;
    };
    auto visit = [&](const piece& pc) {
      ld f = 1;
      while (f > 0) {
        const ld e_lo = excess_lo(pc, node[j]);
        if (up) {
          if (e_lo <= 0 || j + 1 == n) return add_frac(pc, f, e_lo);
          if (acc_e >= 0) {  // current atom (possibly empty) already at or above node j
            emit();
            ++j;
            continue;
          }
          const ld g = -acc_e / e_lo * (1 + 0x1p-60L);
          if (g >= f) return add_frac(pc, f, e_lo);
          add_frac(pc, g, e_lo);
          emit();  // excess >= 0 by the choice of g: loss >= node j
          ++j;
          f = std::max<ld>(0, (f - g) - f * 0x1p-62L);
        } else {
          if (e_lo >= 0) return add_frac(pc, f, e_lo);
          // a piece below node j: merge only the fraction that keeps the excess >= 0
          const ld g = std::max<ld>(0, acc_e) / -e_lo * (1 - 0x1p-60L);
          if (g >= f) return add_frac(pc, f, e_lo);
          add_frac(pc, g, e_lo);
          emit();
          if (j == 0) return;  // the rest lies below the lowest node: dropped
          --j;
          f = std::max<ld>(0, (f - g) - f * 0x1p-62L);
        }
      }
    };
    if (up)
      for (const piece& pc : pieces) visit(pc);
    else
      for (std::size_t k = pieces.size(); k-- > 0;) visit(pieces[k]);
    // remainder: round down to the highest node with a certified non-negative excess
    if (acc_p > 0) {
      if (acc_e >= 0) {
        acc[j] += acc_p;
      } else {
        for (std::size_t i = j + 1; i-- > 0;)
          if (acc_p - std::exp(node[i]) * (1 + kLibm) * acc_q >= 0) {
            acc[i] += acc_p;
            break;
          }
      }
    }
    return acc;
  };
  auto mean = [&](const std::vector<ld>& a) {
    ld s = 0;
    for (std::size_t i = 0; i < n; ++i) s += a[i] * node[i];
    return s;
  };
  std::vector<ld> acc = sweep(true);
  {
    std::vector<ld> down = sweep(false);
    if (mean(down) > mean(acc)) acc = std::move(down);
  }
  discrete_pld out;
  out.kind = estimate::optimistic;
  out.interval = h;
  out.offset = jlo;
  out.masses.resize(n);
  for (std::size_t i = 0; i < n; ++i) out.masses[i] = round_down(acc[i] * (1 - 0x1p-56L));
  out.infinity_mass = round_down(pos(law.inf_mass.lo()));
  return out;
}

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
                                fft_plan& plan, double weight = 1) {
  if (a.kind != b.kind)
    fail_argument("pld::compose", "b.kind", "equal to a.kind", static_cast<int>(b.kind));
  if (a.interval != b.interval)
    fail_argument("pld::compose", "b.interval", "equal to a.interval", b.interval);
  // memory bound: the composed grid must stay below 2^26 points (512 MiB of masses)
  if (a.masses.size() + b.masses.size() > (std::size_t{1} << 26))
    fail_domain("pld::compose", "grid points of the composition",
                "<= 2^26 (512 MiB): use a coarser interval or the RDP accountant",
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
  c.remove = detail::compose_one(a.remove, b.remove, o.tail_mass, plan);
  if (!a.symmetric() || !b.symmetric())
    c.add = detail::compose_one(a.add_or_remove(), b.add_or_remove(), o.tail_mass, plan);
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
      c.remove = detail::compose_one(list[i].remove, list[i + 1].remove, o.tail_mass, plan);
      if (!list[i].symmetric() || !list[i + 1].symmetric())
        c.add = detail::compose_one(list[i].add_or_remove(), list[i + 1].add_or_remove(),
                                    o.tail_mass, plan);
      next.push_back(std::move(c));
    }
    if (list.size() % 2) next.push_back(std::move(list.back()));
    list = std::move(next);
  }
  return std::move(list.front());
}

/// k-fold self-composition by repeated squaring: O(log k) convolutions. A truncation of an
/// intermediate result holding c copies uses the tail mass options.tail_mass·c/k, so each
/// truncation contributes at most options.tail_mass to the final δ.
/// @spec ACC.PLD.SELFCOMPOSE
inline privacy_loss_distribution self_compose(const privacy_loss_distribution& a, std::uint64_t k,
                                              const options& o = {}) {
  detail::validate_options("pld::self_compose", o);
  if (k < 1) fail_domain("pld::self_compose", "k", ">= 1", k);
  detail::fft_plan plan;
  auto power = [&](const discrete_pld& base0) {
    const double kk = static_cast<double>(k);
    discrete_pld base = base0;
    std::optional<discrete_pld> result;
    std::uint64_t rem = k, cb = 1, cr = 0;
    while (rem) {
      if (rem & 1) {
        if (result) {
          cr += cb;
          result = detail::compose_one(*result, base, o.tail_mass * static_cast<double>(cr) / kk,
                                       plan, kk / static_cast<double>(cr));
        } else {
          result = base;
          cr = cb;
        }
      }
      rem >>= 1;
      if (rem) {
        cb *= 2;
        base = detail::compose_one(base, base, o.tail_mass * static_cast<double>(cb) / kk, plan,
                                   kk / static_cast<double>(cb));
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

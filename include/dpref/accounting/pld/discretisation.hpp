// Certified discretisation of a privacy-loss law onto a grid (spec/accounting_pld.md
// ACC.PLD.DISCRETISE): pessimistic connect-the-dots (upper bounds; δ never under-reported) and
// the optimistic garbling sweep (lower bounds). The certification invariant is stated in
// accounting/pld/discrete_pld.hpp.
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

#include "dpref/accounting/pld/discrete_pld.hpp"
#include "dpref/accounting/pld/fft.hpp"
#include "dpref/accounting/pld/mechanisms.hpp"
#include "dpref/error.hpp"

namespace dpref::accounting::pld::detail {

inline void validate_options(const char* fn, const options& o) {
  if (!std::isfinite(o.interval) || !(o.interval >= 1e-7) || o.interval > 1)
    fail_domain(fn, "options.interval", "in [1e-7, 1]", o.interval);
  if (!std::isfinite(o.tail_mass) || !(o.tail_mass > 0) || o.tail_mass > 1e-3)
    fail_domain(fn, "options.tail_mass", "in (0, 1e-3]", o.tail_mass);
  if (o.max_points < 64 || o.max_points > (std::size_t{1} << 28))
    fail_domain(fn, "options.max_points", "in [64, 2^28]", o.max_points);
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

/// The work bound of a discretisation: refuses ranges of more than max_points nodes.
inline void check_points(const char* fn, std::int64_t jlo, std::int64_t jhi, const options& o) {
  if (jhi - jlo + 1 > static_cast<std::int64_t>(o.max_points))
    fail_domain(fn, "grid points of the discretisation",
                "<= options.max_points = " + std::to_string(o.max_points) +
                    " (raise pld_max_points, use a coarser pld_interval or the RDP accountant)",
                jhi - jlo + 1);
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
  check_points("pld::discretise", jlo, jhi, o);
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
/// consecutive boundaries, and the atoms); sweeping in increasing loss, pieces are merged into one
/// atom per grid node ν_j until the merged excess E_P[1 − e^{ν_j − L}] becomes >= 0, the last piece
/// only by the fraction that brings the excess to 0. Merging (and proportional splitting) of
/// outcomes is a garbling of the pair, and an atom of excess >= 0 has loss >= ν_j, so placing it at
/// ν_j rounds its loss down: the result is dominated by the true pair. Lower bounds throughout.
inline discrete_pld discretise_optimistic(const direction_law& law, const options& o) {
  constexpr int kSub = 2;
  const double h = o.interval;
  const auto [jlo, jhi] = grid_range(law, h, o.tail_mass);
  check_points("pld::discretise", jlo, jhi, o);
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

}  // namespace dpref::accounting::pld::detail

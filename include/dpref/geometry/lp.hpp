// Dense bounded-variable primal simplex for small and medium linear programs
//
//   minimise cᵀx  subject to  A x ≤ b,  l ≤ x ≤ u   (l_j may be −∞, u_j may be +∞),
//
// generic over the scalar type (spec/pwa.md PWA.LP). Used for the exact optimum of the
// piecewise-affine problem (pwa (3) via its epigraph LP) and for the tests' oracles.
//
// Method: full tableau B⁻¹[A | I | −E] with one slack per row and an artificial column for each
// row that the starting point violates (two-phase method; the artificials are fixed to [0, 0] in
// phase II). Nonbasic variables may sit strictly inside their bounds (free variables, or a
// caller-given start); such a variable enters in whichever direction improves. Pricing is
// Dantzig's largest reduced cost; after `degenerate_switch` consecutive degenerate pivots it
// switches to Bland's smallest-index rule (entering and leaving) until a nondegenerate pivot,
// which prevents cycling (Bland 1977; the bounded-variable form is in Chvátal, Linear
// Programming, ch. 8). At the end the basic solution and the duals are recomputed from the
// original data by an LU solve with the final basis, so the returned x and y carry the rounding
// error of one solve in Real, not the error accumulated over the pivots.
#pragma once

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::geometry {

enum class lp_status {
  optimal,          ///< primal and dual feasible basis found (within the tolerance)
  infeasible,       ///< phase I ended with a positive sum of artificials
  unbounded,        ///< an improving ray with no blocking bound
  iteration_limit,  ///< max_iterations pivots done
};

inline const char* to_string(lp_status s) {
  switch (s) {
    case lp_status::optimal:
      return "optimal";
    case lp_status::infeasible:
      return "infeasible";
    case lp_status::unbounded:
      return "unbounded";
    case lp_status::iteration_limit:
      return "iteration_limit";
  }
  return "unknown";
}

/// minimise cᵀx s.t. A x ≤ b, lower ≤ x ≤ upper (±infinity allowed in the bounds).
template <real_scalar Real>
struct lp_problem {
  vector<Real> c;
  matrix<Real> A;
  vector<Real> b;
  vector<Real> lower;
  vector<Real> upper;
};

template <real_scalar Real>
struct lp_options {
  /// Starting values of the nonbasic structural variables (clamped into their bounds); default:
  /// the finite lower bound, else the finite upper bound, else 0.
  std::optional<vector<Real>> start;
  long long max_iterations = 0;  ///< 0: 100·(n + rows) + 1000
  /// Pricing / ratio tolerance; 0: 2^(−0.8 p) for p significand bits (1.7e-13 in double,
  /// 1.3e-40 in mp50), times the largest |entry| of the data.
  Real tolerance = Real(0);
  int degenerate_switch = 20;  ///< consecutive degenerate pivots before Bland's rule
};

template <real_scalar Real>
struct lp_result {
  lp_status status = lp_status::iteration_limit;
  vector<Real> x;  ///< primal solution
  Real objective = Real(0);
  vector<Real> row_duals;  ///< y ≥ 0, the multipliers of A x ≤ b
  /// d = c + Aᵀy: d_j > 0 only at x_j = l_j, d_j < 0 only at x_j = u_j (bound multipliers).
  vector<Real> reduced_costs;
  long long iterations = 0;
  long long bland_pivots = 0;  ///< pivots made under Bland's rule
};

namespace detail {

template <real_scalar Real>
Real lp_infinity() {
  return std::numeric_limits<Real>::infinity();
}

template <real_scalar Real>
bool lp_finite(const Real& v) {
  using std::isfinite;
  return isfinite(v);
}

}  // namespace detail

/// Solves the LP by the two-phase bounded simplex described in the header comment.
/// @param P the problem (sizes must agree; bounds may be ±∞ but l_j ≤ u_j)
/// @param opt options (start point, iteration limit, tolerance, degeneracy switch)
/// @return status, x, objective, row duals y ≥ 0 and reduced costs (meaningful when optimal)
/// @throws std::invalid_argument on size mismatch, std::domain_error on NaN data or l_j > u_j
/// @spec PWA.LP
template <real_scalar Real>
lp_result<Real> solve_lp(const lp_problem<Real>& P, const lp_options<Real>& opt = {}) {
  using std::abs;
  using std::ldexp;
  using std::max;
  constexpr const char* fn = "dpref::geometry::solve_lp";
  const Eigen::Index n = P.c.size(), r = P.A.rows();
  if (n < 1) fail_argument(fn, "c.size()", ">= 1", n);
  if (P.A.cols() != n) fail_argument(fn, "A.cols()", "== c.size()", P.A.cols());
  if (P.b.size() != r) fail_argument(fn, "b.size()", "== A.rows()", P.b.size());
  if (P.lower.size() != n) fail_argument(fn, "lower.size()", "== c.size()", P.lower.size());
  if (P.upper.size() != n) fail_argument(fn, "upper.size()", "== c.size()", P.upper.size());
  for (Eigen::Index i = 0; i < P.A.size(); ++i) require_finite(fn, "A", P.A.data()[i]);
  for (Eigen::Index i = 0; i < r; ++i) require_finite(fn, "b", P.b[i]);
  for (Eigen::Index j = 0; j < n; ++j) {
    require_finite(fn, "c", P.c[j]);
    if (P.lower[j] != P.lower[j] || P.upper[j] != P.upper[j] || P.lower[j] > P.upper[j])
      fail_domain(fn, "lower/upper", "ordered bounds lower <= upper", j);
  }
  if (opt.start && opt.start->size() != n)
    fail_argument(fn, "options.start.size()", "== c.size()", opt.start->size());

  // data scale for the tolerances
  Real scale(1);
  for (Eigen::Index i = 0; i < P.A.size(); ++i) scale = max(scale, Real(abs(P.A.data()[i])));
  for (Eigen::Index j = 0; j < n; ++j) scale = max(scale, Real(abs(P.c[j])));
  const Real tol =
      opt.tolerance > Real(0)
          ? opt.tolerance
          : Real(ldexp(Real(1), -static_cast<int>(0.8 * binary_digits<Real>())) * scale);

  // ---- starting point of the nonbasic structurals, slack values, artificials
  vector<Real> lo(n + r), up(n + r);  // bounds of structurals + slacks; artificials appended
  for (Eigen::Index j = 0; j < n; ++j) {
    lo[j] = P.lower[j];
    up[j] = P.upper[j];
  }
  for (Eigen::Index i = 0; i < r; ++i) {
    lo[n + i] = Real(0);
    up[n + i] = detail::lp_infinity<Real>();
  }
  vector<Real> x0(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    Real v;
    if (opt.start)
      v = (*opt.start)[j];
    else if (detail::lp_finite(P.lower[j]))
      v = P.lower[j];
    else if (detail::lp_finite(P.upper[j]))
      v = P.upper[j];
    else
      v = Real(0);
    if (v < P.lower[j]) v = P.lower[j];
    if (v > P.upper[j]) v = P.upper[j];
    x0[j] = v;
  }
  const vector<Real> slack0 = P.b - P.A * x0;
  std::vector<Eigen::Index> art_row;  // rows with an artificial
  for (Eigen::Index i = 0; i < r; ++i)
    if (slack0[i] < Real(0)) art_row.push_back(i);
  const auto na = static_cast<Eigen::Index>(art_row.size());
  const Eigen::Index N = n + r + na;  // all columns

  vector<Real> lb(N), ub(N), val(N), cost2 = vector<Real>::Zero(N);
  lb.head(n + r) = lo;
  ub.head(n + r) = up;
  for (Eigen::Index k = 0; k < na; ++k) {
    lb[n + r + k] = Real(0);
    ub[n + r + k] = detail::lp_infinity<Real>();
  }
  cost2.head(n) = P.c;
  val.setZero();
  val.head(n) = x0;

  // ---- initial tableau T = B⁻¹[A | I | −E], basis: slack or artificial of each row
  using row_major = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  row_major T = row_major::Zero(r, N);  // row operations dominate the pivots
  std::vector<Eigen::Index> basis(static_cast<std::size_t>(r));
  std::vector<char> is_basic(static_cast<std::size_t>(N), 0);
  {
    Eigen::Index k = 0;
    for (Eigen::Index i = 0; i < r; ++i) {
      const bool art = k < na && art_row[static_cast<std::size_t>(k)] == i;
      const Real sgn = art ? Real(-1) : Real(1);
      T.row(i).head(n) = sgn * P.A.row(i);
      T(i, n + i) = sgn;
      if (art) {
        T(i, n + r + k) = Real(1);  // (−1)·(−1)
        basis[static_cast<std::size_t>(i)] = n + r + k;
        val[n + r + k] = -slack0[i];
        val[n + i] = Real(0);
        ++k;
      } else {
        basis[static_cast<std::size_t>(i)] = n + i;
        val[n + i] = slack0[i];
      }
      is_basic[static_cast<std::size_t>(basis[static_cast<std::size_t>(i)])] = 1;
    }
  }

  lp_result<Real> res;
  const long long max_it =
      opt.max_iterations > 0 ? opt.max_iterations : 100 * static_cast<long long>(n + r) + 1000;
  vector<Real> d(N);
  const auto reprice = [&](const vector<Real>& cost) {
    vector<Real> cb(r);
    for (Eigen::Index i = 0; i < r; ++i) cb[i] = cost[basis[static_cast<std::size_t>(i)]];
    d = cost - T.transpose() * cb;
    for (Eigen::Index i = 0; i < r; ++i) d[basis[static_cast<std::size_t>(i)]] = Real(0);
  };

  // One phase of the simplex on `cost`; returns optimal / unbounded / iteration_limit.
  const auto run_phase = [&](const vector<Real>& cost) -> lp_status {
    reprice(cost);
    int degenerate_run = 0;
    for (;;) {
      if (res.iterations >= max_it) return lp_status::iteration_limit;
      const bool bland = degenerate_run >= opt.degenerate_switch;
      // pricing
      Eigen::Index q = -1;
      int dir = 0;
      Real best(0);
      for (Eigen::Index j = 0; j < N; ++j) {
        if (is_basic[static_cast<std::size_t>(j)] || !(lb[j] < ub[j])) continue;
        const bool at_lo = val[j] == lb[j], at_up = val[j] == ub[j];
        int dj = 0;
        if (d[j] < -tol && !at_up)
          dj = +1;
        else if (d[j] > tol && !at_lo)
          dj = -1;
        if (dj == 0) continue;
        if (bland) {
          q = j;
          dir = dj;
          break;
        }
        if (abs(d[j]) > best) {
          best = abs(d[j]);
          q = j;
          dir = dj;
        }
      }
      if (q < 0) return lp_status::optimal;
      // ratio test
      Real theta = detail::lp_infinity<Real>();
      Eigen::Index p = -1;  // -1: bound flip of q
      Real p_alpha(0);
      if (dir > 0 && detail::lp_finite(ub[q])) theta = ub[q] - val[q];
      if (dir < 0 && detail::lp_finite(lb[q])) theta = val[q] - lb[q];
      for (Eigen::Index i = 0; i < r; ++i) {
        const Real alpha = dir > 0 ? T(i, q) : Real(-T(i, q));
        const Eigen::Index bi = basis[static_cast<std::size_t>(i)];
        Real lim;
        if (alpha > tol) {
          if (!detail::lp_finite(lb[bi])) continue;
          lim = (val[bi] - lb[bi]) / alpha;
        } else if (alpha < -tol) {
          if (!detail::lp_finite(ub[bi])) continue;
          lim = (ub[bi] - val[bi]) / (-alpha);
        } else {
          continue;
        }
        if (lim < Real(0)) lim = Real(0);
        bool take = lim < theta;
        if (!take && lim == theta && p >= 0) {
          take = bland ? bi < basis[static_cast<std::size_t>(p)] : abs(alpha) > abs(p_alpha);
        }
        if (take) {
          theta = lim;
          p = i;
          p_alpha = alpha;
        }
      }
      if (!detail::lp_finite(theta)) return lp_status::unbounded;
      ++res.iterations;
      if (bland) ++res.bland_pivots;
      degenerate_run = theta > Real(0) ? 0 : degenerate_run + 1;
      // move
      const Real step = dir > 0 ? theta : Real(-theta);
      val[q] += step;
      for (Eigen::Index i = 0; i < r; ++i)
        val[basis[static_cast<std::size_t>(i)]] -= step * T(i, q);
      if (p < 0) {  // bound flip: q lands exactly on its bound
        val[q] = dir > 0 ? ub[q] : lb[q];
        continue;
      }
      const Eigen::Index leave = basis[static_cast<std::size_t>(p)];
      val[leave] = p_alpha > Real(0) ? lb[leave] : ub[leave];  // the bound it hit, exactly
      // pivot on (p, q)
      const Real piv = T(p, q);
      T.row(p) /= piv;
      for (Eigen::Index i = 0; i < r; ++i) {
        if (i == p) continue;
        const Real f = T(i, q);
        if (f != Real(0)) T.row(i) -= f * T.row(p);
      }
      const Real dq = d[q];
      if (dq != Real(0)) d -= dq * T.row(p).transpose();
      d[q] = Real(0);
      is_basic[static_cast<std::size_t>(leave)] = 0;
      is_basic[static_cast<std::size_t>(q)] = 1;
      basis[static_cast<std::size_t>(p)] = q;
    }
  };

  // ---- phase I
  if (na > 0) {
    vector<Real> cost1 = vector<Real>::Zero(N);
    for (Eigen::Index k = 0; k < na; ++k) cost1[n + r + k] = Real(1);
    const lp_status s1 = run_phase(cost1);
    if (s1 == lp_status::iteration_limit) {
      res.status = s1;
      return res;
    }
    Real infeas(0), rhs_scale(1);
    for (Eigen::Index k = 0; k < na; ++k) infeas += val[n + r + k];
    for (Eigen::Index i = 0; i < r; ++i) rhs_scale = max(rhs_scale, Real(abs(P.b[i])));
    if (infeas > tol * rhs_scale * Real(static_cast<long>(r + n))) {
      res.status = lp_status::infeasible;
      res.x = val.head(n);
      return res;
    }
    for (Eigen::Index k = 0; k < na; ++k) {
      ub[n + r + k] = Real(0);
      if (!is_basic[static_cast<std::size_t>(n + r + k)]) val[n + r + k] = Real(0);
    }
  }
  // ---- phase II
  res.status = run_phase(cost2);
  if (res.status != lp_status::optimal) {
    res.x = val.head(n);
    res.objective = P.c.dot(res.x);
    return res;
  }

  // ---- refinement: x_B and duals from the original data with the final basis
  const auto column = [&](Eigen::Index j) -> vector<Real> {
    vector<Real> col = vector<Real>::Zero(r);
    if (j < n)
      col = P.A.col(j);
    else if (j < n + r)
      col[j - n] = Real(1);
    else
      col[art_row[static_cast<std::size_t>(j - n - r)]] = Real(-1);
    return col;
  };
  vector<Real> rhs = P.b;
  for (Eigen::Index j = 0; j < N; ++j)
    if (!is_basic[static_cast<std::size_t>(j)] && val[j] != Real(0)) rhs -= val[j] * column(j);
  // Usual case: every row has at most one basic unit column (slack/artificial). Then those
  // columns only read off their row, π_i = 0 on their rows, and the k basic structurals are
  // fixed by the k remaining rows: a k×k solve instead of r×r.
  std::vector<Eigen::Index> free_rows, structurals;
  std::vector<char> row_has_unit(static_cast<std::size_t>(r), 0);
  bool reducible = true;
  for (Eigen::Index i = 0; i < r; ++i) {
    const Eigen::Index bi = basis[static_cast<std::size_t>(i)];
    if (bi < n) {
      structurals.push_back(bi);
      continue;
    }
    const Eigen::Index row = bi < n + r ? bi - n : art_row[static_cast<std::size_t>(bi - n - r)];
    if (row_has_unit[static_cast<std::size_t>(row)]) reducible = false;
    row_has_unit[static_cast<std::size_t>(row)] = 1;
  }
  for (Eigen::Index i = 0; i < r; ++i)
    if (!row_has_unit[static_cast<std::size_t>(i)]) free_rows.push_back(i);
  const auto k = static_cast<Eigen::Index>(structurals.size());
  if (reducible && static_cast<Eigen::Index>(free_rows.size()) == k && r > 0) {
    matrix<Real> Bk(k, k);
    vector<Real> rk(k), ck(k);
    for (Eigen::Index a = 0; a < k; ++a) {
      ck[a] = cost2[structurals[static_cast<std::size_t>(a)]];
      rk[a] = rhs[free_rows[static_cast<std::size_t>(a)]];
      for (Eigen::Index bcol = 0; bcol < k; ++bcol)
        Bk(a, bcol) = P.A(free_rows[static_cast<std::size_t>(a)],
                          structurals[static_cast<std::size_t>(bcol)]);
    }
    vector<Real> xs(k), pik(k);
    if (k > 0) {
      const Eigen::PartialPivLU<matrix<Real>> lu(Bk);
      xs = lu.solve(rk);
      pik = lu.transpose().solve(ck);
    }
    for (Eigen::Index a = 0; a < k; ++a) val[structurals[static_cast<std::size_t>(a)]] = xs[a];
    vector<Real> ax = rhs;  // rows with a unit column: its value = ±(rhs_i − A_i,S x_S)
    for (Eigen::Index a = 0; a < k; ++a)
      ax -= xs[a] * P.A.col(structurals[static_cast<std::size_t>(a)]);
    for (Eigen::Index i = 0; i < r; ++i) {
      const Eigen::Index bi = basis[static_cast<std::size_t>(i)];
      if (bi < n) continue;
      const Eigen::Index row = bi < n + r ? bi - n : art_row[static_cast<std::size_t>(bi - n - r)];
      val[bi] = bi < n + r ? ax[row] : Real(-ax[row]);
    }
    vector<Real> pi = vector<Real>::Zero(r);
    for (Eigen::Index a = 0; a < k; ++a) pi[free_rows[static_cast<std::size_t>(a)]] = pik[a];
    res.row_duals = -pi;
  } else if (r > 0) {  // general basis: r×r solve
    matrix<Real> B(r, r);
    vector<Real> cb(r);
    for (Eigen::Index i = 0; i < r; ++i) {
      const Eigen::Index bi = basis[static_cast<std::size_t>(i)];
      B.col(i) = column(bi);
      cb[i] = cost2[bi];
    }
    const Eigen::PartialPivLU<matrix<Real>> lu(B);
    const vector<Real> xb = lu.solve(rhs);
    for (Eigen::Index i = 0; i < r; ++i) val[basis[static_cast<std::size_t>(i)]] = xb[i];
    const vector<Real> pi = lu.transpose().solve(cb);  // Bᵀπ = c_B
    res.row_duals = -pi;                               // y = −π ≥ 0 for rows A x ≤ b
  } else {
    res.row_duals = vector<Real>(0);
  }
  res.x = val.head(n);
  res.reduced_costs = P.c + P.A.transpose() * res.row_duals;
  res.objective = P.c.dot(res.x);
  return res;
}

}  // namespace dpref::geometry

// Allocation-free exact projection onto C(a, b) = {0 <= x <= a, 1'x = b} for the inner loops of
// the ev algorithms (one projection per user per iteration). Same answer as
// geometry::project_capped_simplex (x = clip(x0 - nu, 0, a), nu solved on the final linear
// piece from the index sets, errata EV-E1 §1(a)), found by a bracketed Newton iteration on
// g(nu) = 1'clip(x0 - nu, 0, a) warm-started from the user's previous multiplier instead of a
// sort of the 2T breakpoints. spec/ev.md EV.PROJ.KERNEL.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/geometry/capped_simplex.hpp"
#include "dpref/scalar.hpp"

namespace dpref::ev {

/// Scratch space of the projection kernel (kept in the signature for kernels that need one; the
/// current kernel is branch-free and uses none).
struct projection_workspace {
  std::vector<unsigned char> state;
  void reserve(std::size_t horizon) {
    if (state.size() < horizon) state.resize(horizon);
  }
};

/// Projects x0 onto C(a, b), writing x to out; the inputs must be valid (a >= 0, 0 <= b <= 1'a:
/// checked when the problem is built, not here). Exact: the returned nu and x satisfy
/// x = clip(x0 - nu, 0, a) with nu = (Σ_F x0 + Σ_U a - b)/|F| computed from the index sets of
/// the piece containing the root, as in geometry::project_capped_simplex; falls back to that
/// sweep if the Newton iteration has not settled in 64 steps.
/// @param nu_hint starting multiplier (the user's nu of the previous iteration)
/// @return the multiplier nu (KKT certificate)
/// @spec EV.PROJ.KERNEL
namespace detail {
/// 1 or 0 without a branch for built-in floating types.
template <real_scalar Real>
Real indicator(bool c) {
  if constexpr (std::is_floating_point_v<Real>)
    return static_cast<Real>(c);
  else
    return c ? Real(1) : Real(0);
}
}  // namespace detail

template <real_scalar Real>
Real project_into(const Real* x0, const Real* a, const Real& b, Real* out, Eigen::Index t,
                  Real nu_hint, projection_workspace& ws) {
  Real cap(0), lo(0), hi(0), nu = nu_hint;
  for (int iter = 0; iter < 64; ++iter) {
    // One branch-free pass at nu: the classes U (x0 - nu >= a), Z (x0 - nu <= 0, not U) and
    // F (the rest) as 0/1 weights, so Σ_U a, Σ_F x0, |F| are the index-set sums of the sweep
    // (multiplying by 0 or 1 and adding 0 are exact), and out = clip(x0 - nu, 0, a).
    Real su(0), sf(0), nf(0);
    for (Eigen::Index i = 0; i < t; ++i) {
      const Real v = x0[i] - nu;
      const Real up = detail::indicator<Real>(v >= a[i]);
      const Real zero = detail::indicator<Real>(v <= Real(0)) * (Real(1) - up);
      const Real fr = Real(1) - up - zero;
      su += up * a[i];
      sf += fr * x0[i];
      nf += fr;
      const Real pos = v < Real(0) ? Real(0) : v;
      out[i] = pos > a[i] ? a[i] : pos;
    }
    if (iter == 0) {
      for (Eigen::Index i = 0; i < t; ++i) {
        cap += a[i];
        const Real l = x0[i] - a[i];
        if (i == 0 || l < lo) lo = l;          // g(lo) = 1'a >= b
        if (i == 0 || x0[i] > hi) hi = x0[i];  // g(hi) = 0 <= b
      }
      // special cases as in geometry::project_capped_simplex: b = 0 gives 0, b >= 1'a gives a
      if (b == Real(0)) {
        for (Eigen::Index i = 0; i < t; ++i) out[i] = Real(0);
        return hi;
      }
      if (b >= cap) {
        for (Eigen::Index i = 0; i < t; ++i) out[i] = a[i];
        return lo;
      }
    }
    const Real g = su + sf - nf * nu;  // g(nu) on this piece
    if (nf > Real(0)) {
      const Real next = (sf + su - b) / nf;  // root of this linear piece (Newton)
      // fixed point nu = F(S(nu)): nu is the root of the piece it lies on, computed from that
      // piece's index sets (the sweep's formula); out already holds clip(x0 - nu, 0, a)
      if (next == nu) return nu;
      if (g > b && nu > lo) lo = nu;
      if (g < b && nu < hi) hi = nu;
      if (next > lo && next < hi) {
        nu = next;
        continue;
      }
    } else {
      if (g == b) return nu;  // flat piece at height b: a on U, 0 elsewhere
      if (g > b && nu > lo) lo = nu;
      if (g < b && nu < hi) hi = nu;
    }
    nu = lo + (hi - lo) / 2;  // safeguard: bisect the bracket
  }
  (void)ws;
  // not settled (pathological ties): the O(T log T) sweep
  const auto view = [t](const Real* p) {
    vector<Real> v(t);
    for (Eigen::Index i = 0; i < t; ++i) v[i] = p[i];
    return v;
  };
  const auto r = geometry::project_capped_simplex(view(x0), view(a), b);
  for (Eigen::Index i = 0; i < t; ++i) out[i] = r.x[i];
  return r.nu;
}

}  // namespace dpref::ev

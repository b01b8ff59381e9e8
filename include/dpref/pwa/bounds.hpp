// The suboptimality bounds of pwa §3–4 as functions (spec/pwa.md PWA.THM13, PWA.THM17,
// PWA.THM21, PWA.THM24).
#pragma once

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/pwa/laplace_mechanisms.hpp"
#include "dpref/pwa/solve.hpp"

namespace dpref::pwa::bounds {

/// pwa Theorem 13: E[u_opt − u(M_E)] ≤ 2Δu(1 + log|Q|)/ε for a finite range Q.
/// @spec PWA.THM13
template <real_scalar Real>
Real thm13(const Real& utility_sensitivity, const Real& epsilon, long long range_size) {
  using std::log;
  require_positive("dpref::pwa::bounds::thm13", "utility_sensitivity", utility_sensitivity);
  require_positive("dpref::pwa::bounds::thm13", "epsilon", epsilon);
  if (range_size < 1) fail_domain("dpref::pwa::bounds::thm13", "range_size", ">= 1", range_size);
  return Real(2) * utility_sensitivity * (Real(1) + log(Real(range_size))) / epsilon;
}

/// pwa Theorem 17: E[f(M_S) − f_opt] ≤ G·E‖w_S‖ = G·d·b for the ℓ2-Laplace scale b. With the
/// paper's scale b = √d·Δ/ε this is G d^{3/2} Δ/ε (as printed); with Theorem 9's b = Δ/ε it is
/// G d Δ/ε.
/// @param G max_i ‖a_i‖₂ @param d dimension @param delta Δ (≥ the ℓ2 sensitivity of x_opt)
/// @spec PWA.THM17
template <real_scalar Real>
Real thm17(const Real& G, int d, const Real& delta, const Real& epsilon,
           pwa::noise_rule rule = pwa::noise_rule::theorem9) {
  using std::sqrt;
  require_nonnegative("dpref::pwa::bounds::thm17", "G", G);
  require_positive("dpref::pwa::bounds::thm17", "delta", delta);
  require_positive("dpref::pwa::bounds::thm17", "epsilon", epsilon);
  if (d < 1) fail_domain("dpref::pwa::bounds::thm17", "d", ">= 1", d);
  const Real scale = rule == pwa::noise_rule::paper ? Real(sqrt(Real(d)) * delta / epsilon)
                                                    : Real(delta / epsilon);
  return G * Real(d) * scale;
}

/// G = max_i ‖a_i‖₂ (the Lipschitz constant of f used by Theorems 17 and 24).
template <real_scalar Real>
Real lipschitz(const piecewise_affine<Real>& prob) {
  return prob.A().rowwise().norm().maxCoeff();
}

/// pwa Theorem 24: E[min_{i≤k} f(x^(i))] − f_opt ≤ (R² + G²Σα²)/(2Σα) + γ̄(ε/k),
/// γ̄(z) = 2bmax(1 + log m)/z. NOTE: it bounds the best iterate, which Algorithm 2 does not
/// output (choosing it needs the private b).
/// @spec PWA.THM24
template <real_scalar Real>
Real thm24(const Real& R, const Real& G, const Real& step_sum, const Real& step_sq_sum,
           const Real& bmax, long long m, const Real& epsilon, long long k) {
  require_nonnegative("dpref::pwa::bounds::thm24", "R", R);
  require_nonnegative("dpref::pwa::bounds::thm24", "G", G);
  require_positive("dpref::pwa::bounds::thm24", "step_sum", step_sum);
  require_positive("dpref::pwa::bounds::thm24", "epsilon", epsilon);
  if (k < 1) fail_domain("dpref::pwa::bounds::thm24", "k", ">= 1", k);
  const Real gamma_bar = thm13(bmax, Real(epsilon / Real(k)), m);  // (13) with ε/k
  return (R * R + G * G * step_sq_sum) / (Real(2) * step_sum) + gamma_bar;
}

namespace detail {

/// E1(z) = (e^z − 1)/z, E1(0) = 1 (stable by expm1).
template <real_scalar Real>
Real e1(const Real& z) {
  using std::expm1;
  return z == Real(0) ? Real(1) : Real(expm1(z) / z);
}

/// Convex polygon ∩ {x : gᵀx ≤ r} (Sutherland–Hodgman for one half-plane).
template <real_scalar Real>
std::vector<std::pair<Real, Real>> clip(const std::vector<std::pair<Real, Real>>& poly,
                                        const Real& g1, const Real& g2, const Real& r) {
  std::vector<std::pair<Real, Real>> out;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = poly[i];
    const auto& q = poly[(i + 1) % n];
    const Real sp = g1 * p.first + g2 * p.second - r, sq = g1 * q.first + g2 * q.second - r;
    if (!(sp > Real(0))) out.push_back(p);
    if ((sp > Real(0)) != (sq > Real(0))) {
      const Real t = sp / (sp - sq);
      out.emplace_back(p.first + t * (q.first - p.first), p.second + t * (q.second - p.second));
    }
  }
  return out;
}

/// ∫ over a convex polygon of exp(g1 x1 + g2 x2 + g0): strips between vertex abscissas; the
/// inner x2 integral in closed form (e^{g2 lo}·w·E1(g2 w)), the outer by adaptive
/// Gauss–Kronrod (61 points) on each strip, where the integrand is analytic.
template <real_scalar Real>
Real polygon_exp_integral(const std::vector<std::pair<Real, Real>>& poly, const Real& g1,
                          const Real& g2, const Real& g0) {
  using std::exp;
  using std::ldexp;
  if (poly.size() < 3) return Real(0);
  std::vector<Real> xs;
  for (const auto& v : poly) xs.push_back(v.first);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const std::size_t n = poly.size();
  const auto bounds = [&](const Real& x) {
    Real lo = std::numeric_limits<Real>::infinity(), hi = -lo;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& p = poly[i];
      const auto& q = poly[(i + 1) % n];
      const Real a = std::min(p.first, q.first), b = std::max(p.first, q.first);
      if (!(a < b) || x < a || x > b) continue;
      const Real t = (x - p.first) / (q.first - p.first);
      const Real y = p.second + t * (q.second - p.second);
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
    return std::make_pair(lo, hi);
  };
  const Real tol = ldexp(Real(1), -static_cast<int>(0.9 * binary_digits<Real>()));
  Real total(0);
  for (std::size_t k = 0; k + 1 < xs.size(); ++k) {
    const auto f = [&](Real x) {
      const auto [lo, hi] = bounds(x);
      if (!(hi > lo)) return Real(0);
      const Real w = hi - lo;
      return Real(exp(g1 * x + g2 * lo + g0) * w * e1(Real(g2 * w)));
    };
    total +=
        boost::math::quadrature::gauss_kronrod<Real, 61>::integrate(f, xs[k], xs[k + 1], 15, tol);
  }
  return total;
}

}  // namespace detail

/// I(κ) = ∫_P exp(−κ (f(x) − f_ref)) dx for d = 1 (closed form on the segments where one piece
/// is active) and d = 2 (active-piece polygons, detail::polygon_exp_integral).
/// @throws std::invalid_argument for d > 2
/// @spec PWA.THM21
template <real_scalar Real>
Real exp_integral(const piecewise_affine<Real>& prob, const Real& kappa, const Real& f_ref) {
  using std::exp;
  const auto& P = prob.polytope();
  const int d = prob.dimension(), m = prob.pieces();
  const auto& A = prob.A();
  const auto& b = prob.b();
  const Real c = P.box;
  Real total(0);
  if (d == 1) {
    for (int i = 0; i < m; ++i) {
      Real lo = -c, hi = c;  // {x : a_i x + b_i ≥ a_j x + b_j ∀j} ∩ P
      const auto cut = [&](const Real& g, const Real& r) {  // g x ≤ r
        if (g > Real(0))
          hi = std::min(hi, Real(r / g));
        else if (g < Real(0))
          lo = std::max(lo, Real(r / g));
        else if (r < Real(0))
          hi = lo - Real(1);  // empty
      };
      for (int j = 0; j < m; ++j)
        if (j != i) cut(A(j, 0) - A(i, 0), b[i] - b[j]);
      for (Eigen::Index k = 0; k < P.G.rows(); ++k) cut(P.G(k, 0), P.h[k]);
      // ties (identical pieces) are counted once: break them by index
      bool dup = false;
      for (int j = 0; j < i && !dup; ++j) dup = A(j, 0) == A(i, 0) && b[j] == b[i];
      if (dup || !(hi > lo)) continue;
      const Real rate = -kappa * A(i, 0);
      total += exp(-kappa * (A(i, 0) * lo + b[i] - f_ref)) * (hi - lo) *
               detail::e1(Real(rate * (hi - lo)));
    }
    return total;
  }
  if (d != 2) fail_argument("dpref::pwa::bounds::exp_integral", "dimension", "1 or 2", d);
  for (int i = 0; i < m; ++i) {
    bool dup = false;
    for (int j = 0; j < i && !dup; ++j) dup = A.row(j) == A.row(i) && b[j] == b[i];
    if (dup) continue;
    std::vector<std::pair<Real, Real>> poly{{-c, -c}, {c, -c}, {c, c}, {-c, c}};
    for (int j = 0; j < m && poly.size() >= 3; ++j)
      if (j != i)
        poly =
            detail::clip(poly, Real(A(j, 0) - A(i, 0)), Real(A(j, 1) - A(i, 1)), Real(b[i] - b[j]));
    for (Eigen::Index k = 0; k < P.G.rows() && poly.size() >= 3; ++k)
      poly = detail::clip(poly, P.G(k, 0), P.G(k, 1), P.h[k]);
    total += detail::polygon_exp_integral(poly, Real(-kappa * A(i, 0)), Real(-kappa * A(i, 1)),
                                          Real(-kappa * (b[i] - f_ref)));
  }
  return total;
}

/// C(0, ε) of pwa Theorem 21: vol(P)·exp(−ε f_opt/(2bmax)) / ∫_P exp(−ε f/(2bmax)) dx
/// (the set {f ≥ f_opt} is all of P), by exp_integral (d ≤ 2).
/// @spec PWA.THM21
template <real_scalar Real>
Real c0(const piecewise_affine<Real>& prob, const Real& epsilon) {
  require_positive("dpref::pwa::bounds::c0", "epsilon", epsilon);
  const Real fopt = pwa::solve(prob).value;
  const Real kappa = epsilon / (Real(2) * prob.bmax());
  const Real vol = exp_integral(prob, Real(0), fopt);
  return vol / exp_integral(prob, kappa, fopt);
}

/// pwa Theorem 21: E[f(M_E) − f_opt] ≤ C(0, ε)·2bmax/ε (d ≤ 2).
/// @spec PWA.THM21
template <real_scalar Real>
Real thm21(const piecewise_affine<Real>& prob, const Real& epsilon) {
  return c0(prob, epsilon) * Real(2) * prob.bmax() / epsilon;
}

}  // namespace dpref::pwa::bounds

// Exact optimum of pwa (3), min_{x∈P} max_i (a_iᵀx + b_i), via its epigraph LP
//
//   min t  s.t.  a_iᵀx − t ≤ −b_i (i ≤ m),  G x ≤ h,  −c ≤ x_j ≤ c,
//
// solved by dpref::geometry::solve_lp, with a dual certificate (spec/pwa.md PWA.SOLVE,
// PWA.CERTIFICATE). For any λ ≥ 0 with Σλ_i = 1 and μ ≥ 0, and every x ∈ P,
//   f(x) ≥ Σ_i λ_i (a_iᵀx + b_i) + μᵀ(Gx − h) ≥ λᵀb − μᵀh − c ‖Aᵀλ + Gᵀμ‖₁ =: g(λ, μ)
// (weak duality; the last step minimises the linear function over the box). So
// f(x_opt) − g(λ, μ) bounds the suboptimality of x_opt, whatever produced (λ, μ).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dpref/accounting/certified.hpp"
#include "dpref/error.hpp"
#include "dpref/geometry/lp.hpp"
#include "dpref/pwa/problem.hpp"

namespace dpref::pwa {

/// Dual certificate of pwa (3): λ on the pieces (λ ≥ 0, Σλ = 1), μ ≥ 0 on the rows Gx ≤ h.
template <real_scalar Real>
struct pwa_certificate {
  vector<Real> lambda;
  vector<Real> mu;
};

template <real_scalar Real>
struct pwa_solution {
  vector<Real> x;  ///< x_opt ∈ P
  Real value;      ///< f(x_opt)
  pwa_certificate<Real> certificate;
  Real lower_bound;  ///< g(λ, μ) ≤ f_opt
  long long iterations = 0;
};

/// What verify_certificate measured.
template <real_scalar Real>
struct certificate_check {
  Real primal_violation;  ///< max(0, max_j |x_j| − c, max_k (Gx − h)_k)
  Real dual_violation;    ///< max(0, −min λ, −min μ, |Σλ − 1|)
  Real upper;             ///< f(x)
  Real lower;             ///< g(λ/Σλ, μ) with negative entries set to 0 (always a valid bound)
  Real gap;               ///< upper − lower
  [[nodiscard]] bool ok(const Real& tol) const {
    return !(primal_violation > tol) && !(dual_violation > tol) && !(gap > tol) && !(gap < -tol);
  }
};

/// g(λ, μ) = λᵀb − μᵀh − c‖Aᵀλ + Gᵀμ‖₁ for λ ≥ 0, Σλ = 1, μ ≥ 0 (a lower bound on f_opt).
/// @spec PWA.CERTIFICATE
template <real_scalar Real>
Real dual_bound(const piecewise_affine<Real>& prob, const vector<Real>& lambda,
                const vector<Real>& mu) {
  using std::abs;
  const auto& P = prob.polytope();
  vector<Real> s = prob.A().transpose() * lambda;
  Real val = lambda.dot(prob.b());
  if (P.has_extra_rows()) {
    s += P.G.transpose() * mu;
    val -= mu.dot(P.h);
  }
  Real l1(0);
  for (Eigen::Index j = 0; j < s.size(); ++j) l1 += abs(s[j]);
  return val - P.box * l1;
}

/// Checks a point and a certificate: x ∈ P, (λ, μ) dual feasible, and the weak-duality gap
/// f(x) − g(λ, μ). Negative multipliers are reported in dual_violation and set to 0 (and λ is
/// renormalised) before g is evaluated, so `lower` is always a valid lower bound on f_opt.
/// @throws std::invalid_argument on size mismatch
/// @spec PWA.CERTIFICATE
template <real_scalar Real>
certificate_check<Real> verify_certificate(const piecewise_affine<Real>& prob,
                                           const vector<Real>& x,
                                           const pwa_certificate<Real>& cert) {
  using std::abs;
  using std::max;
  constexpr const char* fn = "dpref::pwa::verify_certificate";
  const auto& P = prob.polytope();
  if (x.size() != prob.dimension()) fail_argument(fn, "x.size()", "== d", x.size());
  if (cert.lambda.size() != prob.pieces())
    fail_argument(fn, "lambda.size()", "== m", cert.lambda.size());
  if (cert.mu.size() != P.G.rows()) fail_argument(fn, "mu.size()", "== G.rows()", cert.mu.size());
  certificate_check<Real> out{Real(0), Real(0), Real(0), Real(0), Real(0)};
  for (Eigen::Index j = 0; j < x.size(); ++j)
    out.primal_violation = max(out.primal_violation, Real(abs(x[j]) - P.box));
  if (P.has_extra_rows()) {
    const vector<Real> r = P.G * x - P.h;
    for (Eigen::Index k = 0; k < r.size(); ++k)
      out.primal_violation = max(out.primal_violation, r[k]);
  }
  vector<Real> lam = cert.lambda, mu = cert.mu;
  Real sum(0);
  for (Eigen::Index i = 0; i < lam.size(); ++i) {
    out.dual_violation = max(out.dual_violation, Real(-lam[i]));
    if (lam[i] < Real(0)) lam[i] = Real(0);
    sum += lam[i];
  }
  for (Eigen::Index k = 0; k < mu.size(); ++k) {
    out.dual_violation = max(out.dual_violation, Real(-mu[k]));
    if (mu[k] < Real(0)) mu[k] = Real(0);
  }
  Real raw_sum(0);
  for (Eigen::Index i = 0; i < cert.lambda.size(); ++i) raw_sum += cert.lambda[i];
  out.dual_violation = max(out.dual_violation, Real(abs(raw_sum - Real(1))));
  if (!(sum > Real(0))) fail_argument(fn, "lambda", "with a positive entry", "all <= 0");
  lam /= sum;
  out.upper = prob.value(x);
  out.lower = dual_bound(prob, lam, mu);
  out.gap = out.upper - out.lower;
  return out;
}

/// The epigraph LP of pwa (3) in the form of geometry::solve_lp (variables (x, t)).
/// @spec PWA.SOLVE
template <real_scalar Real>
geometry::lp_problem<Real> epigraph_lp(const piecewise_affine<Real>& prob) {
  const auto& P = prob.polytope();
  const Eigen::Index m = prob.pieces(), d = prob.dimension(), k = P.G.rows();
  geometry::lp_problem<Real> lp;
  lp.c = vector<Real>::Zero(d + 1);
  lp.c[d] = Real(1);
  lp.A = matrix<Real>::Zero(m + k, d + 1);
  lp.A.topLeftCorner(m, d) = prob.A();
  lp.A.col(d).head(m).setConstant(Real(-1));
  lp.b = vector<Real>(m + k);
  lp.b.head(m) = -prob.b();
  if (k > 0) {
    lp.A.bottomLeftCorner(k, d) = P.G;
    lp.b.tail(k) = P.h;
  }
  lp.lower = vector<Real>::Constant(d + 1, -P.box);
  lp.upper = vector<Real>::Constant(d + 1, P.box);
  lp.lower[d] = -std::numeric_limits<Real>::infinity();
  lp.upper[d] = std::numeric_limits<Real>::infinity();
  return lp;
}

/// x_opt, f_opt and a dual certificate of pwa (3).
/// @param prob the problem (data b are used as given: call on noisy data for M_P)
/// @return x_opt (clamped into the box), f(x_opt), (λ, μ) and g(λ, μ)
/// @throws std::domain_error if P is empty ("infeasible polytope"), std::runtime_error if the
///   simplex hits its iteration limit
/// @spec PWA.SOLVE
template <real_scalar Real>
pwa_solution<Real> solve(const piecewise_affine<Real>& prob) {
  using std::max;
  using std::min;
  const auto& P = prob.polytope();
  const Eigen::Index m = prob.pieces(), d = prob.dimension(), k = P.G.rows();
  geometry::lp_options<Real> opt;
  vector<Real> start = vector<Real>::Zero(d + 1);
  start[d] = prob.b().maxCoeff();  // t = f(0): every piece row feasible at the start
  opt.start = start;
  const auto r = geometry::solve_lp(epigraph_lp(prob), opt);
  if (r.status == geometry::lp_status::infeasible)
    throw std::domain_error(
        "dpref::pwa::solve: the polytope P = {x : -c <= x <= c, Gx <= h} is empty (infeasible "
        "constraints G, h)");
  if (r.status != geometry::lp_status::optimal)
    throw std::runtime_error(std::string("dpref::pwa::solve: simplex ended with status ") +
                             geometry::to_string(r.status));
  pwa_solution<Real> s;
  s.x = r.x.head(d);
  for (Eigen::Index j = 0; j < d; ++j) s.x[j] = min(max(s.x[j], Real(-P.box)), P.box);
  s.value = prob.value(s.x);
  s.certificate.lambda = r.row_duals.head(m);
  s.certificate.mu = r.row_duals.tail(k);
  // rounding can leave −1e-17-sized multipliers: clip to 0, renormalise λ (Σλ = 1 is the t row)
  Real sum(0);
  for (Eigen::Index i = 0; i < m; ++i) {
    if (!(s.certificate.lambda[i] > Real(0))) s.certificate.lambda[i] = Real(0);  // also −0
    sum += s.certificate.lambda[i];
  }
  s.certificate.lambda /= sum;
  for (Eigen::Index i = 0; i < k; ++i)
    if (!(s.certificate.mu[i] > Real(0))) s.certificate.mu[i] = Real(0);
  s.lower_bound = dual_bound(prob, s.certificate.lambda, s.certificate.mu);
  s.iterations = r.iterations;
  return s;
}

/// The public bounding box [lower, upper] of P that M_S projects x_opt onto (PRIV.PWA.C): the
/// box [−c, c]^d when P has no rows; with rows Gx ≤ h, the extent of P along each axis from 2d
/// LPs (min / max x_j over P), each side widened by 2^(−0.8p)·(1 + c)·d to absorb the LP's
/// rounding, intersected with [−c, c]. P is public, so it costs no privacy.
/// @throws std::domain_error if P is empty
/// @spec PWA.DIAMETER PRIV.PWA.C
template <real_scalar Real>
struct bounding_box {
  vector<Real> lower, upper;

  explicit bounding_box(const polytope<Real>& P) {
    using std::ldexp;
    using std::max;
    using std::min;
    const int d = P.dimension;
    lower = vector<Real>::Constant(d, -P.box);
    upper = vector<Real>::Constant(d, P.box);
    if (!P.has_extra_rows()) return;
    geometry::lp_problem<Real> lp;
    lp.A = P.G;
    lp.b = P.h;
    lp.lower = lower;
    lp.upper = upper;
    const Real slack = ldexp(Real(1), -static_cast<int>(0.8 * binary_digits<Real>())) *
                       (Real(1) + P.box) * Real(d);
    for (int j = 0; j < d; ++j)
      for (int sgn = 0; sgn < 2; ++sgn) {
        lp.c = vector<Real>::Zero(d);
        lp.c[j] = sgn == 0 ? Real(1) : Real(-1);
        const auto r = geometry::solve_lp(lp);
        if (r.status == geometry::lp_status::infeasible)
          throw std::domain_error("dpref::pwa::bounding_box: the polytope P is empty");
        if (sgn == 0)
          lower[j] = max(Real(r.x[j] - slack), Real(-P.box));
        else
          upper[j] = min(Real(r.x[j] + slack), P.box);
      }
  }

  /// x with every coordinate clamped into [lower_j, upper_j] (the Euclidean projection onto the
  /// box: the identity on x inside it).
  [[nodiscard]] vector<Real> project(vector<Real> x) const {
    for (Eigen::Index j = 0; j < x.size(); ++j)
      x[j] = x[j] < lower[j] ? lower[j] : (x[j] > upper[j] ? upper[j] : x[j]);
    return x;
  }
  [[nodiscard]] bool contains(const vector<Real>& x) const {
    for (Eigen::Index j = 0; j < x.size(); ++j)
      if (!(x[j] >= lower[j] && x[j] <= upper[j])) return false;
    return true;
  }
  /// ‖upper − lower‖₂ rounded up: the ℓ2 diameter of the box, so ‖x − y‖₂ ≤ diameter() for any
  /// two points of it.
  [[nodiscard]] Real diameter() const {
    using std::sqrt;
    accounting::certifier<Real> cert;
    accounting::work_real sq(0);
    for (Eigen::Index j = 0; j < lower.size(); ++j) {
      const accounting::work_real w = cert.in(upper[j]) - cert.in(lower[j]);
      sq += w * w;
    }
    return cert.up(sqrt(sq));
  }
};

/// A public upper bound on diam(P) (pwa §4.2): the ℓ2 diameter of bounding_box(P). Box only:
/// 2√d·c exactly (rounded up). With rows Gx ≤ h: ‖upper − lower‖₂ of the widened bounding box,
/// never above the box's 2√d·c (rounded up).
/// @throws std::domain_error if P is empty
/// @spec PWA.DIAMETER
template <real_scalar Real>
Real diameter_bound(const polytope<Real>& P) {
  using std::sqrt;
  if (!P.has_extra_rows()) {
    accounting::certifier<Real> cert;
    return cert.up(accounting::work_real(2) * sqrt(cert.in(Real(P.dimension))) * cert.in(P.box));
  }
  return bounding_box<Real>(P).diameter();
}

}  // namespace dpref::pwa

// A certified non-private minimum for evaluating the accel runs (F* in the figures): plain NAG
// with α = 1/L and β = (1 − √(μ/L))/(1 + √(μ/L)) (L the problem's certified smoothness, μ its
// strong convexity), stopped when the strong-convexity certificate
//   F(x) − F* ≤ ‖∇F(x)‖²/(2μ)
// is below tol (relative to max(1, |F(x)|)). The result is NOT private (it uses the data's L and
// the exact gradients): it only measures the private runs, as the paper's F* does (§5 uses 1000
// NAG steps without a certificate). The certificate is computed in Real arithmetic (the gradient's
// own rounding, ~n·u, is far below the tolerances used). @spec ACCEL.FSTAR
#pragma once

#include <cmath>
#include <type_traits>
#include <utility>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel {

template <real_scalar Real>
struct reference_minimum {
  vector<Real> x;        ///< the final iterate
  Real value;            ///< F(x) (an upper bound on F*)
  Real gap_bound;        ///< ‖∇F(x)‖²/(2μ) ≥ F(x) − F*
  long long iterations;  ///< NAG steps taken
  bool certified;        ///< gap_bound <= tol·max(1, |F(x)|)
};

/// @param tol relative certificate target > 0 @param max_iter cap >= 1 @param x0 start (empty: 0)
template <class Problem, class Real = std::remove_cvref_t<
                             decltype(std::declval<const Problem&>().strong_convexity())>>
reference_minimum<Real> certified_minimum(const Problem& P, const Real& tol,
                                          long long max_iter = 100000, vector<Real> x0 = {}) {
  constexpr const char* fn = "accel::certified_minimum";
  require_positive(fn, "tol", tol);
  if (max_iter < 1) fail_domain(fn, "max_iter", ">= 1", max_iter);
  using std::abs;
  using std::sqrt;
  const auto d = static_cast<Eigen::Index>(P.dimension());
  if (x0.size() != 0 && x0.size() != d) fail_argument(fn, "x0.size()", "0 or d", x0.size());
  const Real mu = P.strong_convexity(), L = P.smoothness();
  const Real q = sqrt(mu / L), beta = (Real(1) - q) / (Real(1) + q);
  vector<Real> x = x0.size() == 0 ? vector<Real>(vector<Real>::Zero(d)) : x0;
  vector<Real> xprev = x, y(d), g(d), xnew(d);
  reference_minimum<Real> out{x, Real(0), Real(0), 0, false};
  const auto certificate = [&](const vector<Real>& at, Real& F, Real& gap) {
    P.gradient_into(at, g);
    F = P.value(at);
    gap = g.squaredNorm() / (Real(2) * mu);
    const Real scale = abs(F) > Real(1) ? abs(F) : Real(1);
    return gap <= tol * scale;
  };
  for (long long t = 0; t < max_iter; ++t) {
    if (t % 10 == 0 && certificate(x, out.value, out.gap_bound)) {
      out.certified = true;
      out.iterations = t;
      out.x = x;
      return out;
    }
    y = x + beta * (x - xprev);
    P.gradient_into(y, g);
    xnew = y - g / L;
    xprev.swap(x);
    x.swap(xnew);
  }
  out.certified = certificate(x, out.value, out.gap_bound);
  out.iterations = max_iter;
  out.x = x;
  return out;
}

}  // namespace dpref::accel

// The certified minimiser of output perturbation (spec/privacy_bounds.md
// PRIV.LINESEARCH.MINIMISER): a public bound γ = 2^-20·R/n on the gradient norm of the released
// ŵ, and a certified upper bound of ‖∇F(ŵ)‖ (an extended-precision evaluation plus its a-priori
// rounding-error bound). By μ-strong convexity ‖ŵ − w*‖ <= γ/μ, the margin the release's
// sensitivity carries.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include <boost/math/special_functions/next.hpp>

#include "dpref/accounting/certified.hpp"
#include "dpref/problems/erm.hpp"
#include "dpref/scalar.hpp"

namespace dpref::linesearch {

/// The public gradient-norm bound γ = 2^-20·R/n of the minimiser output perturbation releases
/// (PRIV.LINESEARCH.MINIMISER): the released ŵ has ‖∇F(ŵ)‖ <= γ, certified.
template <real_scalar Real>
Real minimiser_gradient_bound(const Real& R, long long n) {
  accounting::certifier<Real> c;
  return c.down(accounting::work_real(0x1p-20) * c.in(R) / accounting::work_real(n));
}

namespace detail {
/// An upper bound of ‖∇F(w)‖ for P at w in the arithmetic Wide: the gradient evaluated from the
/// exact data and w, plus the a-priori bound of that evaluation's rounding error, (n + d + 100)·u·
/// (Σ_j max_i |x_ij| + μ Σ_j |w_j|) (sums of n and d terms, |φ′| <= 1 within a few ulps).
template <class Wide, real_scalar Real>
Wide gradient_norm_bound(const problems::linear_erm<Real>& P, const vector<Real>& w) {
  const Eigen::Index d = P.dimension(), n = P.size();
  const auto wide = [](const Real& x) { return static_cast<Wide>(x); };
  problems::margin_loss<Wide> loss;
  loss.kind = P.loss().kind;
  loss.h = wide(P.loss().h);
  const Wide mu = wide(P.mu());
  std::vector<Wide> g(static_cast<std::size_t>(d), Wide(0)), ww(static_cast<std::size_t>(d)),
      col_max(static_cast<std::size_t>(d), Wide(0));
  for (Eigen::Index j = 0; j < d; ++j) ww[static_cast<std::size_t>(j)] = wide(w[j]);
  using std::abs;
  for (Eigen::Index i = 0; i < n; ++i) {
    Wide z(0);
    for (Eigen::Index j = 0; j < d; ++j)
      z += wide(P.features()(j, i)) * ww[static_cast<std::size_t>(j)];
    const Wide y = wide(P.labels()[i]);
    const Wide c = loss.derivative(Wide(y * z)) * y;
    for (Eigen::Index j = 0; j < d; ++j) {
      const Wide x = wide(P.features()(j, i));
      g[static_cast<std::size_t>(j)] += c * x;
      if (abs(x) > col_max[static_cast<std::size_t>(j)])
        col_max[static_cast<std::size_t>(j)] = abs(x);
    }
  }
  Wide sq(0), scale(0);
  for (Eigen::Index j = 0; j < d; ++j) {
    const auto k = static_cast<std::size_t>(j);
    const Wide gj = g[k] / Wide(static_cast<long long>(n)) + mu * ww[k];
    sq += gj * gj;
    scale += col_max[k] + mu * abs(ww[k]);
  }
  using std::sqrt;
  const Wide u = machine_epsilon<Wide>();
  return sqrt(sq) * (1 + 4 * u) + Wide(static_cast<long long>(n + d + 100)) * u * scale;
}

/// x rounded up to Real.
template <real_scalar Real, class Wide>
Real round_up_to(const Wide& x) {
  Real out = static_cast<Real>(x);
  if (static_cast<Wide>(out) < x) out = boost::math::float_next(out);
  return out;
}
}  // namespace detail

/// A certified upper bound of ‖∇F(w)‖ (rounded up to Real): evaluated in long double for
/// double (in mp50 when that bound exceeds `target`, as the rounding-error term grows with n),
/// else in Real. @spec PRIV.LINESEARCH.MINIMISER
template <real_scalar Real>
Real certified_gradient_norm(const problems::linear_erm<Real>& P, const vector<Real>& w,
                             const Real& target = Real(0)) {
  if constexpr (std::is_same_v<Real, double>) {
    const long double b = detail::gradient_norm_bound<long double>(P, w);
    if (b <= static_cast<long double>(target)) return detail::round_up_to<double>(b);
    return detail::round_up_to<double>(detail::gradient_norm_bound<mp50>(P, w));
  } else {
    return detail::round_up_to<Real>(detail::gradient_norm_bound<Real>(P, w));
  }
}

}  // namespace dpref::linesearch

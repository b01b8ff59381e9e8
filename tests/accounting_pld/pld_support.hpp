// Exact references for the PLD tests (spec/accounting_pld.md): closed forms evaluated in MPFR at
// the certifier's working precision (>= 256 bits), independent of the long-double PLD kernels.
// Every function opens its own certifier scope (RAII, restored on return).
#pragma once

#include <cmath>
#include <utility>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/pld.hpp"

namespace dpref::test::pldref {

using dpref::accounting::certifier;
using dpref::accounting::work_real;

inline work_real phic(const work_real& x) {
  using std::erfc;
  using std::sqrt;
  return erfc(x / sqrt(work_real(2))) / 2;
}

/// Hockey-stick δ(ε) of the Gaussian pair (N(μ, 1), N(0, 1)) for any real ε (exact closed form).
inline work_real gauss_delta_w(const work_real& mu, const work_real& eps) {
  using std::exp;
  return phic(eps / mu - mu / 2) - exp(eps) * phic(eps / mu + mu / 2);
}

/// δ(ε) of the Gaussian with μ = Δ/σ as double, rounded to nearest (|error| ~ 2^-53 relative).
inline double gauss_delta(double mu, double eps) {
  certifier<double> c;
  return static_cast<double>(gauss_delta_w(c.in(mu), c.in(eps)));
}

/// Bracket [lo, hi] (doubles, width <= 2^-48 (1 + ε)) of the exact ε(δ) of the Gaussian with μ.
inline std::pair<double, double> gauss_eps_bracket(double mu, double delta) {
  certifier<double> c;
  const work_real m = c.in(mu), d = c.in(delta);
  double lo = 0, hi = 1;
  while (gauss_delta_w(m, c.in(hi)) > d) hi *= 2;
  if (!(gauss_delta_w(m, c.in(0.0)) > d)) return {0.0, 0.0};
  for (int i = 0; i < 200 && hi - lo > std::ldexp(1.0 + hi, -48); ++i) {
    const double mid = (lo + hi) / 2;
    (gauss_delta_w(m, c.in(mid)) > d ? lo : hi) = mid;
  }
  return {lo, hi};
}

/// One-step hockey-stick δ(ε), any real ε, of the Poisson-subsampled Gaussian (sensitivity 1,
/// noise σ): remove = ((1−q)N(0,σ²) + qN(1,σ²), N(0,σ²)), add = the reversed pair.
inline double subsampled_delta(double q, double sigma, double eps, bool remove) {
  certifier<double> c;
  using std::exp;
  using std::expm1;
  using std::log;
  using std::log1p;
  const work_real qw = c.in(q), s = c.in(sigma), e = c.in(eps);
  const work_real s2 = s * s;
  if (remove) {
    if (!(e > log1p(-qw))) return static_cast<double>(-expm1(e));
    const work_real x = s2 * log((expm1(e) + qw) / qw) + work_real(1) / 2;
    const work_real P = (1 - qw) * phic(x / s) + qw * phic((x - 1) / s);
    return static_cast<double>(P - exp(e) * phic(x / s));
  }
  if (!(e < -log1p(-qw))) return 0.0;
  const work_real x = s2 * log((expm1(-e) + qw) / qw) + work_real(1) / 2;
  const work_real P = 1 - phic(x / s);
  const work_real Q = (1 - qw) * (1 - phic(x / s)) + qw * (1 - phic((x - 1) / s));
  return static_cast<double>(P - exp(e) * Q);
}

/// Options with the given interval and kind.
inline dpref::accounting::pld::options opts(double h, dpref::accounting::pld::estimate k,
                                            double tail = 1e-15) {
  dpref::accounting::pld::options o;
  o.interval = h;
  o.kind = k;
  o.tail_mass = tail;
  return o;
}

}  // namespace dpref::test::pldref

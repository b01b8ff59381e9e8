// Amplification by subsampling: sampling without replacement (Balle–Barthe–Gaboardi 2018),
// Poisson sampling for (ε, δ)-DP (Li–Qardaji–Su 2012), Poisson-subsampled RDP of any mechanism
// by the Zhu–Wang 2019 general bound (errata LS-E3) and the exact integer-order subsampled
// Gaussian of Mironov–Talwar–Zhang 2019.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

namespace detail {
/// ε′ = ln(1 + γ(e^ε − 1)), δ′ = γδ at the working precision, rounded up.
template <real_scalar Real>
approx_dp<Real> amplify(const certifier<Real>& c, const approx_dp<Real>& p, const work_real& g) {
  const work_real e = w_log1p(g * w_expm1(c.in(p.eps)));
  return {c.up(e), c.up(g * c.in(p.delta))};
}
}  // namespace detail

/// Amplification by sampling m of n records without replacement (Balle–Barthe–Gaboardi
/// 2018, substitution adjacency): ε′ = ln(1 + (m/n)(e^ε − 1)), δ′ = (m/n)δ.
/// @param p guarantee of the mechanism on the subsample @param m 1 <= m <= n @param n >= 1
/// @return amplified guarantee, rounded up @throws std::domain_error for invalid input
/// @spec ACC.SUBSAMPLE.WOR
template <real_scalar Real>
approx_dp<Real> subsample_without_replacement(const approx_dp<Real>& p, long long m, long long n) {
  require_nonnegative("subsample_without_replacement", "p.eps", p.eps);
  require_delta("subsample_without_replacement", "p.delta", p.delta);
  if (n < 1) fail_domain("subsample_without_replacement", "n", ">= 1", n);
  if (m < 1 || m > n) fail_domain("subsample_without_replacement", "m", "in [1, n]", m);
  if (m == n) return p;
  certifier<Real> c;
  return detail::amplify(c, p, work_real(m) / work_real(n));
}

/// Amplification by Poisson sampling with rate q (add/remove adjacency; Li–Qardaji–Su 2012):
/// ε′ = ln(1 + q(e^ε − 1)), δ′ = qδ.
/// @spec ACC.SUBSAMPLE.POISSON
template <real_scalar Real>
approx_dp<Real> subsample_poisson(const approx_dp<Real>& p, const Real& q) {
  require_nonnegative("subsample_poisson", "p.eps", p.eps);
  require_delta("subsample_poisson", "p.delta", p.delta);
  require_rate("subsample_poisson", "q", q);
  if (q == Real(1)) return p;
  certifier<Real> c;
  return detail::amplify(c, p, c.in(q));
}

namespace detail {

/// log Σ exp(t_i), dropping terms below max − (bits + 16) ln 2 − ln n and adding their count
/// times that cut-off (an upper bound of what was dropped).
inline work_real log_sum_exp_up(const std::vector<work_real>& t, std::size_t n, int bits) {
  using std::exp;
  using std::log;
  work_real m = t[0];
  for (std::size_t i = 1; i < n; ++i)
    if (t[i] > m) m = t[i];
  const work_real cut =
      work_real(bits + 16) * log(work_real(2)) + w_log_int(static_cast<long>(n) + 1);
  work_real s(0);
  long dropped = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const work_real d = t[i] - m;
    if (d < -cut)
      ++dropped;
    else
      s += exp(d);
  }
  if (dropped > 0) s += work_real(dropped) * exp(-cut);
  return m + log(s);
}

/// log(k!) for k = 0..n at the working precision.
inline std::vector<work_real> log_factorials(long n) {
  std::vector<work_real> lf(static_cast<std::size_t>(n) + 1);
  lf[0] = 0;
  for (long k = 1; k <= n; ++k)
    lf[static_cast<std::size_t>(k)] = lf[static_cast<std::size_t>(k - 1)] + w_log_int(k);
  return lf;
}

/// Checks that orders are integers >= 2 and returns them as longs.
template <real_scalar Real>
std::vector<long> integer_order_list(std::string_view fn, const std::vector<Real>& orders) {
  using std::floor;
  std::vector<long> out;
  out.reserve(orders.size());
  for (const Real& a : orders) {
    if (!is_finite_value(a) || a < Real(2) || a > Real(1L << 20) || Real(floor(a)) != a)
      fail_domain(fn, "orders[i]", "an integer in [2, 2^20]", a);
    out.push_back(static_cast<long>(a));
  }
  for (std::size_t i = 1; i < out.size(); ++i)
    if (out[i] <= out[i - 1]) fail_domain(fn, "orders", "strictly increasing", out[i]);
  if (out.empty()) fail_argument(fn, "orders", "non-empty", 0);
  return out;
}

/// Direct (non-log) evaluation used when every magnitude fits MPFR's exponent range: with
/// ρ = q/(1−q), P_k given and Q_j = 1/j!, returns for each α: log Σ_{k=kmin}^{α} P_k Q_{α−k}
/// + α log(1−q) − log Q_α  (= log Σ_k C(α,k) q^k (1−q)^{α−k} (P_k k!/ρ^k)).
/// One fused multiply-add per term, no allocation in the inner loop.
inline std::vector<work_real> binomial_mix_logs(const std::vector<work_real>& P,
                                                const std::vector<long>& ord, long kmin,
                                                const work_real& l1q) {
  using std::log;
  const long amax = ord.back();
  std::vector<work_real> Q(static_cast<std::size_t>(amax) + 1);
  Q[0] = 1;
  for (long j = 1; j <= amax; ++j) {
    Q[static_cast<std::size_t>(j)] = Q[static_cast<std::size_t>(j - 1)];
    mpfr_div_ui(Q[static_cast<std::size_t>(j)].data(), Q[static_cast<std::size_t>(j)].data(),
                static_cast<unsigned long>(j), MPFR_RNDN);
  }
  std::vector<work_real> out;
  out.reserve(ord.size());
  work_real acc;
  for (const long a : ord) {
    mpfr_set_zero(acc.data(), 1);
    for (long k = kmin; k <= a; ++k)
      mpfr_fma(acc.data(), P[static_cast<std::size_t>(k)].data(),
               Q[static_cast<std::size_t>(a - k)].data(), acc.data(), MPFR_RNDN);
    out.push_back(log(acc) + work_real(a) * l1q - log(Q[static_cast<std::size_t>(a)]));
  }
  return out;
}

/// Largest |log| of the quantities of binomial_mix_logs must stay far inside MPFR's exponent
/// range (about 7e8 nats); beyond 1e8 the log-space path is used.
inline bool fits_direct(double log_magnitude) { return log_magnitude < 1e8; }

/// The log-space path: for each order a of `ord`, terms(a, lf, t) writes the log-terms t[0, n)
/// of the sum at a (lf[k] = log k!, t of `slots` entries) and returns n; take(a, e) receives
/// e = log Σ exp(t_i) / (a − 1) (log_sum_exp_up at `bits`).
template <class Terms, class Take>
void log_space_orders(const std::vector<long>& ord, std::size_t slots, int bits, Terms&& terms,
                      Take&& take) {
  const std::vector<work_real> lf = log_factorials(ord.back());
  std::vector<work_real> t(slots);
  for (const long a : ord) {
    const std::size_t n = terms(a, lf, t);
    const work_real e = log_sum_exp_up(t, n, bits) / work_real(a - 1);
    take(a, e);
  }
}

/// A subsampled ε′(α) rounded up, `r`, capped by the mechanism's own ε(α) (subsampling never
/// hurts) and at 0 from below.
template <real_scalar Real>
Real capped_by_base(const Real& r, const Real& base) {
  if (!(r < base)) return base;
  return r < Real(0) ? Real(0) : r;
}

}  // namespace detail

/// Poisson-subsampled RDP of ANY mechanism: the Zhu–Wang (ICML'19) general upper bound (with
/// the correction of errata LS-E3), for integer α >= 2 and sampling rate q:
/// ε′(α) ≤ (α−1)⁻¹ log{(1−q)^{α−1}(αq − q + 1) + C(α,2) q²(1−q)^{α−2} e^{ε(2)}
///                      + 3 Σ_{l=3}^{α} C(α,l) q^l (1−q)^{α−l} e^{(l−1)ε(l)}},
/// evaluated in log space (orders up to 2^20), then capped by ε(α) (subsampling never hurts).
/// @param base RDP of the mechanism on the consecutive integer orders 2, 3, …, α_max
/// @param q Poisson rate ∈ (0, 1] @return curve on the same orders, rounded up
/// @throws std::domain_error / std::invalid_argument for invalid input
/// @spec ACC.RDP.POISSON.ZW
template <real_scalar Real>
rdp_curve<Real> poisson_subsampled_rdp_zw(const rdp_curve<Real>& base, const Real& q) {
  validate_curve("poisson_subsampled_rdp_zw", base);
  require_rate("poisson_subsampled_rdp_zw", "q", q);
  const std::vector<long> ord =
      detail::integer_order_list("poisson_subsampled_rdp_zw", base.orders);
  for (std::size_t i = 0; i < ord.size(); ++i)
    if (ord[i] != static_cast<long>(i) + 2)
      fail_argument("poisson_subsampled_rdp_zw", "base.orders", "the integers 2, 3, ..., alpha_max",
                    ord[i]);
  using std::log;
  certifier<Real> c;
  const long amax = ord.back();
  const bool full = (q == Real(1));
  const work_real qw = c.in(q), lq = log(qw), l1q = full ? work_real(0) : detail::w_log1p(-qw);
  const work_real l3 = detail::w_log_int(3);
  std::vector<work_real> ew(ord.size());
  for (std::size_t i = 0; i < ord.size(); ++i) ew[i] = c.in(base.eps[i]);
  rdp_curve<Real> out{base.orders, {}};
  out.eps.reserve(ord.size());
  // Direct path: P_l = w_l ρ^l e^{(l−1)ε(l)}/l!, w_2 = 1, w_l = 3 (l >= 3).
  double mag = 0;
  for (std::size_t i = 0; i < ord.size(); ++i) {
    const double l = static_cast<double>(ord[i]);
    mag = std::max(mag, (l - 1) * static_cast<double>(ew[i]) +
                            l * std::fabs(static_cast<double>(lq - l1q)) + l * std::log(l));
  }
  if (!full && detail::fits_direct(mag)) {
    using std::exp;
    std::vector<work_real> P(static_cast<std::size_t>(amax) + 1, work_real(0));
    const work_real rho = qw / (1 - qw);
    work_real rk = rho * rho / 2;  // ρ^l / l!
    for (long l = 2; l <= amax; ++l) {
      if (l > 2) rk = rk * rho / work_real(l);
      const std::size_t il = static_cast<std::size_t>(l);
      P[il] = rk * exp(work_real(l - 1) * ew[il - 2]);
      if (l >= 3) P[il] *= 3;
    }
    const std::vector<work_real> tail = detail::binomial_mix_logs(P, ord, 2, l1q);
    for (std::size_t i = 0; i < ord.size(); ++i) {
      const long a = ord[i];
      const work_real t0 = work_real(a - 1) * l1q + detail::w_log1p(work_real(a - 1) * qw);
      const work_real e = detail::w_logaddexp(t0, tail[i]) / work_real(a - 1);
      out.eps.push_back(detail::capped_by_base(c.up(e, work_real(1)), base.eps[i]));
    }
    return out;
  }
  const auto terms = [&](long a, const std::vector<work_real>& lf, std::vector<work_real>& t) {
    std::size_t n = 0;
    const auto lf_a = lf[static_cast<std::size_t>(a)];
    if (!full) {
      t[n++] = work_real(a - 1) * l1q + detail::w_log1p(work_real(a - 1) * qw);
      t[n++] = lf_a - lf[2] - lf[static_cast<std::size_t>(a - 2)] + 2 * lq +
               work_real(a - 2) * l1q + ew[0];
    } else if (a == 2) {
      t[n++] = ew[0];
    }
    for (long l = 3; l <= a; ++l) {
      if (full && l < a) continue;
      const std::size_t il = static_cast<std::size_t>(l);
      work_real v = l3 + work_real(l) * lq + work_real(l - 1) * ew[il - 2];
      if (l < a) v += lf_a - lf[il] - lf[static_cast<std::size_t>(a - l)] + work_real(a - l) * l1q;
      t[n++] = v;
    }
    return n;
  };
  detail::log_space_orders(
      ord, static_cast<std::size_t>(amax) + 2, c.bits(), terms, [&](long a, const work_real& e) {
        const Real r = c.up(e, work_real(1));
        out.eps.push_back(detail::capped_by_base(r, base.eps[static_cast<std::size_t>(a - 2)]));
      });
  return out;
}

/// Exact RDP of the Poisson-subsampled Gaussian mechanism at integer orders (Mironov–Talwar–
/// Zhang 2019, §3.3): with noise multiplier s = σ/Δ,
/// ε(α) = (α−1)⁻¹ log Σ_{k=0}^{α} C(α,k)(1−q)^{α−k} q^k exp((k² − k)/(2s²)),
/// evaluated in log space and rounded up.
/// @param q Poisson rate ∈ (0, 1] @param noise_multiplier s = σ/Δ > 0
/// @param orders integer orders >= 2, strictly increasing (up to 2^20)
/// @return RDP curve, rounded up @throws std::domain_error for invalid input
/// @spec ACC.RDP.POISSON.MTZ
template <real_scalar Real>
rdp_curve<Real> poisson_subsampled_gaussian_rdp(const Real& q, const Real& noise_multiplier,
                                                const std::vector<Real>& orders) {
  require_rate("poisson_subsampled_gaussian_rdp", "q", q);
  require_positive("poisson_subsampled_gaussian_rdp", "noise_multiplier", noise_multiplier);
  const std::vector<long> ord =
      detail::integer_order_list("poisson_subsampled_gaussian_rdp", orders);
  using std::log;
  certifier<Real> c;
  const long amax = ord.back();
  const bool full = (q == Real(1));
  const work_real qw = c.in(q), lq = log(qw), l1q = full ? work_real(0) : detail::w_log1p(-qw);
  const work_real s = c.in(noise_multiplier);
  const work_real inv2s2 = 1 / (2 * s * s);
  rdp_curve<Real> out{orders, {}};
  out.eps.reserve(ord.size());
  const double am = static_cast<double>(amax);
  const double mag = am * am * static_cast<double>(inv2s2) +
                     am * std::fabs(static_cast<double>(lq - l1q)) + am * std::log(am);
  if (!full && detail::fits_direct(mag)) {
    // P_k = ρ^k e^{k(k−1)/(2s²)}/k!, by P_{k+1} = P_k ρ e^{2ck}/(k+1), c = 1/(2s²).
    using std::exp;
    std::vector<work_real> P(static_cast<std::size_t>(amax) + 1);
    const work_real rho = qw / (1 - qw), E = exp(2 * inv2s2);
    work_real G(1);
    P[0] = 1;
    for (long k = 0; k < amax; ++k) {
      P[static_cast<std::size_t>(k + 1)] =
          P[static_cast<std::size_t>(k)] * rho * G / work_real(k + 1);
      G *= E;
    }
    const std::vector<work_real> logs = detail::binomial_mix_logs(P, ord, 0, l1q);
    for (std::size_t i = 0; i < ord.size(); ++i) {
      const Real r = c.up(logs[i] / work_real(ord[i] - 1), work_real(1));
      out.eps.push_back(r < Real(0) ? Real(0) : r);
    }
    return out;
  }
  const auto terms = [&](long a, const std::vector<work_real>& lf, std::vector<work_real>& t) {
    std::size_t n = 0;
    const auto& lf_a = lf[static_cast<std::size_t>(a)];
    for (long k = full ? a : 0; k <= a; ++k) {
      const std::size_t ik = static_cast<std::size_t>(k);
      work_real v = work_real(k) * lq + work_real(k * (k - 1)) * inv2s2;
      if (k < a) v += lf_a - lf[ik] - lf[static_cast<std::size_t>(a - k)] + work_real(a - k) * l1q;
      t[n++] = v;
    }
    return n;
  };
  detail::log_space_orders(ord, static_cast<std::size_t>(amax) + 1, c.bits(), terms,
                           [&](long, const work_real& e) {
                             const Real r = c.up(e, work_real(1));
                             out.eps.push_back(r < Real(0) ? Real(0) : r);
                           });
  return out;
}

namespace fast {
/// Double-precision MTZ subsampled-Gaussian RDP (hot path of benchmarks): log-space sum in
/// double, each order widened by an a-priori bound 2^-48·(Σ w_k|t_k| + 3 log α! + 1)/(α−1) on
/// the double rounding error (w_k: share of term k), so the value stays an upper bound (tested
/// against the 256-bit result); not MPFR-certified.
/// @spec ACC.RDP.POISSON.MTZ
inline rdp_curve<double> poisson_subsampled_gaussian_rdp(double q, double noise_multiplier,
                                                         const std::vector<double>& orders) {
  require_rate("fast::poisson_subsampled_gaussian_rdp", "q", q);
  require_positive("fast::poisson_subsampled_gaussian_rdp", "noise_multiplier", noise_multiplier);
  const std::vector<long> ord =
      detail::integer_order_list("fast::poisson_subsampled_gaussian_rdp", orders);
  const long amax = ord.back();
  std::vector<double> lf(static_cast<std::size_t>(amax) + 1, 0.0);
  long double acc = 0.0L;  // 64-bit accumulation: lf[k] within ~1 ulp of log(k!)
  for (long k = 1; k <= amax; ++k) {
    acc += std::log(static_cast<long double>(k));
    lf[static_cast<std::size_t>(k)] = static_cast<double>(acc);
  }
  const bool full = (q == 1.0);
  const double lq = std::log(q), l1q = full ? 0.0 : std::log1p(-q);
  const double inv2s2 = 1.0 / (2.0 * noise_multiplier * noise_multiplier);
  std::vector<double> t(static_cast<std::size_t>(amax) + 1);
  rdp_curve<double> out{orders, {}};
  out.eps.reserve(ord.size());
  for (const long a : ord) {
    const double da = static_cast<double>(a), lfa = lf[static_cast<std::size_t>(a)];
    double m = -INFINITY;
    std::size_t n = 0;
    for (long k = full ? a : 0; k <= a; ++k) {
      const double dk = static_cast<double>(k);
      double v = dk * lq + dk * (dk - 1.0) * inv2s2;
      if (k < a)
        v += lfa - lf[static_cast<std::size_t>(k)] - lf[static_cast<std::size_t>(a - k)] +
             (da - dk) * l1q;
      t[n++] = v;
      m = std::max(m, v);
    }
    double s = 0.0, w = 0.0;  // w: Σ e^{t−m}|t| (weights of the term errors)
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = t[i] - m;
      if (d < -60.0) {
        ++dropped;
      } else {
        const double x = std::exp(d);
        s += x;
        w += x * std::fabs(t[i]);
      }
    }
    s += static_cast<double>(dropped) * std::exp(-60.0);
    const double e = (m + std::log(s)) / (da - 1.0);
    // |error of log Σ| <= Σ_k w_k |δt_k| + O(u), |δt_k| <= 16u(|t_k| + 3 lf[α] + 1): a-priori.
    const double err = std::ldexp(w / s + 3.0 * lfa + 1.0, -48) / (da - 1.0);
    out.eps.push_back(std::max(0.0, e + err));
  }
  return out;
}
}  // namespace fast

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_SUBSAMPLING_INSTANCES(EXT, R)                                              \
  EXT template approx_dp<R> subsample_without_replacement<R>(const approx_dp<R>&, long long, \
                                                             long long);                     \
  EXT template approx_dp<R> subsample_poisson<R>(const approx_dp<R>&, const R&);             \
  EXT template rdp_curve<R> poisson_subsampled_rdp_zw<R>(const rdp_curve<R>&, const R&);     \
  EXT template rdp_curve<R> poisson_subsampled_gaussian_rdp<R>(const R&, const R&,           \
                                                               const std::vector<R>&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_SUBSAMPLING(R) DPREF_ACC_SUBSAMPLING_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_SUBSAMPLING)
#undef DPREF_ACC_EXTERN_SUBSAMPLING
#endif

}  // namespace dpref::accounting

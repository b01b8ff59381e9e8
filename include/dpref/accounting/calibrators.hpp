// Calibrators inverting the accounting: dda Theorem 1 σ (paper and corrected, errata DDA-E1..E4)
// and Remark 3.1; accel Prop 3.1 (b_t, ε₀), Prop 4.2 (optimal budget split) and Remark 4.1
// (choice of T); ev ε_k schedule (proof of Theorem 6). Noise scales are rounded up and budget
// shares down, so the guarantee always holds.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

// ---------------------------------------------------------------- dda (Liu–Johansson–Shi) ----

/// Which constant to use in dda Theorem 1.
enum class dda_variant {
  paper,  ///< σ² = 32ι²L²T log(2/δ₀)/(q²ε²) as printed (its proof fails: errata DDA-E1)
  corrected  ///< σ² = 160ι²L²T log(2/δ₀)/(q²ε²): 5× larger, closes the chain (DDA-E1)
};

namespace detail {
template <real_scalar Real>
void dda_preconditions(std::string_view fn, const certifier<Real>& c, const Real& iota,
                       const Real& q_local, long long T, const Real& eps) {
  if (c.in(eps) > 1) fail_domain(fn, "eps", "in (0, 1] (dda Theorem 1 precondition eps <= 1)", eps);
  const work_real i = c.in(iota), q = c.in(q_local), e = c.in(eps);
  const work_real need = 5 * q * q * e * e / (4 * i * i);
  if (work_real(T) < need)
    fail_domain(
        fn, "T",
        "T >= 5 q^2 eps^2/(4 iota^2) = " + ::dpref::detail::to_text(static_cast<double>(need)) +
            " (dda Theorem 1 precondition)",
        T);
}
}  // namespace detail

/// Noise σ of dda Theorem 1: σ² >= C ι²L²T log(2/δ₀)/(q²ε²), C = 32 (paper) or 160 (corrected).
/// Refuses (std::domain_error naming the precondition) when ε > 1 or T < 5q²ε²/(4ι²).
/// @param lipschitz L > 0 @param iota ι ∈ (0, 1] @param q_local q (records per node) > 0
/// @param T iterations >= 1 @param eps ε ∈ (0, 1] @param delta0 δ₀ ∈ (0, 1)
/// @param variant paper or corrected constant @return σ rounded up
/// @spec ACC.CAL.DDA.THM1
template <real_scalar Real>
Real dda_theorem1_sigma(const Real& lipschitz, const Real& iota, const Real& q_local, long long T,
                        const Real& eps, const Real& delta0,
                        dda_variant variant = dda_variant::corrected) {
  constexpr std::string_view fn = "dda_theorem1_sigma";
  require_positive(fn, "lipschitz", lipschitz);
  require_rate(fn, "iota", iota);
  require_positive(fn, "q_local", q_local);
  if (T < 1) fail_domain(fn, "T", ">= 1", T);
  require_epsilon(fn, "eps", eps);
  require_delta(fn, "delta0", delta0);
  if (!(delta0 > Real(0))) fail_domain(fn, "delta0", "> 0", delta0);
  using std::log;
  using std::sqrt;
  certifier<Real> c;
  detail::dda_preconditions(fn, c, iota, q_local, T, eps);
  const work_real C = variant == dda_variant::paper ? work_real(32) : work_real(160);
  const work_real i = c.in(iota), L = c.in(lipschitz), q = c.in(q_local), e = c.in(eps);
  return c.up(sqrt(C * i * i * L * L * work_real(T) * log(2 / c.in(delta0)) / (q * q * e * e)));
}

/// Per-step ε_t = 2L√(2 log(2/δ₀))/σ of dda (16) (Lemma 4.1 with Δ = 2L), rounded up.
/// @spec ACC.CAL.DDA.THM1
template <real_scalar Real>
Real dda_step_epsilon(const Real& lipschitz, const Real& sigma, const Real& delta0) {
  require_positive("dda_step_epsilon", "lipschitz", lipschitz);
  require_positive("dda_step_epsilon", "sigma", sigma);
  require_delta("dda_step_epsilon", "delta0", delta0);
  if (!(delta0 > Real(0))) fail_domain("dda_step_epsilon", "delta0", "> 0", delta0);
  using std::log;
  using std::sqrt;
  certifier<Real> c;
  return c.up(2 * c.in(lipschitz)*sqrt(2 * log(2 / c.in(delta0))) / c.in(sigma));
}

/// dda Remark 3.1 (7) as printed: ε̂(t) ≤ √(3t/(5T)) ε + (t/(5T)) ε² (inherits DDA-E1: valid only
/// with the corrected σ). @param t 1 <= t <= T @return ε̂ rounded up
/// @spec ACC.CAL.DDA.REMARK31
template <real_scalar Real>
Real dda_remark31_eps_hat(long long t, long long T, const Real& eps) {
  if (T < 1) fail_domain("dda_remark31_eps_hat", "T", ">= 1", T);
  if (t < 1 || t > T) fail_domain("dda_remark31_eps_hat", "t", "in [1, T]", t);
  require_epsilon("dda_remark31_eps_hat", "eps", eps);
  using std::sqrt;
  certifier<Real> c;
  const work_real r = work_real(t) / (5 * work_real(T)), e = c.in(eps);
  return c.up(sqrt(3 * r) * e + r * e * e);
}

/// Guarantee of dda Algorithm 1 by the errata DDA-E1 reference chain: ε_t = 2L√(2 ln(2/δ₀))/σ
/// (must be <= 1), ε′ = ln(1 + γ(e^{ε_t} − 1)) with γ = ι/q if the active set is hidden and
/// γ = 1/q otherwise (DDA-E3; then every one of the T rounds is counted, an over-estimate),
/// ε̃ = √(2Tε′² ln(e + √T ε′/δ′)) + Tε′ tanh(ε′/2) (KOV, min with Tε′),
/// δ̃ = 1 − (1 − δ′)(1 − γδ₀)^T.
/// @return approx_dp rounded up @throws std::domain_error for invalid input or ε_t > 1
/// @spec ACC.CAL.DDA.CHAIN
template <real_scalar Real>
approx_dp<Real> dda_guarantee(const Real& lipschitz, const Real& sigma, const Real& iota,
                              const Real& q_local, long long T, const Real& delta0,
                              const Real& delta_prime, bool active_set_hidden) {
  constexpr std::string_view fn = "dda_guarantee";
  require_positive(fn, "lipschitz", lipschitz);
  require_positive(fn, "sigma", sigma);
  require_rate(fn, "iota", iota);
  require_positive(fn, "q_local", q_local);
  if (q_local < Real(1)) fail_domain(fn, "q_local", ">= 1", q_local);
  if (T < 1) fail_domain(fn, "T", ">= 1", T);
  require_delta(fn, "delta0", delta0);
  require_delta(fn, "delta_prime", delta_prime);
  if (!(delta0 > Real(0))) fail_domain(fn, "delta0", "> 0", delta0);
  if (!(delta_prime > Real(0))) fail_domain(fn, "delta_prime", "> 0", delta_prime);
  using std::exp;
  using std::log;
  using std::sqrt;
  using std::tanh;
  certifier<Real> c;
  const work_real et = 2 * c.in(lipschitz)*sqrt(2 * log(2 / c.in(delta0))) / c.in(sigma);
  if (et > 1) fail_domain(fn, "sigma", "large enough that eps_t <= 1 (Lemma 4.1 range)", sigma);
  const work_real g = (active_set_hidden ? c.in(iota) : work_real(1)) / c.in(q_local);
  const work_real ep = detail::w_log1p(g * detail::w_expm1(et));
  const work_real tt(T), dp = c.in(delta_prime);
  const work_real s2 = tt * ep * ep;
  work_real eps = sqrt(2 * s2 * log(exp(work_real(1)) + sqrt(s2) / dp)) + tt * ep * tanh(ep / 2);
  if (tt * ep < eps) eps = tt * ep;
  const work_real delta =
      -detail::w_expm1(detail::w_log1p(-dp) + tt * detail::w_log1p(-g * c.in(delta0)));
  Real d = c.up(delta);
  if (d > Real(1)) d = Real(1);
  return {c.up(eps), d};
}

/// Smallest σ (rounded up) for which dda_guarantee(…).eps <= eps (errata DDA-E1 step 5).
/// @spec ACC.CAL.DDA.CHAIN
template <real_scalar Real>
Real dda_calibrate_sigma(const Real& lipschitz, const Real& iota, const Real& q_local, long long T,
                         const Real& eps, const Real& delta0, const Real& delta_prime,
                         bool active_set_hidden) {
  require_epsilon("dda_calibrate_sigma", "eps", eps);
  using std::log;
  using std::sqrt;
  const Real floor_sigma = 2 * lipschitz * sqrt(2 * log(Real(2) / delta0)) * (1 + Real(1) / 1024);
  auto ok = [&](const Real& s) {
    if (s < floor_sigma) return false;
    return !(
        dda_guarantee(lipschitz, s, iota, q_local, T, delta0, delta_prime, active_set_hidden).eps >
        eps);
  };
  return smallest_satisfying<Real>(ok, floor_sigma * 2, "dda_calibrate_sigma", "sigma");
}

// ----------------------------------------------------- accel (Kuru–Birbil–Gürbüzbalaban–Yıldırım)

/// accel (3.3): per-iteration loss ε(S, b, n, m) = ln[(e^{S/(bm)} − 1) m/n + 1] of Laplace(b)
/// noise on a size-m subsample of n (accel Thm A.1 + A.3), rounded up.
/// @spec ACC.CAL.ACCEL.PROP31
template <real_scalar Real>
Real accel_iteration_epsilon(const Real& S, const Real& b, long long n, long long m) {
  require_positive("accel_iteration_epsilon", "S", S);
  require_positive("accel_iteration_epsilon", "b", b);
  if (n < 1) fail_domain("accel_iteration_epsilon", "n", ">= 1", n);
  if (m < 1 || m > n) fail_domain("accel_iteration_epsilon", "m", "in [1, n]", m);
  certifier<Real> c;
  const work_real mm(m), nn(n);
  return c.up(detail::w_log1p(detail::w_expm1(c.in(S) / (c.in(b)*mm)) * mm / nn));
}

/// accel Proposition 3.1 parameters.
template <real_scalar Real>
struct accel_prop31_result {
  Real eps0;  ///< ε₀ = ln[1 + (e^{ε/T} − 1) n/m] (3.5), rounded down
  Real b;     ///< b_t = S₁/(m ε₀) (3.4), rounded up
};

/// accel Proposition 3.1: Laplace scale b_t and ε₀ making T subsampled iterations ε-DP.
/// @param S1 ℓ1 sensitivity S₁ > 0 @param eps total ε > 0 @param T >= 1 @param n >= 1
/// @param m subsample size in [1, n] @spec ACC.CAL.ACCEL.PROP31
template <real_scalar Real>
accel_prop31_result<Real> accel_prop31(const Real& S1, const Real& eps, long long T, long long n,
                                       long long m) {
  require_positive("accel_prop31", "S1", S1);
  require_epsilon("accel_prop31", "eps", eps);
  if (T < 1) fail_domain("accel_prop31", "T", ">= 1", T);
  if (n < 1) fail_domain("accel_prop31", "n", ">= 1", n);
  if (m < 1 || m > n) fail_domain("accel_prop31", "m", "in [1, n]", m);
  certifier<Real> c;
  const work_real mm(m), nn(n);
  const work_real e0 = detail::w_log1p(detail::w_expm1(c.in(eps) / work_real(T)) * nn / mm);
  // b is computed from the exact ε₀ and rounded up; the reported ε₀ is rounded down.
  return {c.down(e0), c.up(c.in(S1) / (mm * e0))};
}

/// accel Proposition 4.2 solution.
template <real_scalar Real>
struct accel_prop42_result {
  std::vector<Real> b;    ///< b_t = S₁ Σ_j a_j^{1/3} / (a_t^{1/3} n ε) (4.5), rounded up
  std::vector<Real> eps;  ///< ε_t = a_t^{1/3}/Σ_j a_j^{1/3} ε, rounded down (Σ ε_t <= ε)
  Real objective;  ///< Σ a_t b_t² at the optimum = (S₁/(nε))²(Σ a^{1/3})³ (Remark 4.1)
};

/// accel Proposition 4.2 (m = n): optimal Laplace scales for weights a_{T,t} under Σε_t = ε.
/// @param weights a_{T,1..T} > 0 @param S1 > 0 @param n >= 1 @param eps > 0
/// @spec ACC.CAL.ACCEL.PROP42
template <real_scalar Real>
accel_prop42_result<Real> accel_prop42(const std::vector<Real>& weights, const Real& S1,
                                       long long n, const Real& eps) {
  if (weights.empty()) fail_argument("accel_prop42", "weights", "non-empty", 0);
  for (const Real& a : weights) require_positive("accel_prop42", "weights[t]", a);
  require_positive("accel_prop42", "S1", S1);
  if (n < 1) fail_domain("accel_prop42", "n", ">= 1", n);
  require_epsilon("accel_prop42", "eps", eps);
  using std::cbrt;
  certifier<Real> c;
  std::vector<work_real> r;
  r.reserve(weights.size());
  work_real sum(0);
  for (const Real& a : weights) {
    r.push_back(cbrt(c.in(a)));
    sum += r.back();
  }
  const work_real base = c.in(S1) / (work_real(n) * c.in(eps));
  accel_prop42_result<Real> out;
  for (const work_real& x : r) {
    out.b.push_back(c.up(base * sum / x));
    out.eps.push_back(c.down(x / sum * c.in(eps)));
  }
  out.objective = c.up(base * base * sum * sum * sum);
  return out;
}

/// NAG weights a_{T,t} = (1 − √(μα))^{T−t} α(1 + αL), t = 1..T (accel (4.3)); a_{T,0} is
/// (1 − √(μα))^T. Plain evaluation (an error bound, not a privacy quantity).
/// @spec ACC.CAL.ACCEL.REMARK41
template <real_scalar Real>
std::vector<Real> accel_nag_weights(long long T, const Real& mu, const Real& alpha, const Real& L) {
  if (T < 1) fail_domain("accel_nag_weights", "T", ">= 1", T);
  require_positive("accel_nag_weights", "mu", mu);
  require_positive("accel_nag_weights", "alpha", alpha);
  require_positive("accel_nag_weights", "L", L);
  using std::pow;
  using std::sqrt;
  const Real rho = 1 - sqrt(mu * alpha);
  if (!(rho >= Real(0)) || !(rho < Real(1)))
    fail_domain("accel_nag_weights", "mu*alpha", "in (0, 1]", mu * alpha);
  std::vector<Real> a(static_cast<std::size_t>(T));
  const Real c = alpha * (1 + alpha * L);
  for (long long t = 1; t <= T; ++t)
    a[static_cast<std::size_t>(t - 1)] = Real(pow(rho, Real(T - t))) * c;
  return a;
}

/// accel Remark 4.1: the T' ∈ [1, T_max] minimising bound (4.6)
/// a_{T',0}E₀ + d S₁²/(n²ε²) (Σ_j a_{T',j}^{1/3})³ for the NAG weights.
template <real_scalar Real>
struct accel_remark41_result {
  long long T;
  Real bound;
};

/// @param E0 initial error guess @param mu,alpha,L NAG constants @param d dimension
/// @param S1 sensitivity @param n dataset size @param eps budget @param T_max upper limit
/// @spec ACC.CAL.ACCEL.REMARK41
template <real_scalar Real>
accel_remark41_result<Real> accel_remark41_choose_T(const Real& E0, const Real& mu,
                                                    const Real& alpha, const Real& L, long long d,
                                                    const Real& S1, long long n, const Real& eps,
                                                    long long T_max) {
  require_nonnegative("accel_remark41_choose_T", "E0", E0);
  require_positive("accel_remark41_choose_T", "mu", mu);
  require_positive("accel_remark41_choose_T", "alpha", alpha);
  require_positive("accel_remark41_choose_T", "L", L);
  require_positive("accel_remark41_choose_T", "S1", S1);
  require_epsilon("accel_remark41_choose_T", "eps", eps);
  if (d < 1) fail_domain("accel_remark41_choose_T", "d", ">= 1", d);
  if (n < 1) fail_domain("accel_remark41_choose_T", "n", ">= 1", n);
  if (T_max < 1 || T_max > 100000000)
    fail_domain("accel_remark41_choose_T", "T_max", "in [1, 1e8]", T_max);
  using std::cbrt;
  using std::sqrt;
  const Real rho = 1 - sqrt(mu * alpha);
  if (!(rho >= Real(0)) || !(rho < Real(1)))
    fail_domain("accel_remark41_choose_T", "mu*alpha", "in (0, 1]", mu * alpha);
  const Real c3 = cbrt(alpha * (1 + alpha * L)), r3 = cbrt(rho);
  const Real k = Real(d) * S1 * S1 / (Real(n) * Real(n) * eps * eps);
  accel_remark41_result<Real> best{0, Real(0)};
  Real a0 = 1, s = 0, rp = 1;  // a_{T,0} = ρ^T; Σ_{j=1}^T a_{T,j}^{1/3} = c3 Σ_{i<T} ρ^{i/3}
  for (long long T = 1; T <= T_max; ++T) {
    a0 *= rho;
    s += rp;
    rp *= r3;
    const Real sum = c3 * s;
    const Real b = a0 * E0 + k * sum * sum * sum;
    if (best.T == 0 || b < best.bound) best = {T, b};
  }
  return best;
}

// -------------------------------------------------------------------- ev (Han–Topcu–Pappas) ----

/// ev proof of Theorem 6: ε_1 = 0, ε_k = 2(k−1)ε/(K(K−1)) for k = 2..K (Σε_k = ε), each
/// rounded down so that the sum never exceeds ε.
/// @param K iterations >= 2 @param eps total ε > 0 @return ε_1..ε_K
/// @spec ACC.CAL.EV
template <real_scalar Real>
std::vector<Real> ev_epsilon_schedule(long long K, const Real& eps) {
  if (K < 2) fail_domain("ev_epsilon_schedule", "K", ">= 2", K);
  require_epsilon("ev_epsilon_schedule", "eps", eps);
  certifier<Real> c;
  const work_real kk(K), e = c.in(eps);
  std::vector<Real> out;
  out.reserve(static_cast<std::size_t>(K));
  for (long long k = 1; k <= K; ++k)
    out.push_back(c.down(2 * work_real(k - 1) * e / (kk * (kk - 1))));
  return out;
}

/// ev Algorithm 2 noise scale s = K(K−1)LΔ/(2ε) (ε_k/Δ^(k) = 2ε/(K(K−1)LΔ), Lemma 13), rounded up.
/// @spec ACC.CAL.EV
template <real_scalar Real>
Real ev_noise_scale(long long K, const Real& lipschitz, const Real& sensitivity, const Real& eps) {
  if (K < 2) fail_domain("ev_noise_scale", "K", ">= 2", K);
  require_positive("ev_noise_scale", "lipschitz", lipschitz);
  require_positive("ev_noise_scale", "sensitivity", sensitivity);
  require_epsilon("ev_noise_scale", "eps", eps);
  certifier<Real> c;
  const work_real kk(K);
  return c.up(kk * (kk - 1) * c.in(lipschitz)*c.in(sensitivity) / (2 * c.in(eps)));
}

// Explicit instances (src/instances/accounting.cpp); EXT is `extern` for consumers.
#define DPREF_ACC_CALIBRATORS_INSTANCES(EXT, R)                                                   \
  EXT template R dda_theorem1_sigma<R>(const R&, const R&, const R&, long long, const R&,         \
                                       const R&, dda_variant);                                    \
  EXT template R dda_step_epsilon<R>(const R&, const R&, const R&);                               \
  EXT template R dda_remark31_eps_hat<R>(long long, long long, const R&);                         \
  EXT template approx_dp<R> dda_guarantee<R>(const R&, const R&, const R&, const R&, long long,   \
                                             const R&, const R&, bool);                           \
  EXT template R dda_calibrate_sigma<R>(const R&, const R&, const R&, long long, const R&,        \
                                        const R&, const R&, bool);                                \
  EXT template R accel_iteration_epsilon<R>(const R&, const R&, long long, long long);            \
  EXT template accel_prop31_result<R> accel_prop31<R>(const R&, const R&, long long, long long,   \
                                                      long long);                                 \
  EXT template accel_prop42_result<R> accel_prop42<R>(const std::vector<R>&, const R&, long long, \
                                                      const R&);                                  \
  EXT template std::vector<R> accel_nag_weights<R>(long long, const R&, const R&, const R&);      \
  EXT template accel_remark41_result<R> accel_remark41_choose_T<R>(                               \
      const R&, const R&, const R&, const R&, long long, const R&, long long, const R&,           \
      long long);                                                                                 \
  EXT template std::vector<R> ev_epsilon_schedule<R>(long long, const R&);                        \
  EXT template R ev_noise_scale<R>(long long, const R&, const R&, const R&);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_ACC_EXTERN_CALIBRATORS(R) DPREF_ACC_CALIBRATORS_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_ACC_EXTERN_CALIBRATORS)
#undef DPREF_ACC_EXTERN_CALIBRATORS
#endif

}  // namespace dpref::accounting

// Privacy calibration of dda (Liu–Johansson–Shi), errata DDA-E1..E4: the σ of Theorem 1 (paper
// and corrected constant), the per-step ε of (16), Remark 3.1, the reference chain and its
// certified σ, and three calibrations side by side:
//  (a) paper: σ of Theorem 1 as printed (C = 32), with the (ε̃, δ̃) its own Lemma 4.2/4.3 chain
//      really gives (DDA-E1/E2: ε̃ = ε√(2 ln(e+1)) + ε² at equality, δ̃ vacuous);
//  (b) sound chain: the same proof technique (Gaussian (ε_t, δ₀) per step, exact amplification,
//      KOV advanced composition with a free δ′) with rate 1/q over the rounds in which the node
//      holding the record is active (active sets are public, DDA-E3), or ι/q over all T rounds
//      only under the explicit `active_set_hidden` flag; σ by certified bisection;
//  (c) the run's ledger (dda/ledger.hpp: plan_ledger, the same events `dda::run` records and
//      certifies): σ by certified bisection for a target (ε, δ); calibrate() and certify(),
//      which report all three side by side, live there too.
// Every returned ε, δ is rounded up and every σ is the smallest certified one (ACC.CERT.UP).
// @spec DDA.PRIV.A DDA.PRIV.B DDA.PRIV.C
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/dda/composition.hpp"
#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::dda {

/// Which constant to use in dda Theorem 1.
enum class theorem1_variant {
  paper,  ///< σ² = 32ι²L²T log(2/δ₀)/(q²ε²) as printed (its proof fails: errata DDA-E1)
  corrected  ///< σ² = 160ι²L²T log(2/δ₀)/(q²ε²): 5× larger, closes the chain (DDA-E1)
};

namespace detail {
template <real_scalar Real>
void theorem1_preconditions(std::string_view fn, const accounting::certifier<Real>& c,
                            const Real& iota, const Real& q_local, long long T, const Real& eps) {
  if (c.in(eps) > 1) fail_domain(fn, "eps", "in (0, 1] (dda Theorem 1 precondition eps <= 1)", eps);
  const accounting::work_real i = c.in(iota), q = c.in(q_local), e = c.in(eps);
  const accounting::work_real need = 5 * q * q * e * e / (4 * i * i);
  if (accounting::work_real(T) < need)
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
Real theorem1_sigma(const Real& lipschitz, const Real& iota, const Real& q_local, long long T,
                    const Real& eps, const Real& delta0,
                    theorem1_variant variant = theorem1_variant::corrected) {
  // Message prefix kept from the former accounting::dda_theorem1_sigma (pinned by
  // ACC_CAL_DDA_THM1.RefusesViolatedPreconditions).
  constexpr std::string_view fn = "dda_theorem1_sigma";
  require_positive(fn, "lipschitz", lipschitz);
  accounting::require_rate(fn, "iota", iota);
  require_positive(fn, "q_local", q_local);
  if (T < 1) fail_domain(fn, "T", ">= 1", T);
  accounting::require_epsilon(fn, "eps", eps);
  accounting::require_delta(fn, "delta0", delta0);
  if (!(delta0 > Real(0))) fail_domain(fn, "delta0", "> 0", delta0);
  using std::log;
  using std::sqrt;
  accounting::certifier<Real> c;
  detail::theorem1_preconditions(fn, c, iota, q_local, T, eps);
  const accounting::work_real C =
      variant == theorem1_variant::paper ? accounting::work_real(32) : accounting::work_real(160);
  const accounting::work_real i = c.in(iota), L = c.in(lipschitz), q = c.in(q_local), e = c.in(eps);
  return c.up(
      sqrt(C * i * i * L * L * accounting::work_real(T) * log(2 / c.in(delta0)) / (q * q * e * e)));
}

/// Per-step ε_t = 2L√(2 log(2/δ₀))/σ of dda (16) (Lemma 4.1 with Δ = 2L), rounded up.
/// @spec ACC.CAL.DDA.THM1
template <real_scalar Real>
Real step_epsilon(const Real& lipschitz, const Real& sigma, const Real& delta0) {
  require_positive("dpref::dda::step_epsilon", "lipschitz", lipschitz);
  require_positive("dpref::dda::step_epsilon", "sigma", sigma);
  accounting::require_delta("dpref::dda::step_epsilon", "delta0", delta0);
  if (!(delta0 > Real(0))) fail_domain("dpref::dda::step_epsilon", "delta0", "> 0", delta0);
  using std::log;
  using std::sqrt;
  accounting::certifier<Real> c;
  return c.up(2 * c.in(lipschitz)*sqrt(2 * log(2 / c.in(delta0))) / c.in(sigma));
}

/// dda Remark 3.1 (7) as printed: ε̂(t) ≤ √(3t/(5T)) ε + (t/(5T)) ε² (inherits DDA-E1: valid only
/// with the corrected σ). @param t 1 <= t <= T @return ε̂ rounded up
/// @spec ACC.CAL.DDA.REMARK31
template <real_scalar Real>
Real remark31_eps_hat(long long t, long long T, const Real& eps) {
  if (T < 1) fail_domain("dpref::dda::remark31_eps_hat", "T", ">= 1", T);
  if (t < 1 || t > T) fail_domain("dpref::dda::remark31_eps_hat", "t", "in [1, T]", t);
  accounting::require_epsilon("dpref::dda::remark31_eps_hat", "eps", eps);
  using std::sqrt;
  accounting::certifier<Real> c;
  const accounting::work_real r = accounting::work_real(t) / (5 * accounting::work_real(T)),
                              e = c.in(eps);
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
accounting::approx_dp<Real> guarantee(const Real& lipschitz, const Real& sigma, const Real& iota,
                                      const Real& q_local, long long T, const Real& delta0,
                                      const Real& delta_prime, bool active_set_hidden) {
  constexpr std::string_view fn = "dpref::dda::guarantee";
  require_positive(fn, "lipschitz", lipschitz);
  require_positive(fn, "sigma", sigma);
  accounting::require_rate(fn, "iota", iota);
  require_positive(fn, "q_local", q_local);
  if (q_local < Real(1)) fail_domain(fn, "q_local", ">= 1", q_local);
  if (T < 1) fail_domain(fn, "T", ">= 1", T);
  accounting::require_delta(fn, "delta0", delta0);
  accounting::require_delta(fn, "delta_prime", delta_prime);
  if (!(delta0 > Real(0))) fail_domain(fn, "delta0", "> 0", delta0);
  if (!(delta_prime > Real(0))) fail_domain(fn, "delta_prime", "> 0", delta_prime);
  using std::exp;
  using std::log;
  using std::sqrt;
  using std::tanh;
  accounting::certifier<Real> c;
  const accounting::work_real et =
      2 * c.in(lipschitz)*sqrt(2 * log(2 / c.in(delta0))) / c.in(sigma);
  if (et > 1) fail_domain(fn, "sigma", "large enough that eps_t <= 1 (Lemma 4.1 range)", sigma);
  const accounting::work_real g =
      (active_set_hidden ? c.in(iota) : accounting::work_real(1)) / c.in(q_local);
  const accounting::work_real ep = accounting::detail::w_log1p(g * accounting::detail::w_expm1(et));
  const accounting::work_real tt(T), dp = c.in(delta_prime);
  const accounting::work_real s2 = tt * ep * ep;
  accounting::work_real eps =
      sqrt(2 * s2 * log(exp(accounting::work_real(1)) + sqrt(s2) / dp)) + tt * ep * tanh(ep / 2);
  if (tt * ep < eps) eps = tt * ep;
  const accounting::work_real delta = -accounting::detail::w_expm1(
      accounting::detail::w_log1p(-dp) + tt * accounting::detail::w_log1p(-g * c.in(delta0)));
  Real d = c.up(delta);
  if (d > Real(1)) d = Real(1);
  return {c.up(eps), d};
}

/// Smallest σ (rounded up) for which guarantee(…).eps <= eps (errata DDA-E1 step 5).
/// @spec ACC.CAL.DDA.CHAIN
template <real_scalar Real>
Real calibrate_sigma(const Real& lipschitz, const Real& iota, const Real& q_local, long long T,
                     const Real& eps, const Real& delta0, const Real& delta_prime,
                     bool active_set_hidden) {
  accounting::require_epsilon("dpref::dda::calibrate_sigma", "eps", eps);
  using std::log;
  using std::sqrt;
  const Real floor_sigma = 2 * lipschitz * sqrt(2 * log(Real(2) / delta0)) * (1 + Real(1) / 1024);
  auto ok = [&](const Real& s) {
    if (s < floor_sigma) return false;
    return !(guarantee(lipschitz, s, iota, q_local, T, delta0, delta_prime, active_set_hidden).eps >
             eps);
  };
  return accounting::smallest_satisfying<Real>(ok, floor_sigma * 2, "dpref::dda::calibrate_sigma",
                                               "sigma");
}

/// Which calibration produced σ.
enum class calibration { paper_theorem1, sound_chain, rdp };

/// Inputs shared by the three calibrations.
template <real_scalar Real>
struct privacy_setup {
  Real lipschitz = Real(1);              ///< L (Assumption 3); Δ = 2L
  Real iota = Real(1) / 10;              ///< ι: per-round activation probability of a node
  long long q_local = 100;               ///< q: records per node
  long long T = 1000;                    ///< iterations
  Real eps = Real(1);                    ///< target ε
  Real delta0 = Real(1) / 100;           ///< δ₀ of Theorem 1 (paper, chain)
  Real delta_prime = Real(1) / 1000000;  ///< δ′ of the sound chain
  Real target_delta = Real(1) / 100000;  ///< δ of calibration (c)
  bool active_set_hidden = false;        ///< ι/q amplification (only if N^(t) is hidden)
  int max_order = 64;                    ///< RDP orders 2..max_order
};

/// One calibration with the guarantees it actually certifies.
template <real_scalar Real>
struct calibration_report {
  calibration kind = calibration::rdp;
  std::string name;
  Real sigma = Real(0);
  bool paper_precondition = false;  ///< T >= 5q²ε²/(4ι²) (Theorem 1)
  bool paper_chain_ok = false;      ///< printed Lemma 4.3 chain applicable (ε′_t <= 0.9)
  accounting::approx_dp<Real>
      paper_chain{};  ///< (ε̃, δ̃) of the printed chain, δ′ = √Σε′² (DDA-E1/E2)
  bool sound_chain_ok = false;                ///< ε_t <= 1 (Lemma 4.1 range)
  accounting::approx_dp<Real> sound_chain{};  ///< errata chain (b) at this σ
  accounting::approx_dp<Real> rdp{};          ///< RDP accountant (c) at this σ, δ = target_delta
  long long active_rounds = 0;                ///< k* (public) or T (hidden)
  Real tail = Real(0);                        ///< P[Bin(T, ι) > k*] bound, included in the δ's
  bool hidden = false;
};

/// σ² = 32ι²L²T log(2/δ₀)/(q²ε²) of dda Theorem 1 evaluated WITHOUT its preconditions
/// (ε <= 1, T >= 5q²ε²/(4ι²)), as the paper's §5 experiments do (DDA-E4). Rounded up.
/// @spec DDA.PRIV.A
template <real_scalar Real>
Real paper_sigma_unchecked(const Real& lipschitz, const Real& iota, const Real& q_local,
                           long long T, const Real& eps, const Real& delta0) {
  require_positive("dpref::dda::paper_sigma_unchecked", "lipschitz", lipschitz);
  accounting::require_rate("dpref::dda::paper_sigma_unchecked", "iota", iota);
  require_positive("dpref::dda::paper_sigma_unchecked", "eps", eps);
  if (T < 1) fail_domain("dpref::dda::paper_sigma_unchecked", "T", ">= 1", T);
  accounting::require_delta("dpref::dda::paper_sigma_unchecked", "delta0", delta0);
  using std::log;
  using std::sqrt;
  accounting::certifier<Real> c;
  const accounting::work_real i = c.in(iota), L = c.in(lipschitz), q = c.in(q_local), e = c.in(eps);
  return c.up(sqrt(32 * i * i * L * L * accounting::work_real(T) * log(2 / c.in(delta0)) /
                   (q * q * e * e)));
}

/// The printed chain of the proof of Theorem 1 at σ: ε_t (16), ε′_t = 2ιε_t/q, Lemma 4.3 with
/// δ′ = √Σε′_t² and δ_i = ιδ₀/q (errata DDA-E1/E2). Requires ε′_t <= 0.9 and T <= 10^6.
/// @spec DDA.PRIV.A
template <real_scalar Real>
accounting::approx_dp<Real> paper_chain(const Real& lipschitz, const Real& sigma, const Real& iota,
                                        long long q_local, long long T, const Real& delta0) {
  if (T < 1 || T > 1000000) fail_domain("dpref::dda::paper_chain", "T", "in [1, 1e6]", T);
  const Real et = step_epsilon(lipschitz, sigma, delta0);
  const Real ep = 2 * iota * et / Real(q_local);
  using std::sqrt;
  const Real dp = Real(sqrt(Real(T) * ep * ep));
  const Real di = iota * delta0 / Real(q_local);
  std::vector<accounting::approx_dp<Real>> parts(static_cast<std::size_t>(T),
                                                 accounting::approx_dp<Real>{ep, di});
  return compose_advanced(parts, dp > Real(1) ? Real(1) : dp);
}

/// Sound chain (b) at σ: guarantee over the T rounds at rate ι/q (hidden) or over the k*
/// active rounds at rate 1/q (public) with δ increased by the binomial tail bound η.
/// @return guarantee and k* @spec DDA.PRIV.B
template <real_scalar Real>
accounting::approx_dp<Real> sound_chain(const privacy_setup<Real>& s, const Real& sigma,
                                        long long* rounds = nullptr) {
  const Real eta = s.target_delta / 10;
  if (s.active_set_hidden) {
    if (rounds) *rounds = s.T;
    return guarantee(s.lipschitz, sigma, s.iota, Real(s.q_local), s.T, s.delta0, s.delta_prime,
                     true);
  }
  const long long k = binomial_upper_quantile(s.T, s.iota, eta);
  if (rounds) *rounds = k;
  if (k == 0) return {Real(0), Real(0)};
  auto g =
      guarantee(s.lipschitz, sigma, s.iota, Real(s.q_local), k, s.delta0, s.delta_prime, false);
  const Real tail = binomial_tail_bound(s.T, s.iota, k + 1);
  g.delta = g.delta + tail > Real(1) ? Real(1) : g.delta + tail;  // (rounding: tail is tiny)
  return g;
}

// Explicit instances (src/instances/dda.cpp); EXT is `extern` for consumers.
#define DPREF_DDA_CALIBRATION_INSTANCES(EXT, R)                                                  \
  EXT template R theorem1_sigma<R>(const R&, const R&, const R&, long long, const R&, const R&,  \
                                   theorem1_variant);                                            \
  EXT template R step_epsilon<R>(const R&, const R&, const R&);                                  \
  EXT template R remark31_eps_hat<R>(long long, long long, const R&);                            \
  EXT template accounting::approx_dp<R> guarantee<R>(const R&, const R&, const R&, const R&,     \
                                                     long long, const R&, const R&, bool);       \
  EXT template R calibrate_sigma<R>(const R&, const R&, const R&, long long, const R&, const R&, \
                                    const R&, bool);
#ifdef DPREF_EXPLICIT_INSTANCES
#define DPREF_DDA_EXTERN_CALIBRATION(R) DPREF_DDA_CALIBRATION_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_DDA_EXTERN_CALIBRATION)
#undef DPREF_DDA_EXTERN_CALIBRATION
#endif

}  // namespace dpref::dda

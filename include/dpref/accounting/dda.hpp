// dda (Liu–Johansson–Shi) privacy calibrations side by side (errata DDA-E1..E4):
//  (a) paper: σ of Theorem 1 as printed (C = 32), with the (ε̃, δ̃) its own Lemma 4.2/4.3 chain
//      really gives (DDA-E1/E2: ε̃ = ε√(2 ln(e+1)) + ε² at equality, δ̃ vacuous);
//  (b) sound chain: the same proof technique (Gaussian (ε_t, δ₀) per step, exact amplification,
//      KOV advanced composition with a free δ′) with rate 1/q over the rounds in which the node
//      holding the record is active (active sets are public, DDA-E3), or ι/q over all T rounds
//      only under the explicit `active_set_hidden` flag; σ by certified bisection;
//  (c) RDP: the per-round mechanism seen by one record is the Gaussian mechanism (Δ = 2L,
//      replace-one) applied to one record drawn without replacement from the node's q records;
//      its RDP is bounded by Wang–Balle–Kasiviswanathan (AISTATS 2019, Theorem 9, γ = 1/q),
//      composed over the node's active rounds (a Chernoff bound k* on Bin(T, ι) with tail η
//      added to δ), converted by Balle et al. 2020; σ by certified bisection for a target
//      (ε, δ). Hidden active sets: γ = ι/q over T rounds (anonymous-multiset model only).
// Every returned ε, δ is rounded up and every σ is the smallest certified one (ACC.CERT.UP).
// @spec DDA.PRIV.A DDA.PRIV.B DDA.PRIV.C DDA.PRIV.WOR DDA.PRIV.BINOM
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpref/accounting/calibrators.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/ledger.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/subsampling_wor.hpp"
#include "dpref/accounting/types.hpp"

namespace dpref::accounting {

/// Chernoff upper bound of P[Bin(T, p) >= k]: exp(−T·KL(k/T ‖ p)) for k > Tp (1 otherwise),
/// rounded up. @spec DDA.PRIV.BINOM
template <real_scalar Real>
Real binomial_tail_bound(long long T, const Real& p, long long k) {
  if (T < 1) fail_domain("binomial_tail_bound", "T", ">= 1", T);
  require_rate("binomial_tail_bound", "p", p);
  if (k > T) return Real(0);
  certifier<Real> c;
  const work_real pp = c.in(p), a = work_real(k) / work_real(T);
  if (!(a > pp)) return Real(1);
  if (pp == 1) return Real(k <= T ? 1 : 0);
  using std::exp;
  using std::log;
  const work_real kl = a * log(a / pp) + (a < 1 ? (1 - a) * log((1 - a) / (1 - pp)) : work_real(0));
  return c.up(exp(-work_real(T) * kl));
}

/// Smallest k with P[Bin(T, p) > k] <= eta by the Chernoff bound (k* of calibration (c)).
/// @spec DDA.PRIV.BINOM
template <real_scalar Real>
long long binomial_upper_quantile(long long T, const Real& p, const Real& eta) {
  require_positive("binomial_upper_quantile", "eta", eta);
  long long lo = 0, hi = T;  // P[> T] = 0
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (!(binomial_tail_bound(T, p, mid + 1) > eta))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/// Which calibration produced σ.
enum class dda_calibration { paper_theorem1, sound_chain, rdp };

/// Inputs shared by the three calibrations.
template <real_scalar Real>
struct dda_privacy_setup {
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
struct dda_calibration_report {
  dda_calibration kind = dda_calibration::rdp;
  std::string name;
  Real sigma = Real(0);
  bool paper_precondition = false;  ///< T >= 5q²ε²/(4ι²) (Theorem 1)
  bool paper_chain_ok = false;      ///< printed Lemma 4.3 chain applicable (ε′_t <= 0.9)
  approx_dp<Real> paper_chain{};  ///< (ε̃, δ̃) of the printed chain, δ′ = √Σε′² (DDA-E1/E2)
  bool sound_chain_ok = false;    ///< ε_t <= 1 (Lemma 4.1 range)
  approx_dp<Real> sound_chain{};  ///< errata chain (b) at this σ
  approx_dp<Real> rdp{};          ///< RDP accountant (c) at this σ, δ = target_delta
  long long active_rounds = 0;    ///< k* (public) or T (hidden)
  Real tail = Real(0);            ///< P[Bin(T, ι) > k*] bound, included in the δ's
  bool hidden = false;
};

/// σ² = 32ι²L²T log(2/δ₀)/(q²ε²) of dda Theorem 1 evaluated WITHOUT its preconditions
/// (ε <= 1, T >= 5q²ε²/(4ι²)), as the paper's §5 experiments do (DDA-E4). Rounded up.
/// @spec DDA.PRIV.A
template <real_scalar Real>
Real dda_paper_sigma_unchecked(const Real& lipschitz, const Real& iota, const Real& q_local,
                               long long T, const Real& eps, const Real& delta0) {
  require_positive("dda_paper_sigma_unchecked", "lipschitz", lipschitz);
  require_rate("dda_paper_sigma_unchecked", "iota", iota);
  require_positive("dda_paper_sigma_unchecked", "eps", eps);
  if (T < 1) fail_domain("dda_paper_sigma_unchecked", "T", ">= 1", T);
  require_delta("dda_paper_sigma_unchecked", "delta0", delta0);
  using std::log;
  using std::sqrt;
  certifier<Real> c;
  const work_real i = c.in(iota), L = c.in(lipschitz), q = c.in(q_local), e = c.in(eps);
  return c.up(sqrt(32 * i * i * L * L * work_real(T) * log(2 / c.in(delta0)) / (q * q * e * e)));
}

/// The printed chain of the proof of Theorem 1 at σ: ε_t (16), ε′_t = 2ιε_t/q, Lemma 4.3 with
/// δ′ = √Σε′_t² and δ_i = ιδ₀/q (errata DDA-E1/E2). Requires ε′_t <= 0.9 and T <= 10^6.
/// @spec DDA.PRIV.A
template <real_scalar Real>
approx_dp<Real> dda_paper_chain(const Real& lipschitz, const Real& sigma, const Real& iota,
                                long long q_local, long long T, const Real& delta0) {
  if (T < 1 || T > 1000000) fail_domain("dda_paper_chain", "T", "in [1, 1e6]", T);
  const Real et = dda_step_epsilon(lipschitz, sigma, delta0);
  const Real ep = 2 * iota * et / Real(q_local);
  using std::sqrt;
  const Real dp = Real(sqrt(Real(T) * ep * ep));
  const Real di = iota * delta0 / Real(q_local);
  std::vector<approx_dp<Real>> parts(static_cast<std::size_t>(T), approx_dp<Real>{ep, di});
  return compose_advanced_dda(parts, dp > Real(1) ? Real(1) : dp);
}

/// Sound chain (b) at σ: dda_guarantee over the T rounds at rate ι/q (hidden) or over the k*
/// active rounds at rate 1/q (public) with δ increased by the binomial tail bound η.
/// @return guarantee and k* @spec DDA.PRIV.B
template <real_scalar Real>
approx_dp<Real> dda_sound_chain(const dda_privacy_setup<Real>& s, const Real& sigma,
                                long long* rounds = nullptr) {
  const Real eta = s.target_delta / 10;
  if (s.active_set_hidden) {
    if (rounds) *rounds = s.T;
    return dda_guarantee(s.lipschitz, sigma, s.iota, Real(s.q_local), s.T, s.delta0, s.delta_prime,
                         true);
  }
  const long long k = binomial_upper_quantile(s.T, s.iota, eta);
  if (rounds) *rounds = k;
  if (k == 0) return {Real(0), Real(0)};
  auto g =
      dda_guarantee(s.lipschitz, sigma, s.iota, Real(s.q_local), k, s.delta0, s.delta_prime, false);
  const Real tail = binomial_tail_bound(s.T, s.iota, k + 1);
  g.delta = g.delta + tail > Real(1) ? Real(1) : g.delta + tail;  // (rounding: tail is tiny)
  return g;
}

/// RDP curve of one record over the whole run at σ: k·ε′_WOR(α) with k = k* (public, γ = 1/q)
/// or T (hidden, γ = ι/q). @spec DDA.PRIV.C
template <real_scalar Real>
rdp_curve<Real> dda_rdp_curve(const dda_privacy_setup<Real>& s, const Real& sigma,
                              long long* rounds = nullptr) {
  const Real gamma = (s.active_set_hidden ? s.iota : Real(1)) / Real(s.q_local);
  const Real mult = sigma / (2 * s.lipschitz);
  const long long k =
      s.active_set_hidden ? s.T : binomial_upper_quantile(s.T, s.iota, s.target_delta / 10);
  if (rounds) *rounds = k;
  const auto one = subsampled_gaussian_rdp_wor(gamma, mult, integer_orders<Real>(2, s.max_order));
  return compose_rdp_steps(one, k < 1 ? 1 : k);
}

/// (ε, δ) certified by calibration (c)'s accountant at σ (δ = target_delta; the tail η =
/// target_delta/10 of the public case is part of it). @spec DDA.PRIV.C
template <real_scalar Real>
approx_dp<Real> dda_rdp_guarantee(const dda_privacy_setup<Real>& s, const Real& sigma) {
  long long k = 0;
  const auto curve = dda_rdp_curve(s, sigma, &k);
  const Real conv_delta =
      s.active_set_hidden ? s.target_delta : s.target_delta - s.target_delta / 10;
  auto g = rdp_to_dp(curve, conv_delta, conversion_method::balle2020).guarantee;
  g.delta = s.target_delta;
  return g;
}

/// Fills the certified columns of a report at its σ.
template <real_scalar Real>
void dda_certify(const dda_privacy_setup<Real>& s, dda_calibration_report<Real>& r) {
  r.hidden = s.active_set_hidden;
  {
    certifier<Real> c;
    const work_real i = c.in(s.iota), q(s.q_local), e = c.in(s.eps);
    r.paper_precondition = !(c.in(s.eps) > 1) && work_real(s.T) >= 5 * q * q * e * e / (4 * i * i);
  }
  const Real et = dda_step_epsilon(s.lipschitz, r.sigma, s.delta0);
  const Real ep = 2 * s.iota * et / Real(s.q_local);
  r.paper_chain_ok = !(ep > Real(9) / 10) && s.T <= 1000000;
  if (r.paper_chain_ok)
    r.paper_chain = dda_paper_chain(s.lipschitz, r.sigma, s.iota, s.q_local, s.T, s.delta0);
  r.sound_chain_ok = !(et > Real(1));
  if (r.sound_chain_ok) r.sound_chain = dda_sound_chain(s, r.sigma);
  long long k = 0;
  (void)dda_rdp_curve(s, r.sigma, &k);
  r.active_rounds = k;
  r.tail = s.active_set_hidden ? Real(0) : binomial_tail_bound(s.T, s.iota, k + 1);
  r.rdp = dda_rdp_guarantee(s, r.sigma);
}

/// Calibration (a), (b) or (c) for the setup, with every guarantee certified at its σ.
/// (a) σ = paper formula (unchecked); (b) smallest σ with sound-chain ε̃ <= ε; (c) smallest σ
/// with RDP ε <= ε at δ = target_delta. @spec DDA.PRIV.A DDA.PRIV.B DDA.PRIV.C
template <real_scalar Real>
dda_calibration_report<Real> dda_calibrate(const dda_privacy_setup<Real>& s, dda_calibration kind) {
  require_positive("dda_calibrate", "eps", s.eps);
  require_rate("dda_calibrate", "iota", s.iota);
  if (s.q_local < 1) fail_domain("dda_calibrate", "q_local", ">= 1", s.q_local);
  if (s.T < 1) fail_domain("dda_calibrate", "T", ">= 1", s.T);
  dda_calibration_report<Real> r;
  r.kind = kind;
  using std::log;
  using std::sqrt;
  switch (kind) {
    case dda_calibration::paper_theorem1:
      r.name = "paper_theorem1";
      r.sigma =
          dda_paper_sigma_unchecked(s.lipschitz, s.iota, Real(s.q_local), s.T, s.eps, s.delta0);
      break;
    case dda_calibration::sound_chain: {
      r.name = s.active_set_hidden ? "sound_chain_hidden" : "sound_chain";
      const Real floor_sigma =
          2 * s.lipschitz * Real(sqrt(2 * log(Real(2) / s.delta0))) * (1 + Real(1) / 1024);
      auto ok = [&](const Real& sg) {
        if (sg < floor_sigma) return false;
        return !(dda_sound_chain(s, sg).eps > s.eps);
      };
      r.sigma = smallest_satisfying<Real>(ok, floor_sigma * 2, "dda_calibrate", "sigma");
      break;
    }
    case dda_calibration::rdp: {
      r.name = s.active_set_hidden ? "rdp_hidden" : "rdp";
      auto ok = [&](const Real& sg) { return !(dda_rdp_guarantee(s, sg).eps > s.eps); };
      r.sigma = smallest_satisfying<Real>(ok, 2 * s.lipschitz, "dda_calibrate", "sigma");
      break;
    }
  }
  dda_certify(s, r);
  return r;
}

/// Ledger of a run at σ: one RDP event per active round of the record's node (public) or per
/// round (hidden), kind naming the calibration; total(δ) reproduces calibration (c)'s account.
/// @param rounds realised active rounds (public: max over nodes; the schedule is data-free)
/// @spec DDA.PRIV.C
template <real_scalar Real>
privacy_ledger<Real> dda_ledger(const dda_privacy_setup<Real>& s,
                                const dda_calibration_report<Real>& r, long long rounds) {
  if (rounds < 1) fail_domain("dda_ledger", "rounds", ">= 1", rounds);
  const Real gamma = (s.active_set_hidden ? s.iota : Real(1)) / Real(s.q_local);
  privacy_event<Real> e;
  e.kind = "dda.round[" + r.name + "]: Gaussian(Delta=2L) on 1 of q records (WOR), WBK RDP";
  e.params = {{"sigma", r.sigma}, {"L", s.lipschitz}, {"gamma", gamma}, {"iota", s.iota}};
  e.privacy = subsampled_gaussian_rdp_wor(gamma, r.sigma / (2 * s.lipschitz),
                                          integer_orders<Real>(2, s.max_order));
  e.count = rounds;
  privacy_ledger<Real> l;
  l.record(std::move(e));
  return l;
}

}  // namespace dpref::accounting

// The ledger of a dda run (spec/dda.md DDA.LEDGER, DDA.PRIV.C) and the calibrations reported side
// by side (calibrate, certify). One implementation: `dda::run` records plan_ledger's events,
// calibration (c) is the smallest σ this ledger certifies, and the report's certified (ε, δ) is
// this ledger's total — never a second accountant.
//
// Ledger: the record z of node i is read in a round only if i is active and draws z among its q
// records, so one round is the Gaussian mechanism (Δ = 2L, replace-one) on a sample of 1 of q
// records without replacement (WBK RDP, γ = 1/q), and the node is active in at most k* rounds
// except with probability η = δ/16 (Chernoff bound on Bin(T, ι)): events gaussian{2L, σ} × WOR(1
// of q) with count k* plus approx{0, η}, converted at δ − δ/8. Hidden active sets
// (active_set_hidden, not dda Definition 1): γ = ι/q over all T rounds, converted at δ.
// @spec DDA.LEDGER DDA.PRIV.C
#pragma once

#include <string>
#include <string_view>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/dda/calibration.hpp"
#include "dpref/dda/composition.hpp"
#include "dpref/mechanisms/gaussian.hpp"

namespace dpref::dda {

/// k*: the rounds in which the record's node is active, except with probability η = δ/16 (public
/// active sets), or T (hidden). @spec DDA.LEDGER
template <real_scalar Real>
long long ledger_active_rounds(const privacy_setup<Real>& s) {
  if (s.active_set_hidden) return s.T;
  const long long k = binomial_upper_quantile(s.T, s.iota, s.target_delta / 16);
  return k < 1 ? 1 : k;
}

/// The ledger of a whole run whose round is the event `round` (count 1, no sampling yet).
/// @spec DDA.LEDGER
template <real_scalar Real>
accounting::ledger<Real> plan_ledger_of(const privacy_setup<Real>& s,
                                        accounting::event<Real> round) {
  accounting::accounting_options<Real> opt;
  opt.max_order = s.max_order;
  accounting::subsampling<Real> w;
  w.scheme = accounting::sampling_scheme::without_replacement;
  w.relation = accounting::neighbouring::replace_one;
  const long long k = ledger_active_rounds(s);
  round.count = k;
  if (s.active_set_hidden) {
    w.rate = s.iota / Real(s.q_local);  // γ = ι/q (anonymous-multiset model only)
    round.label = "dda Algorithm 1 steps 5-7, every round (active set hidden: rate iota/q)";
    opt.delta = s.target_delta;
    round.sampling = w;
    accounting::ledger<Real> l(opt);
    l.record(std::move(round));
    return l;
  }
  w.sample_size = 1;
  w.population = s.q_local;
  round.label = "dda Algorithm 1 steps 5-7, the k* active rounds of the record's node";
  opt.delta = s.target_delta - s.target_delta / 8;
  round.sampling = w;
  accounting::ledger<Real> l(opt);
  l.record(std::move(round));
  accounting::approx_mechanism<Real> tail;
  tail.epsilon = Real(0);
  tail.delta = s.target_delta / 16;  // P[Bin(T, ι) > k*] <= η (Chernoff)
  l.record(accounting::make_event<Real>(
      tail, 1, "P[node active in more than k* = " + std::to_string(k) + " rounds]"));
  return l;
}

/// The Gaussian measurement of one round at σ (step 6): Δ2 = 2L (replace-one changes the clipped
/// ĝ by at most 2L, PRIV.DDA.LIPSCHITZ). Its event is the round's event of plan_ledger and the
/// engine draws ν with it (ARCH.MEASUREMENTS). @spec DDA.LEDGER ARCH.MEASUREMENTS
template <real_scalar Real>
mechanisms::gaussian_noise<Real> round_noise(const privacy_setup<Real>& s, const Real& sigma) {
  return {2 * s.lipschitz, sigma};
}

/// The ledger of a whole run at σ (see the file comment). @spec DDA.LEDGER
template <real_scalar Real>
accounting::ledger<Real> plan_ledger(const privacy_setup<Real>& s, const Real& sigma) {
  return plan_ledger_of(s, round_noise(s, sigma).event());
}

/// (ε, δ) the run's ledger certifies at σ (calibration (c)): plan_ledger(s, σ).total(), rounded
/// up by the accountant. @spec DDA.PRIV.C
template <real_scalar Real>
accounting::approx_dp<Real> ledger_guarantee(const privacy_setup<Real>& s, const Real& sigma) {
  const auto g = plan_ledger(s, sigma).total();
  return {g.epsilon, g.delta};
}

/// Calibration (c): the smallest σ whose ledger certifies (ε, target δ) (certified bisection).
/// @throws std::domain_error naming `fn` if no σ up to the search limit does @spec DDA.PRIV.C
template <real_scalar Real>
Real ledger_sigma(const privacy_setup<Real>& s, std::string_view fn) {
  auto ok = [&](const Real& sg) {
    const auto g = ledger_guarantee(s, sg);
    return !(g.eps > s.eps) && !(g.delta > s.target_delta);
  };
  return accounting::smallest_satisfying<Real>(ok, 2 * s.lipschitz, fn, "sigma");
}

/// Fills the certified columns of a report at its σ: the paper's chain and the sound chain where
/// they apply, and the run's ledger (k*, its tail and its total).
template <real_scalar Real>
void certify(const privacy_setup<Real>& s, calibration_report<Real>& r) {
  r.hidden = s.active_set_hidden;
  {
    accounting::certifier<Real> c;
    const accounting::work_real i = c.in(s.iota), q(s.q_local), e = c.in(s.eps);
    r.paper_precondition =
        !(c.in(s.eps) > 1) && accounting::work_real(s.T) >= 5 * q * q * e * e / (4 * i * i);
  }
  const Real et = step_epsilon(s.lipschitz, r.sigma, s.delta0);
  const Real ep = 2 * s.iota * et / Real(s.q_local);
  r.paper_chain_ok = !(ep > Real(9) / 10) && s.T <= 1000000;
  if (r.paper_chain_ok)
    r.paper_chain = paper_chain(s.lipschitz, r.sigma, s.iota, s.q_local, s.T, s.delta0);
  r.sound_chain_ok = !(et > Real(1));
  if (r.sound_chain_ok) r.sound_chain = sound_chain(s, r.sigma);
  r.active_rounds = ledger_active_rounds(s);
  r.tail = s.active_set_hidden ? Real(0) : binomial_tail_bound(s.T, s.iota, r.active_rounds + 1);
  r.rdp = ledger_guarantee(s, r.sigma);
}

/// Calibration (a), (b) or (c) for the setup, with every guarantee certified at its σ.
/// (a) σ = paper formula (unchecked); (b) smallest σ with sound-chain ε̃ <= ε; (c) smallest σ
/// whose run ledger certifies (ε, target δ) — the σ `dda::run` uses. @spec DDA.PRIV.A DDA.PRIV.B
/// DDA.PRIV.C
template <real_scalar Real>
calibration_report<Real> calibrate(const privacy_setup<Real>& s, calibration kind) {
  require_positive("dpref::dda::calibrate", "eps", s.eps);
  accounting::require_rate("dpref::dda::calibrate", "iota", s.iota);
  if (s.q_local < 1) fail_domain("dpref::dda::calibrate", "q_local", ">= 1", s.q_local);
  if (s.T < 1) fail_domain("dpref::dda::calibrate", "T", ">= 1", s.T);
  calibration_report<Real> r;
  r.kind = kind;
  using std::log;
  using std::sqrt;
  switch (kind) {
    case calibration::paper_theorem1:
      r.name = "paper_theorem1";
      r.sigma = paper_sigma_unchecked(s.lipschitz, s.iota, Real(s.q_local), s.T, s.eps, s.delta0);
      break;
    case calibration::sound_chain: {
      r.name = s.active_set_hidden ? "sound_chain_hidden" : "sound_chain";
      const Real floor_sigma =
          2 * s.lipschitz * Real(sqrt(2 * log(Real(2) / s.delta0))) * (1 + Real(1) / 1024);
      auto ok = [&](const Real& sg) {
        if (sg < floor_sigma) return false;
        return !(sound_chain(s, sg).eps > s.eps);
      };
      r.sigma = accounting::smallest_satisfying<Real>(ok, floor_sigma * 2, "dpref::dda::calibrate",
                                                      "sigma");
      break;
    }
    case calibration::rdp:
      r.name = s.active_set_hidden ? "rdp_hidden" : "rdp";
      r.sigma = ledger_sigma(s, "dpref::dda::calibrate");
      break;
  }
  certify(s, r);
  return r;
}

}  // namespace dpref::dda

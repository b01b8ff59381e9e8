// DP-AGD (Lee & Kifer 2018), full batch, a baseline of the linesearch comparison (§5.3): noisy
// normalised gradient (ρ_ng), NoisyMin over Φ = {k·α_max/20 : k = 0..20} of the clipped
// objective with Lap(C_obj/ε_nm) noise, ε_nm = √(2ρ_nmax) (report-noisy-min; the clipped sums
// are monotone under add/remove, so it is ε_nm-DP); index 0 (no step) raises ρ_ng by (1+γ) with
// GradAvg. The public code's two bugs are NOT reproduced: it takes candidate[idx − 1] for the
// selected index idx (off by one) and its noisy min flips the noise sign; dpref selects
// argmin_k (score_k + noise_k) and steps with α_idx. Every 10 iterations
// α_max ← min(1.1·max chosen, 2) (as the public code). Each call is charged before its draw
// (run_ledger.hpp). Secure mode (SEC.LINESEARCH): the gradients are lattice Gaussians of the
// clipped sum and NoisyMin is the lattice report-noisy-min (SEC.NOISY_MIN).
// spec/linesearch.md LS.DPAGD, LS.LEDGER.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <optional>
#include <type_traits>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/linesearch/bounds.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/dp_blsgd.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/linesearch/run_ledger.hpp"
#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/report_noisy_max.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_report_noisy_min.hpp"
#include "dpref/run/report.hpp"

namespace dpref::linesearch {

/// Report-noisy-min: argmin_k (score_k + Lap(b)) (correct sign, index 0 = "no step"), drawn by
/// mechanisms::report_noisy_min (ARCH.MEASUREMENTS).
/// @spec LS.DPAGD
template <real_scalar Real>
std::size_t noisy_min(philox_stream& s, const std::vector<Real>& scores, const Real& b) {
  return mechanisms::report_noisy_min<Real>(s, scores, b);
}

/// Laplace scale b = C_obj/ε_nm (rounded up) of DP-AGD's report-noisy-min: the clipped sums
/// Σ_i min(f_i, C_obj) are monotone under add/remove (each moves by [0, C_obj], all the same
/// way), so Lap(C_obj/ε_nm) noise makes it ε_nm-DP (Dwork–Roth Claim 3.9). @spec LS.DPAGD
template <real_scalar Real>
Real noisy_min_scale(const Real& C_obj, const Real& eps_nm) {
  accounting::certifier<Real> c;
  return c.up(c.in(C_obj) / c.in(eps_nm));
}

/// DP-AGD's NoisyMin scores: score_k = Σ_i min(f_i(w − a_k·dir), C_obj) at the candidate steps
/// a_k = k·max_step/candidates, k = 0..candidates (scores resized). One example adds a value in
/// [0, C_obj] to every score (f_i >= 0; a NaN counts as C_obj): monotone with sensitivity C_obj,
/// the premise of noisy_min_scale (PRIV.LINESEARCH.C_OBJ). @spec LS.DPAGD PRIV.LINESEARCH.C_OBJ
template <real_scalar Real>
void noisy_min_scores(const problems::line_evaluator<Real>& line, const Real& max_step,
                      long long candidates, const Real& C_obj, std::vector<Real>& scores) {
  scores.resize(static_cast<std::size_t>(candidates + 1));
  for (long long k = 0; k <= candidates; ++k)
    scores[static_cast<std::size_t>(k)] =
        line.clipped_sum(max_step * Real(k) / Real(candidates), C_obj);
}

/// DP-AGD run (full batch) on a linear ERM problem. @spec LS.DPAGD
template <real_scalar Real>
result<Real> dp_agd(const problems::linear_erm<Real>& P, const params<Real>& p,
                    const philox_stream& stream) {
  p.validate();
  using std::sqrt;
  run_ledger<Real> ledger(detail::ledger_options(p), {p.epsilon, p.delta}, true);
  result<Real> res;
  res.status = status::budget_exhausted;
  const Eigen::Index n = P.size(), d = P.dimension();
  std::vector<Eigen::Index> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), Eigen::Index(0));
  const Real eps_iter = p.epsilon / p.eps_iter_divisor;
  Real rho_ng = eps_iter * eps_iter / 2;
  const Real rho_nmax = eps_iter * eps_iter / 2;
  accounting::certifier<Real> c;
  const Real eps_nm = c.down(sqrt(2 * c.in(rho_nmax)));
  // the NoisyMin measurement: its event (pure ε = C_obj/b, monotone scores) is charged and it
  // draws the selection (ARCH.MEASUREMENTS)
  const mechanisms::report_noisy_max<Real> noisy_min_m{p.C_obj, noisy_min_scale(p.C_obj, eps_nm),
                                                       true};
  vector<Real> w = vector<Real>::Zero(d), grad(d), g(d), g2(d), dir(d);
  // secure (double only): lattice gradients and the lattice NoisyMin, each event built from the
  // very parameters its draw uses
  std::optional<detail::lattice_calls> lattice;
  std::optional<mechanisms::snapped_report_noisy_min_params> nm_lattice;
  if (p.release == noise_mode::secure) {
    lattice =
        detail::lattice_calls{p.clamp ? static_cast<double>(*p.clamp)
                                      : static_cast<double>(n) * static_cast<double>(p.C_grad),
                              static_cast<long long>(d), 1};
    nm_lattice = mechanisms::snapped_report_noisy_min_for(
        static_cast<double>(p.C_obj), static_cast<double>(eps_nm), p.candidates + 1);
  }
  accounting::event<Real> nm =
      nm_lattice ? nm_lattice->template event<Real>(
                       "DP-AGD report-noisy-min over the step candidates, secure: lattice "
                       "scores, DLap noise (SEC.NOISY_MIN)")
                 : noisy_min_m.event(1,
                                     "DP-AGD report-noisy-min over the step candidates, "
                                     "Lap(C_obj/eps) on monotone clipped sums (Dwork-Roth Claim "
                                     "3.9)");
  const auto gradient_charge = [&](const Real& rho, const char* label) {
    return lattice
               ? lattice->gradient(static_cast<double>(p.C_grad), static_cast<double>(rho))
                     .template event<Real>(1, std::string(label) + ", secure (lattice)")
               : mechanisms::gaussian_noise<Real>(gradient_event(p.C_grad, rho)).event(1, label);
  };
  // g = the clipped sum `grad` + the noise of the gradient event at ρ (lattice: its own sum)
  const auto gradient_draw = [&](philox_stream& st, const vector<Real>& at, const Real& rho,
                                 vector<Real>& out) {
    if constexpr (std::is_same_v<Real, double>) {
      if (lattice) {
        lattice_gradient_sum(st, P, std::span<const Eigen::Index>(all), at,
                             lattice->gradient(p.C_grad, rho), out);
        return;
      }
    }
    out = grad;
    mechanisms::gaussian_noise<Real>(gradient_event(p.C_grad, rho)).add_to(st, out);
  };
  nm.how = accounting::analysis::rdp;  // composed in RDP by the tight ε-DP -> RDP conversion
  Real max_step = p.max_step;
  std::vector<Real> chosen;
  std::vector<Real> scores(static_cast<std::size_t>(p.candidates + 1));
  detail::progress_clock clock;
  bool stop = false;
  for (long long t = 0; !stop; ++t) {
    if (t >= p.max_iterations) {
      res.status = status::iteration_limit;
      break;
    }
    if (p.progress && clock.due()) p.progress("DP-AGD iteration " + std::to_string(t));
    const accounting::event<Real> ge = gradient_charge(rho_ng, "DP-AGD full-batch gradient");
    if (!ledger.can_add(ge)) break;
    ledger.add(ge);
    philox_stream s = stream.substream(static_cast<std::uint64_t>(t));
    if (!lattice) P.clipped_gradient_sum(w, all, p.C_grad, grad);
    gradient_draw(s, w, rho_ng, g);
    ++res.calls.gradients;
    ++res.calls.iterations;
    for (;;) {
      const Real nrm = g.norm();
      dir = nrm > Real(0) ? vector<Real>(g / nrm) : vector<Real>(g);
      if (!ledger.can_add(nm)) {
        stop = true;
        break;
      }
      ledger.add(nm);
      const problems::line_evaluator<Real> line(P, all, w, dir);
      std::size_t idx = 0;
      if constexpr (std::is_same_v<Real, double>) {
        if (nm_lattice)  // SEC.NOISY_MIN: candidate k's per-record clipped objectives
          idx = mechanisms::snapped_report_noisy_min(
              s,
              [&](std::size_t k, std::vector<double>& terms) {
                line.for_each_clipped(
                    max_step * double(static_cast<long long>(k)) / double(p.candidates),
                    nm_lattice->record_bound, [&](const double& f) { terms.push_back(f); });
              },
              *nm_lattice);
      }
      if (!nm_lattice) {
        noisy_min_scores(line, max_step, p.candidates, p.C_obj, scores);
        idx = noisy_min_m.select_min(s, scores);
      }
      res.calls.objective_queries += p.candidates + 1;
      ++res.calls.line_searches;
      if (idx > 0) {
        const Real a = max_step * Real(static_cast<long long>(idx)) / Real(p.candidates);
        w.noalias() -= a * dir;  // candidate idx itself (the public code's idx − 1 is a bug)
        chosen.push_back(a);
        res.steps.push_back(a);
        ++res.calls.updates;
        if (p.trace && p.diagnostics) res.diagnostics.objective_trace.push_back(P.value(w));
        break;
      }
      const Real rho_new = (Real(1) + p.gamma) * rho_ng, extra = rho_new - rho_ng;
      const accounting::event<Real> ee = gradient_charge(extra, "DP-AGD GradAvg gradient");
      if (!ledger.can_add(ee)) {
        stop = true;
        break;
      }
      ledger.add(ee);
      gradient_draw(s, w, extra, g2);
      ++res.calls.gradients;
      const Real b = rho_ng / rho_new;
      g = b * g + (Real(1) - b) * g2;  // GradAvg
      rho_ng = rho_new;
    }
    if ((t + 1) % 10 == 0 && !chosen.empty()) {
      const Real m = Real(11) / 10 * *std::max_element(chosen.begin(), chosen.end());
      max_step = m < p.max_step ? m : p.max_step;
      chosen.clear();
    }
  }
  res.w = w;
  res.iterations = res.calls.iterations;
  res.final_rho_grad = rho_ng;
  res.privacy = detail::final_privacy(
      ledger.build(), p, lattice ? "linesearch::run (DP-AGD, secure)" : "linesearch::run (DP-AGD)");
  res.privacy.enforced = {gradient_clip_bound(p.C_grad),
                          objective_clip_bound(p.C_obj, false, true)};
  if (lattice)
    lattice->mark_secure(res.privacy,
                         "each example's clipped objective is rounded to the grid and clamped to "
                         "[0, floor(C_obj/2^k)·2^k], summed exactly and compared with DLap noise "
                         "in integers (SEC.NOISY_MIN)");
  res.message = res.status == status::iteration_limit
                    ? "max_iterations reached before the budget was spent"
                    : "the requested budget could not pay the next call after " +
                          std::to_string(res.calls.iterations) + " iterations";
  return res;
}

}  // namespace dpref::linesearch

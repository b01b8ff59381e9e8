// The PLD method of the accountant (spec/accounting.md ACC.ACCOUNT.PLD): every event that has a
// privacy-loss distribution is discretised pessimistically (pld/, certified in double) and
// composed; ε is read at options.delta. Declared (ε, δ) events are added sequentially; events
// without a PLD make the method refuse the ledger. Parameters are rounded to double in the
// direction that can only weaken the guarantee (sensitivities up, noise scales down, rates up).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dpref/accounting/accounting_options.hpp"
#include "dpref/accounting/analytic_gaussian.hpp"
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/event.hpp"
#include "dpref/accounting/gaussian.hpp"
#include "dpref/accounting/laplace.hpp"
#include "dpref/accounting/pld.hpp"
#include "dpref/accounting/rdp_fractional.hpp"
#include "dpref/accounting/rdp_method.hpp"
#include "dpref/accounting/snapped.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/subsampling_wor.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/params.hpp"

namespace dpref::accounting::detail {

/// x rounded to double toward +∞ (up) or −∞ (!up); exact for double.
template <real_scalar Real>
double to_double_directed(const Real& x, bool up) {
  if constexpr (std::is_same_v<Real, double>) {
    return x;
  } else {
    working_precision_scope scope(working_bits(binary_digits<Real>()));
    return detail::round_directed<double>(detail::to_work(x), 53, up);
  }
}

/// The PLD mechanism of one call of e (nullopt: e has no PLD; `why` says so), or — for
/// declared (ε, δ) events — nullopt with `fixed` set.
template <real_scalar Real>
std::optional<pld::mechanism> pld_of(const event<Real>& e, std::optional<approx_dp<Real>>& fixed,
                                     std::string& why) {
  if (!e.joint.empty()) {  // ACC.EVENT.JOINT: no PLD of a composition on one sample
    why = "has joint parts (use method rdp or best)";
    return std::nullopt;
  }
  const auto up = [](const Real& x) { return to_double_directed(x, true); };
  const auto down = [](const Real& x) { return to_double_directed(x, false); };
  // pure ε (after amplification by the event's subsampling) as binary randomized response, the
  // dominating pair of every ε-DP mechanism
  const auto pure_rr = [&](const Real& eps) -> std::optional<pld::mechanism> {
    approx_dp<Real> p{eps, Real(0)};
    if (e.sampling) p = amplify_fixed(p, *e.sampling);
    if (p.eps == Real(0)) {
      fixed = approx_dp<Real>{Real(0), Real(0)};
      return std::nullopt;
    }
    return pld::randomized_response(up(p.eps), 2);
  };
  std::optional<pld::mechanism> m = std::visit(
      [&](const auto& x) -> std::optional<pld::mechanism> {
        using M = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<M, approx_mechanism<Real>>) {
          approx_dp<Real> p{x.epsilon, x.delta};
          if (e.sampling) p = amplify_fixed(p, *e.sampling);
          fixed = p;
          return std::nullopt;
        } else if constexpr (std::is_same_v<M, rdp_mechanism<Real>> ||
                             std::is_same_v<M, sparse_vector_mechanism<Real>>) {
          why = "has no privacy-loss distribution in dpref (use method rdp or best)";
          return std::nullopt;
        } else if constexpr (std::is_same_v<M, laplace_mechanism<Real>>) {
          return pld::laplace(up(x.sensitivity), down(x.scale));
        } else if constexpr (std::is_same_v<M, gaussian_mechanism<Real>>) {
          return pld::gaussian(up(x.sensitivity), down(x.sigma));
        } else if constexpr (std::is_same_v<M, discrete_laplace_mechanism<Real>>) {
          certifier<Real> c;
          const Real t = c.down(work_real(x.scale_num) / work_real(x.scale_den));
          return pld::discrete_laplace(x.sensitivity, down(t));
        } else if constexpr (std::is_same_v<M, discrete_gaussian_mechanism<Real>>) {
          certifier<Real> c;
          using std::sqrt;
          const Real sg = c.down(sqrt(work_real(x.variance_num) / work_real(x.variance_den)));
          return pld::discrete_gaussian(x.sensitivity, down(sg));
        } else if constexpr (std::is_same_v<M, exponential_mechanism<Real>>) {
          if (e.sampling) return pure_rr(*pure_epsilon_of<Real>(e.what));
          return pld::exponential_mechanism_worst_case(up(*pure_epsilon_of<Real>(e.what)));
        } else {
          const std::optional<Real> eps = pure_epsilon_of<Real>(e.what);
          if (!eps) {  // e.g. the snapped (lattice) Gaussian: accounted in RDP only
            why = "has no privacy-loss distribution in dpref (use method rdp or best)";
            return std::nullopt;
          }
          return pure_rr(*eps);
        }
      },
      e.what);
  if (!m || !e.sampling) return m;
  const bool additive = std::holds_alternative<laplace_mechanism<Real>>(e.what) ||
                        std::holds_alternative<gaussian_mechanism<Real>>(e.what) ||
                        std::holds_alternative<discrete_laplace_mechanism<Real>>(e.what) ||
                        std::holds_alternative<discrete_gaussian_mechanism<Real>>(e.what);
  if (!additive) return m;  // pure kinds were amplified before becoming randomized response
  const subsampling<Real>& s = *e.sampling;
  if (s.scheme == sampling_scheme::poisson)
    return pld::subsample(*m, pld::sampling::poisson(up(s.rate), pld::neighbouring::add_remove));
  if (s.population == 0) {
    why = "samples without replacement at a rate (give sample_size and population for the PLD)";
    return std::nullopt;
  }
  return pld::subsample(*m, pld::sampling::without_replacement(s.sample_size, s.population,
                                                               pld::neighbouring::replace_one));
}

/// Whether every event of the ledger can be accounted by the PLD method (else `why` names the
/// first that cannot).
template <real_scalar Real>
bool pld_supported(const std::vector<event<Real>>& events, std::string& why) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    std::optional<approx_dp<Real>> fixed;
    std::string w;
    (void)pld_of(events[i], fixed, w);
    if (!w.empty()) {
      why = "event " + std::to_string(i) + " (" + std::string(events[i].kind()) + ") " + w;
      return false;
    }
  }
  return true;
}

/// Loss variance (under P, finite part) of a discretised direction.
inline double loss_variance(const pld::discrete_pld& d) {
  long double s0 = 0, s1 = 0, s2 = 0;
  for (std::size_t j = 0; j < d.masses.size(); ++j) {
    const long double l = d.loss(j), m = d.masses[j];
    s0 += m;
    s1 += m * l;
    s2 += m * l * l;
  }
  if (!(s0 > 0)) return 0;
  const long double mean = s1 / s0;
  return static_cast<double>(std::max<long double>(0, s2 / s0 - mean * mean));
}

/// The interval of the PLD method (ACC.PLD.ADAPTIVE): options.pld_interval, refined for every
/// event of count >= 2 until the variance the pessimistic discretisation adds (at most h²/4
/// per step) is at most 2^-10 of the event's loss variance (estimated from a discretisation at
/// pld_interval, less that interval's h²/4); never below pld_interval / 16. Only the accuracy
/// depends on this choice; every interval gives a certified result.
inline double adaptive_interval(const std::vector<std::pair<pld::mechanism, long long>>& ms,
                                const pld::options& coarse) {
  double h = coarse.interval;
  for (const auto& [m, count] : ms) {
    if (count < 2) continue;
    const pld::privacy_loss_distribution d = pld::discretise(m, coarse);
    double var = loss_variance(d.remove);
    if (d.add) var = std::min(var, loss_variance(*d.add));
    var -= coarse.interval * coarse.interval / 4;
    if (!(var > 0)) {
      h = std::min(h, coarse.interval / 16);
      continue;
    }
    const double want = std::sqrt(4 * std::ldexp(var, -10));
    h = std::min(h, std::max(want, coarse.interval / 16));
  }
  return h;
}

/// The PLD method (file comment). A ledger of one Laplace event is answered by its exact ε(δ).
/// Gaussian events without subsampling are composed exactly
/// first (one Gaussian with μ² = Σ count·Δ²/σ², ACC.PLD.GAUSS.CLOSED): a ledger of only such
/// events is answered by the exact Balle–Wang ε of that Gaussian, otherwise the Gaussian is
/// discretised once. Work bound: options.pld_max_points grid points over all discretisations
/// and for every composition (ACC.WORK.BOUND).
/// @spec ACC.ACCOUNT.PLD ACC.PLD.GAUSS.CLOSED ACC.PLD.LAPLACE.CLOSED ACC.WORK.BOUND
template <real_scalar Real>
guarantee<Real> account_pld(const std::vector<event<Real>>& events,
                            const accounting_options<Real>& opt) {
  std::string why;
  if (!pld_supported(events, why))
    param_checker("accounting").fail("method", "rdp or best for this ledger: " + why, "pld");
  // one Laplace mechanism: δ(ε) = 1 − e^{(ε − e0)/2} on [0, e0], e0 = Δ/b (ACC.PLD.LAPLACE.CLOSED)
  if (events.size() == 1 && events[0].joint.empty() && !events[0].sampling &&
      events[0].count == 1 && opt.delta > Real(0))
    if (const auto* lap = std::get_if<laplace_mechanism<Real>>(&events[0].what)) {
      certifier<Real> c;
      using std::log1p;
      const work_real e0 = c.in(lap->sensitivity) / c.in(lap->scale);
      const work_real e = e0 + 2 * log1p(-c.in(opt.delta));
      guarantee<Real> g;
      g.epsilon = e > 0 ? c.up(e, e0) : Real(0);
      g.delta = opt.delta;
      g.method = accounting_method::pld;
      return g;
    }
  pld::options po;
  po.interval = opt.pld_interval;
  po.max_points = static_cast<std::size_t>(opt.pld_max_points);
  std::vector<std::pair<pld::mechanism, long long>> mechs;
  std::vector<approx_dp<Real>> fixed_parts;
  certifier<Real> cert;  // working precision for the pooled Gaussian's μ²
  work_real mu2(0);
  bool gaussians = false;
  for (const auto& e : events) {
    // Poisson sampling at rate 1 keeps every record: the event is the Gaussian itself
    const bool unsampled = !e.sampling || (e.sampling->scheme == sampling_scheme::poisson &&
                                           e.sampling->rate == Real(1));
    if (e.joint.empty() && unsampled)
      if (const auto* g = std::get_if<gaussian_mechanism<Real>>(&e.what)) {
        const work_real r = cert.in(g->sensitivity) / cert.in(g->sigma);
        mu2 += work_real(static_cast<double>(e.count)) * r * r;
        gaussians = true;
        continue;
      }
    std::optional<approx_dp<Real>> fixed;
    std::string w;
    const std::optional<pld::mechanism> m = pld_of(e, fixed, w);
    if (fixed) fixed_parts.push_back(compose_homogeneous(*fixed, e.count));
    if (m) mechs.emplace_back(*m, e.count);
  }
  guarantee<Real> g;
  std::vector<approx_dp<Real>> parts;
  if (!fixed_parts.empty()) {
    g.approx_part = compose_sequential(fixed_parts);
    parts.push_back(g.approx_part);
  }
  if ((gaussians || !mechs.empty()) && !(opt.delta > Real(0)))
    param_checker("accounting").fail("delta", "> 0 to read ε from the PLD", opt.delta);
  if (gaussians) {
    using std::sqrt;
    const Real mu = cert.up(sqrt(mu2));
    if (mechs.empty()) {
      parts.push_back(analytic_gaussian_privacy<Real>(mu, Real(1), opt.delta));
    } else {
      mechs.emplace_back(pld::gaussian(to_double_directed(mu, true), 1.0), 1);
    }
  }
  if (!mechs.empty()) {
    if (opt.pld_adaptive) po.interval = adaptive_interval(mechs, po);
    std::vector<pld::privacy_loss_distribution> plds;
    std::size_t budget = po.max_points;
    for (const auto& [m, count] : mechs) {
      pld::options pe = po;
      pe.max_points = budget;  // discretisations share the bound
      pld::privacy_loss_distribution d = pld::discretise(m, pe);
      const std::size_t used = d.remove.masses.size() + (d.add ? d.add->masses.size() : 0);
      budget = budget > used ? budget - used : 64;
      if (count > 1) d = pld::self_compose(d, static_cast<std::uint64_t>(count), po);
      plds.push_back(std::move(d));
    }
    const pld::privacy_loss_distribution total = pld::compose_all(std::move(plds), po);
    const double d = to_double_directed(opt.delta, false);  // a smaller δ only raises ε
    const double eps = total.epsilon_for_delta(d);
    if (!std::isfinite(eps))
      param_checker("accounting")
          .fail("delta", "above the certified mass at infinite privacy loss of the PLD", opt.delta);
    parts.push_back({Real(eps), opt.delta});
  }
  return composed_guarantee(std::move(g), parts, accounting_method::pld);
}

}  // namespace dpref::accounting::detail

// The RDP method of the accountant (spec/accounting.md ACC.ACCOUNT). Each event is analysed
// once (event.hpp says how per kind) and falls in one of three parts:
//   pure part    Σ count·ε of events analysed as ε-DP (amplified by subsampling first);
//   approx part  Σ count·(ε, δ) of declared (ε, δ) events (amplified by subsampling first);
//   Rényi part   Σ count·ε(α) of events analysed in RDP, on the grid 2, 3, …, max_order,
//                converted to (ε, δ) at options.delta (Balle et al. 2020 by default).
// The guarantee is the sequential composition of the three parts (ε and δ added, δ capped at
// 1). Every value is an upper bound of the exact one, rounded up (ACC.CERT.UP).
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
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/event.hpp"
#include "dpref/accounting/gaussian.hpp"
#include "dpref/accounting/laplace.hpp"
#include "dpref/accounting/pld.hpp"
#include "dpref/accounting/rdp_fractional.hpp"
#include "dpref/accounting/snapped.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/subsampling_wor.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/params.hpp"

namespace dpref::accounting::detail {

/// One event's contribution under the RDP method.
template <real_scalar Real>
struct event_part {
  std::optional<approx_dp<Real>> fixed;  ///< pure (δ = 0) or approx, already × count
  std::optional<rdp_curve<Real>> curve;  ///< already × count
};

/// ε of one call of a mechanism that is analysed as ε-DP (nullopt if it is not an ε-DP kind).
template <real_scalar Real>
std::optional<Real> pure_epsilon_of(const mechanism<Real>& m) {
  return std::visit(
      [](const auto& x) -> std::optional<Real> {
        using M = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<M, pure_mechanism<Real>>)
          return x.epsilon;
        else if constexpr (std::is_same_v<M, laplace_mechanism<Real>>)
          return laplace_privacy(x.sensitivity, x.scale).eps;
        else if constexpr (std::is_same_v<M, vector_laplace_mechanism<Real>>)
          return x.sensitivity == Real(0) ? Real(0)
                                          : vector_laplace_privacy(x.sensitivity, x.scale).eps;
        else if constexpr (std::is_same_v<M, exponential_mechanism<Real>>)
          return exponential_mechanism_privacy(x.utility_sensitivity, x.scale, x.monotone).eps;
        else if constexpr (std::is_same_v<M, randomized_response_mechanism<Real>>)
          return x.epsilon;
        else if constexpr (std::is_same_v<M, discrete_laplace_mechanism<Real>>) {
          certifier<Real> c;  // ε = Δ / t = Δ·den/num
          return c.up(work_real(x.sensitivity) * work_real(x.scale_den) / work_real(x.scale_num));
        } else if constexpr (std::is_same_v<M, snapped_laplace_mechanism<Real>>) {
          return snapped_laplace_vector_privacy(x.sensitivity, x.grid_exponent, x.grid_scale,
                                                x.dimension)
              .eps;
        } else if constexpr (std::is_same_v<M, snapped_vector_laplace_mechanism<Real>>) {
          return snapped_vector_laplace_privacy(x.sensitivity, x.grid_exponent, x.grid_scale,
                                                x.dimension)
              .eps;
        } else if constexpr (std::is_same_v<M, sparse_vector_mechanism<Real>>) {
          if (x.noise != svt_noise::laplace) return std::nullopt;
          return svt_laplace_privacy(x.sensitivity, x.threshold_scale, x.query_scale).eps;
        } else {
          return std::nullopt;
        }
      },
      m);
}

template <real_scalar Real>
bool natively_pure(const mechanism<Real>& m) {
  return std::visit(
      [](const auto& x) {
        using M = std::decay_t<decltype(x)>;
        return std::is_same_v<M, pure_mechanism<Real>> ||
               std::is_same_v<M, laplace_mechanism<Real>> ||
               std::is_same_v<M, vector_laplace_mechanism<Real>> ||
               std::is_same_v<M, exponential_mechanism<Real>> ||
               std::is_same_v<M, randomized_response_mechanism<Real>> ||
               std::is_same_v<M, discrete_laplace_mechanism<Real>> ||
               std::is_same_v<M, snapped_laplace_mechanism<Real>> ||
               std::is_same_v<M, snapped_vector_laplace_mechanism<Real>>;
      },
      m);
}

/// RDP curve of one call (no subsampling) on `orders`.
template <real_scalar Real>
rdp_curve<Real> rdp_of(const event<Real>& e, const std::vector<Real>& orders) {
  const param_checker chk(std::string("event[") + std::string(e.kind()) + "]");
  return std::visit(
      [&](const auto& x) -> rdp_curve<Real> {
        using M = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<M, rdp_mechanism<Real>>) {
          chk.require(x.orders == orders, "orders",
                      "the accounting grid (2..max_order, with 1.1..10.9 if fractional_orders)",
                      x.orders.size());
          return {x.orders, x.epsilon};
        } else if constexpr (std::is_same_v<M, approx_mechanism<Real>>) {
          chk.fail("analysis", "pure or automatic (an (ε, δ) event has no RDP curve)", "rdp");
        } else if constexpr (std::is_same_v<M, laplace_mechanism<Real>>) {
          return laplace_rdp_curve(x.sensitivity, x.scale, orders);
        } else if constexpr (std::is_same_v<M, gaussian_mechanism<Real>>) {
          return gaussian_rdp_curve(x.sensitivity, x.sigma, orders);
        } else if constexpr (std::is_same_v<M, discrete_gaussian_mechanism<Real>>) {
          // CKS 2020: the discrete Gaussian satisfies the RDP of the continuous one,
          // ε(α) = αΔ²/(2σ²) with σ² = num/den.
          certifier<Real> c;
          rdp_curve<Real> out{orders, {}};
          const work_real d = work_real(x.sensitivity);
          for (const Real& a : orders)
            out.eps.push_back(
                c.up(c.in(a)*d * d * work_real(x.variance_den) / (2 * work_real(x.variance_num))));
          return out;
        } else if constexpr (std::is_same_v<M, snapped_gaussian_mechanism<Real>>) {
          return snapped_gaussian_rdp_curve(x.sensitivity, x.grid_exponent, x.variance_num,
                                            x.variance_den, x.dimension, orders);
        } else if constexpr (std::is_same_v<M, sparse_vector_mechanism<Real>>) {
          rdp_curve<Real> out{orders, {}};
          if (x.noise == svt_noise::laplace) {
            certifier<Real> c;
            const Real e1 = c.up(c.in(x.sensitivity) / c.in(x.threshold_scale));
            const Real e2 = c.up(c.in(x.sensitivity) / c.in(x.query_scale));
            for (const Real& a : orders) out.eps.push_back(svt_laplace_rdp(a, e1, e2, x.bound));
          } else {
            for (const Real& a : orders)
              out.eps.push_back(svt_gaussian_rdp(a, x.sensitivity, x.threshold_scale, x.query_scale,
                                                 x.max_queries, x.bound));
          }
          return out;
        } else {
          const std::optional<Real> eps = pure_epsilon_of<Real>(e.what);
          if (*eps == Real(0)) return {orders, std::vector<Real>(orders.size(), Real(0))};
          return pure_to_rdp_curve(*eps, orders);
        }
      },
      e.what);
}

/// Amplification of an ε-DP or (ε, δ)-DP guarantee by the event's subsampling.
template <real_scalar Real>
approx_dp<Real> amplify_fixed(const approx_dp<Real>& p, const subsampling<Real>& s) {
  if (s.scheme == sampling_scheme::poisson) return subsample_poisson(p, s.rate);
  if (s.population > 0) return subsample_without_replacement(p, s.sample_size, s.population);
  certifier<Real> c;
  return amplify(c, p, c.in(s.rate));
}

template <real_scalar Real>
event_part<Real> part_of(const event<Real>& e, const std::vector<Real>& orders) {
  const param_checker chk(std::string("event[") + std::string(e.kind()) + "]");
  event_part<Real> out;
  const bool is_approx = std::holds_alternative<approx_mechanism<Real>>(e.what);
  const bool pure_native = natively_pure(e.what);
  const bool joint = !e.joint.empty();  // ACC.EVENT.JOINT: always composed in RDP
  bool as_pure = false;
  switch (e.how) {
    case analysis::automatic:
      as_pure = pure_native && !joint;
      break;
    case analysis::pure:
      chk.require(pure_epsilon_of<Real>(e.what).has_value(), "analysis",
                  "rdp or automatic (this mechanism is not ε-DP)", "pure");
      as_pure = true;
      break;
    case analysis::rdp:
      chk.require(!is_approx, "analysis", "automatic or pure for an (ε, δ) event", "rdp");
      break;
  }
  if (is_approx || as_pure) {
    approx_dp<Real> p{};
    if (is_approx) {
      const auto& a = std::get<approx_mechanism<Real>>(e.what);
      p = {a.epsilon, a.delta};
    } else {
      p = {*pure_epsilon_of<Real>(e.what), Real(0)};
    }
    if (e.sampling) p = amplify_fixed(p, *e.sampling);
    out.fixed = compose_homogeneous(p, e.count);
    return out;
  }
  // Functions defined on integer orders only are evaluated on 2..⌈max order⌉ and read at ⌈α⌉
  // for a fractional α: Rényi divergence is non-decreasing in α, so ε(α) <= ε(⌈α⌉).
  const bool fractional = orders.front() != Real(2);
  const auto on_integers = [&](auto&& f) -> rdp_curve<Real> {
    if (!fractional) return f(orders);
    using std::ceil;
    const int top = static_cast<int>(ceil(orders.back()));
    const std::vector<Real> ints = integer_orders<Real>(2, top < 2 ? 2 : top);
    const rdp_curve<Real> ci = f(ints);
    rdp_curve<Real> lifted{orders, {}};
    for (const Real& a : orders)
      lifted.eps.push_back(ci.eps[static_cast<std::size_t>(static_cast<int>(ceil(a)) - 2)]);
    return lifted;
  };
  rdp_curve<Real> c;
  if (joint) {  // ACC.EVENT.JOINT: compose the parts on the sample, then amplify once
    const auto composed = [&](const std::vector<Real>& o) {
      event<Real> head = e;
      head.joint.clear();
      head.sampling.reset();
      head.count = 1;
      rdp_curve<Real> base = rdp_of(head, o);
      for (const event<Real>& part : e.joint) {
        const rdp_curve<Real> pc = rdp_of(part, o);
        base = compose_rdp(base, part.count == 1 ? pc : compose_rdp_steps(pc, part.count));
      }
      return e.sampling ? poisson_subsampled_rdp_zw(base, e.sampling->rate) : base;
    };
    c = e.sampling ? on_integers(composed) : composed(orders);
  } else if (const auto* g = std::get_if<gaussian_mechanism<Real>>(&e.what); g && e.sampling) {
    certifier<Real> cert;
    const Real s = cert.down(cert.in(g->sigma) / cert.in(g->sensitivity));  // smaller s: larger ε
    if (e.sampling->scheme == sampling_scheme::poisson) {
      c = fractional ? poisson_subsampled_gaussian_rdp_frac(e.sampling->rate, s, orders)
                     : poisson_subsampled_gaussian_rdp(e.sampling->rate, s, orders);
    } else {
      Real gamma = e.sampling->rate;
      if (e.sampling->population > 0)
        gamma = cert.up(work_real(e.sampling->sample_size) / work_real(e.sampling->population));
      if (gamma > Real(1)) gamma = Real(1);  // m/n <= 1; its upward rounding may exceed 1 (m = n)
      c = on_integers(
          [&](const std::vector<Real>& o) { return subsampled_gaussian_rdp_wor(gamma, s, o); });
    }
  } else if (const auto* sg = std::get_if<snapped_gaussian_mechanism<Real>>(&e.what);
             sg && e.sampling && e.sampling->scheme == sampling_scheme::without_replacement) {
    // SEC.ACC.GAUSS.WOR: WBK Theorem 9 depends on the base mechanism's RDP curve only; the
    // snapped Gaussian's is αρ (SEC.ACC.GAUSS), that of the Gaussian of noise multiplier
    // s = 1/√(2ρ) (s rounded down: every ε(j) rounded up).
    using std::sqrt;
    const Real rho = snapped_gaussian_rho(sg->sensitivity, sg->grid_exponent, sg->variance_num,
                                          sg->variance_den, sg->dimension);
    certifier<Real> cert;
    const Real s = cert.down(1 / sqrt(2 * cert.in(rho)));
    Real gamma = e.sampling->rate;
    if (e.sampling->population > 0)
      gamma = cert.up(work_real(e.sampling->sample_size) / work_real(e.sampling->population));
    if (gamma > Real(1)) gamma = Real(1);  // the ratio m/n <= 1 (its rounding may exceed 1)
    c = on_integers(
        [&](const std::vector<Real>& o) { return subsampled_gaussian_rdp_wor(gamma, s, o); });
  } else if (e.sampling) {
    chk.require(e.sampling->scheme == sampling_scheme::poisson, "sampling.scheme",
                "poisson for the RDP analysis of this mechanism (Zhu–Wang bound)",
                std::string("without_replacement"));
    c = on_integers([&](const std::vector<Real>& o) {
      return poisson_subsampled_rdp_zw(rdp_of(e, o), e.sampling->rate);
    });
  } else {
    c = rdp_of(e, orders);
  }
  out.curve = e.count == 1 ? std::move(c) : compose_rdp_steps(c, e.count);
  return out;
}

/// The RDP method's work bound (ACC.WORK.BOUND): the certified curve evaluations of the
/// ledger, events (and joint parts) × orders, a fractional order of a subsampled event counting
/// 100 (MPFR erfc, ~50 ms, against ~0.5 ms), must not exceed options.rdp_max_evaluations.
template <real_scalar Real>
void check_rdp_work(const std::vector<event<Real>>& events, const accounting_options<Real>& opt,
                    std::size_t orders) {
  const std::size_t frac = opt.fractional_orders ? 99 : 0;
  long double work = 0;
  for (const auto& e : events) {
    const std::size_t parts = 1 + e.joint.size();
    work += static_cast<long double>(parts) *
            (static_cast<long double>(orders) + (e.sampling ? 99.0L * frac : 0.0L));
  }
  if (work > static_cast<long double>(opt.rdp_max_evaluations))
    param_checker("accounting")
        .fail("rdp_max_evaluations",
              ">= the " + std::to_string(static_cast<long long>(work)) +
                  " curve evaluations of this ledger (raise rdp_max_evaluations, or use fewer "
                  "events, max_order or fractional_orders)",
              opt.rdp_max_evaluations);
}

/// `g` of the accounting method `method`, its (ε, δ) the sequential composition of `parts` (left
/// as they are when there are none).
template <real_scalar Real>
guarantee<Real> composed_guarantee(guarantee<Real> g, const std::vector<approx_dp<Real>>& parts,
                                   accounting_method method) {
  if (!parts.empty()) {
    const approx_dp<Real> t = compose_sequential(parts);
    g.epsilon = t.eps;
    g.delta = t.delta;
  }
  g.method = method;
  return g;
}

/// The RDP method (file comment). @spec ACC.ACCOUNT ACC.WORK.BOUND
template <real_scalar Real>
guarantee<Real> account_rdp(const std::vector<event<Real>>& events,
                            const accounting_options<Real>& opt) {
  const std::vector<Real> orders = opt.orders();
  check_rdp_work(events, opt, orders.size());
  guarantee<Real> g;
  std::vector<approx_dp<Real>> pure_parts, approx_parts;
  std::optional<rdp_curve<Real>> rdp_total;
  for (const auto& e : events) {
    detail::event_part<Real> p = detail::part_of(e, orders);
    if (p.fixed) {
      (p.fixed->delta > Real(0) || std::holds_alternative<approx_mechanism<Real>>(e.what)
           ? approx_parts
           : pure_parts)
          .push_back(*p.fixed);
    }
    if (p.curve) rdp_total = rdp_total ? compose_rdp(*rdp_total, *p.curve) : *p.curve;
  }
  std::vector<approx_dp<Real>> parts;
  if (!pure_parts.empty()) {
    g.pure_epsilon = compose_sequential(pure_parts).eps;
    parts.push_back({g.pure_epsilon, Real(0)});
  }
  if (!approx_parts.empty()) {
    g.approx_part = compose_sequential(approx_parts);
    parts.push_back(g.approx_part);
  }
  if (rdp_total) {
    if (!(opt.delta > Real(0)))
      param_checker("accounting").fail("delta", "> 0 to convert the Rényi part", opt.delta);
    g.rdp_part = rdp_to_dp(*rdp_total, opt.delta, opt.conversion);
    parts.push_back(g.rdp_part->guarantee);
  }
  return composed_guarantee(std::move(g), parts, accounting_method::rdp);
}

}  // namespace dpref::accounting::detail

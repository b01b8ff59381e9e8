// The accountant: events -> certified (ε, δ) (spec/accounting.md ACC.ACCOUNT), and the ledger
// of a run (events + the options it is accounted with; ACC.LEDGER).
//
// RDP method (the default). Each event is analysed once (event.hpp says how per kind) and
// falls in one of three parts:
//   pure part    Σ count·ε of events analysed as ε-DP (amplified by subsampling first);
//   approx part  Σ count·(ε, δ) of declared (ε, δ) events (amplified by subsampling first);
//   Rényi part   Σ count·ε(α) of events analysed in RDP, on the grid 2, 3, …, max_order,
//                converted to (ε, δ) at options.delta (Balle et al. 2020 by default).
// The guarantee is the sequential composition of the three parts (ε and δ added, δ capped at
// 1). Every value is an upper bound of the exact one, rounded up (ACC.CERT.UP).
//
// PLD method (ACC.ACCOUNT.PLD): every event that has a privacy-loss distribution (laplace,
// gaussian, discrete laplace / gaussian, randomized response, pure — as binary randomized
// response, the dominating pair of every ε-DP mechanism —, vector laplace — as pure —,
// exponential — as the bounded-range worst case —, with Poisson or without-replacement (m of n)
// subsampling) is discretised pessimistically (pld/, certified in double) and composed; ε is
// read at options.delta. Declared (ε, δ) events are added sequentially; events without a PLD
// (declared RDP curves, the sparse vector) make the method refuse the ledger. Parameters are
// rounded to double in the direction that can only weaken the guarantee (sensitivities up,
// noise scales down, rates up). `best` computes both and reports the smaller certified ε (the
// RDP value when the PLD method refuses the ledger), naming the method that produced it.
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

namespace dpref::accounting {

enum class accounting_method {
  rdp,  ///< pure / approx / Rényi parts as in the file comment
  pld,  ///< privacy-loss distributions (certified pessimistic discretisation)
  best  ///< both; the smaller certified ε
};
constexpr auto enum_names(accounting_method) {
  return std::array{std::pair{accounting_method::rdp, std::string_view("rdp")},
                    std::pair{accounting_method::pld, std::string_view("pld")},
                    std::pair{accounting_method::best, std::string_view("best")}};
}
constexpr auto enum_names(conversion_method) {
  return std::array{std::pair{conversion_method::balle2020, std::string_view("balle2020")},
                    std::pair{conversion_method::mironov, std::string_view("mironov")}};
}

/// How a ledger is accounted. @spec ACC.ACCOUNT
template <real_scalar Real>
struct accounting_options {
  accounting_method method = accounting_method::rdp;
  Real delta = Real(0);  ///< δ at which the Rényi (or PLD) part is converted (> 0 if present)
  long long max_order = 256;       ///< RDP orders 2, 3, …, max_order
  bool fractional_orders = false;  ///< add 1.1, 1.2, …, 10.9 to the RDP grid (slow)
  conversion_method conversion = conversion_method::balle2020;
  double pld_interval = 1e-3;  ///< PLD grid spacing of the privacy loss

  template <class V>
  void fields(V&& v) {
    v("method", method, "accounting method: rdp, pld or best (the smaller certified ε)");
    v("delta", delta, "δ in [0, 1) at which the Rényi / PLD part is converted (> 0 if present)");
    v("max_order", max_order, "largest integer RDP order, in [2, 4096]");
    v("fractional_orders", fractional_orders,
      "also the orders 1.1, 1.2, ..., 10.9 (certified; about 50 ms per order and subsampled "
      "event)");
    v("conversion", conversion, "RDP -> (ε, δ) rule: balle2020 or mironov");
    v("pld_interval", pld_interval, "PLD discretisation interval, in [1e-5, 0.1]");
  }
  /// @throws invalid_parameter naming the field
  void validate() const {
    const param_checker c("accounting");
    c.delta("delta", delta);
    c.at_least<long long>("max_order", max_order, 2, 4096);
    c.in_closed("pld_interval", pld_interval, 1e-5, 0.1, "in [1e-5, 0.1]");
  }
  /// The RDP order grid: 2..max_order, with 1.1..10.9 (integers excluded) if fractional_orders.
  [[nodiscard]] std::vector<Real> orders() const {
    std::vector<Real> frac;
    if (fractional_orders)
      for (int x = 11; x < 110; ++x)
        if (x % 10 != 0) frac.push_back(Real(x) / 10);  // 1.1 … 10.9
    const std::vector<Real> ints = integer_orders<Real>(2, static_cast<int>(max_order));
    std::vector<Real> merged;
    merged.reserve(frac.size() + ints.size());
    std::merge(frac.begin(), frac.end(), ints.begin(), ints.end(), std::back_inserter(merged));
    return merged;
  }
};

/// A certified guarantee and how it was obtained.
template <real_scalar Real>
struct guarantee {
  Real epsilon = Real(0);
  Real delta = Real(0);
  accounting_method method = accounting_method::rdp;
  Real pure_epsilon = Real(0);                      ///< ε of the pure part
  approx_dp<Real> approx_part{};                    ///< (ε, δ) of the approx part
  std::optional<conversion_result<Real>> rdp_part;  ///< conversion of the Rényi part, if any

  template <class V>
  void fields(V&& v) {
    v("epsilon", epsilon, "certified ε (rounded up)");
    v("delta", delta, "certified δ (rounded up)");
    v("method", method, "accounting method that produced it (rdp or pld)");
  }
};

namespace detail {

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

/// The RDP method (file comment). @spec ACC.ACCOUNT
template <real_scalar Real>
guarantee<Real> account_rdp(const std::vector<event<Real>>& events,
                            const accounting_options<Real>& opt) {
  const std::vector<Real> orders = opt.orders();
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
  if (!parts.empty()) {
    const approx_dp<Real> t = compose_sequential(parts);
    g.epsilon = t.eps;
    g.delta = t.delta;
  }
  g.method = accounting_method::rdp;
  return g;
}

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

/// The PLD method (file comment). @spec ACC.ACCOUNT.PLD
template <real_scalar Real>
guarantee<Real> account_pld(const std::vector<event<Real>>& events,
                            const accounting_options<Real>& opt) {
  std::string why;
  if (!pld_supported(events, why))
    param_checker("accounting").fail("method", "rdp or best for this ledger: " + why, "pld");
  pld::options po;
  po.interval = opt.pld_interval;
  std::vector<pld::privacy_loss_distribution> plds;
  std::vector<approx_dp<Real>> fixed_parts;
  for (const auto& e : events) {
    std::optional<approx_dp<Real>> fixed;
    std::string w;
    const std::optional<pld::mechanism> m = pld_of(e, fixed, w);
    if (fixed) fixed_parts.push_back(compose_homogeneous(*fixed, e.count));
    if (!m) continue;
    pld::privacy_loss_distribution d = pld::discretise(*m, po);
    if (e.count > 1) d = pld::self_compose(d, static_cast<std::uint64_t>(e.count), po);
    plds.push_back(std::move(d));
  }
  guarantee<Real> g;
  std::vector<approx_dp<Real>> parts;
  if (!fixed_parts.empty()) {
    g.approx_part = compose_sequential(fixed_parts);
    parts.push_back(g.approx_part);
  }
  if (!plds.empty()) {
    if (!(opt.delta > Real(0)))
      param_checker("accounting").fail("delta", "> 0 to read ε from the PLD", opt.delta);
    const pld::privacy_loss_distribution total = pld::compose_all(std::move(plds), po);
    const double d = to_double_directed(opt.delta, false);  // a smaller δ only raises ε
    const double eps = total.epsilon_for_delta(d);
    if (!std::isfinite(eps))
      param_checker("accounting")
          .fail("delta", "above the certified mass at infinite privacy loss of the PLD", opt.delta);
    parts.push_back({Real(eps), opt.delta});
  }
  if (!parts.empty()) {
    const approx_dp<Real> t = compose_sequential(parts);
    g.epsilon = t.eps;
    g.delta = t.delta;
  }
  g.method = accounting_method::pld;
  return g;
}

}  // namespace detail

/// Certified guarantee of a list of events by options.method (see the file comment).
/// @throws invalid_parameter for an invalid event or option, a Rényi / PLD part with
/// options.delta = 0, or a ledger the PLD method cannot account (method pld)
/// @spec ACC.ACCOUNT ACC.ACCOUNT.PLD
template <real_scalar Real>
guarantee<Real> account(const std::vector<event<Real>>& events,
                        const accounting_options<Real>& opt) {
  opt.validate();
  for (const auto& e : events) validate(e);
  switch (opt.method) {
    case accounting_method::rdp:
      return detail::account_rdp(events, opt);
    case accounting_method::pld:
      return detail::account_pld(events, opt);
    case accounting_method::best: {
      const guarantee<Real> r = detail::account_rdp(events, opt);
      std::string why;
      if (!detail::pld_supported(events, why)) return r;
      const guarantee<Real> p = detail::account_pld(events, opt);
      return p.epsilon < r.epsilon ? p : r;
    }
  }
  return detail::account_rdp(events, opt);
}

/// The events of a run and the options they are accounted with; its JSON is the input of
/// `dpref account` (ACC.LEDGER.ROUNDTRIP).
/// @spec ACC.LEDGER
template <real_scalar Real>
class ledger {
 public:
  ledger() = default;
  explicit ledger(accounting_options<Real> opt) : options_(std::move(opt)) { options_.validate(); }

  /// Appends a validated event. @throws invalid_parameter
  void record(event<Real> e) {
    validate(e);
    events_.push_back(std::move(e));
  }
  /// Appends e, or throws budget_exceeded (recording nothing) if the total with e would exceed
  /// `limit` in ε or δ. Call it BEFORE drawing the noise of e.
  /// @spec ACC.BUDGET
  void charge(event<Real> e, const approx_dp<Real>& limit) {
    validate(e);
    events_.push_back(e);
    guarantee<Real> t;
    try {
      t = total();
    } catch (...) {
      events_.pop_back();
      throw;
    }
    if (t.epsilon > limit.eps || t.delta > limit.delta) {
      events_.pop_back();
      throw budget_exceeded("privacy budget: event " + std::string(e.kind()) +
                            (e.label.empty() ? "" : " (" + e.label + ")") +
                            " would spend epsilon = " + ::dpref::detail::to_text(t.epsilon) +
                            ", delta = " + ::dpref::detail::to_text(t.delta) +
                            " > limit epsilon = " + ::dpref::detail::to_text(limit.eps) +
                            ", delta = " + ::dpref::detail::to_text(limit.delta));
    }
  }
  [[nodiscard]] guarantee<Real> total() const { return account(events_, options_); }
  [[nodiscard]] const std::vector<event<Real>>& events() const { return events_; }
  [[nodiscard]] const accounting_options<Real>& options() const { return options_; }
  void set_options(accounting_options<Real> opt) {
    opt.validate();
    options_ = std::move(opt);
  }
  [[nodiscard]] bool empty() const { return events_.empty(); }

 private:
  accounting_options<Real> options_{};
  std::vector<event<Real>> events_;
};

}  // namespace dpref::accounting

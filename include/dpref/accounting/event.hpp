// The event vocabulary (spec/accounting.md ACC.EVENT): what a mechanism call IS — its kind and
// typed parameters, an optional subsampling step, a repetition count — never what it costs.
// The accountant (accountant.hpp) maps events to guarantees; a ledger is a list of events plus
// the accounting options, and its JSON is exactly the input of `dpref account`, so every run
// can be re-accounted by the tool (spec ACC.LEDGER.ROUNDTRIP).
//
// Mechanisms (parameters; guarantee under the RDP method, the default):
//   pure{epsilon}                 declared ε-DP (the proof is cited by the label)
//   approx{epsilon, delta}        declared (ε, δ)-DP
//   rdp{orders, epsilon}          declared RDP curve (orders > 1 increasing, ε(α) >= 0)
//   laplace{sensitivity, scale}   x + Lap(b)^d, ℓ1 sensitivity: ε = Δ1/b (or its RDP curve)
//   vector_laplace{sensitivity, scale}  density ∝ exp(−‖w‖₂/b), ℓ2 sensitivity: ε = Δ2/b
//   gaussian{sensitivity, sigma}  N(0, σ²I), ℓ2 sensitivity: RDP αΔ²/(2σ²)
//   exponential{utility_sensitivity, scale, monotone}  P ∝ exp(u/s): ε = 2Δu/s (Δu/s monotone)
//   randomized_response{epsilon}  k-ary randomized response with parameter ε: ε-DP
//   discrete_laplace{sensitivity, scale_num, scale_den}  integer query + discrete Laplace(t)
//   discrete_gaussian{sensitivity, variance_num, variance_den}  integer query + N_Z(0, σ²):
//                                 RDP αΔ²/(2σ²) (Canonne–Kamath–Steinke 2020)
//   sparse_vector{noise, sensitivity, threshold_scale, query_scale, max_queries, bound}
//                                 AboveThreshold with one TOP answer (Laplace: ε1 + 2ε2 pure,
//                                 or its RDP; Gaussian: RDP only)
//   snapped_laplace{sensitivity, grid_exponent, grid_scale, dimension}  lattice release of a real
//                                 d-vector, coordinate-wise discrete Laplace on 2^k Z:
//                                 ε = (Δ1 + d 2^k)/(2^k t) (spec/secure_release.md)
//   snapped_gaussian{sensitivity, grid_exponent, variance_num, variance_den, dimension}
//                                 the same with N_Z(0, σ_g²): RDP α(Δ2/2^k + √d)²/(2σ_g²)
//   snapped_vector_laplace{sensitivity, grid_exponent, grid_scale, dimension}  lattice
//                                 l2-Laplace round(W), W ∝ exp(−‖W‖₂/t): ε = (Δ2 + √d 2^k)/(2^k t)
// Subsampling (optional): {scheme: poisson, rate q, neighbouring: add_remove} or
// {scheme: without_replacement, sample_size m, population n (or rate), neighbouring:
// replace_one}; pure mechanisms are amplified in ε (ln(1 + q(e^ε − 1))), the Gaussian in RDP
// (Poisson: Mironov–Talwar–Zhang; without replacement: Wang–Balle–Kasiviswanathan), the Laplace
// and the sparse vector in RDP by the Zhu–Wang general bound (Poisson, analysis "rdp").
// Other combinations are refused.
// Joint parts (optional, ACC.EVENT.JOINT): further mechanisms (each a plain event with a count,
// no sampling of its own) that read the SAME sample as the event's mechanism, e.g. a gradient
// and the line searches of one mini-batch. The accountant composes their base RDP curves on the
// sample (adaptive composition) and amplifies the composition once (Poisson: the Zhu–Wang general
// bound; no sampling: the composition itself): amplifying each part separately would
// under-count (spec/accounting.md ACC.EVENT.JOINT).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dpref/accounting/mechanism_kinds.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/accounting/types.hpp"
#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/params.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accounting {

// ------------------------------------------------------------------------------ subsampling --

enum class sampling_scheme { poisson, without_replacement };
DPREF_ENUM_NAMES(sampling_scheme, poisson, without_replacement)
/// Neighbouring relation of the data sets the guarantee is about.
enum class neighbouring { add_remove, replace_one };
DPREF_ENUM_NAMES(neighbouring, add_remove, replace_one)

/// A subsampling step before the mechanism. Poisson: each record independently with
/// probability `rate`. Without replacement: `sample_size` of `population` records (or, when
/// both are 0, a sampling ratio `rate` as in Wang–Balle–Kasiviswanathan's γ).
template <real_scalar Real>
struct subsampling {
  sampling_scheme scheme = sampling_scheme::poisson;
  Real rate{};
  long long sample_size = 0;
  long long population = 0;
  neighbouring relation = neighbouring::add_remove;
  template <class V>
  void fields(V&& v) {
    v("scheme", scheme, "poisson or without_replacement");
    v("rate", rate, "sampling probability q in (0, 1] (Poisson, or WOR ratio)");
    v("sample_size", sample_size, "m records drawn without replacement (0: use rate)");
    v("population", population, "n records sampled from (0: use rate)");
    v("neighbouring", relation, "add_remove (Poisson) or replace_one (without replacement)");
  }
};

/// How the accountant analyses an event under the RDP method.
enum class analysis {
  automatic,  ///< the default of the kind (see the file comment)
  pure,       ///< as ε-DP (pure mechanisms only), composed by adding ε
  rdp         ///< as a Rényi-DP curve (Laplace and pure events through the tight conversion)
};
DPREF_ENUM_NAMES(analysis, automatic, pure, rdp)

// ------------------------------------------------------------------------------------ event --

/// One mechanism call (repeated `count` times with the same parameters).
/// @spec ACC.EVENT
template <real_scalar Real>
struct event {
  mechanism<Real> what = pure_mechanism<Real>{};
  std::optional<subsampling<Real>> sampling;
  analysis how = analysis::automatic;
  long long count = 1;
  std::string label;  ///< where in the algorithm (free text, e.g. "ev Algorithm 2 step 1, k = 3")
  /// Mechanisms run on the same sample as `what` (plain events: count, no sampling, no joint
  /// parts, automatic analysis); empty for an ordinary event. @spec ACC.EVENT.JOINT
  std::vector<event> joint;

  [[nodiscard]] std::string_view kind() const { return mechanism_name(what); }
};

/// Shorthand constructors.
template <real_scalar Real>
event<Real> make_event(mechanism<Real> m, long long count = 1, std::string label = {}) {
  event<Real> e;
  e.what = std::move(m);
  e.count = count;
  e.label = std::move(label);
  return e;
}

/// Validates an event: parameters of its mechanism, subsampling, count in [1, 10^18].
/// @throws invalid_parameter "event.<field> must be ..., got ..."
/// @spec ACC.EVENT
template <real_scalar Real>
void validate(const event<Real>& e) {
  const param_checker c(std::string("event[") + std::string(e.kind()) + "]");
  c.at_least<long long>("count", e.count, 1, 1000000000000000000LL);
  std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, pure_mechanism<Real>>) {
          c.nonnegative("epsilon", m.epsilon);
        } else if constexpr (std::is_same_v<M, approx_mechanism<Real>>) {
          c.nonnegative("epsilon", m.epsilon);
          c.delta("delta", m.delta);
        } else if constexpr (std::is_same_v<M, rdp_mechanism<Real>>) {
          c.require(!m.orders.empty(), "orders", "non-empty", m.orders.size());
          c.require(m.orders.size() == m.epsilon.size(), "epsilon", "of the same length as orders",
                    m.epsilon.size());
          for (std::size_t i = 0; i < m.orders.size(); ++i) {
            c.require(is_finite_value(m.orders[i]) && m.orders[i] > Real(1), "orders",
                      "finite and > 1", m.orders[i]);
            if (i > 0)
              c.require(m.orders[i] > m.orders[i - 1], "orders", "strictly increasing",
                        m.orders[i]);
            c.nonnegative("epsilon", m.epsilon[i]);
          }
        } else if constexpr (std::is_same_v<M, laplace_mechanism<Real>> ||
                             std::is_same_v<M, gaussian_mechanism<Real>>) {
          c.positive("sensitivity", m.sensitivity);
          if constexpr (std::is_same_v<M, laplace_mechanism<Real>>)
            c.positive("scale", m.scale);
          else
            c.positive("sigma", m.sigma);
        } else if constexpr (std::is_same_v<M, vector_laplace_mechanism<Real>>) {
          c.nonnegative("sensitivity", m.sensitivity);
          c.positive("scale", m.scale);
        } else if constexpr (std::is_same_v<M, exponential_mechanism<Real>>) {
          c.positive("utility_sensitivity", m.utility_sensitivity);
          c.positive("scale", m.scale);
        } else if constexpr (std::is_same_v<M, randomized_response_mechanism<Real>>) {
          c.positive("epsilon", m.epsilon);
        } else if constexpr (std::is_same_v<M, discrete_laplace_mechanism<Real>>) {
          c.at_least<std::int64_t>("sensitivity", m.sensitivity, 1);
          c.at_least<std::int64_t>("scale_num", m.scale_num, 1);
          c.at_least<std::int64_t>("scale_den", m.scale_den, 1);
        } else if constexpr (std::is_same_v<M, discrete_gaussian_mechanism<Real>>) {
          c.at_least<std::int64_t>("sensitivity", m.sensitivity, 1);
          c.at_least<std::int64_t>("variance_num", m.variance_num, 1);
          c.at_least<std::int64_t>("variance_den", m.variance_den, 1);
        } else if constexpr (std::is_same_v<M, sparse_vector_mechanism<Real>>) {
          c.positive("sensitivity", m.sensitivity);
          c.positive("threshold_scale", m.threshold_scale);
          c.positive("query_scale", m.query_scale);
          c.at_least<long long>("max_queries", m.max_queries, 1);
        } else if constexpr (std::is_same_v<M, snapped_laplace_mechanism<Real>> ||
                             std::is_same_v<M, snapped_gaussian_mechanism<Real>> ||
                             std::is_same_v<M, snapped_vector_laplace_mechanism<Real>>) {
          c.positive("sensitivity", m.sensitivity);
          c.at_least<int>("grid_exponent", m.grid_exponent, -1022, 970);
          if constexpr (std::is_same_v<M, snapped_gaussian_mechanism<Real>>) {
            c.at_least<std::int64_t>("variance_num", m.variance_num, 1);
            c.at_least<std::int64_t>("variance_den", m.variance_den, 1);
          } else {
            c.at_least<std::int64_t>("grid_scale", m.grid_scale, 1);
          }
          c.at_least<long long>("dimension", m.dimension, 1, 1LL << 40);
        }
      },
      e.what);
  for (std::size_t j = 0; j < e.joint.size(); ++j) {
    const event<Real>& part = e.joint[j];
    const std::string field = "joint[" + std::to_string(j) + "]";
    c.require(!part.sampling, field + ".sampling", "absent (a joint part reads the event's sample)",
              std::string("present"));
    c.require(part.joint.empty(), field + ".joint", "empty (joint parts do not nest)",
              part.joint.size());
    c.require(part.how == analysis::automatic, field + ".analysis",
              "automatic (joint parts are composed in RDP)",
              std::string(io::enum_to_string(part.how)));
    c.require(!std::holds_alternative<approx_mechanism<Real>>(part.what), field + ".mechanism",
              "a mechanism with an RDP curve (not approx)", std::string("approx"));
    validate(part);
  }
  if (!e.joint.empty()) {
    c.require(e.how != analysis::pure, "analysis", "automatic or rdp for an event with joint parts",
              std::string("pure"));
    c.require(!std::holds_alternative<approx_mechanism<Real>>(e.what), "mechanism",
              "a mechanism with an RDP curve (not approx) for an event with joint parts",
              std::string("approx"));
    c.require(!e.sampling || e.sampling->scheme == sampling_scheme::poisson, "sampling.scheme",
              "poisson for an event with joint parts (Zhu–Wang bound)",
              std::string("without_replacement"));
  }
  if (e.sampling) {
    const auto& s = *e.sampling;
    const param_checker cs(std::string("event[") + std::string(e.kind()) + "].sampling");
    if (s.scheme == sampling_scheme::poisson) {
      cs.rate("rate", s.rate);
      cs.require(s.sample_size == 0 && s.population == 0, "sample_size",
                 "0 for Poisson sampling (give the rate)", s.sample_size);
      cs.require(s.relation == neighbouring::add_remove, "neighbouring",
                 "add_remove for Poisson sampling", std::string("replace_one"));
    } else {
      const bool counts = s.sample_size != 0 || s.population != 0;
      if (counts) {
        cs.at_least<long long>("population", s.population, 1);
        cs.at_least<long long>("sample_size", s.sample_size, 1, s.population);
        cs.require(s.rate == Real(0), "rate", "0 when sample_size and population are given",
                   s.rate);
      } else {
        cs.rate("rate", s.rate);
      }
      cs.require(s.relation == neighbouring::replace_one, "neighbouring",
                 "replace_one for sampling without replacement", std::string("add_remove"));
    }
  }
}

}  // namespace dpref::accounting

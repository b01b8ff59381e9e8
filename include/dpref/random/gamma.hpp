// Gamma(k, theta) variates. Integer shape: the sum of k independent Exponential(1) variates,
// each by inversion (exact in distribution; used for the magnitude of the l2-Laplace vector).
// General shape: Marsaglia–Tsang (2000) rejection for k >= 1, and Gamma(k+1) U^{1/k} for
// k < 1 (Stuart's boost). spec/random.md RAND.GAMMA.INT, RAND.GAMMA.MT.
#pragma once

#include <cstdint>
#include <type_traits>

#include "dpref/error.hpp"
#include "dpref/random/evaluation.hpp"
#include "dpref/random/exponential.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/math.hpp"

namespace dpref {

/// Gamma(k, theta) for integer shape k >= 1 (density x^{k-1} e^{-x/theta} / (Γ(k) theta^k)).
/// Uses k draws of the stream. The sum is accumulated in the evaluation type and rounded once.
/// @throws std::domain_error if k == 0 or theta is not finite and > 0.
/// @spec RAND.GAMMA.INT
template <real_scalar Real>
Real gamma_integer(philox_stream& s, std::uint64_t k, const Real& theta) {
  if (k == 0) fail_domain("dpref::gamma_integer", "k", ">= 1", k);
  require_positive("dpref::gamma_integer", "theta", theta);
  if constexpr (std::is_same_v<Real, double>) {
    // double-double sum of double-double exponentials (RAND.DDLOG), rounded once
    detail::dd sum{0, 0};
    for (std::uint64_t i = 0; i < k; ++i) {
      const detail::dd e = detail::standard_exponential_dd(s.next_draw(), 0);
      const detail::dd t = detail::two_sum(sum.hi, e.hi);
      sum = detail::two_sum(t.hi, t.lo + sum.lo + e.lo);
    }
    const detail::dd p = detail::two_prod(theta, sum.hi);
    return p.hi + (p.lo + theta * sum.lo);
  }
  using Eval = detail::evaluation_t<Real>;
  Eval sum(0);
  for (std::uint64_t i = 0; i < k; ++i)
    sum += detail::standard_exponential<Eval>(s.next_draw(), detail::inversion_lanes<Real>(), 0);
  return static_cast<Real>(sum * static_cast<Eval>(theta));
}

/// Gamma(shape, theta) for real shape > 0 (Marsaglia–Tsang; exact rejection sampler).
/// @throws std::domain_error if shape or theta is not finite and > 0.
/// @spec RAND.GAMMA.MT
template <real_scalar Real>
Real gamma(philox_stream& s, const Real& shape, const Real& theta) {
  require_positive("dpref::gamma", "shape", shape);
  require_positive("dpref::gamma", "theta", theta);
  using Eval = detail::evaluation_t<Real>;
  const unsigned lanes = detail::inversion_lanes<Real>();
  Eval a = static_cast<Eval>(shape);
  Eval boost_factor(1);
  if (a < Eval(1)) {
    // Gamma(a) = Gamma(a + 1) * U^{1/a}; computed as exp(-E/a), E ~ Exp(1)
    const Eval e = detail::standard_exponential<Eval>(s.next_draw(), lanes, 0);
    boost_factor = math::exp(Eval(-e / a));
    a += 1;
  }
  const Eval d = a - Eval(1) / 3;
  const Eval c = 1 / math::sqrt(Eval(9 * d));
  for (;;) {
    const Eval x = detail::standard_gaussian<Eval>(s.next_draw(), lanes);
    const Eval t = 1 + c * x;
    if (t <= 0) continue;
    const Eval v = t * t * t;
    // accept iff log U < x^2/2 + d - d v + d log v, with -log U = E ~ Exp(1)
    const Eval e = detail::standard_exponential<Eval>(s.next_draw(), lanes, 0);
    if (-e < x * x / 2 + d - d * v + d * math::log(v))
      return static_cast<Real>(d * v * boost_factor * static_cast<Eval>(theta));
  }
}

}  // namespace dpref

// Exact Bernoulli(exp(-gamma)) for rational gamma = n / d >= 0: Canonne, Kamath, Steinke,
// "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), Algorithm 1.
// spec/random_secure.md RAND.SECURE.BERN_EXP. Integer-only (RAND.SECURE.NOFLOAT).
#pragma once

#include <cstdint>

#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/integer.hpp"
#include "dpref/random/secure/uniform_int.hpp"

namespace dpref::secure {

namespace detail {

/// Bernoulli(exp(-n/d)) for 0 <= n <= d, d > 0: the alternating-series method. With
/// A_k ~ Bernoulli(gamma / k) and K the first k with A_k = 0, P(K = k) =
/// gamma^(k-1)/(k-1)! - gamma^k/k!, so P(K odd) = sum_j (-gamma)^j / j! = exp(-gamma).
/// Bernoulli(gamma / k) is Bernoulli(n / (d k)) when d k fits Int, else the product of the
/// independent trials Bernoulli(n / d) and Bernoulli(1 / k) (same law, no overflow).
template <class Int>
bool bernoulli_exp_unit(philox_stream& s, const Int& n, const Int& d) {
  const Int zero = lit<Int>(0);
  if (n == zero) return true;
  Int k = lit<Int>(1);
  for (;;) {
    bool a;
    if (mul_fits(d, k)) {
      a = bernoulli_rational_unchecked(s, n, Int(d * k));
    } else {
      a = bernoulli_rational_unchecked(s, n, d) && bernoulli_rational_unchecked(s, lit<Int>(1), k);
    }
    if (!a) break;
    k = add_checked(k, lit<Int>(1), "dpref::secure::bernoulli_exp", "series index k");
  }
  return k % lit<Int>(2) == lit<Int>(1);
}

/// Bernoulli(exp(-n/d)) for n >= 0, d > 0 without validation: floor(n/d) independent
/// Bernoulli(exp(-1)) trials (stop at the first failure), then Bernoulli(exp(-(n mod d)/d)).
template <class Int>
bool bernoulli_exp_unchecked(philox_stream& s, const Int& n, const Int& d) {
  const Int one = lit<Int>(1);
  if (n <= d) return bernoulli_exp_unit(s, n, d);
  const Int whole = n / d;
  for (Int i = lit<Int>(0); i < whole; i = i + one) {
    if (!bernoulli_exp_unit(s, one, one)) return false;
  }
  return bernoulli_exp_unit(s, Int(n % d), d);
}

}  // namespace detail

/// Exact Bernoulli(exp(-gamma)) with gamma = n / d, CKS 2020 Algorithm 1.
/// @spec RAND.SECURE.BERN_EXP
/// @spec RAND.SECURE.NOFLOAT
/// @param n numerator of gamma, n >= 0.  @param d denominator of gamma, d > 0.
/// @return true with probability exactly exp(-n/d).
/// @throws std::domain_error if d <= 0 or n < 0.
template <secure_int Int = std::int64_t>
bool bernoulli_exp(philox_stream& s, const Int& n, const Int& d) {
  constexpr const char* fn = "dpref::secure::bernoulli_exp";
  if (d <= detail::lit<Int>(0)) detail::fail_int_domain(fn, "d (denominator of gamma)", "> 0", d);
  if (n < detail::lit<Int>(0))
    detail::fail_int_domain(fn, "n (numerator of gamma)", ">= 0 (gamma >= 0)", n);
  return detail::bernoulli_exp_unchecked(s, n, d);
}

}  // namespace dpref::secure

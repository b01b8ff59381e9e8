// Stage lengths and step sizes of (DP-)MASG, accel (4.7) (Aybat et al. 2019):
//   n_1 ≥ 1, α^(1) = c/L;  n_k = 2^k ⌈√κ ln(2^{p+2})⌉, α^(k) = c/(2^{2k} L), k ≥ 2,
// with c the step-size scale of the paper's experiments (c = 1 is (4.7) itself). Iterations
// t = 1..T are assigned to stages in order; the last stage is truncated at T.
#pragma once

#include <cmath>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel {

/// Stage description of a MASG run. @spec ACCEL.MASG
template <real_scalar Real>
struct masg_schedule {
  std::vector<long long> stage_length;  ///< n_k actually run (last one truncated)
  std::vector<Real> stage_step;         ///< α^(k)
  std::vector<long long> stage_of;      ///< s_t for t = 1..T (index t−1), stages numbered from 1
  long long base = 0;                   ///< ⌈√κ ln(2^{p+2})⌉
};

/// accel (4.7). @param T total iterations >= 1 @param mu,L constants, 0 < μ <= L
/// @param p >= 1 @param n1 first-stage length >= 1 (0: use the base length ⌈√κ ln 2^{p+2}⌉)
/// @param c step scale in (0, 1] @throws std::domain_error naming the parameter
/// @spec ACCEL.MASG
template <real_scalar Real>
masg_schedule<Real> make_masg_schedule(long long T, const Real& mu, const Real& L, long long p,
                                       long long n1, const Real& c) {
  constexpr const char* fn = "make_masg_schedule";
  if (T < 1) fail_domain(fn, "T", ">= 1", T);
  require_positive(fn, "mu", mu);
  require_positive(fn, "L", L);
  if (mu > L) fail_domain(fn, "mu", "<= L", mu);
  if (p < 1 || p > 60) fail_domain(fn, "p", "in [1, 60]", p);
  if (n1 < 0) fail_domain(fn, "n1", ">= 0", n1);
  require_in_closed(fn, "c", c, Real(0), Real(1), "in (0, 1]");
  require_positive(fn, "c", c);
  using std::ceil;
  using std::log;
  using std::sqrt;
  masg_schedule<Real> s;
  const Real kappa = L / mu;
  // ln(2^{p+2}) = (p+2) ln 2
  const Real base_r = ceil(sqrt(kappa) * Real(p + 2) * log(Real(2)));
  s.base = static_cast<long long>(base_r);
  if (s.base < 1) s.base = 1;
  long long done = 0;
  for (long long k = 1; done < T; ++k) {
    long long len;
    Real step;
    if (k == 1) {
      len = n1 > 0 ? n1 : s.base;
      step = c / L;
    } else {
      len = (k < 62 && s.base <= (T >> k)) ? (s.base << k) : T;  // 2^k base, capped at T
      using std::ldexp;
      step = c / (ldexp(Real(1), static_cast<int>(2 * k)) * L);
    }
    if (len > T - done) len = T - done;
    s.stage_length.push_back(len);
    s.stage_step.push_back(step);
    for (long long i = 0; i < len; ++i) s.stage_of.push_back(k);
    done += len;
  }
  return s;
}

}  // namespace dpref::accel

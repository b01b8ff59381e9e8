// accel Theorem 4.3: the DP-MASG bound (4.8) (errata: "E_T =" should read "≤") and its weights
//   a_{T,t} = 2^{s_T − s_t} [Π_{i=t+1}^T (1 − √(μ α^(s_i)))] α^(s_t)(1 + α^(s_t) L),
//   a_{T,0} = 2^{s_T − s_0} Π_{i=1}^T (1 − √(μ α^(s_i))),  s_0 := 1,
// and the choice of T′ ≤ T minimising the optimal-split bound (the analogue of Remark 4.1 used
// for DP-MASG-opt in accel §5). Weights are computed in log space (no under/overflow).
#pragma once

#include <cmath>
#include <vector>

#include "dpref/accel/masg_schedule.hpp"
#include "dpref/error.hpp"
#include "dpref/scalar.hpp"

namespace dpref::accel::bounds {

/// Weights of (4.8) for the first T iterations of a schedule.
template <real_scalar Real>
struct masg_weight_set {
  Real a0;
  std::vector<Real> a;  ///< a_{T,1..T}
};

/// @param s schedule (accel (4.7)) @param T <= s.stage_of.size() @param mu,L constants
/// @spec ACCEL.THM43
template <real_scalar Real>
masg_weight_set<Real> masg_weights(const accel::masg_schedule<Real>& s, long long T, const Real& mu,
                                   const Real& L) {
  const auto TT = static_cast<long long>(s.stage_of.size());
  if (T < 1 || T > TT) fail_domain("masg_weights", "T", "in [1, schedule length]", T);
  using std::exp;
  using std::log;
  using std::log1p;
  using std::sqrt;
  const Real ln2 = log(Real(2));
  // log ρ_i for each iteration i = 1..T; suffix sums give Σ_{i=t+1}^T.
  std::vector<Real> lr(static_cast<std::size_t>(T));
  for (long long i = 0; i < T; ++i) {
    const Real al = s.stage_step[static_cast<std::size_t>(s.stage_of[i] - 1)];
    lr[static_cast<std::size_t>(i)] = log1p(-sqrt(mu * al));
  }
  const long long sT = s.stage_of[static_cast<std::size_t>(T - 1)];
  masg_weight_set<Real> w;
  w.a.resize(static_cast<std::size_t>(T));
  Real suffix(0);
  for (long long t = T; t >= 1; --t) {
    const long long st = s.stage_of[static_cast<std::size_t>(t - 1)];
    const Real al = s.stage_step[static_cast<std::size_t>(st - 1)];
    w.a[static_cast<std::size_t>(t - 1)] =
        exp(Real(sT - st) * ln2 + suffix) * al * (Real(1) + al * L);
    suffix += lr[static_cast<std::size_t>(t - 1)];
  }
  w.a0 = exp(Real(sT - 1) * ln2 + suffix);
  return w;
}

/// Right-hand side of (4.8) for scales b_1..b_T. @spec ACCEL.THM43
template <real_scalar Real>
Real masg_bound(const masg_weight_set<Real>& w, const Real& E0, const std::vector<Real>& b,
                long long d, const Real& sigma_s2) {
  if (b.size() != w.a.size()) fail_argument("masg_bound", "b.size()", "== T", b.size());
  Real s = w.a0 * E0;
  for (std::size_t t = 0; t < b.size(); ++t)
    s += w.a[t] * (b[t] * b[t] * Real(d) + sigma_s2 / Real(2));
  return s;
}

/// T′ ∈ [1, T] minimising a_{T′,0}E_0 + d S₁²/(n²ε²)(Σ_j a_{T′,j}^{1/3})³ over the schedule's
/// prefixes (O(T) by log-space running sums). @return {T′, bound} @spec ACCEL.THM43
template <real_scalar Real>
std::pair<long long, Real> masg_choose_T(const accel::masg_schedule<Real>& s, long long T,
                                         const Real& E0, const Real& mu, const Real& L, long long d,
                                         const Real& S1, long long n, const Real& eps) {
  const auto TT = static_cast<long long>(s.stage_of.size());
  if (T < 1 || T > TT) fail_domain("masg_choose_T", "T", "in [1, schedule length]", T);
  require_nonnegative("masg_choose_T", "E0", E0);
  using std::exp;
  using std::log;
  using std::log1p;
  using std::sqrt;
  const Real ln2 = log(Real(2));
  const Real k = Real(d) * S1 * S1 / (Real(n) * Real(n) * eps * eps);
  // log a_{T',t} = (s_T' − s_t) ln2 + Λ(T') − Λ(t) + ln c_t with Λ(t) = Σ_{i≤t} ln ρ_i.
  // Σ_t a^{1/3} = exp((s_T' ln2 + Λ(T'))/3) · Σ_t exp((−s_t ln2 − Λ(t) + ln c_t)/3), the inner
  // sum kept as (log of max term, scaled sum).
  Real Lam(0), lmax(0), acc(0);
  std::pair<long long, Real> best{0, Real(0)};
  for (long long t = 1; t <= T; ++t) {
    const long long st = s.stage_of[static_cast<std::size_t>(t - 1)];
    const Real al = s.stage_step[static_cast<std::size_t>(st - 1)];
    Lam += log1p(-sqrt(mu * al));
    const Real term = (-Real(st) * ln2 - Lam + log(al * (Real(1) + al * L))) / Real(3);
    if (t == 1 || term > lmax) {
      acc = (t == 1 ? Real(0) : acc * exp(lmax - term)) + Real(1);
      lmax = term;
    } else {
      acc += exp(term - lmax);
    }
    const Real log_sum = (Real(st) * ln2 + Lam) / Real(3) + lmax + log(acc);
    const Real a0 = exp(Real(st - 1) * ln2 + Lam);
    const Real bound = a0 * E0 + k * exp(Real(3) * log_sum);
    if (best.first == 0 || bound < best.second) best = {t, bound};
  }
  return best;
}

}  // namespace dpref::accel::bounds

// Shared pieces of the secure-release audits (tests/audit/secure_release_audit.cpp, label
// `audit`, and secure_release_slow_audit.cpp, label `slow`; spec/secure_release.md SEC.AUDIT.*).
//
// Claims never come from the code under test: every audited ε is the REQUESTED budget, and the
// test checks independently (exact arithmetic written here) that the parameters the library
// chose meet it; every audited δ of a discrete Gaussian is summed here in long double from the
// pmf. Worst-case pairs for the rounding are "tie pairs": every coordinate of q(D) sits at half a
// grid step (rounded down to 0 by half-to-even) and every coordinate of q(D') an odd number of
// steps further (rounded up), so the integer query moves by Δ/2^k + 1 steps per coordinate —
// exactly the inflation the accounting charges.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "audit_support.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/random/secure/lattice.hpp"

namespace dpref::audit::secure_support {

using vec = Eigen::VectorXd;

inline constexpr double kAlpha = 1e-6;  // false-alarm probability of every audit

/// seed, n search = n test samples per side and pair, claimed (ε, δ), one thread (the counts do
/// not depend on the thread count, AUDIT.THREADS; one thread bounds the CPU time per test).
inline audit_config config(std::uint64_t seed, double eps, double delta, std::uint64_t n) {
  audit_config c;
  c.seed = seed;
  c.search_samples = c.test_samples = n;
  c.alpha = kAlpha;
  c.epsilon = eps;
  c.delta = delta;
  c.threads = 1;
  return c;
}

/// Scalar families: threshold / histogram bins on y, and Mironov's low-order-bit events.
inline std::vector<event_family<double>> scalar_families(double lo, double hi, std::size_t bins,
                                                         lowbits_layout bits) {
  return {threshold_family<double>("threshold", test_support::identity, lo, hi, bins),
          lowbits_family<double>("low-order bits", test_support::identity, bits)};
}

/// A scalar statistic of a vector output, searched with threshold events.
struct vector_statistic {
  std::string name;
  std::function<double(const vec&)> f;
  double lo, hi;
  std::size_t bins;
};

/// Vector families: the given statistics plus low-order bits of coordinate `bit_coord`.
inline std::vector<event_family<vec>> vector_families(const std::vector<vector_statistic>& stats,
                                                      lowbits_layout bits, Eigen::Index bit_coord) {
  std::vector<event_family<vec>> out;
  for (const auto& st : stats)
    out.push_back(threshold_family<vec>(st.name, st.f, st.lo, st.hi, st.bins));
  out.push_back(lowbits_family<vec>(
      "low-order bits of y[" + std::to_string(bit_coord) + "]",
      [bit_coord](const vec& y) { return y[bit_coord]; }, bits));
  return out;
}

/// Likelihood-ratio statistics of a pair with centres c (D) and c2 (D'):
/// l1: Σ|y_i − c2_i| − |y_i − c_i| (coordinate-wise Laplace); l2: ‖y − c2‖ − ‖y − c‖ (l2-Laplace);
/// sum: Σ y_i (the sufficient statistic of equal Gaussian shifts).
inline vector_statistic l1_ratio(const vec& c, const vec& c2) {
  const double r = (c2 - c).lpNorm<1>();
  return {"l1 likelihood-ratio statistic",
          [c, c2](const vec& y) { return (y - c2).lpNorm<1>() - (y - c).lpNorm<1>(); }, -r, r, 120};
}
inline vector_statistic l2_ratio(const vec& c, const vec& c2) {
  const double r = (c2 - c).norm();
  return {"l2 likelihood-ratio statistic",
          [c, c2](const vec& y) { return (y - c2).norm() - (y - c).norm(); }, -r, r, 120};
}

/// The centre round(clamp(x)/2^k) 2^k of an input (public function of the pair).
inline vec lattice_centre(const vec& x, int k, double clamp) {
  vec c(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i)
    c[i] = std::ldexp(static_cast<double>(secure::lattice_round(x[i], k, clamp)), k);
  return c;
}

/// Tie pair: q(D) = (g/2) 1, q(D') = q(D) + steps g 1 (steps odd: each coordinate moves by
/// steps + 1 grid steps after rounding).
inline neighbour_pair<vec> tie_pair(std::size_t d, int k, long long steps) {
  const double g = std::ldexp(1.0, k);
  const vec a = vec::Constant(static_cast<Eigen::Index>(d), g / 2);
  const vec b = a + vec::Constant(static_cast<Eigen::Index>(d), static_cast<double>(steps) * g);
  return {"tie pair (g/2 vs g/2 + " + std::to_string(steps) + "g per coordinate)", a, b};
}

// ---- independent privacy computations (long double, written here) ---------------------------

/// pmf of N_Z(0, var) on [-r, r] (normalised over that range; r >= 40 sd makes the truncation
/// negligible against the audit's resolution).
inline std::vector<long double> discrete_gaussian_pmf(long double var, long long r) {
  std::vector<long double> p(static_cast<std::size_t>(2 * r + 1));
  long double z = 0;
  for (long long x = -r; x <= r; ++x) {
    p[static_cast<std::size_t>(x + r)] = std::exp(-static_cast<long double>(x * x) / (2 * var));
    z += p[static_cast<std::size_t>(x + r)];
  }
  for (auto& v : p) v /= z;
  return p;
}

/// Exact hockey-stick δ(ε) of d independent N_Z(0, var) coordinates shifted by the integer m in
/// every coordinate: the privacy loss depends on S = Σ z_i only, δ = Σ_S P(S) max(0, 1 −
/// e^ε exp((2mS − d m²)/(2 var))) (the same in both directions by symmetry).
inline double discrete_gaussian_delta_equal_shift(long double var, long long m, int d,
                                                  long double eps) {
  const auto r = static_cast<long long>(40 * std::sqrt(var)) + 2 * m + 2;
  const std::vector<long double> p = discrete_gaussian_pmf(var, r);
  std::vector<long double> s = p;  // pmf of the sum, offset d' r
  for (int j = 1; j < d; ++j) {
    std::vector<long double> n(s.size() + p.size() - 1, 0.0L);
    for (std::size_t a = 0; a < s.size(); ++a)
      for (std::size_t b = 0; b < p.size(); ++b) n[a + b] += s[a] * p[b];
    s.swap(n);
  }
  const long double mm = static_cast<long double>(m);
  long double delta = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const long double sum = static_cast<long double>(i) - static_cast<long double>(d) * r;
    const long double loss = (2 * mm * sum - d * mm * mm) / (2 * var);
    const long double v = 1 - std::exp(eps + loss);
    if (v > 0) delta += s[i] * v;
  }
  return static_cast<double>(delta);
}

/// Mironov's conversion of ρ-zCDP (RDP αρ for all α > 1) to δ at ε: exp(−(ε − ρ)²/(4ρ)) for
/// ε >= ρ (the optimal order α = (ε + ρ)/(2ρ)).
inline double zcdp_delta(double rho, double eps) {
  return eps <= rho ? 1.0 : std::exp(-(eps - rho) * (eps - rho) / (4 * rho));
}

}  // namespace dpref::audit::secure_support

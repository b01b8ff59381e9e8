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
#include <type_traits>
#include <vector>

#include "audit_support.hpp"
#include "dpref/audit/auditor.hpp"
#include "dpref/audit/events.hpp"
#include "dpref/audit/neighbours.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_laplace.hpp"
#include "dpref/mechanisms/secure/snapped_vector_laplace.hpp"
#include "dpref/random/secure/lattice.hpp"

namespace dpref::audit::secure_support {

using vec = Eigen::VectorXd;
// the report and the verdict checks of every audit (audit_support.hpp)
using test_support::audit_flagged;
using test_support::audit_passes;
using test_support::print_report;

inline constexpr std::uint64_t kLatticeN = 1u << 18;  // samples per side and pair: lattice
inline constexpr std::uint64_t kFloatN = 1u << 20;    // floating-point (textbook) releases
inline const lowbits_layout kLowBits{-40, 8, 52};     // Mironov's events on the raw double

/// seed, n search = n test samples per side and pair, claimed (ε, δ), all cores (the counts do
/// not depend on the thread count, AUDIT.THREADS).
inline audit_config config(std::uint64_t seed, double eps, double delta, std::uint64_t n) {
  return test_support::make_config(seed, n, eps, delta, 0);
}

/// The lattice release with parameters p (snapped Laplace, Gaussian or l2-Laplace) as an audit
/// mechanism on inputs of type X.
template <class X, class Params>
auto lattice_release(const Params& p) {
  return [p](const X& x, philox_stream& s) {
    if constexpr (std::is_same_v<Params, mechanisms::snapped_laplace_params>)
      return mechanisms::snapped_laplace(s, x, p);
    else if constexpr (std::is_same_v<Params, mechanisms::snapped_gaussian_params>)
      return mechanisms::snapped_gaussian(s, x, p);
    else
      return mechanisms::snapped_vector_laplace(s, x, p);
  };
}

/// Independent check of a Laplace-type calibration: with t grid steps of noise per unit of the
/// privacy loss, (Δ/2^k + m)/t <= ε, i.e. t 2^k ε >= Δ + m 2^k (m = d or √d), in long double
/// with a relative slack of 1e-15 (for the √d rounding).
inline bool meets(long double sens, int k, long long t, long double m, double eps) {
  const long double g = std::ldexp(1.0L, k);
  return static_cast<long double>(t) * g * eps >= (sens + m * g) * (1 - 1e-15L);
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

/// Families of an l2-Laplace pair with centres c, c2: its likelihood ratio and the low-order bits
/// of y[0].
inline std::vector<event_family<vec>> l2_ratio_families(const vec& c, const vec& c2,
                                                        lowbits_layout bits = kLowBits) {
  return vector_families({l2_ratio(c, c2)}, bits, 0);
}

/// The centre round(clamp(x)/2^k) 2^k of an input (public function of the pair).
inline vec lattice_centre(const vec& x, int k, double clamp) {
  vec c(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i)
    c[i] = std::ldexp(static_cast<double>(secure::lattice_round(x[i], k, clamp)), k);
  return c;
}

/// l2_ratio_families of a pair's lattice centres (grid 2^k, clamp).
inline std::vector<event_family<vec>> lattice_l2_families(const neighbour_pair<vec>& pr, int k,
                                                          double clamp,
                                                          lowbits_layout bits = kLowBits) {
  return l2_ratio_families(lattice_centre(pr.first, k, clamp), lattice_centre(pr.second, k, clamp),
                           bits);
}

/// Tie pair: q(D) = (g/2) 1, q(D') = q(D) + steps g 1 (steps odd: each coordinate moves by
/// steps + 1 grid steps after rounding).
inline neighbour_pair<vec> tie_pair(std::size_t d, int k, long long steps) {
  const double g = std::ldexp(1.0, k);
  const vec a = vec::Constant(static_cast<Eigen::Index>(d), g / 2);
  const vec b = a + vec::Constant(static_cast<Eigen::Index>(d), static_cast<double>(steps) * g);
  return {"tie pair (g/2 vs g/2 + " + std::to_string(steps) + "g per coordinate)", a, b};
}

/// The coarse-grid (g = 1) scalar audit on the tie pair 0.5 vs 1.5 (rounded to 0 vs 2: the
/// inflated shift) and the `extra` pairs, with one threshold bin per integer in [−r, r + 1].
template <class M>
audit_report coarse_tie_audit(const M& m, int r, const audit_config& cfg,
                              const std::vector<neighbour_pair<double>>& extra = {}) {
  std::vector<neighbour_pair<double>> pairs{{"tie pair 0.5 vs 1.5", 0.5, 1.5}};
  pairs.insert(pairs.end(), extra.begin(), extra.end());
  return run_audit<double, double>(
      m, pairs, scalar_families(-r - 0.5, r + 1.5, static_cast<std::size_t>(2 * r + 2), kLowBits),
      cfg);
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

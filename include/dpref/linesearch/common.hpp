// Shared pieces of the linesearch algorithms: the problem concept, Poisson sampling of a
// mini-batch (Lemma 4's sampling: each example independently with probability q), the noisy
// clipped gradient (Algorithm 2 lines 5–6) drawn from its ledger event (what is drawn is what is
// charged), and ANGLEBETWEEN.
//
// Normalisation: Algorithm 2 line 6 divides by |B|; |B| is data-dependent under add/remove
// adjacency and is not covered by the Gaussian-mechanism argument, so dpref divides by the
// PUBLIC expected batch size m̄ = q·n (as Abadi et al.'s lot size). The query is Algorithm 1
// line 7 as printed with the clipped SUM objective of Theorem 1 (f̄ = min(f, C_obj), LS-E2:
// Δ_q = C_obj): q(η) = Σ_B f̄(w) − αη‖g̃‖² − Σ_B f̄(w − ηg̃); params.armijo_mean_scaling
// multiplies the Armijo term by m̄ (the sum form of the mean condition (2)).
// The algorithms are generic over the problem (concept linesearch_problem): problems::linear_erm
// (with its fast line_evaluator) and problems::mlp_classifier (linesearch §5.7, with
// mlp_line_evaluator); make_line(P, B, w, g) is found by ordinary or argument-dependent lookup.
// spec/linesearch.md LS.ALG2, LS.MLP, LS.NOISE.
#pragma once

#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/math/constants/constants.hpp>

#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/event.hpp"
#include "dpref/error.hpp"
#include "dpref/mechanisms/gaussian.hpp"
#include "dpref/mechanisms/secure/snapped_gaussian.hpp"
#include "dpref/problems/erm.hpp"
#include "dpref/random/bernoulli.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/scalar.hpp"

namespace dpref::linesearch {

/// The line evaluator of a linear ERM problem (y xᵀw, y xᵀg once, O(|B|) per η).
/// @spec LS.ERM
template <real_scalar Real>
problems::line_evaluator<Real> make_line(const problems::linear_erm<Real>& P,
                                         std::span<const Eigen::Index> batch, const vector<Real>& w,
                                         const vector<Real>& g) {
  return problems::line_evaluator<Real>(P, batch, w, g);
}

/// What DP-BLSGD and DP-SGD need from a problem: n, the parameter dimension, the clipped
/// gradient sum Σ_B clip(∇f_i(w), C) (Algorithm 2 line 5), F(w) for the trace, and a line
/// evaluator make_line(P, B, w, g) with g_squared() = ‖g‖² and clipped_sum(η, C_obj) =
/// Σ_B min(f_i(w − ηg), C_obj) (Algorithm 1 line 7). @spec LS.MLP
template <class P, class Real>
concept linesearch_problem = real_scalar<Real> &&
    requires(const P& p, const vector<Real>& w, std::span<const Eigen::Index> batch, const Real& c,
             vector<Real>& out) {
  { p.size() } -> std::convertible_to<Eigen::Index>;
  { p.dimension() } -> std::convertible_to<Eigen::Index>;
  p.clipped_gradient_sum(w, batch, c, out);
  { p.value(w) } -> std::convertible_to<Real>;
  { make_line(p, batch, w, w).g_squared() } -> std::convertible_to<Real>;
  { make_line(p, batch, w, w).clipped_sum(c, c) } -> std::convertible_to<Real>;
};

/// Poisson sample of {0..n−1} with rate q (one exact Bernoulli(q) draw per example; q = 1 takes
/// every example without drawing). @spec LS.ALG2
template <real_scalar Real>
void poisson_batch(philox_stream& s, Eigen::Index n, const Real& q,
                   std::vector<Eigen::Index>& out) {
  out.clear();
  for (Eigen::Index i = 0; i < n; ++i)
    // not privacy noise: the Poisson sample (accounted as the event's sampling, rate q)
    if (bernoulli<Real>(s, q)) out.push_back(i);
}

/// The Gaussian event of a noisy clipped gradient sum with budget ρ (Lemma 1: (α, αρ)-RDP):
/// ℓ2 sensitivity C (one clipped example, add/remove) and σ = C/√(2ρ) rounded UP.
/// @spec LS.ALG2 LS.NOISE
template <real_scalar Real>
accounting::gaussian_mechanism<Real> gradient_event(const Real& C, const Real& rho) {
  require_positive("dpref::linesearch::gradient_event", "C", C);
  require_positive("dpref::linesearch::gradient_event", "rho", rho);
  accounting::certifier<Real> c;
  using std::sqrt;
  return {C, c.up(c.in(C) / sqrt(2 * c.in(rho)))};
}

/// v += N(0, σ²I) by the Gaussian measurement of the event being charged (the same Δ2 and σ:
/// mechanisms::gaussian_noise, ARCH.MEASUREMENTS). @spec LS.NOISE
template <real_scalar Real>
void add_gaussian_noise(philox_stream& s, vector<Real>& v,
                        const accounting::gaussian_mechanism<Real>& m) {
  mechanisms::gaussian_noise<Real>(m).add_to(s, v);
}

/// The lattice Gaussian of a clipped gradient sum at σ (SEC.LINESEARCH, SEC.GAUSS.SUM): Δ2 = C,
/// a sum of ℓ2 balls: each example's clipped gradient is put on the grid in the ball of radius C
/// exactly and the integers are summed exactly, so adding or removing an example moves the sum
/// by at most C + √d 2^k/2 whatever the floating-point clip and sum did; the sum's coordinates
/// are clamped to `clamp` (n·C bounds every coordinate of a sum of at most n such gradients);
/// grid of mechanisms::snapped_gaussian_grid_exponent.
/// @spec SEC.LINESEARCH
inline mechanisms::snapped_gaussian_params snapped_gradient(double C, double sigma, double clamp,
                                                            long long d) {
  mechanisms::snapped_gaussian_params sp;
  sp.sensitivity = C;
  sp.sigma = sigma;
  sp.dimension = d;
  sp.shape = mechanisms::clamp_set::sum_of_l2_balls;
  sp.record_radius = C;
  sp.clamp = clamp;
  sp.grid_exponent = mechanisms::snapped_gaussian_grid_exponent(C, sigma, d, clamp);
  return sp;
}

/// The lattice release of Σ_{i∈B} clip(∇f_i(w), C) with the snapped Gaussian `sp` (C =
/// sp.record_radius): each example's clipped gradient is one record of the sum (SEC.GAUSS.SUM).
/// @spec SEC.LINESEARCH
template <class Problem>
void lattice_gradient_sum(philox_stream& s, const Problem& P, std::span<const Eigen::Index> batch,
                          const vector<double>& w, const mechanisms::snapped_gaussian_params& sp,
                          vector<double>& out) {
  const auto example = [&](std::size_t r, vector<double>& x) {
    P.clipped_gradient_sum(w, batch.subspan(r, 1), sp.record_radius, x);
  };
  out = mechanisms::snapped_gaussian_sum(s, batch.size(), example, sp);
}

/// ANGLEBETWEEN(a, b) in radians ∈ [0, π]; π/2 if either vector is 0. @spec LS.EQ7
template <real_scalar Real>
Real angle_between(const vector<Real>& a, const vector<Real>& b) {
  using std::acos;
  using std::sqrt;
  const Real na = a.squaredNorm(), nb = b.squaredNorm();
  if (!(na > Real(0)) || !(nb > Real(0))) return boost::math::constants::half_pi<Real>();
  Real c = a.dot(b) / sqrt(na * nb);
  if (c > Real(1)) c = Real(1);
  if (c < Real(-1)) c = Real(-1);
  return acos(c);
}

}  // namespace dpref::linesearch

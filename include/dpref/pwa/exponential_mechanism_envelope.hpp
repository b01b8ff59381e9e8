// Building blocks of the exact samplers of the continuous exponential mechanism M_E (pwa
// Theorem 19, density ∝ exp(−λ f(x)) on P with λ = ε/(2 bmax)); spec/pwa_sampler.md PWA.ME.*.
//
//  - bernoulli_exp_minus: exact Bernoulli(exp(−γ)) for any real γ ≥ 0 (exact up to the rounding
//    of exp(−γ/n) in Real), the acceptance test of every rejection step;
//  - truncated_exponential: exact inversion of the density ∝ exp(−β y) on [0, w], evaluated in
//    the inversion type of Real (long double for double) and rounded once;
//  - upper_envelope_1d: the segments of f(x) = max_i (a_i x + b_i) on an interval [L, U];
//  - separable_envelope: g(x) = sᵀx + t with s = Σθ_k a_k, t = Σθ_k b_k − slack for θ in the
//    simplex, so g ≤ f on the box (a convex combination never exceeds the maximum); θ minimises
//    log ∫_box exp(−λ g), i.e. maximises the acceptance Z_f/Z_g of the envelope sampler, and
//    the dual bound q(θ) = θᵀb − c‖Aᵀθ‖₁ ≤ min_box f gives the rejection sampler's f_lo.
#pragma once

#include <algorithm>
#include <boost/math/special_functions/expm1.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/pwa/problem.hpp"
#include "dpref/random/bernoulli.hpp"
#include "dpref/random/evaluation.hpp"
#include "dpref/random/math.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"
#include "dpref/scalar.hpp"

namespace dpref::pwa {

namespace detail {
/// expm1 at the precision of Real (libm for built-in types, Boost.Math otherwise).
template <real_scalar Real>
Real expm1_of(const Real& x) {
  if constexpr (std::is_floating_point_v<Real>) {
    return std::expm1(x);
  } else {
    return boost::math::expm1(x);
  }
}
}  // namespace detail

/// Exact Bernoulli(exp(−γ)) for γ ≥ 0: exp(−γ) = Π_{i≤n} exp(−γ/n) with n = ⌈γ/64⌉, each factor
/// (≥ e^−64, never underflowing) tested with the exact dpref::bernoulli; stops at the first
/// failure. The law is exact for the evaluated factors (a few ulps of Real each).
/// @throws std::domain_error if γ is NaN or negative @spec PWA.ME.REJECTION
template <real_scalar Real>
bool bernoulli_exp_minus(philox_stream& s, const Real& gamma) {
  if (!(gamma >= Real(0))) fail_domain("dpref::pwa::bernoulli_exp_minus", "gamma", ">= 0", gamma);
  if (gamma == Real(0)) return true;
  if (!is_finite_value(gamma)) return false;
  using std::ceil;
  const Real pieces = ceil(gamma / Real(64));
  if (pieces > Real(1e15)) return false;  // exp(−γ) < e^{-6e16}: below any representable mass
  const long long n = static_cast<long long>(pieces);
  const Real p = math::exp(Real(-(gamma / pieces)));
  for (long long i = 0; i < n; ++i)
    // measurement: M_E's exact envelope sampler (exponential_mechanism::event charges it)
    if (!bernoulli<Real>(s, p)) return false;
  return true;
}

/// Exact inversion sample of the density β e^{−β y}/(1 − e^{−βw}) on [0, w] (uniform if
/// β = 0), from one draw: U = t or 1 − t (folded uniform, full relative precision in both
/// tails), y = −log(1 − U(1 − e^{−βw}))/β, with the complement written without cancellation:
/// 1 − (1 − t)(1 − e^{−α}) = e^{−α} + t(1 − e^{−α}) (α = βw > 1) or 1 + (1 − t) expm1(−α).
/// Evaluated in evaluation_t<Real>, rounded once, clamped to [0, w] (rounding only).
/// @spec PWA.ME.INVCDF
template <real_scalar Real>
Real truncated_exponential(philox_stream& s, const Real& beta, const Real& width) {
  using Eval = ::dpref::detail::evaluation_t<Real>;
  const auto f = folded_uniform<Eval>(s.next_draw(), ::dpref::detail::inversion_lanes<Real>(), 0);
  const Eval w = static_cast<Eval>(width), b = static_cast<Eval>(beta);
  Eval y;
  if (b == Eval(0)) {
    y = f.upper ? Eval(w - f.t * w) : Eval(f.t * w);
  } else {
    const Eval alpha = b * w;
    const Eval em1 = detail::expm1_of<Eval>(Eval(-alpha));  // −(1 − e^{−α}) ∈ (−1, 0)
    Eval log_tail;                                          // log(1 − U(1 − e^{−α})) ≤ 0
    if (!f.upper)
      log_tail = math::log1p(Eval(f.t * em1));
    else if (alpha > Eval(1))
      log_tail = math::log(Eval(math::exp(Eval(-alpha)) - f.t * em1));
    else
      log_tail = math::log1p(Eval((Eval(1) - f.t) * em1));
    y = Eval(-log_tail) / b;
  }
  Real out = static_cast<Real>(y);
  if (out < Real(0)) out = Real(0);
  if (out > width) out = width;
  return out;
}

/// One piece of the upper envelope of f on [lo, hi]: f(x) = slope·x + intercept there.
template <real_scalar Real>
struct envelope_segment {
  Real lo, hi;
  int piece = 0;
  Real slope, intercept;
};

/// The 1-D feasible interval [L, U] = [−c, c] ∩ {x : G x ≤ h} of a d = 1 polytope.
/// @throws std::invalid_argument if d ≠ 1; std::domain_error if the interval is empty
template <real_scalar Real>
std::pair<Real, Real> feasible_interval_1d(const polytope<Real>& P) {
  constexpr const char* fn = "dpref::pwa::feasible_interval_1d";
  if (P.dimension != 1) fail_argument(fn, "P.dimension", "== 1", P.dimension);
  Real lo = -P.box, hi = P.box;
  for (Eigen::Index r = 0; r < P.G.rows(); ++r) {
    const Real g = P.G(r, 0), h = P.h[r];
    if (g > Real(0)) {
      hi = std::min(hi, Real(h / g));
    } else if (g < Real(0)) {
      lo = std::max(lo, Real(h / g));
    } else if (h < Real(0)) {
      fail_domain(fn, "h (row with G = 0)", ">= 0 (else P is empty)", h);
    }
  }
  if (!(lo < hi)) fail_domain(fn, "P (interval [L, U])", "non-empty with L < U", hi - lo);
  return {lo, hi};
}

/// Segments of the upper envelope of the lines a_i x + b_i on [lo, hi], left to right: start
/// with the maximiser at lo (ties: the largest slope), then repeatedly move to the steeper line
/// whose intersection with the current one comes first (ties: the steepest). Zero-width
/// segments (coinciding breakpoints) are dropped. O(m · #segments).
/// @spec PWA.ME.INVCDF
template <real_scalar Real>
std::vector<envelope_segment<Real>> upper_envelope_1d(const piecewise_affine<Real>& F,
                                                      const Real& lo, const Real& hi) {
  if (F.dimension() != 1)
    fail_argument("dpref::pwa::upper_envelope_1d", "F.dimension()", "== 1", F.dimension());
  if (!(lo < hi)) fail_domain("dpref::pwa::upper_envelope_1d", "hi", "> lo", hi);
  const auto& A = F.A();
  const auto& b = F.b();
  const int m = F.pieces();
  int k = 0;
  Real best = A(0, 0) * lo + b[0];
  for (int i = 1; i < m; ++i) {
    const Real v = A(i, 0) * lo + b[i];
    if (v > best || (v == best && A(i, 0) > A(k, 0))) best = v, k = i;
  }
  std::vector<envelope_segment<Real>> out;
  Real x = lo;
  for (;;) {
    Real t_next = hi;
    int next = -1;
    for (int j = 0; j < m; ++j) {
      if (!(A(j, 0) > A(k, 0))) continue;
      Real t = (b[k] - b[j]) / (A(j, 0) - A(k, 0));
      if (t < x) t = x;  // rounding: line j already dominates at x, it takes over at once
      const bool take =
          next < 0 ? !(t > t_next) : (t < t_next || (t == t_next && A(j, 0) > A(next, 0)));
      if (take) t_next = t, next = j;
    }
    if (t_next > x) out.push_back({x, t_next, k, A(k, 0), b[k]});
    if (next < 0) break;
    x = t_next;
    k = next;
  }
  return out;
}

/// A separable lower bound g(x) = sᵀx + t ≤ f(x) on the box (θ ∈ simplex, t includes a
/// rounding slack), and its log-normaliser log ∫_box exp(−λ g).
template <real_scalar Real>
struct separable_envelope {
  std::vector<double> theta;  ///< weights of the pieces (simplex, double)
  vector<Real> slope;         ///< s = Σ θ_k a_k
  Real offset;                ///< t = Σ θ_k b_k − slack
  double log_z = 0;           ///< log ∫_box exp(−λ g) (double, for reports)
};

namespace detail {

/// H(σ) = log ∫_{−c}^{c} e^{−σ x} dx = c|σ| + log((1 − e^{−2c|σ|})/|σ|) (log 2c at σ = 0).
inline double log_box_integral(double sigma, double c) {
  const double a = std::fabs(sigma);
  if (a * c < 1e-8) return std::log(2 * c) + (sigma * c) * (sigma * c) / 6;
  return a * c + std::log(-std::expm1(-2 * a * c)) - std::log(a);
}

/// Langevin function L(z) = coth z − 1/z (odd; z/3 near 0).
inline double langevin(double z) {
  if (std::fabs(z) < 1e-4) return z / 3 - z * z * z / 45;
  return 1 / std::tanh(z) - 1 / z;
}

/// (1/λ) log ∫_box exp(−λ Σθ_k (a_kᵀx + b_k)) and its gradient in θ (double).
inline double envelope_objective(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, double c,
                                 double lambda, const Eigen::VectorXd& theta,
                                 Eigen::VectorXd* grad) {
  const Eigen::VectorXd s = A.transpose() * theta;
  double v = -theta.dot(b);
  for (Eigen::Index j = 0; j < s.size(); ++j) v += log_box_integral(lambda * s[j], c) / lambda;
  if (grad) {
    Eigen::VectorXd dl(s.size());
    for (Eigen::Index j = 0; j < s.size(); ++j) dl[j] = c * langevin(lambda * c * s[j]);
    *grad = -b + A * dl;
  }
  return v;
}

/// Dual bound q(θ) = θᵀb − c‖Aᵀθ‖₁ ≤ min_box f (double; weak duality of the epigraph LP).
inline double dual_bound(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, double c,
                         const Eigen::VectorXd& theta) {
  return theta.dot(b) - c * (A.transpose() * theta).lpNorm<1>();
}

inline Eigen::VectorXd optimise_envelope_from(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                              double c, double lambda, Eigen::VectorXd theta,
                                              int iterations);

/// θ minimising envelope_objective over the simplex: exponentiated gradient with backtracking,
/// from θ0 = ½ e_best + ½ uniform (e_best: the best single piece in closed form); returns the
/// best θ seen (any θ gives a valid envelope; the optimisation only improves the acceptance).
inline Eigen::VectorXd optimise_envelope(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                         double c, double lambda, int iterations) {
  const Eigen::Index m = A.rows();
  Eigen::VectorXd best_theta = Eigen::VectorXd::Zero(m);
  double best = std::numeric_limits<double>::infinity();
  Eigen::Index k_best = 0;
  for (Eigen::Index k = 0; k < m; ++k) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(m);
    e[k] = 1;
    const double v = envelope_objective(A, b, c, lambda, e, nullptr);
    if (v < best) best = v, k_best = k, best_theta = e;
  }
  if (m == 1 || iterations <= 0) return best_theta;
  Eigen::VectorXd theta = Eigen::VectorXd::Constant(m, 0.5 / static_cast<double>(m));
  theta[k_best] += 0.5;
  Eigen::VectorXd found = optimise_envelope_from(A, b, c, lambda, theta, iterations);
  return envelope_objective(A, b, c, lambda, found, nullptr) < best ? found : best_theta;
}

/// Exponentiated gradient with backtracking on envelope_objective from θ0 (all entries > 0);
/// returns the best θ seen.
inline Eigen::VectorXd optimise_envelope_from(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                              double c, double lambda, Eigen::VectorXd theta,
                                              int iterations) {
  Eigen::VectorXd best_theta = theta;
  Eigen::VectorXd g;
  double v = envelope_objective(A, b, c, lambda, theta, &g);
  double best = v;
  double eta = 1.0 / (1.0 + g.cwiseAbs().maxCoeff());
  for (int it = 0; it < iterations; ++it) {
    bool moved = false;
    for (int tries = 0; tries < 30; ++tries) {
      Eigen::VectorXd logt = theta.array().log().matrix() - eta * g;
      logt.array() -= logt.maxCoeff();
      Eigen::VectorXd cand = logt.array().exp().matrix();
      cand /= cand.sum();
      Eigen::VectorXd gc;
      const double vc = envelope_objective(A, b, c, lambda, cand, &gc);
      if (std::isfinite(vc) && vc <= v) {
        theta = cand, v = vc, g = gc, moved = true;
        eta *= 1.5;
        break;
      }
      eta *= 0.5;
    }
    if (v < best) best = v, best_theta = theta;
    if (!moved) break;
  }
  return best_theta;
}

/// Box-only data of F as double (θ is chosen in double at every precision).
template <real_scalar Real>
void to_double(const piecewise_affine<Real>& F, Eigen::MatrixXd& A, Eigen::VectorXd& b) {
  A.resize(F.pieces(), F.dimension());
  b.resize(F.pieces());
  for (int i = 0; i < F.pieces(); ++i) {
    b[i] = static_cast<double>(F.b()[i]);
    for (int j = 0; j < F.dimension(); ++j) A(i, j) = static_cast<double>(F.A()(i, j));
  }
}

/// Rounding slack of evaluating convex combinations of the pieces on the box in Real:
/// 64 m ulps of (max|b_i| + c max‖a_i‖₁).
template <real_scalar Real>
Real combination_slack(const piecewise_affine<Real>& F) {
  using std::abs;
  Real scale(0);
  for (int i = 0; i < F.pieces(); ++i) {
    Real row = abs(F.b()[i]);
    for (int j = 0; j < F.dimension(); ++j) row += F.polytope().box * abs(F.A()(i, j));
    scale = std::max(scale, row);
  }
  return Real(64) * Real(F.pieces() + F.dimension()) * machine_epsilon<Real>() * scale;
}

/// (Σθ_k a_k, Σθ_k b_k) in Real with θ renormalised in Real (Σθ = 1 up to Real's rounding,
/// so the combination is ≤ f up to combination_slack at every precision).
template <real_scalar Real>
std::pair<vector<Real>, Real> combine_pieces(const piecewise_affine<Real>& F,
                                             const Eigen::VectorXd& theta) {
  Real total(0);
  for (int k = 0; k < F.pieces(); ++k) total += Real(theta[k]);
  vector<Real> s = vector<Real>::Zero(F.dimension());
  Real t(0);
  for (int k = 0; k < F.pieces(); ++k) {
    if (theta[k] == 0) continue;
    const Real w = Real(theta[k]) / total;
    s += w * F.A().row(k).transpose();
    t += w * F.b()[k];
  }
  return {s, t};
}

}  // namespace detail

/// The separable envelope of F at λ (see the header comment); θ from `iterations` steps of
/// exponentiated gradient (0: the best single piece only).
/// @spec PWA.ME.ENVELOPE
template <real_scalar Real>
separable_envelope<Real> make_separable_envelope(const piecewise_affine<Real>& F,
                                                 const Real& lambda, int iterations = 200) {
  require_positive("dpref::pwa::make_separable_envelope", "lambda", lambda);
  Eigen::MatrixXd A;
  Eigen::VectorXd b;
  detail::to_double(F, A, b);
  const double c = static_cast<double>(F.polytope().box);
  const double lam = static_cast<double>(lambda);
  const Eigen::VectorXd theta = detail::optimise_envelope(A, b, c, lam, iterations);
  separable_envelope<Real> env;
  env.theta.assign(theta.data(), theta.data() + theta.size());
  const auto [slope, offset] = detail::combine_pieces(F, theta);
  env.slope = slope;
  env.offset = offset - detail::combination_slack(F);
  env.log_z = lam * detail::envelope_objective(A, b, c, lam, theta, nullptr);
  return env;
}

/// A valid lower bound f_lo ≤ min_P f without an LP solve: the best dual bound
/// q(θ) = θᵀb − c‖Aᵀθ‖₁ (weak duality of the epigraph LP on the box; P ⊆ box) over every single
/// piece and the envelope optima along the continuation λ, 4λ, …, 4⁶λ (the smoothed dual tends
/// to the LP dual as λ grows; each level starts from the previous θ mixed with 10% uniform),
/// minus a rounding slack. Any θ gives a valid bound; the search only tightens it.
/// @spec PWA.ME.REJECTION
template <real_scalar Real>
Real dual_lower_bound(const piecewise_affine<Real>& F, const Real& lambda) {
  require_positive("dpref::pwa::dual_lower_bound", "lambda", lambda);
  Eigen::MatrixXd A;
  Eigen::VectorXd b;
  detail::to_double(F, A, b);
  const double c = static_cast<double>(F.polytope().box);
  const Eigen::Index m = A.rows();
  Eigen::VectorXd best_theta = Eigen::VectorXd::Unit(m, 0);
  double best_v = -std::numeric_limits<double>::infinity();
  const auto consider = [&](const Eigen::VectorXd& th) {
    const double v = detail::dual_bound(A, b, c, th);
    if (v > best_v) best_v = v, best_theta = th;
  };
  for (Eigen::Index k = 0; k < m; ++k) consider(Eigen::VectorXd::Unit(m, k));
  double lam = static_cast<double>(lambda);
  Eigen::VectorXd theta = detail::optimise_envelope(A, b, c, lam, 200);
  consider(theta);
  for (int level = 1; level <= 6 && m > 1; ++level) {
    lam *= 4;
    theta = 0.9 * theta + Eigen::VectorXd::Constant(m, 0.1 / static_cast<double>(m));
    theta = detail::optimise_envelope_from(A, b, c, lam, theta, 150);
    consider(theta);
  }
  using std::abs;
  const auto [s, tb] = detail::combine_pieces(F, best_theta);
  Real l1(0);
  for (int j = 0; j < F.dimension(); ++j) l1 += abs(s[j]);
  return tb - F.polytope().box * l1 - detail::combination_slack(F);
}

}  // namespace dpref::pwa

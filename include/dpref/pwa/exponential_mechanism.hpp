// The continuous exponential mechanism M_E of pwa Theorem 19: one sample of the density
// ∝ exp(−ε f(x)/(2 bmax)) on P, f(x) = max_i (a_iᵀx + b_i). spec/pwa_sampler.md PWA.ME.*.
//
// Privacy (Theorem 19 = Theorem 10 + Lemma 18): u = −f has sensitivity Δu = bmax under pwa (4),
// so the density ∝ exp(ε u/(2Δu)) is ε-DP — IF it is sampled exactly (errata PWA-E5). Samplers:
//  - rejection (exact): x uniform on the box (rejected outside Gx ≤ h), accepted with
//    probability exp(−(f(x) − f_lo)/scale), scale = 2bmax/ε, f_lo ≤ min_P f. The accepted x has
//    density ∝ 1_P(x) exp(−f(x)/scale) (von Neumann).
//  - envelope (exact): x from the product density ∝ exp(−g(x)/scale) on the box, g = sᵀx + t a
//    convex combination of the pieces (g ≤ f), each coordinate an exact truncated-exponential
//    inversion; accepted with probability exp(−(f(x) − g(x))/scale) ≤ 1 (and x ∈ P).
//  - inverse_cdf (exact, d = 1): segments of the upper envelope on [L, U], segment k chosen with
//    probability exactly ∝ its mass (uniform proposal + exact Bernoulli), then the truncated
//    exponential inverted inside the segment.
//  - metropolis (APPROXIMATE, pwa §5.1): Gaussian random walk with Σ = η c I (η = 0.1), 5000
//    steps; its output law is not the target: no privacy guarantee is certified.
// "Exact" means exact for the density evaluated in Real: f, the weights and the inversions
// carry a few ulps of rounding each.
//
// The number of attempts and the acceptance rate depend on the private b: they are diagnostics,
// NOT covered by the ε-DP guarantee of the released sample (nor is the running time or the
// max_attempts exception).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/accounting/accountant.hpp"
#include "dpref/error.hpp"
#include "dpref/pwa/exponential_mechanism_envelope.hpp"
#include "dpref/pwa/problem.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/uniform_int.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::pwa {

/// Which sampler draws the sample.
enum class me_method {
  rejection,    ///< exact: uniform proposal on the box, acceptance exp(−(f − f_lo)/scale)
  envelope,     ///< exact: separable exponential proposal exp(−g/scale), g ≤ f
  inverse_cdf,  ///< exact, d = 1 only: inverse CDF of the piecewise-exponential density
  metropolis    ///< APPROXIMATE: the paper's Metropolis chain (pwa §5.1); not certified
};

/// Whether the output law is the target density (up to rounding) or an approximation.
enum class me_exactness { exact, approximate };

inline const char* to_string(me_method m) {
  switch (m) {
    case me_method::rejection:
      return "rejection";
    case me_method::envelope:
      return "envelope";
    case me_method::inverse_cdf:
      return "inverse-cdf";
    case me_method::metropolis:
      return "metropolis";
  }
  return "?";
}

/// Parses "rejection", "envelope", "inverse-cdf", "metropolis".
/// @throws std::invalid_argument naming `method`
inline me_method parse_me_method(std::string_view text) {
  for (me_method m :
       {me_method::rejection, me_method::envelope, me_method::inverse_cdf, me_method::metropolis})
    if (text == to_string(m)) return m;
  throw std::invalid_argument(
      "dpref::pwa::parse_me_method: method must be rejection, envelope, inverse-cdf or "
      "metropolis, got '" +
      std::string(text) + "'");
}

/// Thrown when a rejection sampler needs more than max_attempts proposals for one sample.
class sampling_limit_exceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Settings of the samplers.
template <real_scalar Real>
struct me_config {
  long long max_attempts = 100'000'000;  ///< proposals per sample (rejection, envelope)
  /// f_lo ≤ min_P f for the rejection sampler (e.g. a certified LP optimum minus its rounding
  /// bound). Any valid bound gives the exact law; a tighter one only raises the acceptance.
  /// Default: the least segment-end value for d = 1, else dual_lower_bound (no LP). A bound above
  /// min_P f is detected when a sample has f(x) < f_lo and throws std::domain_error naming f_lower.
  std::optional<Real> f_lower;
  int envelope_iterations = 200;       ///< exponentiated-gradient steps choosing θ
  long long metropolis_steps = 5000;   ///< pwa §5.1
  Real metropolis_eta = Real(1) / 10;  ///< Σ = η c I (pwa §5.1: η = 0.1; a covariance)
  vector<Real> metropolis_start;       ///< empty: the origin (must lie in P)
};

/// Proposal counts of one or more samples (diagnostics; they depend on the private data).
struct me_counts {
  long long attempts = 0;  ///< proposals (points, segment proposals, or Metropolis steps)
  long long accepted = 0;  ///< accepted proposals (samples, or accepted Metropolis moves)
  [[nodiscard]] double acceptance_rate() const {
    return attempts > 0 ? static_cast<double>(accepted) / static_cast<double>(attempts) : 0.0;
  }
};

/// One or more samples with their method, exactness label and privacy ledger.
template <real_scalar Real>
struct me_result {
  std::vector<vector<Real>> samples;
  me_method method = me_method::rejection;
  me_exactness exactness = me_exactness::exact;
  me_counts counts;
  /// Exact samplers: one exponential-mechanism event (pwa Theorem 19) with count = #samples.
  /// Metropolis: empty.
  accounting::ledger<Real> ledger;
  bool certified = true;  ///< false for the approximate Metropolis path
  std::string guarantee;  ///< human-readable statement of the guarantee (or of its absence)
};

/// The exponential mechanism M_E of pwa Theorem 19 for one problem and ε.
/// @spec PWA.ME.THM19
template <real_scalar Real>
class exponential_mechanism {
 public:
  /// @param F the problem (private b) @param epsilon ε > 0 @param cfg sampler settings
  /// @throws std::domain_error / std::invalid_argument naming the bad argument
  exponential_mechanism(piecewise_affine<Real> F, const Real& epsilon, me_config<Real> cfg = {})
      : F_(std::move(F)), eps_(epsilon), cfg_(std::move(cfg)) {
    constexpr const char* fn = "dpref::pwa::exponential_mechanism";
    require_positive(fn, "epsilon", eps_);
    if (cfg_.max_attempts < 1) fail_argument(fn, "max_attempts", ">= 1", cfg_.max_attempts);
    if (cfg_.envelope_iterations < 0)
      fail_argument(fn, "envelope_iterations", ">= 0", cfg_.envelope_iterations);
    if (cfg_.metropolis_steps < 1)
      fail_argument(fn, "metropolis_steps", ">= 1", cfg_.metropolis_steps);
    require_positive(fn, "metropolis_eta", cfg_.metropolis_eta);
    if (cfg_.f_lower) require_finite(fn, "f_lower", *cfg_.f_lower);
    scale_ = Real(2) * F_.bmax() / eps_;  // exp(−f/scale) = exp(−ε f/(2 bmax))
    require_positive(fn, "2 bmax / epsilon", scale_);
    const Real lambda = Real(1) / scale_;
    env_ = make_separable_envelope(F_, lambda, cfg_.envelope_iterations);
    if (F_.dimension() == 1) build_segments();
    if (cfg_.f_lower) {
      f_lo_ = *cfg_.f_lower;
    } else if (F_.dimension() == 1) {
      // d = 1: min_P f is the least segment-end value (f is affine on each segment), up to
      // the rounding of the breakpoints, covered by the slack
      f_lo_ = seg_min_ - detail::combination_slack(F_);
    } else {
      f_lo_ = dual_lower_bound(F_, lambda);
    }
    const int d = F_.dimension();
    if (cfg_.metropolis_start.size() == 0) cfg_.metropolis_start = vector<Real>::Zero(d);
    if (cfg_.metropolis_start.size() != d)
      fail_argument(fn, "metropolis_start.size()", "== d", cfg_.metropolis_start.size());
  }

  [[nodiscard]] const piecewise_affine<Real>& problem() const { return F_; }
  [[nodiscard]] const Real& epsilon() const { return eps_; }
  /// scale = 2 bmax/ε: the density is exp(−f/scale).
  [[nodiscard]] const Real& scale() const { return scale_; }
  /// The lower bound f_lo ≤ min_P f of the rejection sampler.
  [[nodiscard]] const Real& f_lower() const { return f_lo_; }
  [[nodiscard]] const separable_envelope<Real>& envelope() const { return env_; }
  /// d = 1: the envelope segments on [L, U] and their log-masses log ∫ exp(−f/scale).
  [[nodiscard]] const std::vector<envelope_segment<Real>>& segments() const { return seg_; }
  [[nodiscard]] const std::vector<Real>& segment_log_mass() const { return seg_logw_; }

  /// Exactness of a method's output law.
  static me_exactness exactness(me_method m) {
    return m == me_method::metropolis ? me_exactness::approximate : me_exactness::exact;
  }

  /// One sample (the fast path: no ledger); adds the proposal counts to *counts.
  /// @throws sampling_limit_exceeded after cfg.max_attempts proposals; std::invalid_argument
  ///   for inverse_cdf with d ≠ 1
  vector<Real> draw(philox_stream& s, me_method m, me_counts* counts = nullptr) const {
    switch (m) {
      case me_method::rejection:
        return draw_rejection(s, counts);
      case me_method::envelope:
        return draw_envelope(s, counts);
      case me_method::inverse_cdf:
        return draw_inverse_cdf(s, counts);
      case me_method::metropolis:
        return draw_metropolis(s, counts);
    }
    fail_argument("dpref::pwa::exponential_mechanism::draw", "method", "a me_method",
                  static_cast<int>(m));
  }

  /// n samples; sample i reads substream i of the caller's (seed, stream), so a sample does not
  /// depend on n. The ledger records ONE pure-ε event per released sample (count = n: the n
  /// releases compose to nε) for the exact methods, nothing for Metropolis.
  /// @throws std::invalid_argument for n < 1
  me_result<Real> sample(const philox_stream& s, me_method m, long long n = 1) const {
    if (n < 1) fail_argument("dpref::pwa::exponential_mechanism::sample", "n", ">= 1", n);
    me_result<Real> r;
    r.method = m;
    r.exactness = exactness(m);
    r.samples.reserve(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i) {
      philox_stream si = s.substream(static_cast<std::uint64_t>(i));
      r.samples.push_back(draw(si, m, &r.counts));
    }
    if (r.exactness == me_exactness::exact) {
      r.certified = true;
      r.ledger.record(event(n));
      r.guarantee =
          "pure epsilon-DP per sample (pwa Theorem 19: Lemma 18 gives Delta_u = bmax; exact "
          "sampler of exp(-eps f/(2 bmax)) up to rounding)";
    } else {
      r.certified = false;
      r.guarantee =
          "NOT CERTIFIED: approximate Metropolis chain (pwa 5.1); its output law is not the "
          "exponential mechanism's, so Theorem 19 does not apply (errata PWA-E5)";
    }
    return r;
  }

  /// The ledger event of `count` exact samples: the exponential mechanism with Δu = bmax (pwa
  /// Lemma 18) at this sampler's scale, ε = 2 bmax/scale rounded up by the accountant.
  [[nodiscard]] accounting::event<Real> event(
      long long count = 1, std::string label =
                               "pwa M_E (Theorem 19): one exact sample of exp(−f/s), Δu = bmax "
                               "(Lemma 18)") const {
    return accounting::make_event<Real>(
        accounting::exponential_mechanism<Real>{F_.bmax(), scale_, false}, count, std::move(label));
  }

 private:
  void limit_reached(const char* which) const {
    throw sampling_limit_exceeded(
        std::string("dpref::pwa::exponential_mechanism (") + which +
        "): no sample accepted within max_attempts = " + std::to_string(cfg_.max_attempts) +
        " proposals; raise max_attempts or use another method");
  }

  // f(x) and the membership tests without temporaries (the problem type's value() allocates)
  Real value(const vector<Real>& x) const {
    const auto& A = F_.A();
    Real best = A.row(0).dot(x) + F_.b()[0];
    for (Eigen::Index i = 1; i < A.rows(); ++i) {
      const Real u = A.row(i).dot(x) + F_.b()[i];
      if (u > best) best = u;
    }
    return best;
  }
  bool in_extra_rows(const vector<Real>& x) const {
    const auto& P = F_.polytope();
    for (Eigen::Index i = 0; i < P.G.rows(); ++i)
      if (P.G.row(i).dot(x) > P.h[i]) return false;
    return true;
  }
  bool in_box(const vector<Real>& x) const {
    const Real& c = F_.polytope().box;
    for (Eigen::Index j = 0; j < x.size(); ++j)
      if (x[j] < -c || x[j] > c) return false;
    return true;
  }

  vector<Real> draw_rejection(philox_stream& s, me_counts* counts) const {
    const int d = F_.dimension();
    const Real c = F_.polytope().box;
    vector<Real> x(d);
    for (long long a = 1; a <= cfg_.max_attempts; ++a) {
      if (counts) ++counts->attempts;
      // measurement: M_E's exact rejection sampler (exponential_mechanism::event charges it)
      for (int j = 0; j < d; ++j) x[j] = c * (Real(2) * uniform01<Real>(s) - Real(1));
      if (!in_extra_rows(x)) continue;
      const Real gap = value(x) - f_lo_;
      if (gap < Real(0))
        fail_domain("dpref::pwa::exponential_mechanism", "f_lower",
                    "<= min_P f (a sampled x has f(x) < f_lower)", f_lo_);
      if (bernoulli_exp_minus<Real>(s, Real(gap / scale_))) {
        if (counts) ++counts->accepted;
        return x;
      }
    }
    limit_reached("rejection");
    return x;
  }

  vector<Real> draw_envelope(philox_stream& s, me_counts* counts) const {
    const int d = F_.dimension();
    const Real c = F_.polytope().box;
    const Real width = Real(2) * c;
    using std::abs;
    vector<Real> x(d);
    for (long long a = 1; a <= cfg_.max_attempts; ++a) {
      if (counts) ++counts->attempts;
      for (int j = 0; j < d; ++j) {
        const Real sj = env_.slope[j];
        const Real y = truncated_exponential<Real>(s, Real(abs(sj) / scale_), width);
        x[j] = sj >= Real(0) ? Real(y - c) : Real(c - y);  // from the end where g is lowest
      }
      if (!in_extra_rows(x)) continue;
      const Real gap = value(x) - (env_.slope.dot(x) + env_.offset);
      if (gap < Real(0))
        throw std::logic_error("dpref::pwa::exponential_mechanism: envelope above f (bug)");
      if (bernoulli_exp_minus<Real>(s, Real(gap / scale_))) {
        if (counts) ++counts->accepted;
        return x;
      }
    }
    limit_reached("envelope");
    return x;
  }

  void build_segments() {
    const auto [lo, hi] = feasible_interval_1d(F_.polytope());
    seg_ = upper_envelope_1d(F_, lo, hi);
    using std::abs;
    for (const auto& g : seg_) {
      // log ∫_seg exp(−f/scale) = −f_min/scale + log w + log((1 − e^{−α})/α), α = |f1 − f0|/scale
      const Real w = g.hi - g.lo;
      const Real f0 = g.slope * g.lo + g.intercept, f1 = g.slope * g.hi + g.intercept;
      const Real alpha = abs(g.slope) * w / scale_;
      Real lw = -std::min(f0, f1) / scale_ + math::log(w);
      if (alpha > Real(0)) lw += math::log(Real(-detail::expm1_of<Real>(Real(-alpha)) / alpha));
      seg_logw_.push_back(lw);
      seg_min_ = seg_logw_.size() == 1 ? std::min(f0, f1) : std::min({seg_min_, f0, f1});
    }
    seg_logw_max_ = seg_logw_.front();
    for (const Real& v : seg_logw_) seg_logw_max_ = std::max(seg_logw_max_, v);
  }

  vector<Real> draw_inverse_cdf(philox_stream& s, me_counts* counts) const {
    if (F_.dimension() != 1)
      fail_argument("dpref::pwa::exponential_mechanism", "method (inverse-cdf)", "d == 1",
                    F_.dimension());
    // segment k with probability exactly ∝ exp(logw_k − logw_max) (uniform + exact Bernoulli)
    const auto K = static_cast<std::int64_t>(seg_.size());
    std::size_t k = 0;
    for (;;) {
      if (counts) ++counts->attempts;
      // measurement: M_E's exact inverse-cdf sampler (exponential_mechanism::event charges it)
      k = static_cast<std::size_t>(secure::uniform_int<std::int64_t>(s, K));
      if (bernoulli_exp_minus<Real>(s, Real(seg_logw_max_ - seg_logw_[k]))) break;
    }
    if (counts) ++counts->accepted;
    const auto& g = seg_[k];
    using std::abs;
    const Real y = truncated_exponential<Real>(s, Real(abs(g.slope) / scale_), Real(g.hi - g.lo));
    vector<Real> x(1);
    x[0] = g.slope >= Real(0) ? Real(g.lo + y) : Real(g.hi - y);  // from the lower end of f
    if (x[0] < g.lo) x[0] = g.lo;
    if (x[0] > g.hi) x[0] = g.hi;
    return x;
  }

  vector<Real> draw_metropolis(philox_stream& s, me_counts* counts) const {
    const auto& P = F_.polytope();
    if (!P.contains(cfg_.metropolis_start))
      fail_domain("dpref::pwa::exponential_mechanism", "metropolis_start", "in P",
                  cfg_.metropolis_start.size());
    const int d = F_.dimension();
    const Real sigma = math::sqrt(Real(cfg_.metropolis_eta * P.box));  // Σ = η c I
    vector<Real> x = cfg_.metropolis_start, y(d);
    Real fx = value(x);
    for (long long t = 0; t < cfg_.metropolis_steps; ++t) {
      if (counts) ++counts->attempts;
      // measurement: M_E's Metropolis path, released only labelled NOT CERTIFIED, without an
      // event (errata PWA-E5)
      for (int j = 0; j < d; ++j) y[j] = x[j] + gaussian<Real>(s, sigma);
      if (!in_box(y) || !in_extra_rows(y)) continue;  // target density 0 outside P
      const Real fy = value(y);
      const Real up = fy > fx ? Real((fy - fx) / scale_) : Real(0);
      if (bernoulli_exp_minus<Real>(s, up)) {  // min(1, exp(−(f(y) − f(x))/scale))
        x = y;
        fx = fy;
        if (counts) ++counts->accepted;
      }
    }
    return x;
  }

  piecewise_affine<Real> F_;
  Real eps_;
  me_config<Real> cfg_;
  Real scale_;
  Real f_lo_;
  separable_envelope<Real> env_;
  std::vector<envelope_segment<Real>> seg_;
  std::vector<Real> seg_logw_;
  Real seg_logw_max_{};
  Real seg_min_{};
};

}  // namespace dpref::pwa

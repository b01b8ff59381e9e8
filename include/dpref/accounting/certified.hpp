// Certified rounding for the accounting layer (spec/accounting.md ACC.CERT.UP).
//
// Every accounting quantity is evaluated in MPFR at a working precision W = max(256, p + 128)
// bits (p = significand bits of the caller's scalar), then widened by a relative (and, where the
// formula can cancel, an absolute) margin of 2^-(W-48) — far above the rounding error a chain
// of a few hundred correctly rounded MPFR operations can accumulate — and finally rounded
// up (ε, δ, noise scales) or down (budgets handed out) to the caller's type.
//
// The working precision is a per-thread setting of work_real (work_real.hpp): certified
// evaluations may run concurrently on any number of threads (spec ACC.CERT.THREADS).
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <boost/math/special_functions/next.hpp>
#include <string_view>
#include <type_traits>

#include "dpref/accounting/types.hpp"
#include "dpref/accounting/work_real.hpp"

namespace dpref::accounting {

/// Working precision (bits) used to certify results of a scalar with `target_bits` bits.
/// @spec ACC.CERT.UP
inline int working_bits(int target_bits) { return std::max(256, target_bits + 128); }

namespace detail {

/// RAII: sets this thread's work_real precision to exactly `bits` bits and restores it (so a
/// certified evaluation gives the same bits whatever precision its caller runs at).
/// The precision is `bits` rounded up to a whole number of decimal digits as Boost's mpfr_float
/// counts them (d10 digits = ⌊1000 d10/301⌋ + 1 or 2 bits), the rule of earlier releases, so
/// certified values stay bit-identical to them.
class precision_scope {
 public:
  explicit precision_scope(int bits) : scope_(boost_digits_bits(bits)) {}
  static int boost_digits_bits(int bits) {
    unsigned long d10 = static_cast<unsigned long>(bits) * 30103UL / 100000UL + 2UL;
    auto to_bits = [](unsigned long d) {
      return d * 1000UL / 301UL + ((d * 1000UL) % 301 ? 2 : 1);
    };
    while (to_bits(d10) < static_cast<unsigned long>(bits)) ++d10;
    return static_cast<int>(to_bits(d10));
  }
  [[nodiscard]] int bits() const { return working_precision_scope::bits(); }

 private:
  working_precision_scope scope_;
};

inline work_real w_log1p(const work_real& x) {
  work_real r;
  mpfr_log1p(r.data(), x.data(), MPFR_RNDN);
  return r;
}
inline work_real w_expm1(const work_real& x) {
  work_real r;
  mpfr_expm1(r.data(), x.data(), MPFR_RNDN);
  return r;
}
inline work_real w_erfc(const work_real& x) {
  work_real r;
  mpfr_erfc(r.data(), x.data(), MPFR_RNDN);
  return r;
}
inline work_real w_log_int(long n) {
  work_real r(n);
  mpfr_log(r.data(), r.data(), MPFR_RNDN);
  return r;
}
inline work_real w_ldexp(const work_real& x, long e) {
  work_real r;
  mpfr_mul_2si(r.data(), x.data(), e, MPFR_RNDN);
  return r;
}
/// Standard normal CDF Φ(x) = erfc(−x/√2)/2.
inline work_real w_phi(const work_real& x) {
  using std::sqrt;
  return w_ldexp(w_erfc(-x / sqrt(work_real(2))), -1);
}
/// log(e^a + e^b) without overflow.
inline work_real w_logaddexp(const work_real& a, const work_real& b) {
  using std::exp;
  using std::log;
  if (a < b) return b + w_log1p(exp(a - b));
  return a + w_log1p(exp(b - a));
}

/// Exact conversion of a caller scalar to the working type (W >= p, so no rounding).
/// Fixed-precision Boost floats are split into double chunks (exact: each chunk is the
/// significand rounded to 53 bits, the remainder is exact in Real) and summed at W bits.
template <real_scalar Real>
work_real to_work(const Real& x) {
  work_real r;
  if constexpr (std::is_same_v<Real, double>) {
    mpfr_set_d(r.data(), x, MPFR_RNDN);
  } else if constexpr (std::is_same_v<Real, long double>) {
    mpfr_set_ld(r.data(), x, MPFR_RNDN);
  } else if constexpr (is_runtime_precision_v<Real>) {
    mpfr_set(r.data(), x.backend().data(), MPFR_RNDN);
  } else {
    using std::frexp;
    using std::ldexp;
    if (!is_finite_value(x)) {
      mpfr_set_d(r.data(), static_cast<double>(x), MPFR_RNDN);
      return r;
    }
    int e = 0;
    Real m = frexp(x, &e);  // x = m 2^e, |m| in [1/2, 1)
    work_real chunk;
    for (int i = 0; i < 64 && m != Real(0); ++i) {
      const double d = static_cast<double>(m);
      mpfr_set_d(chunk.data(), d, MPFR_RNDN);
      mpfr_mul_2si(chunk.data(), chunk.data(), e, MPFR_RNDN);
      mpfr_add(r.data(), r.data(), chunk.data(), MPFR_RNDN);
      m -= Real(d);
    }
  }
  return r;
}

/// Rounds x to the caller's type toward +∞ (up = true) or −∞ (up = false).
template <real_scalar Real>
Real round_directed(const work_real& x, int target_bits, bool up) {
  const mpfr_rnd_t mode = up ? MPFR_RNDU : MPFR_RNDD;
  if constexpr (std::is_same_v<Real, double>) {
    return mpfr_get_d(x.data(), mode);
  } else if constexpr (std::is_same_v<Real, long double>) {
    return mpfr_get_ld(x.data(), mode);
  } else if constexpr (is_runtime_precision_v<Real>) {
    Real r;
    mpfr_set_prec(r.backend().data(), static_cast<mpfr_prec_t>(target_bits));
    mpfr_set(r.backend().data(), x.data(), mode);
    return r;
  } else {
    using std::ldexp;
    if (!isfinite(x)) return Real(mpfr_get_d(x.data(), mode));
    // nearest-ish value from double chunks (exact partial sums in Real), then step to the
    // directed neighbour
    Real r(0);
    work_real rem = x;
    for (int i = 0; i < 8 && !(rem == work_real(0)); ++i) {
      long e = 0;
      const double d = mpfr_get_d_2exp(&e, rem.data(), MPFR_RNDN);
      r += ldexp(Real(d), static_cast<int>(e));
      rem = x - to_work(r);
    }
    for (int i = 0; i < 8; ++i) {
      const work_real back = to_work(r);
      if (up ? !(back < x) : !(back > x)) break;
      r = up ? boost::math::float_next(r) : boost::math::float_prior(r);
    }
    return r;
  }
}

}  // namespace detail

/// Scope object of one certified evaluation: remembers the caller's precision, switches MPFR
/// to the working precision and rounds results back in a stated direction. It also tracks
/// MPFR's inexact flag: if every operation since construction was exact, results are rounded
/// without the safety margin (so exact sums such as 8 × 0.125 = 1 stay exact).
/// @spec ACC.CERT.UP
template <real_scalar Real>
class certifier {
 public:
  certifier()
      : target_bits_(binary_digits<Real>()),
        saved_flags_(mpfr_flags_save()),
        scope_(working_bits(target_bits_)) {
    mpfr_flags_clear(MPFR_FLAGS_INEXACT);
  }
  ~certifier() {
    // keep the enclosing evaluation's knowledge of inexact operations
    if (saved_flags_ & MPFR_FLAGS_INEXACT) mpfr_flags_set(MPFR_FLAGS_INEXACT);
  }
  certifier(const certifier&) = delete;
  certifier& operator=(const certifier&) = delete;

  /// Exact image of a caller value in the working type.
  [[nodiscard]] work_real in(const Real& x) const { return detail::to_work(x); }
  /// Relative margin 2^-(W-48).
  [[nodiscard]] work_real margin() const {
    return detail::w_ldexp(work_real(1), 48 - scope_.bits());
  }
  /// Upper bound of the exact value v (computed at W bits) in the caller's type.
  /// @param abs_scale magnitude of the cancelled intermediates (0: no cancellation in v).
  [[nodiscard]] Real up(const work_real& v, const work_real& abs_scale = work_real(0)) const {
    using std::abs;
    if (mpfr_inexflag_p() == 0) return detail::round_directed<Real>(v, target_bits_, true);
    const work_real m = margin();
    return detail::round_directed<Real>(v + abs(v) * m + abs(abs_scale) * m, target_bits_, true);
  }
  /// Lower bound of the exact value v in the caller's type.
  [[nodiscard]] Real down(const work_real& v, const work_real& abs_scale = work_real(0)) const {
    using std::abs;
    if (mpfr_inexflag_p() == 0) return detail::round_directed<Real>(v, target_bits_, false);
    const work_real m = margin();
    return detail::round_directed<Real>(v - abs(v) * m - abs(abs_scale) * m, target_bits_, false);
  }
  /// Working precision in bits.
  [[nodiscard]] int bits() const { return scope_.bits(); }
  [[nodiscard]] int target_bits() const { return target_bits_; }

 private:
  int target_bits_;
  mpfr_flags_t saved_flags_;
  detail::precision_scope scope_;
};

/// Smallest value x (to the caller's precision) with pred(x) true, for a predicate that is
/// false below and true above an unknown threshold; starts from `guess` > 0. pred(x) true
/// must certify the property, so the returned x is safe (calibrators: noise never too small).
/// @throws std::domain_error if no x in [2^-4000 guess, 2^4000 guess] satisfies pred.
/// @spec ACC.CERT.UP
template <real_scalar Real, class Pred>
Real smallest_satisfying(Pred&& pred, Real guess, std::string_view fn, std::string_view what) {
  using std::sqrt;
  Real lo = guess, hi = guess;
  int steps = 0;
  if (pred(guess)) {
    lo = guess / 2;
    while (pred(lo)) {
      hi = lo;
      lo = lo / 2;
      if (++steps > 4000 || !(lo > Real(0))) return hi;
    }
  } else {
    hi = guess * 2;
    while (!pred(hi)) {
      lo = hi;
      hi = hi * 2;
      if (++steps > 4000 || !is_finite_value(hi)) fail_domain(fn, what, "attainable", guess);
    }
  }
  for (int it = 0; it < 8192; ++it) {
    Real mid = (hi > lo * 2) ? Real(sqrt(lo * hi)) : Real(lo + (hi - lo) / 2);
    if (!(mid > lo && mid < hi)) break;
    if (pred(mid))
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

}  // namespace dpref::accounting

// Exact continuous variates as lazily drawn binary expansions ("u-rands" of Karney, "Sampling
// exactly from the normal distribution", ACM TOMS 42(1), 2016; von Neumann 1951):
// spec/secure_release.md SEC.EXACT.UNIFORM, SEC.EXACT.EXPONENTIAL, SEC.EXACT.NORMAL.
//
// A lazy uniform is the number 0.w_0 w_1 w_2 ... (64-bit words) of which only the words that a
// comparison needed have been drawn. Every decision below depends only on drawn words, so the
// undrawn words stay independent and uniform given everything observed: a variate returned as
// integer + lazy fraction has exactly the target law, and its value can be bracketed as finely
// as needed by drawing more words. Integer arithmetic only (the Bernoulli(exp(-n/d)) trials are
// the exact integer ones of bernoulli_exp.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpref/random/philox_stream.hpp"
#include "dpref/random/secure/bernoulli_exp.hpp"
#include "dpref/random/secure/integer.hpp"
#include "dpref/random/secure/uniform_int.hpp"

namespace dpref::secure {

/// A uniform number in [0, 1) whose 64-bit words are drawn from the stream on demand.
/// @spec SEC.EXACT.UNIFORM
class lazy_uniform {
 public:
  /// Word i of the expansion (words 0..i are drawn in order if not yet known).
  std::uint64_t word(philox_stream& s, std::size_t i) {
    while (count_ <= i) push(s());
    return known_word(i);
  }
  /// Number of words drawn so far.
  [[nodiscard]] std::size_t known_words() const { return count_; }
  /// Word i, which must be known.
  [[nodiscard]] std::uint64_t known_word(std::size_t i) const {
    return i < inline_words ? first_[i] : more_[i - inline_words];
  }
  /// Exactly decides this < other, drawing words of both until they differ.
  bool less_than(lazy_uniform& other, philox_stream& s) {
    for (std::size_t i = 0;; ++i) {
      const std::uint64_t a = word(s, i);
      const std::uint64_t b = other.word(s, i);
      if (a != b) return a < b;
    }
  }
  /// True with probability equal to this number: a fresh uniform U (not kept) is below it.
  bool bernoulli(philox_stream& s) {
    for (std::size_t i = 0;; ++i) {
      const std::uint64_t u = s();
      const std::uint64_t a = word(s, i);
      if (u != a) return u < a;
    }
  }
  /// Forgets every word (a fresh uniform).
  void reset() {
    count_ = 0;
    more_.clear();
  }

 private:
  static constexpr std::size_t inline_words = 2;  // almost every comparison needs one word
  void push(std::uint64_t w) {
    if (count_ < inline_words)
      first_[count_] = w;
    else
      more_.push_back(w);
    ++count_;
  }
  std::array<std::uint64_t, inline_words> first_{};
  std::size_t count_ = 0;
  std::vector<std::uint64_t> more_;
};

/// An exact random real (-1)^negative (integer + fraction), fraction a lazy uniform.
/// @spec SEC.EXACT.UNIFORM
struct lazy_real {
  bool negative = false;
  std::uint64_t integer = 0;
  lazy_uniform fraction;

  /// A double close to the value (first word only): for tests and diagnostics, never for a
  /// release.
  [[nodiscard]] double approx(philox_stream& s) {
    const double m =
        static_cast<double>(integer) + static_cast<double>(fraction.word(s, 0)) * 0x1p-64;
    return negative ? -m : m;
  }
};

namespace detail {

/// The next buffer of a decreasing chain (never the chain's start).
inline lazy_uniform* other_buffer(lazy_uniform* cur, lazy_uniform& a, lazy_uniform& b) {
  return cur == &a ? &b : &a;
}

/// von Neumann's trial: with U_1, U_2, ... fresh uniforms, count the steps of the decreasing
/// chain p > U_1 > U_2 > ...; P(at least n steps) = p^n / n!, so the number of steps is even
/// with probability exp(-p). Returns true (accept p) iff it is even.
inline bool von_neumann_exp(philox_stream& s, lazy_uniform& p) {
  lazy_uniform a, b;
  lazy_uniform* prev = &p;
  lazy_uniform* cur = &a;
  std::uint64_t steps = 0;
  for (;;) {
    cur->reset();
    if (!cur->less_than(*prev, s)) break;
    ++steps;
    prev = cur;
    cur = other_buffer(cur, a, b);
  }
  return steps % 2 == 0;
}

/// Karney's Bernoulli(exp(-x (2k + x) / (2k + 2))) for a lazy uniform x: the decreasing chain
/// x > U_1 > U_2 > ... where each step also needs an independent coin of probability
/// c = (2k + x)/(2k + 2) (a uniform integer r < 2k + 2: r < 2k true, r = 2k a fresh uniform below
/// x, r = 2k + 1 false). P(at least n steps) = (x c)^n / n!, so an even count has probability
/// exp(-x c).
inline bool karney_b(philox_stream& s, std::int64_t k, lazy_uniform& x) {
  const std::int64_t two_k = 2 * k;
  const std::int64_t m = two_k + 2;
  lazy_uniform a, b;
  lazy_uniform* prev = &x;
  lazy_uniform* cur = &a;
  std::uint64_t steps = 0;
  for (;;) {
    cur->reset();
    if (!cur->less_than(*prev, s)) break;
    const std::int64_t r = uniform_int_unchecked(s, m);
    const bool coin = r < two_k || (r == two_k && x.bernoulli(s));
    if (!coin) break;
    ++steps;
    prev = cur;
    cur = other_buffer(cur, a, b);
  }
  return steps % 2 == 0;
}

}  // namespace detail

/// Exact standard exponential (density exp(-x) on x >= 0), von Neumann 1951: integer part n
/// = number of rejected trials (P(n) = e^-n (1 - e^-1)), fraction the accepted uniform
/// (density proportional to exp(-p) on [0, 1)).
/// @spec SEC.EXACT.EXPONENTIAL
inline lazy_real exact_exponential(philox_stream& s) {
  lazy_real r;
  for (std::uint64_t n = 0;; ++n) {
    r.fraction.reset();
    if (detail::von_neumann_exp(s, r.fraction)) {
      r.integer = n;
      return r;
    }
  }
}

/// Exact standard normal, Karney 2016 Algorithm N: k >= 0 with P(k) proportional to
/// exp(-k/2) (count of Bernoulli(exp(-1/2)) successes), accepted with probability
/// exp(-k(k-1)/2); a uniform x accepted by k + 1 trials karney_b(k, x), i.e. with probability
/// exp(-x(2k + x)/2); then a fair sign. The accepted (k, x) has density proportional to
/// exp(-k/2 - k(k-1)/2 - x(2k + x)/2) = exp(-(k + x)^2 / 2).
/// @spec SEC.EXACT.NORMAL
inline lazy_real exact_normal(philox_stream& s) {
  constexpr const char* fn = "dpref::secure::exact_normal";
  const std::int64_t one = 1, two = 2;
  lazy_real r;
  for (;;) {
    std::int64_t k = 0;
    while (detail::bernoulli_exp_unchecked(s, one, two)) k = detail::add_checked(k, one, fn, "k");
    if (k >= 2 &&
        !detail::bernoulli_exp_unchecked(s, detail::mul_checked(k, k - 1, fn, "k(k-1)"), two))
      continue;
    r.fraction.reset();
    bool ok = true;
    for (std::int64_t j = 0; j <= k && ok; ++j) ok = detail::karney_b(s, k, r.fraction);
    if (!ok) continue;
    r.negative = detail::bernoulli_rational_unchecked(s, one, two);
    r.integer = static_cast<std::uint64_t>(k);
    return r;
  }
}

}  // namespace dpref::secure

// Output-event families of the statistical auditor (spec/audit.md AUDIT.EVENTS.*).
//
// A family maps every output to one *cell* = group * bins + bin. Its candidate events are
// unions of cells inside one group: every single bin and, when the bins are ordered, every
// prefix {bin <= h} and suffix {bin >= l}. This one shape covers
//   - threshold events {s(y) >= t}, {s(y) < t} on a scalar statistic s (the output itself, a
//     1-D projection <v, y> of a vector output, or a likelihood-ratio statistic), and the
//     histogram bins {t_j <= s(y) < t_j+1} of the same grid (AUDIT.EVENTS.THRESHOLD);
//   - index events {y = i}, {y <= i}, {y >= i} on discrete outputs, including encoded
//     sparse-vector transcripts (output-set events, AUDIT.EVENTS.INDEX);
//   - low-order-bit events {sign, binary exponent = e, the last j significand bits are 0} on
//     doubles, the Mironov (2012) attack on floating-point noise (AUDIT.EVENTS.LOWBITS);
//   - grouped threshold events {g(y) = i, s(y) >= t} (e.g. the index of the first TOP and the
//     released noisy value of a sparse-vector variant).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "dpref/error.hpp"

namespace dpref::audit {

/// A family of output events (see the header comment).
template <class Output>
struct event_family {
  std::string name;
  std::size_t groups = 1;  ///< number of groups
  std::size_t bins = 1;    ///< bins per group
  bool ordered = true;     ///< prefix/suffix unions of bins are events too
  /// Writes the cell index (group * bins + bin) of every output of the batch.
  std::function<void(std::span<const Output>, std::span<std::uint32_t>)> classify;
  /// Human-readable text of the event {cells group*bins + lo .. group*bins + hi}.
  std::function<std::string(std::size_t group, std::size_t lo, std::size_t hi)> describe;

  std::size_t cells() const { return groups * bins; }
};

namespace detail {
/// Concatenates the arguments with operator<< (doubles with 6 significant digits).
template <class... Args>
std::string cat(const Args&... args) {
  std::ostringstream os;
  os.precision(6);
  (os << ... << args);
  return os.str();
}

/// Bin of s on the uniform grid lo + j (hi - lo)/m: 0 below lo, j in 1..m inside, m + 1 at or
/// above hi (NaN goes to the top bin).
inline std::uint32_t grid_bin(double s, double lo, double inv_width, std::uint32_t m) {
  if (s < lo) return 0;
  const double t = (s - lo) * inv_width;
  if (!(t < static_cast<double>(m))) return m + 1;
  return static_cast<std::uint32_t>(t) + 1;
}

inline std::string grid_text(std::size_t lo_bin, std::size_t hi_bin, double lo, double width,
                             std::size_t bins) {
  const auto edge = [&](std::size_t j) { return lo + static_cast<double>(j - 1) * width; };
  const std::string left = lo_bin == 0 ? "-inf" : cat(edge(lo_bin));
  const std::string right = hi_bin + 1 >= bins ? "+inf" : cat(edge(hi_bin + 1));
  return cat("[", left, ", ", right, ")");
}

inline void check_grid(const char* fn, double lo, double hi, std::size_t m) {
  require_finite(fn, "lo", lo);
  require_finite(fn, "hi", hi);
  if (!(hi > lo)) fail_domain(fn, "hi", "> lo", hi);
  if (m < 1 || m > (1u << 20)) fail_argument(fn, "m", "in [1, 2^20]", m);
}
}  // namespace detail

/// Threshold / histogram-bin family on a grouped scalar statistic: group g(y) in [0, groups)
/// and value s(y) binned on the uniform grid of m cells on [lo, hi) plus two tails.
/// @param name family name @param groups number of groups >= 1 @param group_of y -> group
/// @param statistic y -> double @param lo @param hi grid range, hi > lo @param m grid cells
/// @throws std::domain_error / std::invalid_argument for an invalid grid
/// @spec AUDIT.EVENTS.THRESHOLD
template <class Output, class Group, class Statistic>
event_family<Output> grouped_threshold_family(std::string name, std::size_t groups, Group group_of,
                                              Statistic statistic, double lo, double hi,
                                              std::size_t m) {
  detail::check_grid("dpref::audit::grouped_threshold_family", lo, hi, m);
  if (groups < 1) fail_argument("dpref::audit::grouped_threshold_family", "groups", ">= 1", groups);
  event_family<Output> f;
  f.name = std::move(name);
  f.groups = groups;
  f.bins = m + 2;
  f.ordered = true;
  const double width = (hi - lo) / static_cast<double>(m);
  const double inv_width = 1.0 / width;
  const auto mm = static_cast<std::uint32_t>(m);
  const auto nb = static_cast<std::uint32_t>(m + 2);
  const auto ng = static_cast<std::uint32_t>(groups);
  f.classify = [=](std::span<const Output> ys, std::span<std::uint32_t> cells) {
    for (std::size_t i = 0; i < ys.size(); ++i) {
      const std::uint32_t g = std::min(static_cast<std::uint32_t>(group_of(ys[i])), ng - 1);
      cells[i] =
          g * nb + detail::grid_bin(static_cast<double>(statistic(ys[i])), lo, inv_width, mm);
    }
  };
  const std::string fname = f.name;
  const std::size_t bins = f.bins;
  f.describe = [=](std::size_t g, std::size_t a, std::size_t b) {
    const std::string range = detail::grid_text(a, b, lo, width, bins);
    return groups == 1 ? detail::cat(fname, ": statistic in ", range)
                       : detail::cat(fname, ": group ", g, ", statistic in ", range);
  };
  return f;
}

/// Threshold / histogram-bin family on a scalar statistic s(y) (one group).
/// @spec AUDIT.EVENTS.THRESHOLD
template <class Output, class Statistic>
event_family<Output> threshold_family(std::string name, Statistic statistic, double lo, double hi,
                                      std::size_t m) {
  return grouped_threshold_family<Output>(
      std::move(name), 1, [](const Output&) { return 0u; }, std::move(statistic), lo, hi, m);
}

/// Threshold family on the 1-D projection <v, y> of a vector output y (Eigen vector).
/// @spec AUDIT.EVENTS.THRESHOLD
template <class Output, class Direction>
event_family<Output> projection_family(std::string name, Direction v, double lo, double hi,
                                       std::size_t m) {
  return threshold_family<Output>(
      std::move(name), [v](const Output& y) { return static_cast<double>(v.dot(y)); }, lo, hi, m);
}

/// Index family for discrete outputs: index(y) in [0, count) (larger values share the last
/// cell). Events: {index = i} and, if ordered, {index <= i}, {index >= i}.
/// @param label optional text of each index (e.g. "fail") @spec AUDIT.EVENTS.INDEX
template <class Output, class Index>
event_family<Output> index_family(std::string name, Index index, std::size_t count,
                                  bool ordered = true,
                                  std::function<std::string(std::size_t)> label = {}) {
  if (count < 1 || count > (1u << 24))
    fail_argument("dpref::audit::index_family", "count", "in [1, 2^24]", count);
  event_family<Output> f;
  f.name = std::move(name);
  f.groups = 1;
  f.bins = count;
  f.ordered = ordered;
  const auto last = static_cast<std::uint32_t>(count - 1);
  f.classify = [=](std::span<const Output> ys, std::span<std::uint32_t> cells) {
    for (std::size_t i = 0; i < ys.size(); ++i) {
      const auto v = index(ys[i]);
      if constexpr (std::is_signed_v<decltype(v)>) {
        if (v < 0) {
          cells[i] = 0;
          continue;
        }
      }
      cells[i] =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(v), last));
    }
  };
  const std::string fname = f.name;
  f.describe = [=](std::size_t, std::size_t a, std::size_t b) {
    const auto lab = [&](std::size_t j) { return label ? label(j) : std::to_string(j); };
    if (a == b) return detail::cat(fname, ": index = ", lab(a));
    if (a == 0) return detail::cat(fname, ": index <= ", lab(b));
    return detail::cat(fname, ": index >= ", lab(a));
  };
  return f;
}

/// Layout of the low-order-bit family: groups (sign, binary exponent e in [emin, emax]) plus
/// one group per sign for |y| < 2^emin (and zero), one per sign for |y| >= 2^(emax+1) (and
/// inf/NaN); bins = number of trailing zero bits of the 52-bit significand field, capped at
/// max_bits (zero and non-finite values count as max_bits).
struct lowbits_layout {
  int emin = -60;
  int emax = 8;
  unsigned max_bits = 52;
  std::size_t groups() const { return 2 * (static_cast<std::size_t>(emax - emin + 1) + 2); }
  std::size_t bins() const { return max_bits + 1; }
};

namespace detail {
inline std::uint32_t lowbits_cell(double y, const lowbits_layout& L) {
  std::uint64_t bits;
  std::memcpy(&bits, &y, sizeof bits);
  const std::uint32_t sign = static_cast<std::uint32_t>(bits >> 63);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t frac = bits & ((std::uint64_t{1} << 52) - 1);
  const auto span_e = static_cast<std::uint32_t>(L.emax - L.emin + 1);
  std::uint32_t g;  // within-sign group: 0 = below, 1..span_e exponents, span_e + 1 = above
  std::uint32_t tz;
  if (biased == 0x7ff) {
    g = span_e + 1;
    tz = L.max_bits;
  } else {
    const int e = biased == 0 ? -1023 : biased - 1023;  // subnormals: below any sane emin
    g = e < L.emin ? 0 : (e > L.emax ? span_e + 1 : static_cast<std::uint32_t>(e - L.emin) + 1);
    tz = frac == 0 ? 52u : static_cast<std::uint32_t>(std::countr_zero(frac));
    if (biased == 0 && frac == 0) tz = 52;
    tz = std::min(tz, L.max_bits);
  }
  const std::uint32_t group = sign * (span_e + 2) + g;
  return group * (L.max_bits + 1) + tz;
}
}  // namespace detail

/// Low-order-bit family on a double statistic s(y) (Mironov 2012): events
/// {sign(s) = σ, floor(log2|s|) = e, the last j significand bits of s are 0} (suffixes of the
/// trailing-zero count) and the same with "exactly j trailing zeros".
/// @param layout exponent range and cap @throws std::invalid_argument for an invalid layout
/// @spec AUDIT.EVENTS.LOWBITS
template <class Output, class Statistic>
event_family<Output> lowbits_family(std::string name, Statistic statistic,
                                    lowbits_layout layout = {}) {
  if (layout.emin > layout.emax || layout.emin < -1022 || layout.emax > 1023)
    fail_argument("dpref::audit::lowbits_family", "layout.emin/emax",
                  "-1022 <= emin <= emax <= 1023", layout.emin);
  if (layout.max_bits < 1 || layout.max_bits > 52)
    fail_argument("dpref::audit::lowbits_family", "layout.max_bits", "in [1, 52]", layout.max_bits);
  event_family<Output> f;
  f.name = std::move(name);
  f.groups = layout.groups();
  f.bins = layout.bins();
  f.ordered = true;
  f.classify = [=](std::span<const Output> ys, std::span<std::uint32_t> cells) {
    for (std::size_t i = 0; i < ys.size(); ++i)
      cells[i] = detail::lowbits_cell(static_cast<double>(statistic(ys[i])), layout);
  };
  const std::string fname = f.name;
  f.describe = [=](std::size_t g, std::size_t a, std::size_t b) {
    const std::size_t per_sign = static_cast<std::size_t>(layout.emax - layout.emin + 1) + 2;
    const char* sign = g >= per_sign ? "-" : "+";
    const std::size_t ge = g % per_sign;
    std::string mag;
    if (ge == 0)
      mag = detail::cat("|s| < 2^", layout.emin);
    else if (ge == per_sign - 1)
      mag = detail::cat("|s| >= 2^", layout.emax + 1, " or non-finite");
    else
      mag = detail::cat("|s| in [2^", layout.emin + static_cast<int>(ge) - 1, ", 2^",
                        layout.emin + static_cast<int>(ge), ")");
    std::string bits;
    if (a == b)
      bits = detail::cat("exactly ", a, " trailing zero significand bits");
    else if (a == 0)
      bits = detail::cat("at most ", b, " trailing zero significand bits");
    else
      bits = detail::cat("the last ", a, " significand bits are 0");
    return detail::cat(fname, ": sign ", sign, ", ", mag, ", ", bits);
  };
  return f;
}

}  // namespace dpref::audit

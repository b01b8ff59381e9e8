// Charging specifications of ev §VII: r̄_j(t) = 3.3 kW with probability 1/2, else 0, per slot;
// E_j ~ U[28, 40] (kW, energy divided by ΔT = 0.25 h: errata EV-E4). Spec j is drawn from its
// own substream (seed, stream 0x45560001, substream j), so a database does not depend on the
// order or the number of threads that draw it. The base load d is read strictly from a
// two-column CSV (spec/ev.md EV.DATA.CSV). `make_problem` builds the instance that a
// `problem_spec` (ev/problem.hpp, ARCH.PUBLIC) describes. spec/ev.md EV.DATA.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <istream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/ev/problem.hpp"
#include "dpref/io/data_path.hpp"
#include "dpref/io/fields.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/params.hpp"
#include "dpref/random/bernoulli.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::ev {

/// Stream id of the spec draws (substream = spec index).
inline constexpr std::uint64_t spec_stream_id = 0x45560001ULL;

/// Draws spec j from substream j: T Bernoulli slots, then E; a spec violating ev (6)
/// (1'r̄ < E, probability ≈ 1e-5 at T = 52) is redrawn from the continuing substream, i.e. the
/// specs are drawn conditionally on feasibility.
/// @throws std::domain_error if the distribution is invalid or 1000 draws were all infeasible
/// @spec EV.DATA
template <real_scalar Real>
void draw_spec(std::uint64_t seed, std::uint64_t index, const spec_distribution<Real>& dist,
               Eigen::Index horizon, Real* max_rate, Real& energy) {
  constexpr const char* fn = "dpref::ev::draw_spec";
  require_nonnegative(fn, "dist.rate", dist.rate);
  require_in_closed(fn, "dist.availability", dist.availability, Real(0), Real(1), "in [0, 1]");
  require_nonnegative(fn, "dist.energy_min", dist.energy_min);
  if (!is_finite_value(dist.energy_max) || dist.energy_max < dist.energy_min)
    fail_domain(fn, "dist.energy_max", "finite and >= dist.energy_min", dist.energy_max);
  philox_stream s(seed, spec_stream_id, index);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    Real cap(0);
    for (Eigen::Index t = 0; t < horizon; ++t) {
      // not privacy noise: synthetic spec generation (public seed)
      max_rate[t] = bernoulli<Real>(s, dist.availability) ? dist.rate : Real(0);
      cap += max_rate[t];
    }
    // not privacy noise: synthetic spec generation (public seed)
    energy = dist.energy_min + (dist.energy_max - dist.energy_min) * uniform01<Real>(s);
    if (energy <= cap) return;
  }
  fail_domain(fn, "dist", "able to produce feasible specs (1'r̄ >= E)", index);
}

/// Specs first, …, first + count − 1 of a database (multiplicity 1), spec j from substream j:
/// a process of a distributed run draws exactly its own users' specs, with the serial bits.
/// @spec EV.DATA DIST.EV
template <real_scalar Real>
charging_specs<Real> draw_specs_range(std::uint64_t seed, Eigen::Index horizon, Eigen::Index first,
                                      Eigen::Index count,
                                      const spec_distribution<Real>& dist = {}) {
  if (horizon < 1) fail_domain("dpref::ev::draw_specs", "horizon", ">= 1", horizon);
  if (first < 0) fail_domain("dpref::ev::draw_specs", "first", ">= 0", first);
  if (count < 0) fail_domain("dpref::ev::draw_specs", "count", ">= 0", count);
  charging_specs<Real> s{matrix<Real>(horizon, count), vector<Real>(count),
                         std::vector<long long>(static_cast<std::size_t>(count), 1)};
  for (Eigen::Index l = 0; l < count; ++l)
    draw_spec(seed, static_cast<std::uint64_t>(first + l), dist, horizon, s.max_rate.col(l).data(),
              s.energy[l]);
  return s;
}

/// n per-user specs (multiplicity 1), spec j from substream j.
/// @spec EV.DATA
template <real_scalar Real>
charging_specs<Real> draw_specs(std::uint64_t seed, Eigen::Index horizon, Eigen::Index users,
                                const spec_distribution<Real>& dist = {}) {
  if (horizon < 1) fail_domain("dpref::ev::draw_specs", "horizon", ">= 1", horizon);
  if (users < 1) fail_domain("dpref::ev::draw_specs", "users", ">= 1", users);
  return draw_specs_range<Real>(seed, horizon, 0, users, dist);
}

/// Size of group j when n users are split into N groups: ⌊n/N⌋ or ⌈n/N⌉ (the first n mod N
/// groups are larger).
inline long long group_size(long long users, long long groups, long long j) {
  return users / groups + (j < users % groups ? 1 : 0);
}

/// The paper's grouped mode (ev §VII): N specs (spec j from substream j, as in draw_specs), the
/// n users split into N groups of sizes ⌊n/N⌋ or ⌈n/N⌉ (the first n mod N groups are larger).
/// @spec EV.DATA
template <real_scalar Real>
charging_specs<Real> draw_grouped_specs(std::uint64_t seed, Eigen::Index horizon, long long users,
                                        Eigen::Index groups,
                                        const spec_distribution<Real>& dist = {}) {
  if (groups < 1) fail_domain("dpref::ev::draw_grouped_specs", "groups", ">= 1", groups);
  if (users < groups) fail_domain("dpref::ev::draw_grouped_specs", "users", ">= groups", users);
  charging_specs<Real> s = draw_specs<Real>(seed, horizon, groups, dist);
  for (Eigen::Index j = 0; j < groups; ++j)
    s.multiplicity[static_cast<std::size_t>(j)] = group_size(users, groups, j);
  return s;
}

// ------------------------------------------------------------------------------ base load ----

/// Limits of the base-load reader (checked before anything is stored).
struct base_load_limits {
  std::size_t max_bytes = std::size_t(1) << 20;  ///< text of the file
  long long max_slots = 10000;                   ///< T
};

/// Physical range of a per-household base load (kW): a household draws between 0 and 100 kW
/// (the shipped profile is 1.37–1.54 kW; d >= 0 is also what Theorem 7's constants assume).
inline constexpr double base_load_min_kw = 0, base_load_max_kw = 100;

/// The header of a base-load CSV.
inline constexpr std::string_view base_load_header = "slot,base_load_kw_per_household";

namespace detail {
[[noreturn]] inline void fail_base_load(const std::string& source, long long line,
                                        const std::string& what) {
  std::string msg = "base-load file '" + source + "'";
  if (line > 0) msg += " line " + std::to_string(line);
  throw std::invalid_argument(msg + ": " + what);
}
inline std::string shown_text(std::string_view s) {
  std::string out(1, '\'');  // appended piecewise: GCC 12's -Wrestrict misfires on "x" + str
  out.append(s.substr(0, 80));
  out.append(s.size() > 80 ? "...'" : "'");
  return out;
}
}  // namespace detail

/// Reads a base-load profile d ∈ R^T (kW per household) in the exact two-column format
///     # comment lines (only before the header)
///     slot,base_load_kw_per_household
///     1,1.404731786265
///     2,1.402430029593
///     ...
/// (data/ev/base_load_taylor.csv, made by scripts/ev_base_load.sh): slot t is the integer t
/// (1, 2, … in order), the value a decimal number (JSON grammar) converted once at Real's
/// precision and in [0, 100] kW; no spaces, no empty lines, no other column (a final CR is
/// tolerated). At most `lim.max_bytes` of text and `lim.max_slots` slots.
/// @param source the file's name in messages
/// @throws std::invalid_argument "base-load file '<source>' line <n>: <what>, got '<text>'"
/// @spec EV.DATA.CSV
template <real_scalar Real>
vector<Real> read_base_load_csv(std::istream& in, const std::string& source,
                                const base_load_limits& lim = {}) {
  std::vector<Real> values;
  std::string line;
  long long lineno = 0;
  std::size_t bytes = 0;
  bool header = false;
  // one line at a time, never more than the byte limit in memory
  const auto next_line = [&]() {
    line.clear();
    char ch = 0;
    bool any = false;
    while (in.get(ch)) {
      any = true;
      if (++bytes > lim.max_bytes)
        detail::fail_base_load(
            source, lineno + 1,
            "the file must be at most " + std::to_string(lim.max_bytes) + " bytes");
      if (ch == '\n') return true;
      line.push_back(ch);
    }
    return any;
  };
  while (next_line()) {
    ++lineno;
    std::string_view l(line);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (!header) {
      if (!l.empty() && l.front() == '#') continue;
      if (l != base_load_header)
        detail::fail_base_load(source, lineno,
                               "the header must be '" + std::string(base_load_header) + "', got " +
                                   detail::shown_text(l));
      header = true;
      continue;
    }
    if (l.empty()) detail::fail_base_load(source, lineno, "a data line must not be empty");
    const auto comma = l.find(',');
    if (comma == std::string_view::npos || l.find(',', comma + 1) != std::string_view::npos)
      detail::fail_base_load(
          source, lineno,
          "a data line must have exactly two fields 'slot,kW', got " + detail::shown_text(l));
    const std::string_view slot = l.substr(0, comma), value = l.substr(comma + 1);
    const long long want = static_cast<long long>(values.size()) + 1;
    if (want > lim.max_slots)
      detail::fail_base_load(
          source, lineno,
          "the profile must have at most " + std::to_string(lim.max_slots) + " slots");
    long long t = 0;
    try {
      t = io::parse_integer<long long>(slot, "slot", 1, lim.max_slots);
    } catch (const std::invalid_argument&) {
      t = 0;
    }
    if (t != want)
      detail::fail_base_load(source, lineno,
                             "the slot must be " + std::to_string(want) +
                                 " (slots 1, 2, ... in order), got " + detail::shown_text(slot));
    Real x{};
    try {
      x = io::parse_real<Real>(value, "value");
    } catch (const std::invalid_argument&) {
      detail::fail_base_load(
          source, lineno,
          "the base load must be a decimal number (kW), got " + detail::shown_text(value));
    }
    if (x < Real(base_load_min_kw) || x > Real(base_load_max_kw))
      detail::fail_base_load(
          source, lineno,
          "the base load must be in [0, 100] kW per household, got " + detail::shown_text(value));
    values.push_back(x);
  }
  if (in.bad()) detail::fail_base_load(source, 0, "read error");
  if (!header)
    detail::fail_base_load(source, 0, "no header line '" + std::string(base_load_header) + "'");
  if (values.empty()) detail::fail_base_load(source, 0, "no data line (T >= 1 slots needed)");
  vector<Real> d(static_cast<Eigen::Index>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) d[static_cast<Eigen::Index>(i)] = values[i];
  return d;
}

/// Reads the base-load CSV at `path` (see the stream overload).
/// @throws std::invalid_argument if the file cannot be read or is malformed
/// @spec EV.DATA.CSV
template <real_scalar Real>
vector<Real> read_base_load_csv(const std::string& path, const base_load_limits& lim = {}) {
  std::ifstream in(path, std::ios::binary);
  if (!in) detail::fail_base_load(path, 0, "cannot be read");
  return read_base_load_csv<Real>(in, path, lim);
}

// -------------------------------------------------------------- the problem of a problem_spec ----

/// Path of the base-load file named by a spec ('shipped:<name>' through io::find_data_file).
/// @throws std::invalid_argument if a shipped file is not found
inline std::string base_load_path(const std::string& name) {
  constexpr std::string_view pre = "shipped:";
  if (name.rfind(pre, 0) == 0) return io::find_data_file(name.substr(pre.size()));
  return name;
}

namespace detail {

/// Validates `spec`, reads d, checks the memory bound (the whole T × N matrix: rank 0 of a
/// distributed run gathers all columns) and builds the whole problem (`whole` or P = 1) or this
/// rank's slice.
template <real_scalar Real>
problem<Real> make_problem_columns(const problem_spec<Real>& spec, bool whole,
                                   const parallel::communicator& comm) {
  spec.validate();
  const param_checker c("ev::problem_spec");
  const vector<Real> d = read_base_load_csv<Real>(base_load_path(spec.base_load));
  const auto t = static_cast<std::size_t>(d.size());
  const std::size_t max_columns = problem_spec<Real>::max_matrix_bytes / (t * sizeof(Real));
  c.require(static_cast<std::size_t>(spec.columns()) <= max_columns,
            spec.mode == spec_mode::per_user ? "users" : "groups",
            "<= " + std::to_string(max_columns) + " (memory bound: 4 GiB per T × N matrix at T = " +
                std::to_string(t) + " in " + scalar_name<Real>() + ")",
            spec.columns());
  const auto& dist = spec.distribution;
  c.require(dist.energy_min <= Real(static_cast<double>(t)) * dist.rate &&
                (dist.availability > Real(0) || dist.energy_min == Real(0)),
            "distribution.energy_min",
            "<= T × rate with availability > 0 (ev (6): some specs must be feasible)",
            dist.energy_min);
  const Real lambda = spec.units == units::paper ? Real(1) : household_units(spec.households);
  const auto n = static_cast<Eigen::Index>(spec.columns());
  if (whole || comm.size() == 1) {
    charging_specs<Real> specs =
        spec.mode == spec_mode::per_user
            ? draw_specs<Real>(spec.data_seed, d.size(), n, dist)
            : draw_grouped_specs<Real>(spec.data_seed, d.size(), spec.users, n, dist);
    return problem<Real>(d, spec.households, std::move(specs), lambda);
  }
  // DIST.EV: this rank's owned columns only, each spec from its own substream (serial bits)
  const parallel::range own = owned_columns(n, comm.size(), comm.rank());
  charging_specs<Real> specs =
      draw_specs_range<Real>(spec.data_seed, d.size(), own.begin, own.size(), dist);
  if (spec.mode == spec_mode::grouped)
    for (Eigen::Index l = 0; l < own.size(); ++l)
      specs.multiplicity[static_cast<std::size_t>(l)] =
          group_size(spec.users, spec.groups, own.begin + l);
  return problem<Real>(d, spec.households, std::move(specs), lambda, column_slice{own.begin, n});
}

}  // namespace detail

/// Builds the problem a spec describes: reads d (strict CSV), checks the memory bound, draws the
/// specs (spec j from substream j of (data_seed, 0x45560001)), λ from the units.
/// @throws invalid_parameter for an invalid spec or a size over the memory bound,
/// std::invalid_argument for an unreadable or malformed base-load file
/// @spec EV.PROBLEM.SPEC EV.DATA
template <real_scalar Real>
problem<Real> make_problem(const problem_spec<Real>& spec) {
  return detail::make_problem_columns(spec, true, parallel::serial());
}

/// The slice of the problem held by this rank of `comm` (spec/distributed.md DIST.EV): the same
/// checks, then only the specs of the rank's owned columns (owned_columns(N, P, rank)) are
/// drawn, each from its substream, so memory is O(T·N/P) per rank; the whole problem when P = 1.
/// @throws as make_problem(spec)
/// @spec EV.PROBLEM.SPEC DIST.EV
template <real_scalar Real>
problem<Real> make_problem(const problem_spec<Real>& spec, const parallel::communicator& comm) {
  return detail::make_problem_columns(spec, false, comm);
}

}  // namespace dpref::ev

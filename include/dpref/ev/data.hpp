// Charging specifications of ev §VII: r̄_j(t) = 3.3 kW with probability 1/2, else 0, per slot;
// E_j ~ U[28, 40] (kW, energy divided by ΔT = 0.25 h: errata EV-E4). Spec j is drawn from its
// own substream (seed, stream 0x45560001, substream j), so a database does not depend on the
// order or the number of threads that draw it. spec/ev.md EV.DATA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dpref/error.hpp"
#include "dpref/ev/problem.hpp"
#include "dpref/random/bernoulli.hpp"
#include "dpref/random/philox_stream.hpp"
#include "dpref/random/uniform.hpp"

namespace dpref::ev {

/// Stream id of the spec draws (substream = spec index).
inline constexpr std::uint64_t spec_stream_id = 0x45560001ULL;

/// Distribution of one charging specification.
template <real_scalar Real>
struct spec_distribution {
  Real rate = Real(33) / 10;        ///< r̄(t) when available (kW)
  Real availability = Real(1) / 2;  ///< P(r̄(t) = rate)
  Real energy_min = Real(28);       ///< E ~ U[energy_min, energy_max] (kW, errata EV-E4)
  Real energy_max = Real(40);
};

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
      max_rate[t] = bernoulli<Real>(s, dist.availability) ? dist.rate : Real(0);
      cap += max_rate[t];
    }
    energy = dist.energy_min + (dist.energy_max - dist.energy_min) * uniform01<Real>(s);
    if (energy <= cap) return;
  }
  fail_domain(fn, "dist", "able to produce feasible specs (1'r̄ >= E)", index);
}

/// n per-user specs (multiplicity 1), spec j from substream j.
/// @spec EV.DATA
template <real_scalar Real>
charging_specs<Real> draw_specs(std::uint64_t seed, Eigen::Index horizon, Eigen::Index users,
                                const spec_distribution<Real>& dist = {}) {
  if (horizon < 1) fail_domain("dpref::ev::draw_specs", "horizon", ">= 1", horizon);
  if (users < 1) fail_domain("dpref::ev::draw_specs", "users", ">= 1", users);
  charging_specs<Real> s{matrix<Real>(horizon, users), vector<Real>(users),
                         std::vector<long long>(static_cast<std::size_t>(users), 1)};
  for (Eigen::Index j = 0; j < users; ++j)
    draw_spec(seed, static_cast<std::uint64_t>(j), dist, horizon, s.max_rate.col(j).data(),
              s.energy[j]);
  return s;
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
  const long long base = users / groups, extra = users % groups;
  for (Eigen::Index j = 0; j < groups; ++j)
    s.multiplicity[static_cast<std::size_t>(j)] = base + (j < extra ? 1 : 0);
  return s;
}

/// Reads a base-load profile: the last comma-separated field of every non-comment line after
/// the header (data/ev/base_load_taylor.csv, made by scripts/ev_base_load.sh).
/// @throws std::invalid_argument if the file cannot be read or has no values
/// @spec EV.DATA
inline vector<double> read_base_load_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail_argument("dpref::ev::read_base_load_csv", "path", "a readable file", path);
  std::vector<double> values;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    const auto pos = line.rfind(',');
    values.push_back(std::stod(pos == std::string::npos ? line : line.substr(pos + 1)));
  }
  if (values.empty())
    fail_argument("dpref::ev::read_base_load_csv", "path", "a CSV with values", path);
  vector<double> d(static_cast<Eigen::Index>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) d[static_cast<Eigen::Index>(i)] = values[i];
  return d;
}

}  // namespace dpref::ev

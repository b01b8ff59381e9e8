// The EV-charging problem of ev §III-D: minimise U(Σ_i r_i) = ½‖d + Σ_i r_i/m‖² (ev (7)) over
// r_i ∈ C_i = C(r̄_i, E_i) = {0 <= r_i <= r̄_i, 1'r_i = E_i} (ev (5), (6)); ∇U is L-Lipschitz
// with L = 1/m² (ev §VI-D). spec/ev.md EV.PROBLEM.
//
// Units of U (spec/ev.md EV.UNITS): U_λ = λ·U with λ > 0 (default 1, the paper's literal (7)).
// ∇U_λ = λ∇U and L_λ = λL, so Algorithm 2 on (U_λ, c) is Algorithm 2 on (U, λc): same iterates,
// same noise-to-sensitivity ratio, same privacy; only the meaning of c changes. λ = m
// (household_units) makes p = d + Σ r_i/m, the per-household load in kW.
//
// A database holds N distinct charging specifications (columns), each shared by a multiplicity
// of users: multiplicity 1 everywhere is the per-user mode (dpref's default, n = N), equal
// multiplicities n/N the paper's grouped mode (ev §VII). Users of one column run identical
// updates (same public start, same broadcast gradient), so the column is projected once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpref/enum_names.hpp"
#include "dpref/error.hpp"
#include "dpref/parallel/communicator.hpp"
#include "dpref/params.hpp"
#include "dpref/scalar.hpp"

namespace dpref::ev {

/// Users are reduced in fixed blocks of this many columns: Σ_i r_i is the in-order sum of the
/// per-block sums, each block summed in column order, whatever the number of threads (or, with a
/// distributed driver, of processes), so a run is bit-identical for any of them (EV.THREADS).
inline constexpr Eigen::Index reduction_block = 1024;

/// Number of reduction blocks of N columns.
inline Eigen::Index reduction_blocks(Eigen::Index columns) {
  return (columns + reduction_block - 1) / reduction_block;
}

/// Columns [begin, end) of the N columns held by `rank` of `ranks` processes in a distributed
/// run (spec/distributed.md DIST.EV): the columns of the reduction blocks
/// block_range(blocks, ranks, rank) (contiguous, block-aligned; empty when ranks > blocks).
inline parallel::range owned_columns(Eigen::Index columns, int ranks, int rank) {
  const parallel::range b = parallel::block_range(reduction_blocks(columns), ranks, rank);
  const auto at = [&](std::int64_t blk) {
    return std::min<std::int64_t>(columns, blk * reduction_block);
  };
  return {at(b.begin), at(b.end)};
}

/// Where the columns of a problem sit in the whole database: a process of a distributed run
/// holds columns [first, first + groups()) of `total` (DIST.EV); a whole problem is {0, N}.
struct column_slice {
  Eigen::Index first = 0;
  Eigen::Index total = 0;
};

/// The private database D: charging specifications (r̄_j, E_j) with multiplicities.
template <real_scalar Real>
struct charging_specs {
  matrix<Real> max_rate;                ///< T × N, column j = r̄_j (kW)
  vector<Real> energy;                  ///< N, E_j (kW·slot, errata EV-E4: energy / ΔT)
  std::vector<long long> multiplicity;  ///< N, users sharing spec j (>= 1)
};

/// The EV-charging problem: U(x) = ½‖d + x/m‖² with x = Σ_i r_i (public: d, m, λ) and the
/// constraint sets C_i (private: the database D of charging_specs). Built from a public
/// description by make_problem (data.hpp) or directly from its parts.
/// @spec EV.PROBLEM
template <real_scalar Real>
class problem {
 public:
  /// @param base_load d ∈ R^T (T >= 1, finite) @param households m > 0
  /// @param specs r̄_j >= 0, E_j >= 0, 1'r̄_j >= E_j (ev (6)), multiplicities >= 1
  /// @throws std::invalid_argument on size mismatches, std::domain_error naming the violated
  /// condition otherwise
  /// @param objective_scale λ > 0: U is replaced by λ·U (spec/ev.md EV.UNITS)
  problem(vector<Real> base_load, Real households, charging_specs<Real> specs,
          Real objective_scale = Real(1))
      : problem(std::move(base_load), std::move(households), std::move(specs),
                std::move(objective_scale), column_slice{0, -1}) {}

  /// The columns [slice.first, slice.first + specs.N) of a database of slice.total columns (one
  /// process's share in a distributed run, DIST.EV; it may hold no column, or every column: rank
  /// 0 when the N columns fit in its reduction blocks — still a slice, see is_slice).
  /// users(), schedule_lipschitz() and multiplicity() refer to the held columns only.
  /// @throws std::invalid_argument if the slice does not fit, as the whole-problem constructor
  problem(vector<Real> base_load, Real households, charging_specs<Real> specs, Real objective_scale,
          column_slice slice)
      : d_(std::move(base_load)),
        m_(std::move(households)),
        specs_(std::move(specs)),
        scale_(std::move(objective_scale)),
        slice_(slice),
        sliced_(slice.total >= 0) {
    constexpr const char* fn = "dpref::ev::problem";
    if (d_.size() == 0) fail_argument(fn, "base_load", "non-empty (T >= 1)", d_.size());
    for (Eigen::Index t = 0; t < d_.size(); ++t) require_finite(fn, "base_load[t]", d_[t]);
    require_positive(fn, "households", m_);
    require_positive(fn, "objective_scale", scale_);
    if (specs_.max_rate.rows() != d_.size())
      fail_argument(fn, "specs.max_rate.rows()", "T = " + std::to_string(d_.size()),
                    specs_.max_rate.rows());
    const Eigen::Index n = specs_.max_rate.cols();
    if (slice_.total < 0) {  // a whole problem: at least one column
      if (n == 0) fail_argument(fn, "specs.max_rate.cols()", ">= 1", n);
      slice_ = {0, n};
    }
    if (slice_.first < 0 || slice_.total < 1 || slice_.first + n > slice_.total)
      fail_argument(fn, "slice", "within [0, total) with total >= 1",
                    std::to_string(slice_.first) + " + " + std::to_string(n) + " of " +
                        std::to_string(slice_.total));
    if (specs_.energy.size() != n)
      fail_argument(fn, "specs.energy.size()", "N = " + std::to_string(n), specs_.energy.size());
    if (specs_.multiplicity.empty()) specs_.multiplicity.assign(static_cast<std::size_t>(n), 1);
    if (specs_.multiplicity.size() != static_cast<std::size_t>(n))
      fail_argument(fn, "specs.multiplicity.size()", "N = " + std::to_string(n),
                    specs_.multiplicity.size());
    users_ = 0;
    // Every user's spec must be feasible (ev (5), (6)): Theorem 8's sensitivity holds for every
    // pair of FEASIBLE specs, so an infeasible one is refused here, naming its (global) column
    // and value, before anything is computed (spec/privacy_bounds.md, ev section).
    for (Eigen::Index j = 0; j < n; ++j) {
      const std::string col = std::to_string(slice_.first + j);
      Real cap(0);
      for (Eigen::Index t = 0; t < d_.size(); ++t) {
        const Real& a = specs_.max_rate(t, j);
        if (!is_finite_value(a) || a < Real(0))
          fail_domain(fn, "specs.max_rate(" + std::to_string(t) + ", " + col + ")",
                      "finite and >= 0", a);
        cap += a;
      }
      require_nonnegative(fn, "specs.energy[" + col + "]", specs_.energy[j]);
      if (specs_.energy[j] > cap)
        fail_domain(fn, "specs.energy[" + col + "]",
                    "<= 1'max_rate_" + col + " = " + ::dpref::detail::to_text(cap) +
                        " (ev (6): C_" + col + " non-empty)",
                    specs_.energy[j]);
      const long long mult = specs_.multiplicity[static_cast<std::size_t>(j)];
      if (mult < 1) fail_domain(fn, "specs.multiplicity[" + col + "]", ">= 1", mult);
      users_ += mult;
      mult_sq_ += Real(mult) * Real(mult);
    }
  }

  [[nodiscard]] Eigen::Index horizon() const { return d_.size(); }
  /// Number of distinct specifications (columns) N held here (of a slice: its columns).
  [[nodiscard]] Eigen::Index groups() const { return specs_.max_rate.cols(); }
  /// Global index of held column 0 (0 unless a slice).
  [[nodiscard]] Eigen::Index first_column() const { return slice_.first; }
  /// Columns N of the whole database (= groups() unless a slice).
  [[nodiscard]] Eigen::Index total_columns() const { return slice_.total; }
  /// Whether this problem is one rank's slice (built with a column_slice, DIST.EV), even when it
  /// holds every column: every rank of a distributed run then takes the slice protocol (the
  /// initial load summed along the ranks), not only the ranks that hold fewer columns.
  [[nodiscard]] bool is_slice() const { return sliced_; }
  /// Number of users n = Σ_j multiplicity_j (of the held columns).
  [[nodiscard]] long long users() const { return users_; }
  [[nodiscard]] const Real& households() const { return m_; }
  [[nodiscard]] const vector<Real>& base_load() const { return d_; }
  [[nodiscard]] const charging_specs<Real>& specs() const { return specs_; }
  [[nodiscard]] long long multiplicity(Eigen::Index j) const {
    return specs_.multiplicity[static_cast<std::size_t>(j)];
  }
  /// λ, the units of U (1: the paper's (7)).
  [[nodiscard]] const Real& objective_scale() const { return scale_; }
  /// L = λ/m², the Lipschitz constant of ∇U in x = Σ r_i (ev §VI-D; λ = 1 in the paper), rounded
  /// to nearest. A public constant (λ and m are public); the privacy calibration uses its
  /// certified upper bound `lipschitz_bound<Real>(λ, m)` (calibration.hpp).
  [[nodiscard]] Real lipschitz() const { return scale_ / (m_ * m_); }
  /// Lipschitz constant of the gradient in the stacked schedules (r_1, …, r_N):
  /// λ_max((λ/m²) v v' ⊗ I) = λ‖v‖²/m² with v the multiplicities.
  [[nodiscard]] Real schedule_lipschitz() const { return scale_ * mult_sq_ / (m_ * m_); }

  /// U(x) = (λ/2)‖d + x/m‖², ev (7) for λ = 1.
  [[nodiscard]] Real value(const vector<Real>& load) const {
    Real s(0);
    for (Eigen::Index t = 0; t < d_.size(); ++t) {
      const Real v = d_[t] + load[t] / m_;
      s += v * v;
    }
    return scale_ * s / 2;
  }
  /// p = ∇U(x) = λ(d + x/m)/m (ev §III-D), written to out (size T, no allocation).
  void gradient(const vector<Real>& load, vector<Real>& out) const {
    for (Eigen::Index t = 0; t < d_.size(); ++t) out[t] = scale_ * ((d_[t] + load[t] / m_) / m_);
  }
  /// x = Σ_j multiplicity_j r_j for schedules stored as columns of a T × N matrix.
  [[nodiscard]] vector<Real> load(const matrix<Real>& schedules) const {
    vector<Real> x = vector<Real>::Zero(d_.size());
    for (Eigen::Index j = 0; j < schedules.cols(); ++j)
      x += Real(multiplicity(j)) * schedules.col(j);
    return x;
  }

 private:
  vector<Real> d_;
  Real m_;
  charging_specs<Real> specs_;
  Real scale_;
  column_slice slice_;
  bool sliced_ = false;
  long long users_ = 0;
  Real mult_sq_ = Real(0);
};

/// λ = m: U in per-household units, p = ∇U = d + Σ r_i/m (kW), L = 1/m; the normalisation under
/// which c ∈ [10, 20] reproduces ev §VII (spec/ev.md EV.UNITS).
template <real_scalar Real>
Real household_units(const Real& households) {
  return households;
}

// ------------------------------------------------- the public description of an instance ----

/// Distribution of one charging specification.
template <real_scalar Real>
struct spec_distribution {
  Real rate = Real(33) / 10;        ///< r̄(t) when available (kW)
  Real availability = Real(1) / 2;  ///< P(r̄(t) = rate)
  Real energy_min = Real(28);       ///< E ~ U[energy_min, energy_max] (kW, errata EV-E4)
  Real energy_max = Real(40);

  template <class V>
  void fields(V&& v) {
    v("rate", rate, "r̄(t) when available, in [0, 1000] kW");
    v("availability", availability, "P(r̄(t) = rate), in [0, 1]");
    v("energy_min", energy_min, "E ~ U[energy_min, energy_max], energy_min in [0, 1e6] kW·slot");
    v("energy_max", energy_max, "energy_max in [energy_min, 1e6] kW·slot");
  }
  /// @throws invalid_parameter naming the field
  /// @param prefix how the fields are named in messages (e.g. "distribution.")
  void validate(const param_checker& c, const std::string& prefix = "") const {
    c.in_closed(prefix + "rate", rate, Real(0), Real(1000), "finite and in [0, 1000]");
    c.in_closed(prefix + "availability", availability, Real(0), Real(1), "in [0, 1]");
    c.in_closed(prefix + "energy_min", energy_min, Real(0), Real(1000000),
                "finite and in [0, 1e6]");
    c.in_closed(prefix + "energy_max", energy_max, energy_min, Real(1000000),
                "finite and in [energy_min, 1e6]");
  }
};

/// Units of U (spec/ev.md EV.UNITS): paper = ev (7) literally (λ = 1), household = λ = m.
enum class units { paper, household };
DPREF_ENUM_NAMES(units, paper, household)

/// Per-user database (n columns of multiplicity 1) or the paper's grouped mode (N columns).
enum class spec_mode { per_user, grouped };
DPREF_ENUM_NAMES(spec_mode, per_user, grouped)

/// The shipped base load (data/ev/base_load_taylor.csv), found with io::find_data_file.
inline constexpr std::string_view shipped_base_load = "shipped:ev/base_load_taylor.csv";

/// The public description of an EV instance (ARCH.PUBLIC): how to build the problem from the
/// base-load file, the sizes, the units and the generator of the (synthetic, private) specs.
/// @spec EV.PROBLEM.SPEC
template <real_scalar Real>
struct problem_spec {
  /// Memory bound: one T × N matrix of Real at most this many bytes (a run holds a few; n = 10⁷
  /// users at T = 52 in double, 3.9 GiB, is the largest point of spec/distributed.md).
  static constexpr std::size_t max_matrix_bytes = std::size_t(4) << 30;

  std::string base_load = std::string(shipped_base_load);
  Real households = Real(500000);
  long long users = 100000;
  spec_mode mode = spec_mode::per_user;
  long long groups = 100;
  ev::units units = ev::units::paper;
  std::uint64_t data_seed = 20261121;
  spec_distribution<Real> distribution{};

  template <class V>
  void fields(V&& v) {
    v("base_load", base_load,
      "base-load CSV (slot,base_load_kw_per_household); 'shipped:<name>' is a file shipped "
      "with dpref (default: the taylor profile of ev §VII)");
    v("households", households, "m, households, in [1, 1e12]");
    v("users", users, "n, EV users, in [1, 1e9]");
    v("mode", mode, "per_user (n columns) or grouped (N groups of equal specs, ev §VII)");
    v("groups", groups, "N, groups of the grouped mode, in [1, min(n, 1e7)]");
    v("units", units, "units of U: paper (ev (7), λ = 1) or household (λ = m, EV.UNITS)");
    v("data_seed", data_seed, "seed of the synthetic specs (stream 0x45560001, substream j)");
    v("distribution", distribution, "distribution of the specs (ev §VII)");
  }

  /// groups applies to the grouped mode only (HARD.APPLIES).
  template <class A>
  void applicability(A&& a) const {
    a("groups", mode == spec_mode::grouped, "applies only to mode grouped (mode is per_user)");
  }

  /// @throws invalid_parameter "ev::problem_spec.<field> must be ..., got ..."
  /// @spec EV.PROBLEM.SPEC
  void validate() const {
    const param_checker c("ev::problem_spec");
    c.require(!base_load.empty() && base_load.size() <= 4096 && base_load != "shipped:",
              "base_load", "a file name (1 to 4096 characters) or shipped:<name>",
              "'" + base_load.substr(0, 80) + "'");
    c.in_closed("households", households, Real(1), Real(1000000000000LL),
                "finite and in [1, 1e12]");
    c.at_least<long long>("users", users, 1, 1000000000LL);
    c.at_least<long long>("groups", groups, 1, 10000000LL);
    if (mode == spec_mode::grouped)
      c.require(groups <= users, "groups", "<= users (n = " + std::to_string(users) + ")", groups);
    distribution.validate(c, "distribution.");
  }
  /// Columns N of the database (n per user, the groups in grouped mode).
  [[nodiscard]] long long columns() const { return mode == spec_mode::per_user ? users : groups; }
};

}  // namespace dpref::ev

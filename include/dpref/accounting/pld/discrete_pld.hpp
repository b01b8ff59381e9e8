// The discrete privacy-loss distribution types (spec/accounting_pld.md): options, a discrete PLD
// of one neighbouring direction, and the PLD of a mechanism (both directions).
//
// Certification invariant of a discrete_pld with masses m, infinity mass m_∞ and `error` E:
// there is a non-negative measure ω on the same grid, with ω_∞ at +∞, such that
//   pessimistic: H_true(t) <= H_ω(t) for all t >= 0,   optimistic: H_true(t) >= H_ω(t),
// where H_ω(t) = Σ_j ω_j (1 − t e^{−l_j})_+ + ω_∞ is the hockey-stick curve, and
//   Σ_j |m_j − ω_j| + |m_∞ − ω_∞| <= E.
// Hence δ_true(ε) <= Σ_{l_j > ε} m_j (1 − e^{ε − l_j}) + m_∞ + E (pessimistic), and the same
// minus 2E bounds it from below for the optimistic variant.
//
// This header declares the types; the discretisation is accounting/pld/discretisation.hpp, the
// composition and the queries accounting/pld/distribution.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dpref/accounting/pld/fft.hpp"
#include "dpref/accounting/pld/mechanisms.hpp"
#include "dpref/error.hpp"

namespace dpref::accounting::pld {

/// Direction of the discretisation error.
enum class estimate {
  pessimistic,  ///< every δ / ε reported is an upper bound of the exact value
  optimistic    ///< every δ / ε reported is a lower bound of the exact value
};

/// Discretisation and truncation options.
struct options {
  double interval = 1e-3;    ///< grid spacing h of the privacy loss
  double tail_mass = 1e-15;  ///< mass per truncation (discretisation range, each composition)
  estimate kind = estimate::pessimistic;
  /// work bound: grid points of a discretisation or composition (refused beyond, naming it)
  std::size_t max_points = std::size_t{1} << 23;
  /// self_compose by repeated squaring even when pessimistic (the FFT power is the default)
  bool squaring = false;
};

/// One point of a privacy profile.
struct profile_point {
  double epsilon;
  double delta;
};

/// A privacy-loss distribution of one neighbouring direction on the grid {(offset + j) h}.
struct discrete_pld {
  estimate kind = estimate::pessimistic;
  double interval = 1e-3;      ///< h
  std::int64_t offset = 0;     ///< masses[0] sits at loss offset·h
  std::vector<double> masses;  ///< P-masses (non-negative)
  double infinity_mass = 0;    ///< P-mass at loss +∞ (tails sent to +∞ are included)
  double error = 0;            ///< E of the certification invariant (round-off of FFTs, sums)
  double truncated_mass = 0;   ///< informational: mass moved by range truncations

  [[nodiscard]] double loss(std::size_t j) const {
    return static_cast<double>(static_cast<detail::ld>(offset + static_cast<std::int64_t>(j)) *
                               static_cast<detail::ld>(interval));
  }
  [[nodiscard]] double total_mass() const;
  [[nodiscard]] double delta_for_epsilon(double eps) const;
  [[nodiscard]] double epsilon_for_delta(double delta) const;
  [[nodiscard]] std::vector<profile_point> profile(const std::vector<double>& epsilons) const;
  [[nodiscard]] std::vector<profile_point> profile() const;
};

/// The PLD of a mechanism: remove direction and (if not symmetric) add direction; δ(ε) is the
/// larger of the two.
struct privacy_loss_distribution {
  discrete_pld remove;
  std::optional<discrete_pld> add;  ///< empty: symmetric (same as remove)

  [[nodiscard]] bool symmetric() const { return !add.has_value(); }
  [[nodiscard]] const discrete_pld& add_or_remove() const { return add ? *add : remove; }
  [[nodiscard]] estimate kind() const { return remove.kind; }
  [[nodiscard]] double delta_for_epsilon(double eps) const {
    const double r = remove.delta_for_epsilon(eps);
    return add ? std::max(r, add->delta_for_epsilon(eps)) : r;
  }
  [[nodiscard]] double epsilon_for_delta(double delta) const {
    const double r = remove.epsilon_for_delta(delta);
    return add ? std::max(r, add->epsilon_for_delta(delta)) : r;
  }
  /// Certified profile at the given ε (δ = max over the directions).
  [[nodiscard]] std::vector<profile_point> profile(const std::vector<double>& epsilons) const {
    auto p = remove.profile(epsilons);
    if (add) {
      const auto q = add->profile(epsilons);
      for (std::size_t i = 0; i < p.size(); ++i) p[i].delta = std::max(p[i].delta, q[i].delta);
    }
    return p;
  }
  /// The whole profile: δ at every grid loss >= 0 up to where δ stops changing (δ is of the
  /// form A − B e^ε between consecutive grid losses).
  [[nodiscard]] std::vector<profile_point> profile() const {
    if (!add) return remove.profile();
    std::vector<double> eps;
    for (const auto* d : {&remove, &*add})
      for (const auto& pt : d->profile()) eps.push_back(pt.epsilon);
    std::sort(eps.begin(), eps.end());
    eps.erase(std::unique(eps.begin(), eps.end()), eps.end());
    return profile(eps);
  }
};

}  // namespace dpref::accounting::pld

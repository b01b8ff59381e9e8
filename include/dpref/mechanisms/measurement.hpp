// The ledger side shared by the measurement types of include/dpref/mechanisms
// (spec/architecture.md ARCH.MEASUREMENTS): a type that draws noise derives from
// measurement<Type, Real> and defines mechanism() (its accounting kind, from the same members it
// draws with); event() is the ledger event of exactly that noise.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "dpref/accounting/event.hpp"

namespace dpref::mechanisms {

/// CRTP base: event(count, label[, sampling]) from Derived::mechanism().
/// @spec ARCH.MEASUREMENTS
template <class Derived, real_scalar Real>
struct measurement {
  /// The ledger event of `count` releases with this noise (optionally after `sampling`).
  [[nodiscard]] accounting::event<Real> event(
      long long count = 1, std::string label = {},
      std::optional<accounting::subsampling<Real>> sampling = std::nullopt) const {
    accounting::event<Real> e = accounting::make_event<Real>(
        static_cast<const Derived&>(*this).mechanism(), count, std::move(label));
    e.sampling = std::move(sampling);
    return e;
  }
};

}  // namespace dpref::mechanisms

// Calibration of pwa's noise scales (spec/pwa.md, ARCH.BUDGET): a scale is fixed before any
// draw and raised by a few ulps while the certified ε of its ledger exceeds the target (the
// rounding of ε/k, of 2Δu/s and of the composition). Used by the subgradient method
// (private_subgradient.hpp) and the ℓ2-Laplace mechanisms M_P, M_S (laplace_mechanisms.hpp).
#pragma once

#include <stdexcept>
#include <string>

#include "dpref/accounting/accountant.hpp"
#include "dpref/accounting/certified.hpp"

namespace dpref::pwa::detail {

/// Raises `scale` by a few ulps while plan(scale)'s certified ε exceeds `eps`; returns the
/// accepted plan (the ledger of exactly the scale left in `scale`).
/// @throws std::logic_error if no scale certifies ε (never observed)
template <real_scalar Real, class Plan>
accounting::ledger<Real> calibrate_scale(Real& scale, const Real& eps, Plan&& plan,
                                         const char* who) {
  for (int attempt = 0; attempt < 48; ++attempt) {
    accounting::ledger<Real> l = plan(scale);
    if (!(l.total().epsilon > eps)) return l;
    accounting::certifier<Real> c;  // s ← s·(1 + 2^(attempt+2)·u), rounded up
    const accounting::work_real bump =
        accounting::work_real(1) +
        c.in(machine_epsilon<Real>()) * accounting::work_real(4LL << attempt);
    scale = c.up(c.in(scale)*bump);
  }
  throw std::logic_error(std::string(who) + ": no noise scale certifies epsilon");
}

}  // namespace dpref::pwa::detail

// How a private run draws its noise (spec/secure_release.md SEC.MODE, issue 20).
//
//   idealised  continuous Laplace / Gaussian added in floating point: the ledger certifies the
//              real-number mechanism; the released doubles' low-order bits are NOT covered
//              (spec/audit.md AUDIT.MECH.LAPLACE.FPBITS).
//   secure     every released noisy value goes through the lattice primitives
//              (mechanisms/secure/*): the ledger records the lattice mechanism with its inflated
//              sensitivity, and its guarantee holds for the released doubles.
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "dpref/enum_names.hpp"

namespace dpref {

/// @spec SEC.MODE
enum class noise_mode { idealised, secure };

DPREF_ENUM_NAMES(noise_mode, idealised, secure)

/// What the certified guarantee covers in each mode (the result's privacy.noise text).
constexpr std::string_view released_doubles_statement(noise_mode m) {
  return m == noise_mode::secure
             ? std::string_view(
                   "the certified guarantee holds for the released doubles "
                   "(lattice release, spec/secure_release.md)")
             : std::string_view(
                   "the certified guarantee is for the idealised real-number "
                   "mechanism; the released doubles' low-order bits are not covered "
                   "(run with release = secure, --secure)");
}

}  // namespace dpref

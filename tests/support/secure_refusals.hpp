// The refusal of release = secure at a precision other than double, shared by the secure-mode
// tests of the modules whose params follow it to the letter (spec/secure_release.md SEC.MODE).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "dpref/noise_mode.hpp"
#include "support/messages.hpp"

namespace dpref::test {

/// EXPECTs that `module`'s params at long double (LongDouble) and at mp50 (Mp50) refuse
/// release = secure, the long-double message in full.
template <class LongDouble, class Mp50>
void expect_secure_refused_off_double(const std::string& module) {
  LongDouble pl;
  pl.release = noise_mode::secure;
  EXPECT_EQ(message_of([&] { pl.validate(); }),
            module +
                "::params.release must be idealised at precision long double (the lattice "
                "release is defined on doubles: run secure mode at precision double), got secure");
  Mp50 pm;
  pm.release = noise_mode::secure;
  EXPECT_NE(message_of([&] { pm.validate(); }).find(module + "::params.release must be idealised"),
            std::string::npos);
}

}  // namespace dpref::test

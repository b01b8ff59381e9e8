// Scalar type lists for typed tests.
#pragma once

#include <gtest/gtest.h>

#include "dpref/scalar.hpp"

namespace dpref::test {
/// double is the fast path, mp50 the oracle; long double exercises the p = 64 code paths.
using sampler_scalars = ::testing::Types<double, long double, mp50>;

struct scalar_names {
  template <class T>
  static std::string GetName(int) {
    return scalar_name<T>();
  }
};
}  // namespace dpref::test

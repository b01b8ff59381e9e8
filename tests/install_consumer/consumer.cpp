#include <cstdio>

#include "dpref/random.hpp"

int main() {
  dpref::philox_stream s(1);
  const double x = dpref::laplace(s, 1.0);
  dpref::philox_stream t(1);
  const dpref::mp50 y = dpref::laplace(t, dpref::mp50(1));
  std::printf("%.17g\n", x);
  return static_cast<double>(y) == x ? 0 : 1;
}

// LD_PRELOAD module of CONF_MACHINE (spec/conformance.md CONF.MACHINE): simulates another CPU's
// x87 transcendental instructions. glibc's long double logl, log1pl, expl, powl, sinl, ... run
// FYL2X, FYL2XP1, F2XM1, FSIN, FPATAN, ..., whose last bit differs between Intel and AMD CPUs;
// this module moves every result of those functions by one ulp, up (DPREF_X87_ULPS=1, the
// default) or down (DPREF_X87_ULPS=-1). A reference value that depends on them changes.
#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace {

long double nudge(long double r) {
  if (!std::isfinite(r) || r == 0.0L) return r;
  static const bool down = [] {
    const char* e = std::getenv("DPREF_X87_ULPS");
    return e != nullptr && std::strcmp(e, "-1") == 0;
  }();
  return std::nextafter(r, down ? -HUGE_VALL : HUGE_VALL);
}

template <class F>
F next_symbol(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

#define DPREF_PERTURB_1(name)                                                  \
  extern "C" long double name(long double x) {                                 \
    static const auto real = next_symbol<long double (*)(long double)>(#name); \
    return nudge(real(x));                                                     \
  }
#define DPREF_PERTURB_2(name)                                                               \
  extern "C" long double name(long double x, long double y) {                               \
    static const auto real = next_symbol<long double (*)(long double, long double)>(#name); \
    return nudge(real(x, y));                                                               \
  }

DPREF_PERTURB_1(logl)
DPREF_PERTURB_1(log1pl)
DPREF_PERTURB_1(log2l)
DPREF_PERTURB_1(log10l)
DPREF_PERTURB_1(expl)
DPREF_PERTURB_1(exp2l)
DPREF_PERTURB_1(expm1l)
DPREF_PERTURB_1(sinl)
DPREF_PERTURB_1(cosl)
DPREF_PERTURB_1(tanl)
DPREF_PERTURB_1(atanl)
DPREF_PERTURB_1(asinl)
DPREF_PERTURB_1(acosl)
DPREF_PERTURB_1(tanhl)
DPREF_PERTURB_1(erfl)
DPREF_PERTURB_1(erfcl)
DPREF_PERTURB_2(powl)
DPREF_PERTURB_2(atan2l)

extern "C" void sincosl(long double x, long double* s, long double* c) {
  static const auto real =
      next_symbol<void (*)(long double, long double*, long double*)>("sincosl");
  real(x, s, c);
  *s = nudge(*s);
  *c = nudge(*c);
}

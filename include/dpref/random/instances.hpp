// extern template declarations of the samplers for every scalar of DPREF_FOR_EACH_SCALAR;
// the definitions are compiled once in src/instances/random.cpp (target dpref::instances).
#pragma once

#include "dpref/random/bernoulli.hpp"
#include "dpref/random/exponential.hpp"
#include "dpref/random/gamma.hpp"
#include "dpref/random/gaussian.hpp"
#include "dpref/random/laplace.hpp"
#include "dpref/random/sphere.hpp"
#include "dpref/random/vector_laplace.hpp"

#define DPREF_RANDOM_INSTANCES(EXTERN, R)                                      \
  EXTERN template R uniform01<R>(philox_stream&);                              \
  EXTERN template R exponential<R>(philox_stream&, const R&);                  \
  EXTERN template R laplace<R>(philox_stream&, const R&);                      \
  EXTERN template R gaussian<R>(philox_stream&, const R&);                     \
  EXTERN template R gamma_integer<R>(philox_stream&, std::uint64_t, const R&); \
  EXTERN template R gamma<R>(philox_stream&, const R&, const R&);              \
  EXTERN template bool bernoulli<R>(philox_stream&, const R&);                 \
  EXTERN template vector<R> uniform_direction<R>(philox_stream&, std::size_t); \
  EXTERN template vector<R> vector_laplace<R>(philox_stream&, std::size_t, const R&);

#ifdef DPREF_EXPLICIT_INSTANCES
namespace dpref {
#define DPREF_RANDOM_EXTERN(R) DPREF_RANDOM_INSTANCES(extern, R)
DPREF_FOR_EACH_SCALAR(DPREF_RANDOM_EXTERN)
#undef DPREF_RANDOM_EXTERN
}  // namespace dpref
#endif

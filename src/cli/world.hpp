// The processes this invocation of dpref runs on (spec/distributed.md DIST.ABORT): one process,
// or every rank of MPI_COMM_WORLD when the program was started by mpirun (detected in main()).
// Set once by main() before any command runs; only read afterwards.
#pragma once

#include "dpref/parallel/communicator.hpp"

namespace dpref::cli {

namespace detail {
inline const parallel::communicator*& world_slot() {
  static const parallel::communicator* w = &parallel::serial();
  return w;
}
}  // namespace detail

/// The processes of this run (serial unless started under mpirun).
inline const parallel::communicator& world() { return *detail::world_slot(); }

/// Called once by main() after MPI_Init.
inline void set_world(const parallel::communicator& w) { detail::world_slot() = &w; }

}  // namespace dpref::cli

// One node, one round of dda's engine (W = [1], z^(1) = 0, a_1 = 1, so z^(2) = ζ): the release
// the dda audits test (tests/dda/priv_dda_audit.cpp, secure_dda_audit.cpp), through the shipped
// engine dda::detail::run_engine.
#pragma once

#include <cstdint>

#include "dpref/dda/run.hpp"

namespace dpref::test_support {

/// z of the single node after one round, fresh philox stream keyed by two draws of s.
inline matrix<double> dda_one_node_release(const dda::problem<double>& prob,
                                           const dda::algorithm_params<double>& p,
                                           philox_stream& s) {
  network::gossip_round<double> w;
  w.active = {0};
  w.row_start = {0, 1};
  w.cols = {0};
  w.weights = {1.0};
  const std::uint64_t seed = s(), id = s();
  return dda::detail::run_engine(
             prob, p, 1.0, philox_stream(seed, id),
             [&w](long long) -> const network::gossip_round<double>& { return w; })
      .z;
}

}  // namespace dpref::test_support

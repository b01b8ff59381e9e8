// The names, synthetic data, networks and parameters shared by the dda unit and property tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>

#include "dpref/dda/data.hpp"
#include "dpref/dda/network.hpp"
#include "dpref/dda/params.hpp"
#include "dpref/dda/problem.hpp"
#include "dpref/network/gossip.hpp"
#include "dpref/random/gaussian.hpp"

namespace dpref::test {

/// The short names of the dda tests (`using namespace dpref::test::dda_names;`).
namespace dda_names {
using dpref::matrix;
using dpref::philox_stream;
using dpref::vector;
namespace net = dpref::network;
namespace pr = dpref::problems;
namespace dda = dpref::dda;
}  // namespace dda_names

/// Two Gaussian classes y·mean + N(0, s²I) in dimension d (y alternating +1, −1, ‖mean‖ = sep),
/// from stream (seed, 77), records clipped to norm 1.
template <class Real>
std::pair<matrix<Real>, vector<Real>> dda_two_classes(long long N, int d, double sep, double s,
                                                      std::uint64_t seed) {
  philox_stream st(seed, 77);
  matrix<Real> X(d, N);
  vector<Real> y(N);
  for (long long j = 0; j < N; ++j) {
    y[j] = (j % 2 == 0) ? Real(1) : Real(-1);
    for (int k = 0; k < d; ++k)
      X(k, j) = y[j] * Real(sep / std::sqrt(double(d))) + gaussian<Real>(st, Real(s));
  }
  dda::clip_columns_to_unit_norm<Real>(X);
  return {X, y};
}

/// dda::synthetic_data(N, d, seed), records scaled to norm <= `scale`, on `nodes` nodes, ℓ2(1e-3).
inline dda::problem<double> dda_synthetic_problem(long long N, int d, std::uint64_t seed, int nodes,
                                                  double scale = 1.0) {
  auto data = dda::synthetic_data(N, d, seed);
  data.X *= scale;
  return dda::problem<double>(data.X, data.y, nodes, problems::regularizer<double>::l2(1e-3));
}

/// The complete graph on n nodes, `per_step` active edges or nodes a round.
inline dda::network dda_complete_network(int n,
                                         dda::activation_mode m = dda::activation_mode::edges,
                                         int per_step = 1) {
  dda::network net;
  net.graph = dda::graph_kind::complete;
  net.nodes = n;
  net.activation = m;
  net.per_step = per_step;
  return net;
}

/// T rounds at ε = 0.8, δ = 1e-5, γ = 1.
inline dda::params<double> dda_base_params(long long iterations) {
  dda::params<double> p;
  p.iterations = iterations;
  p.epsilon = 0.8;
  p.delta = 1e-5;
  p.gamma = 1;
  return p;
}

}  // namespace dpref::test

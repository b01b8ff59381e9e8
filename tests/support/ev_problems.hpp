// The small ev instances of the ev tests: specs with E ~ U[2, 5] (caps 3.3 kW w.p. 1/2, the
// distribution's default), the base load 1 + (t mod 3)/2, and Algorithm 2's parameters.
#pragma once

#include <cstdint>
#include <type_traits>

#include "dpref/ev/data.hpp"
#include "dpref/ev/params.hpp"
#include "dpref/ev/problem.hpp"

namespace dpref::test {

/// The spec distribution of the tests: E ~ U[2, 5].
template <class Real = double>
ev::spec_distribution<Real> ev_spec_distribution() {
  ev::spec_distribution<Real> dist;
  dist.energy_min = Real(2);
  dist.energy_max = Real(5);
  return dist;
}

/// The base load 1 + (t mod 3)/2 over T slots.
template <class Real = double>
vector<Real> ev_base_load(Eigen::Index t) {
  vector<Real> d(t);
  for (Eigen::Index i = 0; i < t; ++i) d[i] = Real(1) + Real(i % 3) / 2;
  return d;
}

/// T slots, n users (specs from `seed`), m households, objective scale λ.
template <class Real = double>
ev::problem<Real> ev_small_problem(std::uint64_t seed, Eigen::Index t, Eigen::Index n,
                                   std::type_identity_t<Real> m,
                                   std::type_identity_t<Real> scale = Real(1)) {
  return ev::problem<Real>(ev_base_load<Real>(t), m,
                           ev::draw_specs<Real>(seed, t, n, ev_spec_distribution<Real>()), scale);
}

/// Algorithm 2 (no optimum) with K, ε, step c and the adjacency (δr, δE).
template <class Real = double>
ev::params<Real> ev_alg2_params(long long K, std::type_identity_t<Real> eps,
                                std::type_identity_t<Real> c = Real(2),
                                std::type_identity_t<Real> dr = Real(3.3),
                                std::type_identity_t<Real> de = Real(3)) {
  ev::params<Real> p;
  p.iterations = K;
  p.epsilon = eps;
  p.step = c;
  p.delta_r = dr;
  p.delta_e = de;
  p.optimum = false;
  return p;
}

}  // namespace dpref::test

// Conformance trajectories of the ev paper (spec/conformance.md CONF.TRAJECTORY): one short
// deterministic run per algorithm of ev::params (Algorithm 2 private_projected_gradient,
// Algorithm 1 projected_gradient, Algorithm 3 projected_sgd, the certified optimum) on a small
// grouped instance of the shipped example (examples/ev.json: 200 users, 20 groups, K = 4).
// Expected: the mpfr:60 run's released iterates p̂^(k) (ev Algorithm 2 line 5) — or the optimum's
// load, value U* and lower bound — and the certified ε; checked at double.
// Tolerances (spec/conformance.md "Trajectory tolerances"): the double and mpfr:60 runs read the
// same Philox bits and take the same branches, so they differ by rounding only (measured max
// relative error 8.0e-15 over the iterates, 7.8e-16 on ε): rel 1e-12 on iterates, 1e-13 on the
// guarantee, exact on the iteration count.
#pragma once

#include <vector>

#include "dpref/conformance/generate.hpp"
#include "dpref/ev/json.hpp"

namespace dpref::ev {

/// The family trajectories/ev (registered in src/papers/papers.cpp).
inline conformance::family conformance_trajectories() {
  namespace g = conformance::gen;
  const io::json base = io::json::parse(R"(
      {"problem": {"base_load": "shipped:ev/base_load_taylor.csv", "households": 1000.0, "users":
      200, "mode": "grouped", "groups": 20, "units": "household", "data_seed": 20261121,
      "distribution": {"rate": 3.3, "availability": 0.5, "energy_min": 28.0, "energy_max": 40.0}},
      "params": {"algorithm": "private_projected_gradient", "epsilon": 0.1, "iterations": 4,
      "step": 10.0, "constant_step": false, "eta": 1.0, "delta_r": 13.2, "delta_e": 12.0,
      "sensitivity_bound": "tight", "start": "zero", "start_vector": [], "gradient_noise": 0.0,
      "threads": 1, "trace": false, "optimum": false, "optimum_max_iterations": 300,
      "optimum_relative_gap": 1e-10, "force": false}, "seed": 20261121, "stream": 1})");
  const io::json iterate = g::rel_tol("1e-12"), guarantee = g::rel_tol("1e-13");
  const std::vector<conformance::trajectory_case> cases = {
      {"private_projected_gradient",
       {{"/iterates/released", iterate},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"projected_gradient", {{"/iterates/released", iterate}, {"/iterations", g::exact_tol()}}},
      {"projected_sgd", {{"/iterates/released", iterate}, {"/iterations", g::exact_tol()}}},
      {"optimum",
       {{"/iterates/load", iterate},
        {"/iterates/value", iterate},
        {"/iterates/lower", iterate},
        {"/iterations", g::exact_tol()}}},
  };
  return conformance::trajectory_family<::dpref::ev::config<double>>(
      DPREF_PAPER_RUNNER("ev", ::dpref::ev),
      "one short run per ev algorithm (Algorithms 1-3, the certified optimum): "
      "released iterates and certified epsilon vs the mpfr:60 run",
      base, cases);
}

}  // namespace dpref::ev

// Conformance trajectories of the pwa paper (spec/conformance.md CONF.TRAJECTORY): one short
// deterministic run per algorithm of pwa::params (Algorithm 1 private_subgradient, M_D
// perturb_data, M_S perturb_solution, M_E exponential, the non-private regular_subgradient and the
// optimum) on the example instance (m = 20 pieces in d = 2, K = 20). Expected: the mpfr:60 run's
// released x (and Algorithm 2's selected index i*), the certified ε; checked at double. Tolerances
// (spec/conformance.md "Trajectory tolerances"): the double and mpfr:60 runs read the same Philox
// bits (M_E's rejection sampler included) and take the same branches, so they differ by rounding
// only (measured max relative error 8.0e-16 on x, 5.6e-17 on ε): rel 1e-12 on x, 1e-13 on ε, exact
// on i* and the iteration count.
#pragma once

#include <vector>

#include "dpref/conformance/generate.hpp"
#include "dpref/pwa/json.hpp"

namespace dpref::pwa {

/// The family trajectories/pwa (registered in src/papers/papers.cpp).
inline conformance::family conformance_trajectories() {
  namespace g = conformance::gen;
  const io::json base = io::json::parse(R"(
      {"problem": {"instance": "", "m": 20, "d": 2, "c": 1, "bmax": 1, "data_seed": 1}, "params":
      {"algorithm": "private_subgradient", "epsilon": 0.1, "iterations": 20, "step": 0.01,
      "step_rule": "constant", "projection": "none", "start": null, "noise_rule": "theorem9",
      "sampler": "rejection", "max_attempts": 100000000, "trace": false, "optimum": false},
      "seed": 20261121, "stream": 0})");
  const io::json iterate = g::rel_tol("1e-12"), guarantee = g::rel_tol("1e-13");
  const std::vector<conformance::trajectory_case> cases = {
      {"private_subgradient",
       {{"/iterates/x", iterate},
        {"/iterates/selected", g::exact_tol()},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"perturb_data", {{"/iterates/x", iterate}, {"/privacy/guarantee/epsilon", guarantee}}},
      {"perturb_solution", {{"/iterates/x", iterate}, {"/privacy/guarantee/epsilon", guarantee}}},
      {"exponential", {{"/iterates/x", iterate}, {"/privacy/guarantee/epsilon", guarantee}}},
      {"regular_subgradient",
       {{"/iterates/x", iterate},
        {"/iterates/selected", g::exact_tol()},
        {"/iterations", g::exact_tol()}}},
      {"optimum", {{"/iterates/x", iterate}}},
  };
  return conformance::trajectory_family<::dpref::pwa::config<double>>(
      DPREF_PAPER_RUNNER("pwa", ::dpref::pwa),
      "one short run per pwa algorithm (private_subgradient, perturb_data, "
      "perturb_solution, exponential, regular_subgradient, optimum): released x "
      "and certified epsilon vs the mpfr:60 run",
      base, cases);
}

}  // namespace dpref::pwa

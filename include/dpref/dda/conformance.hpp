// Conformance trajectories of the dda paper (spec/conformance.md CONF.TRAJECTORY): dda Algorithm 1
// (DP distributed dual averaging; the paper's one algorithm, dp_dda) for T = 10 rounds on 5 nodes
// of a complete graph with 60 synthetic records (examples/dda.json made short). Expected: the
// mpfr:60 run's released x̃_i^(T), their average x̄, σ and the certified (ε, δ); checked at double.
// Tolerances (spec/conformance.md "Trajectory tolerances"): the double and mpfr:60 runs read the
// same Philox bits (Gaussian noise and edge activations), so they differ by rounding only (measured
// max relative error 5.2e-16 on x̃, 6.1e-17 on σ, 2.7e-16 on δ): rel 1e-12 on iterates and σ, 1e-13
// on (ε, δ).
#pragma once

#include <vector>

#include "dpref/conformance/generate.hpp"
#include "dpref/dda/json.hpp"

namespace dpref::dda {

/// The family trajectories/dda (registered in src/papers/papers.cpp).
inline conformance::family conformance_trajectories() {
  namespace g = conformance::gen;
  const io::json base = io::json::parse(R"(
      {"problem": {"data": "synthetic", "records": 60, "dimension": 5, "data_seed": 20261121,
      "data_dir": "data/real", "fashion_negative": 0, "fashion_positive": 1, "regularizer": "l2",
      "reg_weight": 0.001}, "network": {"graph": "complete", "nodes": 5, "activation": "edges",
      "per_step": 1, "radius": 0.4, "probability": 0.3, "graph_seed": 20261121}, "params":
      {"calibration": "rdp", "epsilon": 0.8, "delta": 1e-05, "delta0": 0.01, "delta_prime": 1e-06,
      "allow_over_budget": false, "active_set_hidden": false, "lipschitz": 1.0, "iterations": 10,
      "a_schedule": "constant", "gamma_schedule": "sqrt_t", "gamma": 1.0, "max_order": 64,
      "trace_every": 0, "threads": 1, "fast_noise": false, "diagnostics": false, "optimum": false,
      "optimum_max_epochs": 3000, "optimum_tolerance": 1e-07}, "seed": 20261121, "stream": 1})");
  const io::json iterate = g::rel_tol("1e-12"), guarantee = g::rel_tol("1e-13");
  const std::vector<conformance::trajectory_case> cases = {
      {"dp_dda",
       {{"/iterates/x_tilde", iterate},
        {"/iterates/x_bar", iterate},
        {"/iterates/sigma", iterate},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/privacy/guarantee/delta", guarantee},
        {"/iterations", g::exact_tol()}}},
  };
  return conformance::trajectory_family<::dpref::dda::config<double>>(
      DPREF_PAPER_RUNNER("dda", ::dpref::dda),
      "dda Algorithm 1 for 10 rounds on 5 nodes: released x_tilde, x_bar, sigma and "
      "certified (epsilon, delta) vs the mpfr:60 run",
      base, cases);
}

}  // namespace dpref::dda

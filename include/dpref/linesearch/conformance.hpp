// Conformance trajectories of the linesearch paper (spec/conformance.md CONF.TRAJECTORY): one short
// deterministic run per algorithm of linesearch::params (§4: blsgd, blsgd_ac, blgd; §5.3 baselines:
// dpsgd, dpagd, outpert, objpert, nonprivate, majority) on a 60-record synthetic logistic problem
// (examples/linesearch.json made short: ε = 0.5, max_it = 5). Expected: the mpfr:60 run's released
// w, the certified (ε, δ) and the iteration count (the adaptive methods stop when the budget is
// exhausted, so the count checks every noisy test took the same branch); checked at double.
// Tolerances (spec/conformance.md "Trajectory tolerances"): the double and mpfr:60 runs read the
// same Philox bits and take the same branches, so they differ by rounding only (measured max
// relative error 1.0e-15 on w, 7.9e-16 on ε): rel 1e-12 on w, 1e-13 on (ε, δ). OBJPERT's minimiser
// (Chaudhuri et al. Algorithm 2) is found by Newton–CG that stops when F no longer decreases at
// working precision, so at double w is determined only to about √ε_mach relative (‖w − w*‖² λ/2
// below the rounding of F): measured 8.4e-9 (1.9e-11 on the 400-record example), tolerance rel
// 1e-6.
#pragma once

#include <vector>

#include "dpref/conformance/generate.hpp"
#include "dpref/linesearch/json.hpp"

namespace dpref::linesearch {

/// The family trajectories/linesearch (registered in src/papers/papers.cpp).
inline conformance::family conformance_trajectories() {
  namespace g = conformance::gen;
  const io::json base = io::json::parse(R"(
      {"problem": {"data": "", "synthetic_n": 60, "synthetic_d": 3, "synthetic_seed": 20261121,
      "loss": "logistic", "mu": 0.001}, "params": {"algorithm": "blsgd", "epsilon": 0.5, "delta":
      1e-08, "allow_over_budget": false, "max_order": 64, "q": 0.1, "C_grad": 3, "C_obj": 1, "xi":
      0.3, "alpha": 0.5, "beta": 0.8, "max_it": 5, "noise": "laplace", "fallback_min_step": false,
      "tau": 10, "varsigma": 1.2, "phi_max": 1.1, "phi_min": 0.5, "psi": 0.8, "zeta": 0.05,
      "eps_iter_divisor": 100, "eta0": 1, "strategy": "adaptive", "svt_bound": "proven",
      "batch_accounting": "joint", "armijo_mean_scaling": false, "rho_grad0": null, "ls_budget0":
      null, "w0": null, "max_iterations": 1000000, "iterations": 5, "trace": false, "sgd_eta": 1,
      "noise_multiplier": null, "gamma": 0.1, "max_step": 2, "candidates": 20, "R": null, "force":
      false}, "seed": 20261121, "stream": 0})");
  const io::json iterate = g::rel_tol("1e-12"), guarantee = g::rel_tol("1e-13");
  const io::json objpert = g::rel_tol("1e-6");  // solver-limited (see above)
  const std::vector<conformance::trajectory_case> cases = {
      {"blsgd",
       {{"/iterates/w", iterate},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/privacy/guarantee/delta", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"blsgd_ac",
       {{"/iterates/w", iterate},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/privacy/guarantee/delta", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"blgd",
       {{"/iterates/w", iterate},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/privacy/guarantee/delta", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"dpsgd",
       {{"/iterates/w", iterate},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/privacy/guarantee/delta", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"dpagd",
       {{"/iterates/w", iterate},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/privacy/guarantee/delta", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"outpert",
       {{"/iterates/w", iterate},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/privacy/guarantee/delta", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"objpert",
       {{"/iterates/w", objpert},
        {"/privacy/guarantee/epsilon", guarantee},
        {"/privacy/guarantee/delta", guarantee},
        {"/iterations", g::exact_tol()}}},
      {"nonprivate",
       {{"/non_private/minimiser", iterate},
        {"/non_private/objective", iterate},
        {"/iterations", g::exact_tol()}}},
      {"majority",
       {{"/non_private/majority_class", g::exact_tol()},
        {"/non_private/training_accuracy", guarantee}}},
  };
  return conformance::trajectory_family<::dpref::linesearch::config<double>>(
      DPREF_PAPER_RUNNER("linesearch", ::dpref::linesearch),
      "one short run per linesearch algorithm (blsgd, blsgd_ac, blgd, dpsgd, dpagd, outpert, "
      "objpert, nonprivate, majority): released w and certified (epsilon, "
      "delta) vs the mpfr:60 run",
      base, cases);
}

}  // namespace dpref::linesearch

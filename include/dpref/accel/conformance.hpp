// Conformance trajectories of the accel paper (spec/conformance.md CONF.TRAJECTORY): one short
// deterministic run per algorithm of accel::params (DP-GD (2.4), DP-SHB (3.1), DP-NAG (4.1),
// DP-NAG-opt, DP-MASG, DP-MASG-opt) on the example instance (synthetic logistic regression,
// n = 200, d = 3, minibatch m = 50, T = 15). Expected: the mpfr:60 run's released x_{T′}, the
// noise scales b_t, the iteration count T′ and the certified ε; checked at double. Tolerances
// (spec/conformance.md "Trajectory tolerances"): both runs read the same Philox bits (the exact
// minibatch indices and the Laplace draws) and take the same branches, so they differ by rounding
// only: rel 1e-12 on x and b_t, 1e-13 on ε, exact on T′.
#pragma once

#include <string>
#include <vector>

#include "dpref/accel/json.hpp"
#include "dpref/conformance/generate.hpp"

namespace dpref::accel {

/// The family trajectories/accel (registered in src/papers/papers.cpp).
inline conformance::family conformance_trajectories() {
  namespace g = conformance::gen;
  const io::json base = io::json::parse(R"(
      {"problem": {"data": "", "n": 200, "d": 3, "l1_bound": 20, "lambda": 0.01, "data_seed": 1,
      "intercept": false}, "params": {"algorithm": "gd", "epsilon": 1, "iterations": 15,
      "m": 50, "alpha": null, "c": 1, "L": null, "beta": null, "x0": null, "noise": "calibrated",
      "noise_scale": null, "trace": false, "E0": null, "masg_p": 1, "masg_n1": null,
      "allow_over_budget": false, "fstar": false}, "seed": 20261121, "stream": 0})");
  const io::json iterate = g::rel_tol("1e-12"), guarantee = g::rel_tol("1e-13");
  const conformance::trajectory_outputs out = {{"/iterates/x", iterate},
                                               {"/iterates/noise_scales", iterate},
                                               {"/iterations", g::exact_tol()},
                                               {"/privacy/guarantee/epsilon", guarantee}};
  std::vector<conformance::trajectory_case> cases;
  for (const std::string a : {"gd", "shb", "nag", "nag_opt", "masg", "masg_opt"}) {
    const bool opt = a == "nag_opt" || a == "masg_opt";  // E0 = 10: Remark 4.1's T′ ≤ T
    cases.push_back({a, out, opt ? io::json{{"E0", 10}} : io::json::object()});
  }
  return conformance::trajectory_family<::dpref::accel::config<double>>(
      DPREF_PAPER_RUNNER("accel", ::dpref::accel),
      "one short run per accel algorithm (gd, shb, nag, nag_opt, masg, masg_opt): released x, "
      "noise scales, iterations and certified epsilon vs the mpfr:60 run",
      base, cases);
}

}  // namespace dpref::accel

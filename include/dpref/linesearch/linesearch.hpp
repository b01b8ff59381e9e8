// Umbrella header of the linesearch paper (Chen–Lee, DP backtracking line search), the one door
// src/ and python/ use (spec/architecture.md ARCH.SKELETON): NOISYBTLS (Algorithm 1), DP-BLSGD /
// CHEB / DP-BLSGD-AC / DP-BLGD (Algorithms 2–3) and the baselines of §5.3 through the one entry
// point run(); params, problem, result, config, its JSON, the budget calibration, the bounds, the
// studies of §5 (convex and §5.7 MLP) and the accountant. spec/linesearch.md.
#pragma once

#include "dpref/linesearch/accountant.hpp"
#include "dpref/linesearch/bounds.hpp"
#include "dpref/linesearch/calibration.hpp"
#include "dpref/linesearch/json.hpp"
#include "dpref/linesearch/mlp_study.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/problem.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/linesearch/run.hpp"
#include "dpref/linesearch/study.hpp"

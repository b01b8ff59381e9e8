// Umbrella header of the linesearch paper (Chen–Lee, DP backtracking line search): NOISYBTLS
// (Algorithm 1), DP-BLSGD / CHEB / DP-BLSGD-AC / DP-BLGD (Algorithms 2–3), the baselines of §5.3,
// params / problem / config, the one entry point run() and its JSON. spec/linesearch.md.
#pragma once

#include "dpref/linesearch/baselines.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/dp_blsgd.hpp"
#include "dpref/linesearch/noisy_btls.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/result.hpp"
#include "dpref/linesearch/run.hpp"

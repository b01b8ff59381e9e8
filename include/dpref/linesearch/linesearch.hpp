// Umbrella header of the linesearch algorithms (Chen–Lee, file 003): NOISYBTLS (Algorithm 1),
// DP-BLSGD / CHEB / DP-BLSGD-AC / DP-BLGD (Algorithms 2–3) and the baselines of §5.3.
// spec/linesearch.md.
#pragma once

#include "dpref/algorithms/linesearch/baselines.hpp"
#include "dpref/algorithms/linesearch/common.hpp"
#include "dpref/algorithms/linesearch/dp_blsgd.hpp"
#include "dpref/algorithms/linesearch/noisy_btls.hpp"

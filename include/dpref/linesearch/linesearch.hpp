// Umbrella header of the linesearch algorithms (Chen–Lee, file 003): NOISYBTLS (Algorithm 1),
// DP-BLSGD / CHEB / DP-BLSGD-AC / DP-BLGD (Algorithms 2–3) and the baselines of §5.3.
// spec/linesearch.md.
#pragma once

#include "dpref/linesearch/baselines.hpp"
#include "dpref/linesearch/common.hpp"
#include "dpref/linesearch/dp_blsgd.hpp"
#include "dpref/linesearch/noisy_btls.hpp"

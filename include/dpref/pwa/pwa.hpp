// Umbrella header of the pwa paper (DP mechanisms for piecewise-affine objectives: M_P, M_S, the
// private subgradient method and M_E), the one door src/ and python/ use (spec/architecture.md
// ARCH.SKELETON): params, problem (and its public description problem_spec), result, the one
// entry point run, its JSON, the calibration of the noise scales, the bounds of §3-4 and the
// study of §5 (study_json.hpp: its JSON).
#pragma once

#include "dpref/pwa/bounds.hpp"
#include "dpref/pwa/calibration.hpp"
#include "dpref/pwa/json.hpp"
#include "dpref/pwa/params.hpp"
#include "dpref/pwa/problem.hpp"
#include "dpref/pwa/result.hpp"
#include "dpref/pwa/run.hpp"
#include "dpref/pwa/study.hpp"
#include "dpref/pwa/study_json.hpp"

// Umbrella header of the dda paper (Liu–Johansson–Shi, private distributed dual averaging), the
// one door src/ and python/ use (spec/architecture.md ARCH.SKELETON): params, problem (and the
// data sets of §5 with problem_spec, data.hpp), result, the one entry point run, its JSON, the
// calibrations of σ, the bounds of Theorems 2-3 and the study of §5.
#pragma once

#include "dpref/dda/bounds.hpp"
#include "dpref/dda/calibration.hpp"
#include "dpref/dda/composition.hpp"
#include "dpref/dda/data.hpp"
#include "dpref/dda/json.hpp"
#include "dpref/dda/ledger.hpp"
#include "dpref/dda/params.hpp"
#include "dpref/dda/problem.hpp"
#include "dpref/dda/result.hpp"
#include "dpref/dda/run.hpp"
#include "dpref/dda/study.hpp"

// Umbrella header of the ev paper (Han–Topcu–Pappas, private distributed projected gradient for
// EV charging, Algorithms 1-3), the one door src/ and python/ use (spec/architecture.md
// ARCH.SKELETON): params, problem (and the data of §VII with problem_spec, data.hpp), result, the
// one entry point run, its JSON, the calibration of s, the bounds and sensitivity (Theorems
// 7-8) and the study of §VII.
#pragma once

#include "dpref/ev/bounds.hpp"
#include "dpref/ev/calibration.hpp"
#include "dpref/ev/data.hpp"
#include "dpref/ev/json.hpp"
#include "dpref/ev/params.hpp"
#include "dpref/ev/problem.hpp"
#include "dpref/ev/result.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/ev/sensitivity.hpp"
#include "dpref/ev/study.hpp"

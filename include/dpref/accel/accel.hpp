// Umbrella header of the accel paper (Kuru–Birbil–Gürbüzbalaban–Yıldırım, DP accelerated methods:
// DP-GD (2.4), DP-SHB (3.1), DP-NAG (4.1), DP-NAG-opt, DP-MASG (4.7), DP-MASG-opt), the one door
// src/ and python/ use (spec/architecture.md ARCH.SKELETON): params, problem, result, the one
// entry point run, its JSON, the calibration of b_t, the bounds and the study of §5.
#pragma once

#include "dpref/accel/bounds.hpp"
#include "dpref/accel/calibration.hpp"
#include "dpref/accel/json.hpp"
#include "dpref/accel/params.hpp"
#include "dpref/accel/problem.hpp"
#include "dpref/accel/result.hpp"
#include "dpref/accel/run.hpp"
#include "dpref/accel/study.hpp"

// The accel paper's error bounds, one file per theorem (spec/accel.md): Theorem 3.5 (DP-SHB,
// bounds_hb.hpp), Proposition 3.4 (the matrix inequality of DP-SHB, bounds_prop34.hpp), Theorem
// 4.1 (DP-NAG, bounds_nag.hpp) and Theorem 4.3 (DP-MASG, bounds_masg.hpp).
#pragma once

#include "dpref/accel/bounds_hb.hpp"
#include "dpref/accel/bounds_masg.hpp"
#include "dpref/accel/bounds_nag.hpp"
#include "dpref/accel/bounds_prop34.hpp"

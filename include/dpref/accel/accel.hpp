// Umbrella header of the accel algorithms (DP-GD, DP-SHB, DP-NAG, DP-NAG-opt, DP-MASG,
// DP-MASG-opt) and their problems and bounds.
#pragma once

#include "dpref/algorithms/accel/common.hpp"
#include "dpref/algorithms/accel/dp_gd.hpp"
#include "dpref/algorithms/accel/dp_masg.hpp"
#include "dpref/algorithms/accel/dp_masg_opt.hpp"
#include "dpref/algorithms/accel/dp_nag.hpp"
#include "dpref/algorithms/accel/dp_nag_opt.hpp"
#include "dpref/algorithms/accel/dp_shb.hpp"
#include "dpref/algorithms/accel/masg_schedule.hpp"
#include "dpref/algorithms/accel/reference.hpp"
#include "dpref/bounds/accel_hb.hpp"
#include "dpref/bounds/accel_masg.hpp"
#include "dpref/bounds/accel_nag.hpp"
#include "dpref/bounds/accel_prop34.hpp"
#include "dpref/problems/logistic.hpp"
#include "dpref/problems/quadratic.hpp"
#include "dpref/problems/synthetic_logistic.hpp"

// Umbrella header of the accel algorithms (DP-GD, DP-SHB, DP-NAG, DP-NAG-opt, DP-MASG,
// DP-MASG-opt) and their problems and bounds.
#pragma once

#include "dpref/accel/bounds_hb.hpp"
#include "dpref/accel/bounds_masg.hpp"
#include "dpref/accel/bounds_nag.hpp"
#include "dpref/accel/bounds_prop34.hpp"
#include "dpref/accel/common.hpp"
#include "dpref/accel/dp_gd.hpp"
#include "dpref/accel/dp_masg.hpp"
#include "dpref/accel/dp_masg_opt.hpp"
#include "dpref/accel/dp_nag.hpp"
#include "dpref/accel/dp_nag_opt.hpp"
#include "dpref/accel/dp_shb.hpp"
#include "dpref/accel/masg_schedule.hpp"
#include "dpref/accel/reference.hpp"
#include "dpref/accel/run.hpp"
#include "dpref/problems/logistic.hpp"
#include "dpref/problems/quadratic.hpp"
#include "dpref/problems/synthetic_logistic.hpp"

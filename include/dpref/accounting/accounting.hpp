// Umbrella header of the privacy-accounting layer (spec/accounting.md).
#pragma once

#include "dpref/accounting/analytic_gaussian.hpp"
#include "dpref/accounting/budget_exceeded.hpp"
#include "dpref/accounting/certified.hpp"
#include "dpref/accounting/composition.hpp"
#include "dpref/accounting/conversion.hpp"
#include "dpref/accounting/discrete.hpp"
#include "dpref/accounting/gaussian.hpp"
#include "dpref/accounting/laplace.hpp"
#include "dpref/accounting/subsampling.hpp"
#include "dpref/accounting/svt.hpp"
#include "dpref/accounting/types.hpp"

// Privacy-loss-distribution (PLD) accountant with certified discretisation
// (spec/accounting_pld.md): mechanisms and subsampling (pld/mechanisms.hpp), discretisation,
// composition and queries (pld/distribution.hpp). Namespace dpref::accounting::pld.
#pragma once

#include "dpref/accounting/pld/distribution.hpp"
#include "dpref/accounting/pld/fft.hpp"
#include "dpref/accounting/pld/laws.hpp"
#include "dpref/accounting/pld/mechanisms.hpp"
#include "dpref/accounting/pld/numeric.hpp"

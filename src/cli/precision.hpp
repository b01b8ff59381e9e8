// `--precision double|long-double|mp50|mpfr:DIGITS` of the CLI: the library's precision names
// and dispatch (dpref/io/precision.hpp), shared with the Python package.
#pragma once

#include "dpref/io/precision.hpp"

namespace dpref::cli {

using io::parse_precision;
using io::precision;
using io::with_precision;

}  // namespace dpref::cli

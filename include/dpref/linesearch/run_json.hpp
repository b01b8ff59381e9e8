// The linesearch paper's run_json entry point under the name src/papers/papers.hpp expects
// (spec/architecture.md ARCH.RUN); the code is json.hpp.
#pragma once

#include "dpref/linesearch/json.hpp"

// The library version (kept equal to the CMake project version by a test).
#pragma once

namespace dpref {
inline constexpr const char* version = "0.2.0";
}  // namespace dpref

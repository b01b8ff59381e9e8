// libFuzzer target for ev's base-load reader (spec/hardening.md HARD.FUZZ, spec/ev.md
// EV.DATA.CSV): any input is accepted (a profile of 1 to 10,000 finite values in [0, 100] kW) or
// refused with std::invalid_argument naming the file and the line; nothing else may escape, and
// the reader never holds more than its byte limit.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "dpref/ev/data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  dpref::ev::base_load_limits lim;
  lim.max_bytes = 1 << 16;
  lim.max_slots = 1000;
  try {
    const auto d = dpref::ev::read_base_load_csv<double>(in, "fuzz.csv", lim);
    if (d.size() < 1 || d.size() > lim.max_slots) __builtin_trap();
    for (Eigen::Index i = 0; i < d.size(); ++i)
      if (!(d[i] >= 0 && d[i] <= 100)) __builtin_trap();  // the stated physical range
  } catch (const std::invalid_argument&) {
  }
  return 0;
}

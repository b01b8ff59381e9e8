// libFuzzer targets for the dataset readers (spec/hardening.md HARD.FUZZ): CSV, LIBSVM and IDX
// (selected at compile time by DPREF_FUZZ_READER). Malformed input must be refused with
// std::invalid_argument naming the file and line; nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "dpref/io/dataset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  dpref::io::dataset_limits lim;
  lim.max_rows = 10000;
  lim.max_features = 10000;
  lim.max_cells = 1 << 20;
  try {
#if DPREF_FUZZ_READER == 1
    (void)dpref::io::read_csv_binary<double>(in, "fuzz.csv", lim);
#elif DPREF_FUZZ_READER == 2
    (void)dpref::io::read_libsvm<double>(in, "fuzz.svm", 0, lim);
#else
    if (size > 3 && data[3] == 0x01)  // magic 0x00000801: labels
      (void)dpref::io::read_idx_labels<>(in, "fuzz.idx", lim);
    else
      (void)dpref::io::read_idx_images<double>(in, "fuzz.idx", lim);
#endif
  } catch (const std::invalid_argument&) {
  }
  return 0;
}

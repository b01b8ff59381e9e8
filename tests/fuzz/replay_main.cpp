// Corpus replay for the fuzz targets in every build (spec/hardening.md HARD.FUZZ): links one
// target's LLVMFuzzerTestOneInput and feeds it each file of the directories on the command line,
// so the committed seed corpus (and every crash input added to it) is re-run by the ordinary
// test suite, under ASan/UBSan in the dev preset. An escaping exception or a sanitizer report
// fails the test; an empty corpus fails too (a replay of nothing would assert nothing).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::size_t files = 0;
  for (int i = 1; i < argc; ++i) {
    for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
      std::cout << "replay " << entry.path().filename().string() << " (" << bytes.size()
                << " bytes)\n";
      (void)LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                   bytes.size());
      ++files;
    }
  }
  if (files == 0) {
    std::cerr << "replay: no corpus files found\n";
    return 1;
  }
  std::cout << files << " inputs replayed\n";
  return 0;
}

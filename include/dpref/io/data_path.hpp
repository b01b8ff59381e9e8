// Data files shipped with dpref (e.g. ev's base-load profile) are installed under
// <prefix>/share/dpref/ and found relative to the running program or through the environment
// — never through the source tree (spec/architecture.md ARCH.CLI).
//
// Search order for a relative name such as "ev/base_load_taylor.csv":
//   1. $DPREF_DATA_DIR/<name>  (a user's override; dpref itself never sets it)
//   2. when this code runs in a shared module (the Python extension dpref/_core*.so), relative to
//      that module M: M/share/dpref (a wheel's dpref/share/dpref), M/../../share/dpref (the build
//      tree's python/dpref -> share/dpref), M/../../../../share/dpref (`cmake --install`'s
//      <prefix>/lib/python3/dist-packages/dpref -> <prefix>/share/dpref): the places
//      dpref.data_dir() searches, so the package needs no environment variable
//   3. <directory of the running executable>/../share/dpref/<name>  (installed layout; the build
//      tree mirrors it: build/<preset>/share/dpref holds links to the source folders, and a
//      wheel puts the binary in dpref/bin next to dpref/share/dpref)
// find_data_dir() gives the first of those folders that exists (e.g. `dpref reproduce`'s root
// of the shipped examples and committed data subsets).
#pragma once

#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace dpref::io {

/// Folder of the running executable ("" if unknown).
inline std::filesystem::path executable_dir() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  buf[n] = '\0';
  return std::filesystem::path(buf).parent_path();
}

/// Folder of the shared module (dlopen'ed library, e.g. the Python extension) holding this
/// code; "" when the code is in the executable itself or the mapping is unknown. Read from
/// /proc/self/maps (the mapping containing this function's address), as executable_dir() reads
/// /proc/self/exe: no dl library, no global state.
inline std::filesystem::path shared_module_dir() {
  const auto here = reinterpret_cast<std::uintptr_t>(&shared_module_dir);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    // "start-end perms offset dev inode   pathname"
    const std::size_t dash = line.find('-');
    const std::size_t space = line.find(' ');
    if (dash == std::string::npos || space == std::string::npos || dash > space) continue;
    std::uintptr_t lo = 0, hi = 0;
    try {
      lo = static_cast<std::uintptr_t>(std::stoull(line.substr(0, dash), nullptr, 16));
      hi = static_cast<std::uintptr_t>(
          std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16));
    } catch (const std::exception&) {
      continue;
    }
    if (here < lo || here >= hi) continue;
    const std::size_t slash = line.find('/');
    if (slash == std::string::npos) return {};
    const std::filesystem::path module = line.substr(slash);
    std::error_code ec;
    if (std::filesystem::equivalent(module, "/proc/self/exe", ec) || ec) return {};
    return module.parent_path();
  }
  return {};
}

/// The candidate data folders, in search order: $DPREF_DATA_DIR; for code in a shared module M,
/// M/share/dpref, M/../../share/dpref, M/../../../../share/dpref; <exe>/../share/dpref.
inline std::vector<std::filesystem::path> data_dir_candidates() {
  std::vector<std::filesystem::path> out;
  if (const char* env = std::getenv("DPREF_DATA_DIR"); env && *env) out.emplace_back(env);
  if (const auto m = shared_module_dir(); !m.empty())
    for (const char* up : {"share/dpref", "../../share/dpref", "../../../../share/dpref"})
      out.push_back(m / up);
  const auto exe = executable_dir();
  if (!exe.empty()) out.push_back(exe / ".." / "share" / "dpref");
  return out;
}

/// The candidate locations of a shipped data file, in search order.
inline std::vector<std::filesystem::path> data_candidates(const std::string& name) {
  std::vector<std::filesystem::path> out;
  for (const auto& d : data_dir_candidates()) out.push_back(d / name);
  return out;
}

/// The first existing data folder. @throws std::invalid_argument listing where it looked
inline std::string find_data_dir() {
  std::string looked;
  for (const auto& d : data_dir_candidates()) {
    if (std::filesystem::is_directory(d)) return d.lexically_normal().string();
    looked += (looked.empty() ? "" : ", ") + d.lexically_normal().string();
  }
  throw std::invalid_argument("dpref's data folder not found (looked in: " +
                              (looked.empty() ? std::string("nowhere") : looked) +
                              "); set DPREF_DATA_DIR to the installed share/dpref");
}

/// Path of a shipped data file. @throws std::invalid_argument listing where it looked
inline std::string find_data_file(const std::string& name) {
  std::string looked;
  for (const auto& p : data_candidates(name)) {
    if (std::filesystem::is_regular_file(p)) return p.lexically_normal().string();
    looked += (looked.empty() ? "" : ", ") + p.lexically_normal().string();
  }
  throw std::invalid_argument("shipped data file '" + name + "' not found (looked in: " +
                              (looked.empty() ? std::string("nowhere") : looked) +
                              "); set DPREF_DATA_DIR to the folder holding it");
}

}  // namespace dpref::io

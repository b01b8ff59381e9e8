// Data files shipped with dpref (e.g. ev's base-load profile) are installed under
// <prefix>/share/dpref/ and found relative to the running program or through the environment
// — never through the source tree (spec/architecture.md ARCH.CLI).
//
// Search order for a relative name such as "ev/base_load_taylor.csv":
//   1. $DPREF_DATA_DIR/<name>
//   2. <directory of the running executable>/../share/dpref/<name>  (installed layout; the build
//      tree mirrors it: build/<preset>/share/dpref holds links to the source folders, and a
//      wheel puts the binary in dpref/bin next to dpref/share/dpref)
// find_data_dir() gives the first of those folders that exists (e.g. `dpref reproduce`'s root
// of the shipped examples and committed data subsets).
#pragma once

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
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

/// The candidate data folders, in search order: $DPREF_DATA_DIR, <exe>/../share/dpref.
inline std::vector<std::filesystem::path> data_dir_candidates() {
  std::vector<std::filesystem::path> out;
  if (const char* env = std::getenv("DPREF_DATA_DIR"); env && *env) out.emplace_back(env);
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

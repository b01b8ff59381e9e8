// Where a command writes its JSON (spec/architecture.md ARCH.CLI): stdout, or `--out FILE`
// written atomically (a temporary file in the same folder renamed over FILE, so an interrupted
// run leaves no partial file). Output paths are checked BEFORE the expensive part.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "dpref/io/json.hpp"
#include "world.hpp"

namespace dpref::cli {

/// Refuses an output file whose folder does not exist or that names a folder.
/// @throws std::invalid_argument naming the flag
inline void check_output_file(const std::string& path, const std::string& flag = "--out") {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  const fs::path p(path);
  if (fs::is_directory(p))
    throw std::invalid_argument(flag + " must name a file, got the folder '" + path + "'");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir))
    throw std::invalid_argument(flag + " must be in an existing folder, got '" + path + "'");
}

/// Creates `dir` (and parents) for PNG output now, so a late failure cannot waste a study.
inline void prepare_output_dir(const std::string& dir, const std::string& flag = "--png-dir") {
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw std::invalid_argument(flag + " must be a folder that can be created, got '" + dir +
                                "' (" + ec.message() + ")");
}

/// Writes `text` to `path` atomically, or to stdout if `path` is empty. Under MPI only rank 0
/// writes (every rank holds the same result).
inline void write_text(const std::string& text, const std::string& path) {
  if (!world().is_root()) return;
  if (path.empty()) {
    std::cout << text;
    std::cout.flush();
    return;
  }
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) throw std::invalid_argument("--out: cannot write '" + path + "'");
    f << text;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      throw std::invalid_argument("--out: cannot write '" + path + "'");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::invalid_argument("--out: cannot write '" + path + "'");
  }
}

/// Progress of long runs: stderr only (never in the JSON).
inline void progress_to_stderr(std::string_view line) { std::cerr << "dpref " << line << "\n"; }

/// JSON (indent 1, trailing newline) to `path` or stdout.
inline void write_json(const io::json& j, const std::string& path) {
  write_text(j.dump(1) + "\n", path);
}

}  // namespace dpref::cli

// JSON output shared by the CLI subcommands: scalars (double as a JSON number, 17 significant
// digits round-trip; every other scalar as a decimal string carrying all its digits), vectors,
// and the studies' "write the JSON, then run the plotting script" step.
#pragma once

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "dpref/scalar.hpp"
#include "run_script.hpp"
#include "scalar_format.hpp"

namespace dpref::cli {

template <real_scalar Real>
nlohmann::json num(const Real& x) {
  if constexpr (std::is_same_v<Real, double>)
    return x;
  else
    return to_text(x);
}

template <real_scalar Real>
nlohmann::json vec_json(const vector<Real>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(num(v[i]));
  return a;
}

/// Writes j (indent 1) to `path`, or to stdout if `path` is empty.
/// @param who the command, for the message (e.g. "dpref ev study")
/// @throws std::invalid_argument naming --out if the file cannot be written
inline void write_json_output(const nlohmann::json& j, const std::string& path,
                              const std::string& who) {
  if (path.empty()) {
    std::cout << j.dump(1) << "\n";
    return;
  }
  std::ofstream f(path);
  if (!f) throw std::invalid_argument(who + ": cannot write --out '" + path + "'");
  f << j.dump(1) << "\n";
}

/// Runs `python script json_path png_dir` (a study's plots) without a shell (run_script.hpp).
/// @throws std::runtime_error naming the command if it fails
inline void run_plot_script(const std::string& python, const std::string& script,
                            const std::string& json_path, const std::string& png_dir,
                            const std::string& who) {
  run_program({python, script, json_path, png_dir}, who);
}

}  // namespace dpref::cli

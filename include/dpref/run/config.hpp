// The complete configuration of a paper's run (spec/architecture.md ARCH.RUN): the problem's
// public description, the parameters and the stream (seed, stream id) of all of the run's
// randomness. Its JSON is the `--params` document of `dpref <paper> run` and the "config" echoed
// in the result; accel, ev, linesearch and pwa use it as `config<Real>` (dda adds its network).
#pragma once

#include <cstdint>

#include "dpref/io/json.hpp"
#include "dpref/run/report_json.hpp"

namespace dpref {

/// @tparam ProblemSpec the paper's problem_spec<Real> (fields(), validate())
/// @tparam Params the paper's params<Real> (fields(), validate())
/// @tparam DefaultStream the stream id a document without "stream" gets
/// @spec ARCH.RUN
template <class ProblemSpec, class Params, std::uint64_t DefaultStream>
struct run_config {
  ProblemSpec problem{};
  Params params{};
  std::uint64_t seed = 20261121;  ///< the run's stream is philox_stream(seed, stream)
  std::uint64_t stream = DefaultStream;

  template <class V>
  void fields(V&& v) {
    v("problem", problem, "the instance (public description)");
    v("params", params, "the algorithm and its parameters");
    v("seed", seed, "seed of the run's stream (all of the run's randomness)");
    v("stream", stream, "stream id of the run's stream");
  }
  /// The checks that need no problem; invalid_parameter names "<owner>.<field>".
  void validate() const {
    problem.validate();
    params.validate();
  }
};

/// Reads a run_config strictly through its field list and validates each section, a failure
/// naming the flag or JSON path the user wrote (at_path).
/// @throws std::invalid_argument for unknown keys, wrong types and invalid values
template <class Config>
Config read_run_config(const io::document& doc) {
  Config cfg;
  io::read_fields(io::node(doc), cfg);
  at_path(doc, "/params", [&] { cfg.params.validate(); });
  at_path(doc, "/problem", [&] { cfg.problem.validate(); });
  return cfg;
}

}  // namespace dpref

// `dpref reproduce --resume` (spec/reproduce.md REPRO.RESUME): after every finished job the
// command rewrites DIR/progress.json with what that job added (claims, errata, performance rows,
// series, seconds). `--resume` reads it back and runs only the jobs it lacks; it refuses a file
// written by another commit or in another mode, since its numbers would not be this build's.
// The claim and performance-row JSON of report.json are written here, with their inverses.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "reproduce/claims.hpp"

namespace dpref::cli::reproduce_progress {

/// A claim as a report.json row (spec/schema/report.schema.json $defs/claim).
nlohmann::ordered_json claim_json(const dpref::reproduce::claim& c);
/// The inverse of claim_json (null numbers read back as NaN). @throws std::invalid_argument
dpref::reproduce::claim claim_from_json(const nlohmann::ordered_json& j);
/// A performance row as a report.json row, and its inverse.
nlohmann::ordered_json perf_json(const dpref::reproduce::perf_row& p);
dpref::reproduce::perf_row perf_from_json(const nlohmann::ordered_json& j);

/// What one job added to the run's results: `after` minus the first `before` entries.
struct mark {
  std::size_t claims = 0, errata = 0, perf = 0, series = 0;
};
mark mark_of(const dpref::reproduce::results& r);
nlohmann::ordered_json job_entry(const std::string& key, double seconds,
                                 const dpref::reproduce::results& after, const mark& before);
/// Appends a stored job's entries to `into`; returns its seconds.
double restore_job(const nlohmann::ordered_json& entry, dpref::reproduce::results& into);

/// DIR/progress.json: {"schema", "commit", "mode", "jobs": [{"job", "seconds", ...}]}.
class progress_file {
 public:
  progress_file(std::string dir, std::string commit, std::string mode);
  /// Reads DIR/progress.json for --resume. @throws std::invalid_argument naming the file when it
  /// is absent, unreadable, or written by another commit or mode, or when this build's commit is
  /// "unknown" or "...-dirty" (it does not identify the code; DPREF_GIT_COMMIT can name it)
  void load();
  /// The entry of job `key` that load() read, or nullptr.
  [[nodiscard]] const nlohmann::ordered_json* find(const std::string& key) const;
  /// Records a finished (or resumed) job and rewrites the file atomically: the file always holds
  /// exactly the jobs of this run so far.
  void add(nlohmann::ordered_json entry);
  [[nodiscard]] std::string path() const;

 private:
  std::string dir_, commit_, mode_;
  nlohmann::ordered_json stored_ = nlohmann::ordered_json::array();  ///< read by load()
  nlohmann::ordered_json jobs_ = nlohmann::ordered_json::array();    ///< written by this run
};

}  // namespace dpref::cli::reproduce_progress

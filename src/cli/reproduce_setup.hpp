// What `dpref reproduce` checks and records before any work (spec/reproduce.md REPRO.CMD,
// REPRO.JSON): the selections (--papers, --claims), a writable --out, the root of the data the
// claims read, and the run's provenance (exact command line, machine, commit, UTC time).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpref::cli::reproduce_setup {

/// The exact command line (from /proc/self/cmdline).
std::vector<std::string> command_line();
/// `s` quoted for a POSIX shell (unchanged when it needs no quoting).
std::string shell_quote(const std::string& s);
/// cores, CPU model, memory, host (Linux /proc).
nlohmann::ordered_json machine();
/// The current UTC time, ISO 8601.
std::string utc_now();
/// $DPREF_GIT_COMMIT, else the `git describe` of the build, else "unknown".
std::string commit();
/// Root of the files the claims read by their repository paths ($DPREF_SOURCE_DIR or the
/// installed data folder). @throws std::invalid_argument if there is none
std::string source_dir();
/// --papers: a comma-separated subset of the papers (default: all). @throws invalid_argument
std::vector<std::string> parse_papers(const std::string& text);
/// --claims: claim IDs of the selected papers (empty: every claim). @throws invalid_argument
std::vector<std::string> parse_claims(const std::string& text,
                                      const std::vector<std::string>& papers);
/// Creates DIR and checks that a file can be written in it. @throws invalid_argument
void check_writable_dir(const std::string& dir);

}  // namespace dpref::cli::reproduce_setup

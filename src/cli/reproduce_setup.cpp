// `dpref reproduce`: selections, --out, data root and provenance (reproduce_setup.hpp).
#include "reproduce_setup.hpp"

#include <unistd.h>
#include <algorithm>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "dpref/io/data_path.hpp"
#include "dpref_git_describe.hpp"  // generated at build time (cmake/git_describe.cmake)
#include "reproduce/claims.hpp"

namespace dpref::cli::reproduce_setup {

namespace rp = dpref::reproduce;
using ojson = nlohmann::ordered_json;

/// The exact command line (from /proc/self/cmdline).
std::vector<std::string> command_line() {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> argv;
  std::string a;
  while (std::getline(f, a, '\0')) argv.push_back(a);
  return argv;
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789-_./=,:+") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// cores, CPU model, memory (Linux /proc).
ojson machine() {
  ojson m;
  m["cores"] = std::thread::hardware_concurrency();
  std::string model = "unknown";
  std::ifstream ci("/proc/cpuinfo");
  for (std::string line; std::getline(ci, line);)
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  m["cpu_model"] = model;
  double mem = 0;
  std::ifstream mi("/proc/meminfo");
  for (std::string line; std::getline(mi, line);)
    if (line.rfind("MemTotal:", 0) == 0) mem = std::atof(line.c_str() + 9) * 1024;
  m["memory_bytes"] = mem;
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  m["hostname"] = host;
  return m;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string commit() {
  if (const char* c = std::getenv("DPREF_GIT_COMMIT"); c && *c) return c;
  return DPREF_GIT_DESCRIBE;  // dpref_git_describe.hpp, written at build time
}

/// Root of the files the claims read by their repository paths (examples/<paper>.json,
/// tests/regression/data/, data/real/): $DPREF_SOURCE_DIR (a checkout, e.g. with the full data
/// sets of scripts/real_data.sh) when set, else the installed data folder, which mirrors those
/// paths (io::find_data_dir: <exe>/../share/dpref; the build tree links them to the sources).
/// Never a path compiled into the binary. @throws std::invalid_argument if there is none
std::string source_dir() {
  if (const char* c = std::getenv("DPREF_SOURCE_DIR"); c && *c) return c;
  return io::find_data_dir();
}

/// --papers: a comma-separated subset of the papers (default: all). @throws invalid_argument
std::vector<std::string> parse_papers(const std::string& text) {
  const auto& known = rp::paper_names();
  if (text.empty()) return known;
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string p; std::getline(ss, p, ',');) {
    bool ok = false;
    for (const auto& k : known) ok = ok || k == p;
    if (!ok) {
      std::string all;
      for (const auto& k : known) all += (all.empty() ? "" : ", ") + k;
      throw std::invalid_argument("--papers must be a comma-separated subset of " + all +
                                  ", got '" + text + "'");
    }
    bool dup = false;
    for (const auto& o : out) dup = dup || o == p;
    if (!dup) out.push_back(p);
  }
  return out;
}

/// --claims: a comma-separated list of claim IDs (the jobs' names, or a claim another job's
/// experiment also decides, such as LS.CLAIM.BUDGET), each a claim of one of the selected
/// papers; empty: every claim. @throws invalid_argument naming the unknown ID
std::vector<std::string> parse_claims(const std::string& text,
                                      const std::vector<std::string>& papers) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  const auto jobs = rp::all_jobs();
  std::stringstream ss(text);
  for (std::string id; std::getline(ss, id, ',');) {
    const rp::job* found = nullptr;
    for (const auto& j : jobs)
      if (!j.perf && (j.name == id || std::find(j.also.begin(), j.also.end(), id) != j.also.end()))
        found = &j;
    if (!found) {
      std::string all;
      for (const auto& j : jobs)
        if (!j.perf) {
          all += (all.empty() ? "" : ", ") + j.name;
          for (const auto& a : j.also) all += ", " + a;
        }
      throw std::invalid_argument("--claims must be a comma-separated list of claim IDs (" + all +
                                  "), got '" + id + "'");
    }
    bool in_papers = false;
    for (const auto& p : papers) in_papers = in_papers || p == found->paper;
    if (!in_papers)
      throw std::invalid_argument("--claims " + id + " is a claim of paper " + found->paper +
                                  ", which --papers does not select");
    bool dup = false;
    for (const auto& o : out) dup = dup || o == id;
    if (!dup) out.push_back(id);
  }
  return out;
}

/// Creates DIR and checks that a file can be written in it, BEFORE any work.
void check_writable_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw std::invalid_argument("--out must name a writable directory, got '" + dir + "'" +
                                (ec ? " (" + ec.message() + ")" : std::string()));
  const std::string probe = (fs::path(dir) / ".dpref_reproduce_probe").string();
  std::ofstream f(probe);
  if (!f || !(f << "probe") || (f.close(), !f))
    throw std::invalid_argument("--out must name a writable directory, got '" + dir + "'");
  fs::remove(probe, ec);
}

}  // namespace dpref::cli::reproduce_setup

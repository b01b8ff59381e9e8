// `dpref vectors --out DIR`: writes the versioned conformance corpus (spec/conformance.md
// CONF.CORPUS): inputs, exact expected outputs (60 digits) and the tolerance each output is
// entitled to, for Philox addresses, samplers, the accountant, calibrators, projections and
// (when the papers register them, src/papers/papers.hpp) one trajectory per algorithm.
// `dpref check-vectors DIR [--cmd CMD]`: checks an implementation against a corpus — dpref
// itself, or any command speaking the protocol of CONF.PROTOCOL (one JSON request on stdin, one
// JSON response on stdout per family file) — and reports pass/fail and the worst error per
// vector. Exit code 6 if a vector fails.
#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.hpp"
#include "dpref/conformance/check.hpp"
#include "dpref/conformance/generate.hpp"
#include "dpref/conformance/ops.hpp"
#include "output.hpp"
#include "papers/papers.hpp"

namespace dpref::cli {
namespace {

namespace fs = std::filesystem;

struct vectors_options {
  std::string out;
};

void run_vectors(const vectors_options& o) {
  // reference values at 120 digits (set once, in the main thread, before any work: ARCH)
  mpfr_real::default_precision(conformance::reference_digits);
  std::vector<conformance::family_entry> families = conformance::generic_families();
  std::vector<std::string> papers;
  for (auto& e : papers::trajectory_families()) {
    papers.push_back(e.path);
    families.push_back(std::move(e));
  }
  const conformance::corpus_summary s = conformance::write_corpus(o.out, families, papers);
  fmt::print("dpref vectors: wrote {} files, {} vectors, {} bytes to {}\n", s.files, s.vectors,
             s.bytes, o.out);
}

struct check_options {
  std::string path;
  std::string cmd;
  bool json = false;
  bool verbose = false;
};

/// Family files of a corpus directory (from its MANIFEST.json, else every *.json), or the file.
std::vector<fs::path> family_files(const fs::path& p) {
  if (fs::is_regular_file(p)) return {p};
  if (!fs::is_directory(p))
    throw std::invalid_argument(
        "dpref check-vectors: DIR must be a corpus folder or a family "
        "file, got '" +
        p.string() + "'");
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(p))
    if (e.is_regular_file() && e.path().extension() == ".json" &&
        e.path().filename() != "MANIFEST.json")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  if (out.empty())
    throw std::invalid_argument("dpref check-vectors: no family files (*.json) under '" +
                                p.string() + "'");
  return out;
}

/// Runs the shell command line `cmd` (/bin/sh -c: --cmd is a command line by design, e.g.
/// "python3 impl.py --fast") with stdin read from `in` and stdout written to `out`. The two paths
/// are opened by posix_spawn's file actions, never spliced into the command text, so no quoting
/// of them is needed. Returns the exit status (-1 when the command could not be started).
int run_with_redirects(const std::string& cmd, const fs::path& in, const fs::path& out) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  std::string sh = "sh", dash_c = "-c", line = cmd;
  char* argv[] = {sh.data(), dash_c.data(), line.data(), nullptr};
  pid_t pid = 0;
  const int err = posix_spawn(&pid, "/bin/sh", &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status)
                           : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/// Answers of `cmd` to the vectors (one request on stdin, one response on stdout).
std::map<std::string, io::json> ask_command(const std::string& cmd, const io::json& vectors,
                                            const fs::path& family) {
  io::json req = io::json::object();
  req["protocol"] = "dpref.conformance/1";
  req["family"] = family.string();
  io::json list = io::json::array();
  for (const auto& v : vectors)
    list.push_back({{"id", v.at("id")}, {"op", v.at("op")}, {"input", v.at("input")}});
  req["vectors"] = std::move(list);
  const fs::path dir = fs::temp_directory_path();
  const std::string tag = std::to_string(::getpid());
  const fs::path in = dir / ("dpref-check-" + tag + ".request.json");
  const fs::path out = dir / ("dpref-check-" + tag + ".response.json");
  {
    std::ofstream f(in, std::ios::binary);
    f << req.dump() << "\n";
  }
  const int rc = run_with_redirects(cmd, in, out);
  std::map<std::string, io::json> answers;
  std::string text;
  {
    std::ifstream f(out, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
  fs::remove(in);
  fs::remove(out);
  if (rc != 0)
    throw std::invalid_argument(
        "--cmd must be a command that starts and exits with status 0, got '" + cmd + "' (status " +
        std::to_string(rc) + " on " + family.string() + ")");
  const io::document d = io::document::parse(text, "--cmd response");
  for (const io::node& r : io::node(d).at("results").elements()) {
    const std::string id = r.at("id").string();
    io::json a = io::json::object();
    if (const auto e = r.find("error")) a["error"] = e->value();
    if (const auto o = r.find("output")) a["output"] = o->value();
    answers[id] = std::move(a);
  }
  return answers;
}

void run_check(const check_options& o) {
  mpfr_real::default_precision(conformance::reference_digits);
  std::size_t total = 0, failed = 0;
  io::json report = io::json::array();
  for (const fs::path& file : family_files(o.path)) {
    const io::document d = io::document::from_file(file.string());
    const io::json& vectors = d.root().at("vectors");
    std::map<std::string, io::json> answers;
    if (!o.cmd.empty()) {
      answers = ask_command(o.cmd, vectors, file);
    } else {
      for (const auto& v : vectors) {
        const std::string id = v.at("id").get<std::string>();
        try {
          const io::document in = io::document::from_value(v.at("input"), "vector " + id);
          answers[id] = {{"output", conformance::evaluate(v.at("op").get<std::string>(),
                                                          io::node(in), papers::runners())}};
        } catch (const std::exception& e) {
          answers[id] = {{"error", e.what()}};
        }
      }
    }
    std::size_t fam_failed = 0;
    conformance::verdict worst;
    io::json verdicts = io::json::array();
    for (const auto& v : vectors) {
      const std::string id = v.at("id").get<std::string>();
      const auto it = answers.find(id);
      const conformance::verdict r =
          conformance::check(v, it == answers.end() ? io::json::object() : it->second);
      ++total;
      if (!r.pass) {
        ++failed;
        ++fam_failed;
        if (!o.json && (o.verbose || fam_failed <= 10))
          fmt::print("  FAIL {}: {}\n", r.id, r.problem);
      } else if (o.verbose && !o.json) {
        fmt::print("  pass {}: worst {} {:.3g} {} (allowed {})\n", r.id, r.worst_key, r.worst_error,
                   r.unit, r.allowed);
      }
      if (!r.worst_key.empty() && (worst.worst_key.empty() || r.worst_ratio > worst.worst_ratio))
        worst = r;
      verdicts.push_back(r.to_json());
    }
    const std::string family = d.root().value("family", file.string());
    if (!o.json)
      fmt::print("{:<28} {:>4} vectors {:>4} passed{}\n", family, vectors.size(),
                 vectors.size() - fam_failed,
                 worst.worst_key.empty()
                     ? std::string()
                     : fmt::format("   worst {} {:.3g} {} of {} allowed ({})", worst.worst_key,
                                   worst.worst_error, worst.unit, worst.allowed, worst.id));
    report.push_back({{"family", family},
                      {"vectors", vectors.size()},
                      {"failed", fam_failed},
                      {"results", std::move(verdicts)}});
  }
  if (o.json) {
    io::json j = {{"schema", "dpref.check/1"},
                  {"vectors", total},
                  {"failed", failed},
                  {"families", std::move(report)}};
    write_json(j, "");
  } else {
    fmt::print("{} of {} vectors passed\n", total - failed, total);
  }
  if (failed > 0)
    throw check_failed(std::to_string(failed) + " of " + std::to_string(total) + " vectors failed");
}

void register_vectors_commands(CLI::App& app) {
  auto vo = std::make_shared<vectors_options>();
  auto* v = app.add_subcommand(
      "vectors", "Write the conformance corpus (test vectors with exact expected values)");
  v->add_option("--out", vo->out, "corpus folder (created)")->required();
  v->callback([vo] { run_vectors(*vo); });

  auto co = std::make_shared<check_options>();
  auto* c = app.add_subcommand("check-vectors",
                               "Check an implementation (dpref, or --cmd) against a corpus");
  c->add_option("path", co->path, "corpus folder, area folder or family file")->required();
  c->add_option("--cmd", co->cmd,
                "command speaking the protocol of spec/conformance.md (JSON request on stdin, "
                "JSON response on stdout); default: dpref itself");
  c->add_flag("--json", co->json, "print the report as JSON");
  c->add_flag("--verbose", co->verbose, "print every vector");
  c->callback([co] { run_check(*co); });
}

const command_registrar vectors_registrar(register_vectors_commands);

}  // namespace
}  // namespace dpref::cli

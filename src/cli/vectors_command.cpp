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
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
#include "dpref/conformance/corpus.hpp"
#include "dpref/conformance/generate.hpp"
#include "dpref/conformance/ops.hpp"
#include "output.hpp"
#include "papers/papers.hpp"

namespace dpref::cli {
namespace {

namespace fs = std::filesystem;

struct vectors_options {
  std::string out;
  std::vector<std::string> only;
};

void run_vectors(const vectors_options& o) {
  // reference values at 120 digits, on this thread for the whole command (ARCH.MPFR.SCOPE)
  const mpfr_precision_scope reference_precision(conformance::reference_digits);
  std::vector<conformance::family_entry> all = conformance::generic_families();
  std::vector<std::string> papers;
  for (auto& e : papers::trajectory_families()) {
    papers.push_back(e.path);
    all.push_back(std::move(e));
  }
  std::vector<conformance::family_entry> families;
  for (auto& e : all)
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), e.path) != o.only.end())
      families.push_back(std::move(e));
  for (const auto& name : o.only)
    if (std::none_of(families.begin(), families.end(),
                     [&](const auto& e) { return e.path == name; }))
      throw std::invalid_argument(
          "--only must name a family of the corpus (e.g. "
          "trajectories/linesearch), got '" +
          name + "'");
  const conformance::corpus_summary s = conformance::write_corpus(o.out, families, papers);
  fmt::print("dpref vectors: wrote {} files, {} vectors, {} bytes to {}\n", s.files, s.vectors,
             s.bytes, o.out);
}

struct check_options {
  std::string path;
  std::string cmd;
  std::vector<std::string> ids;
  std::vector<std::string> precisions;
  bool json = false;
  bool verbose = false;
};

/// Splits comma-separated values of a repeatable flag.
std::vector<std::string> split_commas(const std::vector<std::string>& in) {
  std::vector<std::string> out;
  for (const auto& s : in) {
    std::size_t b = 0;
    for (std::size_t e; (e = s.find(',', b)) != std::string::npos; b = e + 1)
      if (e > b) out.push_back(s.substr(b, e - b));
    if (b < s.size()) out.push_back(s.substr(b));
  }
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

/// The response text with the bare tokens NaN, Infinity and -Infinity (which some JSON writers
/// emit and JSON does not have) outside strings turned into the strings "nan", "inf", "-inf":
/// a non-finite answer then fails its vector instead of making the response unreadable.
std::string quote_nonfinite(const std::string& t) {
  std::string out;
  out.reserve(t.size());
  bool in_string = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < t.size())
        out += t[++i];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    const auto token = [&](const char* w) { return t.compare(i, std::strlen(w), w) == 0; };
    if (token("-Infinity")) {
      out += "\"-inf\"";
      i += 8;
    } else if (token("Infinity")) {
      out += "\"inf\"";
      i += 7;
    } else if (token("NaN")) {
      out += "\"nan\"";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

/// Answers of `cmd` to the vectors (one request on stdin, one response on stdout).
std::map<std::string, io::json> ask_command(const std::string& cmd,
                                            const std::vector<io::json>& vectors,
                                            const std::string& family) {
  io::json req = io::json::object();
  req["protocol"] = "dpref.conformance/1";
  req["family"] = family;
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
        std::to_string(rc) + " on " + family + ")");
  const io::document d = io::document::parse(quote_nonfinite(text), "--cmd response");
  for (const io::node& r : io::node(d).at("results").elements()) {
    const std::string id = r.at("id").string();
    io::json a = io::json::object();
    for (const char* k : {"error", "output", "unsupported"})
      if (const auto e = r.find(k)) a[k] = e->value();
    answers[id] = std::move(a);
  }
  return answers;
}

/// Per-family tally of a check.
struct tally {
  std::size_t checked = 0, passed = 0, failed = 0, unsupported = 0, wrong_side = 0;
  conformance::verdict worst;  ///< largest error relative to its allowance (checked vectors)
};

/// "worst <id> <key>: <error> <unit> of <allowed> allowed" (or the kind of failure).
std::string worst_text(const conformance::verdict& w) {
  if (w.worst_key.empty()) return "";
  if (w.wrong_side)
    return fmt::format("worst {} {}: on the wrong side of the exact value", w.id, w.worst_key);
  if (w.unit.empty()) return fmt::format("worst {} {}: not equal (exact)", w.id, w.worst_key);
  if (!std::isfinite(w.worst_error))
    return fmt::format("worst {} {}: non-finite", w.id, w.worst_key);
  return fmt::format("worst {} {}: {:.3g} {} of {:.3g} allowed", w.id, w.worst_key, w.worst_error,
                     w.unit, w.allowed);
}

void run_check(const check_options& o) {
  const mpfr_precision_scope reference_precision(conformance::reference_digits);
  // the corpus itself first: refused (exit 3) before any implementation runs
  const conformance::corpus_selection sel =
      conformance::load_corpus(o.path, split_commas(o.ids), split_commas(o.precisions));
  tally total;
  io::json report = io::json::array();
  for (const conformance::loaded_family& fam : sel.families) {
    if (fam.vectors.empty()) continue;
    std::map<std::string, io::json> answers;
    if (!o.cmd.empty()) {
      answers = ask_command(o.cmd, fam.vectors, fam.file);
    } else {
      for (const auto& v : fam.vectors) {
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
    tally t;
    io::json verdicts = io::json::array();
    std::size_t shown = 0;
    for (const auto& v : fam.vectors) {
      const std::string id = v.at("id").get<std::string>();
      const auto it = answers.find(id);
      const conformance::verdict r =
          conformance::check(v, it == answers.end() ? io::json::object() : it->second);
      if (r.unsupported) {
        ++t.unsupported;
        if (!o.json && o.verbose) fmt::print("  unsupported {}: {}\n", r.id, r.problem);
      } else {
        ++t.checked;
        if (r.pass) {
          ++t.passed;
          if (!o.json && o.verbose) fmt::print("  pass {}: {}\n", r.id, worst_text(r));
        } else {
          ++t.failed;
          if (r.wrong_side) ++t.wrong_side;
          if (!o.json && (o.verbose || ++shown <= 10))
            fmt::print("  FAIL {}: {}\n", r.id, r.problem);
        }
        if (!r.worst_key.empty() &&
            (t.worst.worst_key.empty() || r.worst_ratio > t.worst.worst_ratio))
          t.worst = r;
      }
      verdicts.push_back(r.to_json());
    }
    if (!o.json)
      fmt::print("{:<26} checked {:>3}  passed {:>3}  failed {:>3}{}  unsupported {:>3}   {}\n",
                 fam.family, t.checked, t.passed, t.failed,
                 t.wrong_side ? fmt::format(" ({} below/above exact)", t.wrong_side) : "",
                 t.unsupported, worst_text(t.worst));
    io::json fj = {{"family", fam.family},         {"file", fam.file},
                   {"listed", fam.listed},         {"vectors", fam.vectors.size()},
                   {"checked", t.checked},         {"passed", t.passed},
                   {"failed", t.failed},           {"wrong_side", t.wrong_side},
                   {"unsupported", t.unsupported}, {"results", std::move(verdicts)}};
    if (!t.worst.worst_key.empty()) fj["worst"] = t.worst.to_json();
    report.push_back(std::move(fj));
    total.checked += t.checked;
    total.passed += t.passed;
    total.failed += t.failed;
    total.unsupported += t.unsupported;
  }
  const bool all = total.failed == 0 && total.unsupported == 0 && sel.whole();
  const std::string summary =
      total.failed > 0
          ? fmt::format("FAILED: {} of {} checked vectors failed", total.failed, total.checked)
      : all ? fmt::format("PASSED: all {} vectors of the manifest passed", sel.manifest_vectors)
            : fmt::format("no failure, not a full pass: {} of the manifest's {} vectors passed",
                          total.passed, sel.manifest_vectors);
  if (o.json) {
    io::json j = {{"schema", "dpref.check/2"}, {"manifest_vectors", sel.manifest_vectors},
                  {"selected", sel.selected},  {"vectors", total.checked + total.unsupported},
                  {"checked", total.checked},  {"passed", total.passed},
                  {"failed", total.failed},    {"unsupported", total.unsupported},
                  {"all_passed", all},         {"families", std::move(report)}};
    write_json(j, "");
  } else {
    fmt::print(
        "{} of the manifest's {} vectors checked: {} passed, {} failed; {} unsupported; {} not "
        "selected (path, --ids, --precision)\n{}\n",
        total.checked, sel.manifest_vectors, total.passed, total.failed, total.unsupported,
        sel.manifest_vectors - sel.selected, summary);
  }
  if (total.failed > 0)
    throw check_failed(std::to_string(total.failed) + " of " + std::to_string(total.checked) +
                       " checked vectors failed");
}

void register_vectors_commands(CLI::App& app) {
  auto vo = std::make_shared<vectors_options>();
  auto* v = app.add_subcommand(
      "vectors", "Write the conformance corpus (test vectors with exact expected values)");
  v->add_option("--out", vo->out, "corpus folder (created)")->required();
  v->add_option("--only", vo->only,
                "write only these families (e.g. trajectories/linesearch; repeatable)");
  v->callback([vo] { run_vectors(*vo); });

  auto co = std::make_shared<check_options>();
  auto* c = app.add_subcommand("check-vectors",
                               "Check an implementation (dpref, or --cmd) against a corpus");
  c->add_option("path", co->path, "corpus folder, area folder or family file")->required();
  c->add_option("--cmd", co->cmd,
                "command speaking the protocol of spec/conformance.md (JSON request on stdin, "
                "JSON response on stdout); default: dpref itself");
  c->add_option("--ids", co->ids, "check only these vector ids (comma-separated; repeatable)");
  c->add_option("--precision", co->precisions,
                "the precisions the implementation claims (e.g. double; comma-separated, "
                "repeatable): only vectors meant for them are checked");
  c->add_flag("--json", co->json, "print the report as JSON");
  c->add_flag("--verbose", co->verbose, "print every vector");
  c->callback([co] { run_check(*co); });
}

const command_registrar vectors_registrar(register_vectors_commands);

}  // namespace
}  // namespace dpref::cli

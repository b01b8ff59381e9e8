// `dpref reproduce [--quick|--full] [--papers ev,pwa,...] [--claims ID,...] --out DIR`
// (spec/reproduce.md): runs every paper's declared claims (or the listed ones) (src/reproduce/),
// the performance rows and the sampler comparison with numpy, writes DIR/report.json
// (spec/schema/report.schema.json) and DIR/report.html (scripts/report_html.py, started with
// posix_spawn), and ends with the verdict table and the path of the HTML report.
#include <unistd.h>
#include <algorithm>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "dpref/io/data_path.hpp"
#include "dpref/version.hpp"
#include "output.hpp"
#include "reproduce/claims.hpp"
#include "reproduce_progress.hpp"
#include "reproduce_setup.hpp"
#include "run_script.hpp"

namespace dpref::cli {
namespace {

namespace rp = dpref::reproduce;
using ojson = nlohmann::ordered_json;
using namespace reproduce_setup;
using reproduce_progress::claim_json;
using reproduce_progress::perf_json;

struct reproduce_state {
  bool quick = false, full = false, no_html = false, resume = false;
  std::string papers, claims, out, python = "/usr/bin/python3";
};

#ifndef DPREF_PYTHON_INSTALL_DIR
#define DPREF_PYTHON_INSTALL_DIR "lib/python3/dist-packages"
#endif

/// The folder holding the Python package `dpref` installed with this binary, relative to it:
/// build/<preset>/python (build tree: the binary is build/<preset>/src/dpref),
/// <prefix>/DPREF_PYTHON_INSTALL_DIR (`cmake --install`: <prefix>/bin/dpref) or the
/// site-packages of a wheel (dpref/bin/dpref); "" when none has it.
std::string python_package_dir() {
  namespace fs = std::filesystem;
  const fs::path exe = io::executable_dir();
  if (exe.empty()) return {};
  for (const fs::path& d :
       {exe / ".." / "python", exe / ".." / DPREF_PYTHON_INSTALL_DIR, exe / ".." / ".."}) {
    std::error_code ec;
    if (fs::is_regular_file(d / "dpref" / "__init__.py", ec)) return d.lexically_normal().string();
  }
  return {};
}

/// Samplers vs numpy's Generator: scripts/report_samplers.py writes DIR/samplers.json (rows, or
/// the reason they are absent). The Python package is the one installed with this binary
/// (python_package_dir, put first on PYTHONPATH).
void sampler_rows(const reproduce_state& st, const std::string& script, bool quick,
                  std::vector<rp::perf_row>& perf) {
  const std::string out = (std::filesystem::path(st.out) / "samplers.json").string();
  const std::string pkg = python_package_dir();
  std::string why;
  try {
    const char* old = std::getenv("PYTHONPATH");
    const std::string rest = old && *old ? std::string(old) : std::string();
    const std::string pp = pkg.empty() ? rest : pkg + (rest.empty() ? "" : ":" + rest);
    if (!pp.empty()) ::setenv("PYTHONPATH", pp.c_str(), 1);
    run_program({st.python, script, "--out", out, "--n", quick ? "1000000" : "10000000"},
                "dpref reproduce (samplers)");
  } catch (const std::exception& e) {
    why = e.what();
  }
  std::ifstream f(out);
  ojson j;
  if (why.empty() && f) {
    try {
      f >> j;
    } catch (const std::exception& e) {
      why = std::string("unreadable ") + out + ": " + e.what();
    }
  } else if (why.empty()) {
    why = "the sampler script wrote no " + out;
  }
  if (why.empty() && j.contains("absent")) why = j["absent"].get<std::string>();
  if (!why.empty()) {
    perf.push_back({"samplers vs numpy Generator", "samples/s", NAN, "numpy.random.Generator", NAN,
                    NAN, "absent: " + why, 0});
    return;
  }
  for (const auto& r : j["rows"])
    perf.push_back({r["name"].get<std::string>(), "samples/s", r["dpref"].get<double>(),
                    r["reference"].get<std::string>(), r["numpy"].get<double>(),
                    r["dpref"].get<double>() / r["numpy"].get<double>(),
                    r["note"].get<std::string>(), r["seconds"].get<double>()});
}

std::string pad(std::string s, std::size_t w) {
  // display width: count UTF-8 code points
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  if (n < w) s.append(w - n, ' ');
  return s;
}

void run_reproduce(const reproduce_state& st) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string started = utc_now();
  // Everything that can be refused is refused before any work (ARCH.CLI).
  const auto papers = parse_papers(st.papers);
  const auto selected = parse_claims(st.claims, papers);
  std::string html_script, sampler_script;
  if (!st.no_html) {
    check_executable(st.python, "--python");
    html_script = io::find_data_file("scripts/report_html.py");
    sampler_script = io::find_data_file("scripts/report_samplers.py");
  }
  if (st.out.empty()) throw std::invalid_argument("--out must name a directory, got ''");
  check_writable_dir(st.out);
  const bool quick = !st.full;
  rp::options opt;
  opt.quick = quick;
  opt.source_dir = source_dir();

  std::vector<rp::job> jobs;
  for (auto& j : rp::all_jobs()) {
    bool want = j.perf && selected.empty();  // --claims runs those claims only
    for (const auto& p : papers) want = want || (!j.perf && j.paper == p);
    if (!selected.empty() && !j.perf) {
      bool listed = false;
      for (const auto& id : selected)
        listed =
            listed || id == j.name || std::find(j.also.begin(), j.also.end(), id) != j.also.end();
      want = want && listed;
    }
    if (want) jobs.push_back(std::move(j));
  }
  // REPRO.RESUME: every finished job is stored in DIR/progress.json; --resume reuses them
  reproduce_progress::progress_file progress(st.out, commit(), quick ? "quick" : "full");
  if (st.resume) progress.load();
  rp::results res;
  ojson job_times = ojson::array();
  double claims_s = 0, perf_s = 0;
  std::size_t resumed = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const std::string key = jobs[i].paper + "/" + jobs[i].name;
    if (const auto* stored = st.resume ? progress.find(key) : nullptr) {
      const double s = reproduce_progress::restore_job(*stored, res);
      (jobs[i].perf ? perf_s : claims_s) += s;
      job_times.push_back({{"job", key}, {"seconds", s}, {"resumed", true}});
      progress.add(*stored);
      ++resumed;
      std::fprintf(stderr, "dpref reproduce: %zu/%zu resumed (%s, %.1f s when it ran)\n", i + 1,
                   jobs.size(), key.c_str(), s);
      continue;
    }
    const auto tj = std::chrono::steady_clock::now();
    const std::size_t before = res.claims.size();
    const auto before_all = reproduce_progress::mark_of(res);
    bool failed = false;
    try {
      jobs[i].run(opt, res);
    } catch (const std::exception& e) {
      // a job that cannot run is reported, never silently dropped (nor stored for --resume)
      failed = true;
      if (jobs[i].perf) {
        res.perf.push_back({jobs[i].name, "", NAN, "", NAN, NAN,
                            std::string("absent: failed: ") + e.what(), rp::since(tj)});
      } else {
        std::vector<std::string> ids{jobs[i].name};  // every claim the job decides
        ids.insert(ids.end(), jobs[i].also.begin(), jobs[i].also.end());
        for (const auto& id : ids) {
          rp::claim c;
          c.id = id;
          c.paper = jobs[i].paper;
          c.statement = "(the job failed)";
          c.statistic = "-";
          c.error = "-";
          c.result = rp::verdict::not_reproduced;
          c.summary = std::string("failed to run: ") + e.what();
          c.reduced = quick;
          c.size = "-";
          c.seconds = rp::since(tj);
          res.claims.push_back(c);
        }
      }
    }
    const double s = rp::since(tj);
    (jobs[i].perf ? perf_s : claims_s) += s;
    job_times.push_back({{"job", key}, {"seconds", s}});
    if (!failed) progress.add(reproduce_progress::job_entry(key, s, res, before_all));
    const double el = rp::since(t0);
    const double rem =
        el / static_cast<double>(i + 1 - resumed) * static_cast<double>(jobs.size() - i - 1);
    std::fprintf(stderr,
                 "dpref reproduce: %zu/%zu done (%s %s: %zu claim(s), %.1f s), elapsed %.0f s, "
                 "estimated remaining %.0f s\n",
                 i + 1, jobs.size(), jobs[i].paper.c_str(), jobs[i].name.c_str(),
                 res.claims.size() - before, s, el, rem);
  }
  if (!selected.empty())  // --claims reports exactly the listed claims (a job may decide more)
    std::erase_if(res.claims, [&](const rp::claim& c) {
      return std::find(selected.begin(), selected.end(), c.id) == selected.end();
    });
  double samplers_s = 0;
  if (!st.no_html && selected.empty()) {
    const auto ts = std::chrono::steady_clock::now();
    sampler_rows(st, sampler_script, quick, res.perf);
    samplers_s = rp::since(ts);
  }

  // errata: the documented rows, replaced by the rows measured in this run
  std::vector<rp::erratum> errata;
  for (const auto& e : rp::documented_errata()) {
    bool want = false;
    for (const auto& p : papers) want = want || e.paper == p;
    if (!want) continue;
    const rp::erratum* m = nullptr;
    for (const auto& x : res.errata)
      if (x.id == e.id) m = &x;
    errata.push_back(m ? *m : e);
  }

  const auto argv = command_line();
  std::string cmd;
  for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
  ojson j;
  j["schema"] = "dpref.reproduce/1";
  j["command"] = cmd;
  j["argv"] = argv;
  j["mode"] = quick ? "quick" : "full";
  j["papers"] = papers;
  if (!selected.empty()) j["selected_claims"] = selected;
  j["version"] = std::string(dpref::version);
  j["commit"] = commit();
  j["started"] = started;
  j["machine"] = machine();
  int counts[4] = {0, 0, 0, 0};
  ojson claims = ojson::array();
  for (const auto& c : res.claims) {
    claims.push_back(claim_json(c));
    ++counts[static_cast<int>(rp::settle_size(c))];
  }
  j["summary"] = {{"claims", res.claims.size()},
                  {"reproduced", counts[0]},
                  {"not_reproduced", counts[1]},
                  {"contradicted", counts[2]},
                  {"inconclusive", counts[3]}};
  j["claims"] = claims;
  ojson er = ojson::array();
  for (const auto& e : errata)
    er.push_back({{"id", e.id},
                  {"paper", e.paper},
                  {"what", e.what},
                  {"paper_value", e.paper_value},
                  {"dpref_value", e.dpref_value},
                  {"test", e.test},
                  {"measured", e.measured}});
  j["errata"] = er;
  ojson pf = ojson::array();
  for (const auto& p : res.perf) pf.push_back(perf_json(p));
  j["performance"] = pf;
  ojson series = ojson::object();
  for (const auto& [name, text] : res.series) series[name] = ojson::parse(text);
  j["series"] = series;
  if (resumed > 0) j["resumed_jobs"] = resumed;
  j["timings"] = {{"total_seconds", rp::since(t0)},
                  {"claims_seconds", claims_s},
                  {"performance_seconds", perf_s},
                  {"samplers_seconds", samplers_s},
                  {"jobs", job_times}};
  const std::string json_path = (std::filesystem::path(st.out) / "report.json").string();
  write_text(j.dump(1) + "\n", json_path);
  std::string html_path;
  if (!st.no_html) {
    html_path = (std::filesystem::path(st.out) / "report.html").string();
    run_program({st.python, html_script, json_path, html_path}, "dpref reproduce (report.html)");
  }

  // the terminal output ends with the verdict table and the path of report.html
  std::printf("dpref reproduce (%s, commit %s, %.0f s on %u cores)\n\n", quick ? "quick" : "full",
              commit().c_str(), rp::since(t0), std::thread::hardware_concurrency());
  std::printf("%s %s %s %s %s\n", pad("paper", 10).c_str(), pad("claim", 26).c_str(),
              pad("verdict", 25).c_str(), pad("size", 8).c_str(), "numbers");
  for (const auto& c : res.claims)
    std::printf("%s %s %s %s %s\n", pad(c.paper, 10).c_str(), pad(c.id, 26).c_str(),
                pad(rp::verdict_name(rp::settle_size(c)), 25).c_str(),
                pad(c.reduced ? "reduced" : "full", 8).c_str(), c.summary.c_str());
  std::printf(
      "\n%d reproduced, %d not reproduced, %d contradicted, %d inconclusive at this size (of %zu "
      "claims)\n",
      counts[0], counts[1], counts[2], counts[3], res.claims.size());
  std::printf("report.json: %s\n", json_path.c_str());
  if (!html_path.empty()) std::printf("report.html: %s\n", html_path.c_str());
}

void register_reproduce_command(CLI::App& app) {
  auto st = std::make_shared<reproduce_state>();
  auto* cmd = app.add_subcommand(
      "reproduce",
      "re-check every paper's claims and write DIR/report.json and DIR/report.html "
      "(spec/reproduce.md)");
  auto* q = cmd->add_flag("--quick", st->quick,
                          "reduced sizes, <= 3 minutes on 2 cores (the default); every row says "
                          "so");
  auto* f = cmd->add_flag("--full", st->full, "the papers' sizes (hours), progress on stderr");
  q->excludes(f);
  cmd->add_option(
      "--papers", st->papers,
      "comma-separated subset of ev, pwa, accel, linesearch, dda, accounting, audit, random "
      "(default: all)");
  cmd->add_option("--claims", st->claims,
                  "comma-separated claim IDs to run (default: all of the selected papers; with "
                  "--claims no performance rows are measured)");
  cmd->add_option("--out", st->out, "output folder (created; checked writable before any work)")
      ->required();
  cmd->add_option("--python", st->python,
                  "Python with matplotlib for the HTML report (default: /usr/bin/python3)");
  cmd->add_flag("--resume", st->resume,
                "reuse the jobs DIR/progress.json holds from an interrupted run of this build and "
                "mode; run the others");
  cmd->add_flag("--no-html", st->no_html,
                "write report.json only (no HTML report, no numpy comparison)");
  cmd->callback([st] { run_reproduce(*st); });
}

const command_registrar reproduce_registrar(register_reproduce_command);

}  // namespace
}  // namespace dpref::cli

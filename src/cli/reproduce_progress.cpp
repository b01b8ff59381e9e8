// DIR/progress.json of `dpref reproduce` and the report rows it stores (reproduce_progress.hpp).
#include "reproduce_progress.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "output.hpp"

namespace dpref::cli::reproduce_progress {
namespace {

namespace rp = dpref::reproduce;
using ojson = nlohmann::ordered_json;

ojson finite_or_null(double x) { return std::isfinite(x) ? ojson(x) : ojson(nullptr); }
double number_or_nan(const ojson& j) { return j.is_null() ? NAN : j.get<double>(); }

rp::verdict verdict_of(const std::string& name) {
  for (const auto v : {rp::verdict::reproduced, rp::verdict::not_reproduced,
                       rp::verdict::contradicted, rp::verdict::inconclusive})
    if (name == rp::verdict_name(v)) return v;
  throw std::invalid_argument("unknown verdict '" + name + "'");
}

// The plain fields of a claim in the report, before and after the verdicts, rule and numbers:
// f(key, member) for each, in the report's order (one list for claim_json and claim_from_json).
template <class Claim, class F>
void claim_head_fields(Claim& c, F&& f) {
  f("id", c.id);
  f("paper", c.paper);
  f("statement", c.statement);
  f("statistic", c.statistic);
  f("error", c.error);
  f("error_probability", c.error_probability);
  f("exact", c.exact);
}
template <class Claim, class F>
void claim_tail_fields(Claim& c, F&& f) {
  f("summary", c.summary);
  f("reduced", c.reduced);
  f("size", c.size);
  f("size_dependence", c.size_dependence);
  f("below_paper_size", c.below_paper_size);
  f("seconds", c.seconds);
}
template <class Erratum, class F>
void erratum_fields(Erratum& x, F&& f) {
  f("id", x.id);
  f("paper", x.paper);
  f("what", x.what);
  f("paper_value", x.paper_value);
  f("dpref_value", x.dpref_value);
  f("test", x.test);
  f("measured", x.measured);
}

// Visitors for the field lists: write the member into j, or read it from j (typed as the member).
auto field_writer(ojson& j) {
  return [&j](const char* key, const auto& member) { j[key] = member; };
}
auto field_reader(const ojson& j) {
  return [&j](const char* key, auto& member) {
    member = j.at(key).get<std::remove_cvref_t<decltype(member)>>();
  };
}

}  // namespace

ojson claim_json(const rp::claim& c) {
  ojson j;
  claim_head_fields(c, field_writer(j));
  j["verdict"] = rp::verdict_name(rp::settle_size(c));
  // what the statistic alone gives, before REPRO.VERDICT.SIZE (re-derived by the Python check)
  j["statistic_verdict"] = rp::verdict_name(c.result);
  // REPRO.RULE: the rule that gave statistic_verdict, verbatim (re-evaluated by the Python check)
  j["rule"] =
      ojson{{"reproduced_if", c.rule.reproduced_if}, {"contradicted_if", c.rule.contradicted_if}};
  ojson n = ojson::object();
  for (const auto& x : c.numbers) n[x.name] = finite_or_null(x.value);
  j["numbers"] = n;
  claim_tail_fields(c, field_writer(j));
  return j;
}

rp::claim claim_from_json(const ojson& j) {
  rp::claim c;
  claim_head_fields(c, field_reader(j));
  c.result = verdict_of(j.at("statistic_verdict").get<std::string>());
  c.rule = {j.at("rule").at("reproduced_if").get<std::string>(),
            j.at("rule").at("contradicted_if").get<std::string>()};
  for (const auto& [name, value] : j.at("numbers").items())
    c.numbers.push_back({name, number_or_nan(value)});
  claim_tail_fields(c, field_reader(j));
  if (verdict_of(j.at("verdict").get<std::string>()) != rp::settle_size(c))
    throw std::invalid_argument("claim " + c.id + ": its verdict is not the settled statistic");
  return c;
}

ojson perf_json(const rp::perf_row& p) {
  ojson j;
  j["name"] = p.name;
  j["unit"] = p.unit;
  j["value"] = finite_or_null(p.value);
  j["reference"] = p.reference;
  j["reference_value"] = finite_or_null(p.reference_value);
  j["ratio"] = finite_or_null(p.ratio);
  j["note"] = p.note;
  j["seconds"] = p.seconds;
  return j;
}

rp::perf_row perf_from_json(const ojson& j) {
  return {j.at("name").get<std::string>(),        j.at("unit").get<std::string>(),
          number_or_nan(j.at("value")),           j.at("reference").get<std::string>(),
          number_or_nan(j.at("reference_value")), number_or_nan(j.at("ratio")),
          j.at("note").get<std::string>(),        j.at("seconds").get<double>()};
}

mark mark_of(const rp::results& r) {
  return {r.claims.size(), r.errata.size(), r.perf.size(), r.series.size()};
}

ojson job_entry(const std::string& key, double seconds, const rp::results& after,
                const mark& before) {
  ojson e;
  e["job"] = key;
  e["seconds"] = seconds;
  ojson claims = ojson::array(), errata = ojson::array(), perf = ojson::array(),
        series = ojson::array();
  for (std::size_t i = before.claims; i < after.claims.size(); ++i)
    claims.push_back(claim_json(after.claims[i]));
  for (std::size_t i = before.errata; i < after.errata.size(); ++i) {
    ojson x = ojson::object();
    erratum_fields(after.errata[i], field_writer(x));
    errata.push_back(std::move(x));
  }
  for (std::size_t i = before.perf; i < after.perf.size(); ++i)
    perf.push_back(perf_json(after.perf[i]));
  for (std::size_t i = before.series; i < after.series.size(); ++i)
    series.push_back({after.series[i].first, after.series[i].second});
  e["claims"] = claims;
  e["errata"] = errata;
  e["performance"] = perf;
  e["series"] = series;
  return e;
}

double restore_job(const ojson& entry, rp::results& into) {
  for (const auto& c : entry.at("claims")) into.claims.push_back(claim_from_json(c));
  for (const auto& x : entry.at("errata")) {
    rp::erratum e;
    erratum_fields(e, field_reader(x));
    into.errata.push_back(std::move(e));
  }
  for (const auto& p : entry.at("performance")) into.perf.push_back(perf_from_json(p));
  for (const auto& s : entry.at("series"))
    into.series.emplace_back(s.at(0).get<std::string>(), s.at(1).get<std::string>());
  return entry.at("seconds").get<double>();
}

progress_file::progress_file(std::string dir, std::string commit, std::string mode)
    : dir_(std::move(dir)), commit_(std::move(commit)), mode_(std::move(mode)) {}

std::string progress_file::path() const {
  return (std::filesystem::path(dir_) / "progress.json").string();
}

void progress_file::load() {
  const std::string p = path();
  std::ifstream f(p);
  if (!f) throw std::invalid_argument("--resume: no " + p + " (nothing to resume)");
  ojson j;
  try {
    f >> j;
    if (j.at("schema").get<std::string>() != "dpref.reproduce.progress/1")
      throw std::invalid_argument("schema is not dpref.reproduce.progress/1");
    const auto commit = j.at("commit").get<std::string>();
    const auto mode = j.at("mode").get<std::string>();
    if (commit_ == "unknown" || commit_.ends_with("-dirty"))
      throw std::invalid_argument("this build's commit '" + commit_ +
                                  "' does not identify its code (set DPREF_GIT_COMMIT to resume)");
    if (commit != commit_)
      throw std::invalid_argument("written by commit '" + commit + "', this build is '" + commit_ +
                                  "' (numbers of another build are not resumed)");
    if (mode != mode_)
      throw std::invalid_argument("written in mode '" + mode + "', this run is '" + mode_ + "'");
    stored_ = j.at("jobs");
    rp::results check;  // every stored entry must read back before any work
    for (const auto& e : stored_) {
      (void)e.at("job").get<std::string>();
      restore_job(e, check);
    }
  } catch (const std::exception& e) {
    throw std::invalid_argument("--resume: " + p + ": " + e.what());
  }
}

const ojson* progress_file::find(const std::string& key) const {
  for (const auto& e : stored_)
    if (e.at("job").get<std::string>() == key) return &e;
  return nullptr;
}

void progress_file::add(ojson entry) {
  jobs_.push_back(std::move(entry));
  const ojson j{{"schema", "dpref.reproduce.progress/1"},
                {"commit", commit_},
                {"mode", mode_},
                {"jobs", jobs_}};
  write_text(j.dump(1) + "\n", path());  // atomic (temporary file, then rename)
}

}  // namespace dpref::cli::reproduce_progress

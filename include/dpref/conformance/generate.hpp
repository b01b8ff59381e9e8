// The generic families of the conformance corpus (spec/conformance.md CONF.CORPUS) and the
// writer of a corpus directory. Every expected value is the exact value of the defined
// quantity to 60 significant digits, computed independently of the double / mp50 code paths
// under test where the definition allows it:
//   - samplers: the transform of the draw's bits (spec/random.md RAND.REIMPLEMENT) evaluated
//     with MPFR at 640 bits (log, log1p, Newton on erf / erfc), using exactly the uniform the
//     precision's sampler reads;
//   - accounting, calibration, projections: dpref's certified / exact evaluation at 120 decimal
//     digits (mpfr_real), i.e. the defined quantity within 10^-100 relative;
//   - Philox words, secure integer samples, Bernoulli draws and uniforms: exact by definition.
// Inputs are decimal texts exact in binary64 (dyadic), so they denote the same number at every
// precision. Each vector also carries dpref's own answer ("reference"), and generation fails
// unless that answer passes the vector (the corpus is checked against dpref when it is made).
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dpref/conformance/check.hpp"
#include "dpref/conformance/corpus.hpp"
#include "dpref/conformance/families_accounting.hpp"
#include "dpref/conformance/families_numerics.hpp"
#include "dpref/conformance/families_samplers.hpp"
#include "dpref/conformance/gen_common.hpp"
#include "dpref/conformance/numbers.hpp"
#include "dpref/conformance/ops.hpp"
#include "dpref/conformance/registry.hpp"
#include "dpref/conformance/sha256.hpp"
#include "dpref/version.hpp"

namespace dpref::conformance {

/// One short deterministic trajectory of a paper's algorithm as a vector of op "run" (the slot
/// the paper folders fill, spec/conformance.md CONF.TRAJECTORY): input {paper, config,
/// precision}; expected = the values at the JSON pointers of `outputs` (e.g. "/iterates/x") of
/// the result computed at `reference_precision` (decimal strings with every digit of that
/// precision), each with the tolerance the paper states for it (e.g. {"kind": "rel", "rel":
/// "1e-10", "bits": 53}). Fails (std::logic_error) unless dpref's own run at `precision` passes
/// the vector.
inline io::json trajectory_vector_each(const std::string& id, const paper_runner& runner,
                                       const io::json& config,
                                       const std::vector<std::pair<std::string, io::json>>& outputs,
                                       const std::string& precision = "double",
                                       const std::string& reference_precision = "mpfr:60") {
  const io::document d = io::document::from_value(config, id + " config");
  const io::json ref = runner.run(d, io::parse_precision(reference_precision));
  io::json expected = io::json::object(), tol = io::json::object();
  for (const auto& [p, t] : outputs) {
    expected[p] = ref.at(io::json::json_pointer(p));
    tol[p] = t;
  }
  return gen::finish(
      {{"id", id},
       {"op", "run"},
       {"input", {{"paper", runner.name}, {"config", config}, {"precision", precision}}},
       {"expected", std::move(expected)},
       {"tolerance", std::move(tol)},
       {"reference_precision", reference_precision}},
      {runner});
}

/// trajectory_vector_each with one tolerance for every pointer.
inline io::json trajectory_vector(const std::string& id, const paper_runner& runner,
                                  const io::json& config, const std::vector<std::string>& pointers,
                                  const io::json& tolerance,
                                  const std::string& precision = "double",
                                  const std::string& reference_precision = "mpfr:60") {
  std::vector<std::pair<std::string, io::json>> outputs;
  for (const auto& p : pointers) outputs.emplace_back(p, tolerance);
  return trajectory_vector_each(id, runner, config, outputs, precision, reference_precision);
}

/// The outputs of one trajectory vector: (JSON pointer, tolerance) pairs.
using trajectory_outputs = std::vector<std::pair<std::string, io::json>>;

/// One algorithm of a paper's trajectory family and the outputs its vector checks.
struct trajectory_case {
  std::string algorithm;
  trajectory_outputs outputs;
  io::json params = io::json::object();  ///< keys set in config.params besides the algorithm
};

/// The family trajectories/<paper> of `runner`'s paper: one trajectory_vector_each per case, id
/// trajectories/<paper>/<algorithm>, on `base` with params.algorithm set to the case's (when
/// `base` has one) and its `params` keys, without the fields inapplicable to the Config it
/// describes (io::without_inapplicable).
template <class Config>
family trajectory_family(const paper_runner& runner, const std::string& description,
                         const io::json& base, const std::vector<trajectory_case>& cases) {
  family f{"trajectories/" + runner.name, description, {}};
  for (const auto& c : cases) {
    io::json config = base;
    if (config["params"].contains("algorithm")) config["params"]["algorithm"] = c.algorithm;
    for (const auto& kv : c.params.items()) config["params"][kv.key()] = kv.value();
    f.vectors.push_back(trajectory_vector_each(
        f.path + "/" + c.algorithm, runner, io::without_inapplicable<Config>(config), c.outputs));
  }
  return f;
}

/// The generic families, in corpus order (one file each).
inline std::vector<family_entry> generic_families() {
  return {
      {"random/philox", gen::philox_family},
      {"random/samplers-double", [] { return gen::sampler_family<double>("double"); }},
      {"random/samplers-mp50", [] { return gen::sampler_family<mp50>("mp50"); }},
      {"random/exact-samplers", gen::exact_sampler_family},
      {"accounting/events", gen::accounting_events_family},
      {"accounting/compositions", gen::accounting_compositions_family},
      {"calibration/calibrators", gen::calibration_family},
      {"geometry/capped-simplex", gen::geometry_family},
  };
}

/// Text of one family file: a header and one vector per line (deterministic).
inline std::string family_text(const family& f) {
  std::string s = std::string("{\"schema\": \"") + manifest_schema +
                  "\",\n \"family\": " + io::json(f.path).dump() +
                  ",\n \"description\": " + io::json(f.description).dump() + ",\n \"vectors\": [\n";
  for (std::size_t i = 0; i < f.vectors.size(); ++i)
    s += "  " + f.vectors[i].dump() + (i + 1 < f.vectors.size() ? ",\n" : "\n");
  s += " ]}\n";
  return s;
}

/// Summary of a written corpus.
struct corpus_summary {
  std::size_t files = 0, vectors = 0, bytes = 0;
};

/// Writes every family under `dir` (<path>.json) and MANIFEST.json. mpfr_real's precision must
/// be reference_digits (the CLI sets it before calling).
/// @throws std::invalid_argument if a file cannot be written; std::logic_error if dpref fails
/// one of its own vectors
inline corpus_summary write_corpus(const std::filesystem::path& dir,
                                   const std::vector<family_entry>& families,
                                   const std::vector<std::string>& trajectory_papers) {
  namespace fs = std::filesystem;
  corpus_summary sum;
  io::json manifest = io::json::object();
  static_assert(corpus_version == 2, "manifest_schema (corpus.hpp) names the corpus version");
  manifest["schema"] = manifest_schema;
  manifest["corpus_version"] = corpus_version;
  manifest["generator"] = std::string("dpref ") + version;
  manifest["protocol"] = "dpref.conformance/1";
  manifest["spec"] = "spec/conformance.md";
  io::json list = io::json::array();
  const auto write = [&](const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out) throw std::invalid_argument("dpref vectors: cannot write '" + p.string() + "'");
    sum.bytes += text.size();
    ++sum.files;
  };
  for (const auto& e : families) {
    const family f = e.generate();
    const std::string text = family_text(f);
    write(dir / (f.path + ".json"), text);
    list.push_back({{"family", f.path},
                    {"file", f.path + ".json"},
                    {"vectors", f.vectors.size()},
                    {"bytes", text.size()},
                    {"sha256", sha256_hex(text)}});
    sum.vectors += f.vectors.size();
  }
  manifest["families"] = std::move(list);
  io::json papers = io::json::array();
  for (const auto& p : trajectory_papers) papers.push_back(p);
  manifest["trajectories"] = {
      {"papers", std::move(papers)},
      {"slot",
       "trajectories/<paper>.json: one short deterministic trajectory per algorithm "
       "(op \"run\"), registered in src/papers/papers.hpp"}};
  write(dir / "MANIFEST.json", manifest.dump(1) + "\n");
  return sum;
}

}  // namespace dpref::conformance

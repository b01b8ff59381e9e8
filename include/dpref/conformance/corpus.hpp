// Reading a corpus for checking (spec/conformance.md CONF.MANIFEST): the corpus is checked
// against its MANIFEST.json before any implementation runs. Refused (std::invalid_argument,
// the message names the file): a missing, truncated or malformed MANIFEST.json; a family file
// that is missing, not listed (extra), of another size or SHA-256 than listed, with another
// vector count, empty ("vectors": [] or not an array), or holding a malformed vector (no or an
// empty id, no op, no input object, expected / tolerance keys that do not match, an unreadable
// tolerance) or an id already used in the corpus. Then the selection: the families under the
// path given, the vectors of --ids and of the precisions an implementation claims.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/conformance/check.hpp"
#include "dpref/conformance/sha256.hpp"
#include "dpref/io/json.hpp"

namespace dpref::conformance {

/// Schema of MANIFEST.json and of the family files this checker reads.
inline constexpr const char* manifest_schema = "dpref.vectors/2";

/// One family of a loaded corpus: its name, file (relative to the corpus root), the number
/// of vectors the manifest lists and the selected vectors.
struct loaded_family {
  std::string family;
  std::string file;
  std::size_t listed = 0;
  std::vector<io::json> vectors;
};

/// A validated corpus and the vectors selected for checking.
struct corpus_selection {
  std::filesystem::path root;         ///< folder of MANIFEST.json
  std::size_t manifest_vectors = 0;   ///< vectors listed by the whole manifest
  std::size_t manifest_families = 0;  ///< families listed by the whole manifest
  std::size_t in_scope = 0;           ///< vectors of the families under the path given
  std::vector<loaded_family> families;
  std::size_t selected = 0;  ///< vectors selected (scope, --ids, --precision)
  /// Whether every vector of the manifest is selected (no path narrowing, no filter).
  [[nodiscard]] bool whole() const { return selected == manifest_vectors; }
};

namespace detail {

inline std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read '" + p.string() + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

[[noreturn]] inline void refuse(const std::filesystem::path& file, const std::string& why) {
  throw std::invalid_argument("corpus file '" + file.string() + "': " + why);
}

/// Checks one vector's shape (not its values against an answer).
inline void validate_vector(const io::json& v, std::size_t index, const std::filesystem::path& f) {
  const std::string at = "vector " + std::to_string(index);
  if (!v.is_object()) refuse(f, at + " is not an object");
  if (!v.contains("id") || !v.at("id").is_string() || v.at("id").get<std::string>().empty())
    refuse(f, at + " has no id (a non-empty string)");
  const std::string id = v.at("id").get<std::string>();
  const std::string vid = "vector '" + id + "'";
  if (!v.contains("op") || !v.at("op").is_string() || v.at("op").get<std::string>().empty())
    refuse(f, vid + " has no op");
  if (!v.contains("input") || !v.at("input").is_object()) refuse(f, vid + " has no input object");
  if (v.contains("input") && v.at("input").contains("precision") &&
      !v.at("input").at("precision").is_string())
    refuse(f, vid + ": input.precision must be a string");
  if (v.contains("expect_error")) {
    if (!v.at("expect_error").is_boolean() || !v.at("expect_error").get<bool>())
      refuse(f, vid + ": expect_error must be true when present");
    if (v.contains("expected")) refuse(f, vid + " has both expect_error and expected");
    return;
  }
  if (!v.contains("expected") || !v.at("expected").is_object() || v.at("expected").empty())
    refuse(f, vid + " has no expected values (a non-empty object)");
  if (!v.contains("tolerance") || !v.at("tolerance").is_object())
    refuse(f, vid + " has no tolerance object");
  const io::json& ex = v.at("expected");
  const io::json& tol = v.at("tolerance");
  for (auto it = ex.begin(); it != ex.end(); ++it) {
    if (!tol.contains(it.key())) refuse(f, vid + ": no tolerance for \"" + it.key() + "\"");
    try {
      (void)read_tolerance(tol.at(it.key()));
    } catch (const std::exception& e) {
      refuse(f, vid + ": tolerance of \"" + it.key() + "\": " + e.what());
    }
  }
  for (auto it = tol.begin(); it != tol.end(); ++it)
    if (!ex.contains(it.key()))
      refuse(f, vid + ": tolerance for \"" + it.key() + "\" that is not expected");
}

inline bool under(const std::filesystem::path& file, const std::filesystem::path& dir) {
  const auto f = file.lexically_normal(), d = dir.lexically_normal();
  auto fi = f.begin();
  for (auto di = d.begin(); di != d.end(); ++di, ++fi) {
    if (di->empty()) continue;  // trailing separator
    if (fi == f.end() || *fi != *di) return false;
  }
  return true;
}

}  // namespace detail

/// Validates the corpus that `path` (the corpus folder, a folder inside it or a family file)
/// belongs to and selects the vectors to check: those of the families under `path`, whose id
/// is in `ids` (all if empty) and whose input.precision is in `precisions` (all if empty;
/// vectors without a precision, e.g. Philox words, are kept).
/// @throws std::invalid_argument naming the file (or the flag) and what is wrong
/// @spec CONF.MANIFEST
inline corpus_selection load_corpus(const std::filesystem::path& path,
                                    const std::vector<std::string>& ids = {},
                                    const std::vector<std::string>& precisions = {}) {
  namespace fs = std::filesystem;
  if (!fs::exists(path))
    throw std::invalid_argument("DIR must be a corpus folder or a family file, got '" +
                                path.string() + "'");
  const fs::path target = fs::absolute(path).lexically_normal();
  fs::path root = fs::is_directory(target) ? target : target.parent_path();
  while (!fs::exists(root / "MANIFEST.json")) {
    if (root == root.root_path() || root.empty())
      throw std::invalid_argument("no MANIFEST.json in '" + path.string() +
                                  "' or a folder above it: a corpus is checked against its "
                                  "manifest (dpref vectors --out DIR writes one)");
    root = root.parent_path();
  }
  corpus_selection out;
  out.root = root;
  const fs::path mpath = root / "MANIFEST.json";
  io::json m;
  try {
    m = io::json::parse(detail::read_bytes(mpath));
  } catch (const io::json::exception& e) {
    detail::refuse(mpath, std::string("not valid JSON (truncated?): ") + e.what());
  }
  if (!m.is_object() || m.value("schema", std::string()) != manifest_schema)
    detail::refuse(mpath, std::string("schema must be \"") + manifest_schema + "\"");
  if (!m.contains("families") || !m.at("families").is_array() || m.at("families").empty())
    detail::refuse(mpath, "\"families\" must be a non-empty array");
  std::set<std::string> listed_files, seen_ids, seen_precisions;
  const bool whole_dir = fs::is_directory(target);
  for (const io::json& e : m.at("families")) {
    if (!e.is_object() || !e.contains("family") || !e.at("family").is_string() ||
        !e.contains("file") || !e.at("file").is_string() || !e.contains("vectors") ||
        !e.at("vectors").is_number_unsigned() || !e.contains("bytes") ||
        !e.at("bytes").is_number_unsigned() || !e.contains("sha256") || !e.at("sha256").is_string())
      detail::refuse(
          mpath,
          "every family entry needs family, file, vectors, bytes and sha256, got " + io::brief(e));
    const std::string file = e.at("file").get<std::string>();
    const fs::path rel(file);
    if (rel.is_absolute() || file.find("..") != std::string::npos || rel.extension() != ".json")
      detail::refuse(mpath,
                     "family file must be a relative path to a .json file, got '" + file + "'");
    if (!listed_files.insert(rel.lexically_normal().string()).second)
      detail::refuse(mpath, "family file '" + file + "' is listed twice");
    const fs::path fp = root / rel;
    if (!fs::is_regular_file(fp))
      detail::refuse(mpath, "lists family '" + e.at("family").get<std::string>() + "' but '" +
                                fp.string() + "' is missing");
    const std::string bytes = detail::read_bytes(fp);
    const std::size_t count = e.at("vectors").get<std::size_t>();
    if (bytes.size() != e.at("bytes").get<std::size_t>())
      detail::refuse(fp, std::to_string(bytes.size()) + " bytes, MANIFEST.json lists " +
                             std::to_string(e.at("bytes").get<std::size_t>()));
    const std::string digest = sha256_hex(bytes);
    if (digest != e.at("sha256").get<std::string>())
      detail::refuse(fp, "SHA-256 " + digest + " differs from MANIFEST.json's " +
                             e.at("sha256").get<std::string>());
    io::json d;
    try {
      d = io::json::parse(bytes);
    } catch (const io::json::exception& x) {
      detail::refuse(fp, std::string("not valid JSON: ") + x.what());
    }
    if (!d.is_object() || d.value("family", std::string()) != e.at("family").get<std::string>())
      detail::refuse(fp, "its \"family\" must be '" + e.at("family").get<std::string>() + "'");
    if (!d.contains("vectors") || !d.at("vectors").is_array() || d.at("vectors").empty())
      detail::refuse(fp, "\"vectors\" must be a non-empty array (an empty family is refused)");
    const io::json& vs = d.at("vectors");
    if (vs.size() != count)
      detail::refuse(
          fp, std::to_string(vs.size()) + " vectors, MANIFEST.json lists " + std::to_string(count));
    for (std::size_t i = 0; i < vs.size(); ++i) {
      detail::validate_vector(vs[i], i, fp);
      const std::string id = vs[i].at("id").get<std::string>();
      if (!seen_ids.insert(id).second) detail::refuse(fp, "duplicate vector id '" + id + "'");
      if (vs[i].at("input").contains("precision"))
        seen_precisions.insert(vs[i].at("input").at("precision").get<std::string>());
    }
    out.manifest_vectors += count;
    ++out.manifest_families;
    if (whole_dir ? !detail::under(fp, target) : fp.lexically_normal() != target) continue;
    loaded_family lf{e.at("family").get<std::string>(), file, count, {}};
    out.in_scope += count;
    for (const io::json& v : vs) {
      if (!ids.empty() &&
          std::find(ids.begin(), ids.end(), v.at("id").get<std::string>()) == ids.end())
        continue;
      const io::json& in = v.at("input");
      if (!precisions.empty() && in.contains("precision") &&
          std::find(precisions.begin(), precisions.end(), in.at("precision").get<std::string>()) ==
              precisions.end())
        continue;
      lf.vectors.push_back(v);
    }
    out.selected += lf.vectors.size();
    out.families.push_back(std::move(lf));
  }
  for (const auto& f : fs::recursive_directory_iterator(root)) {
    if (!f.is_regular_file() || f.path().extension() != ".json" ||
        f.path().filename() == "MANIFEST.json")
      continue;
    const std::string rel = fs::relative(f.path(), root).lexically_normal().string();
    if (!listed_files.count(rel))
      detail::refuse(f.path(), "an extra family file: MANIFEST.json does not list it");
  }
  if (!whole_dir && out.families.empty())
    detail::refuse(target, "not a family file listed in MANIFEST.json");
  for (const std::string& p : precisions)
    if (!seen_precisions.count(p)) {
      std::string known;
      for (const auto& q : seen_precisions) known.append(known.empty() ? "" : ", ").append(q);
      throw std::invalid_argument("--precision must be a precision the corpus has vectors for (" +
                                  known + "), got '" + p + "'");
    }
  for (const std::string& id : ids)
    if (!seen_ids.count(id))
      throw std::invalid_argument("--ids must name vectors of the corpus, got '" + id + "'");
  return out;
}

}  // namespace dpref::conformance

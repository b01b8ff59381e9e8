// Strict JSON parsing (spec/architecture.md ARCH.JSON): `document::parse` refuses duplicate
// keys, nesting deeper than a limit, texts larger than a limit and malformed JSON, each with the
// JSON path; it keeps the raw text of every number so that a real is converted once, from its
// decimal text, at the caller's precision. Typed reading is `node` (io/json.hpp).
#pragma once

#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dpref/io/fields.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/scalar.hpp"

namespace dpref::io {

/// JSON value type of dpref's documents (keys keep their insertion order on output).
using json = nlohmann::ordered_json;

/// Resource limits of the strict parser.
struct parse_limits {
  std::size_t max_bytes = std::size_t(64) << 20;  ///< 64 MiB of text
  int max_depth = 64;                             ///< nested arrays/objects
  std::size_t max_number_chars = 4096;            ///< digits of one number
};

/// A parsed JSON text: the value, the raw text of every number (by JSON pointer) and the name
/// of its source (file name, "--params", "command line").
class document {
 public:
  /// Parses `text` strictly. @throws std::invalid_argument "<source>: ..." naming the path
  /// @spec ARCH.JSON
  static document parse(std::string_view text, std::string source, const parse_limits& lim = {});
  /// Reads and parses a file. @throws std::invalid_argument if it cannot be read
  static document from_file(const std::string& path, const parse_limits& lim = {});
  /// Wraps a value built in memory (e.g. from command-line flags); reals may be decimal strings.
  static document from_value(json v, std::string source) {
    document d;
    d.root_ = std::move(v);
    d.source_ = std::move(source);
    return d;
  }

  /// The document `base` (source and raw number texts kept) with its value replaced by `v`
  /// (values changed in `v` must not be JSON numbers: they are read from their own text).
  static document rebuild(const document& base, json v) {
    document d = base;
    d.root_ = std::move(v);
    return d;
  }

  [[nodiscard]] const json& root() const { return root_; }
  [[nodiscard]] const std::string& source() const { return source_; }
  /// Raw text of the number at `pointer`, if the value came from parsed text.
  [[nodiscard]] const std::string* raw_number(const std::string& pointer) const {
    const auto it = raw_.find(pointer);
    return it == raw_.end() ? nullptr : &it->second;
  }
  /// Display name of the value at `pointer` in messages (a flag such as "--epsilon"), if set.
  void set_display_name(const std::string& pointer, std::string name) {
    names_[pointer] = std::move(name);
  }
  /// Whether the value at `pointer` has a display name (came from a command-line flag).
  [[nodiscard]] bool has_display_name(const std::string& pointer) const {
    return names_.count(pointer) != 0;
  }
  [[nodiscard]] std::string display(const std::string& pointer) const {
    const auto it = names_.find(pointer);
    if (it != names_.end()) return it->second;
    return source_ + ": " + (pointer.empty() ? std::string("(top level)") : pointer);
  }

 private:
  friend class strict_sax;
  json root_;
  std::string source_;
  std::unordered_map<std::string, std::string> raw_;
  std::unordered_map<std::string, std::string> names_;
};

/// Escapes a key for a JSON pointer (RFC 6901).
inline std::string pointer_escape(std::string_view key) {
  std::string out;
  for (const char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

/// Short text of a JSON value for messages (at most ~80 characters). Bytes that are not UTF-8
/// (a command-line value, say) are shown as U+FFFD instead of throwing from the message.
inline std::string brief(const json& v) {
  std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

/// SAX handler of document::parse.
class strict_sax : public nlohmann::json_sax<json> {
 public:
  strict_sax(document& d, const parse_limits& lim) : doc_(d), lim_(lim) {}

  bool null() override { return put(nullptr); }
  bool boolean(bool b) override { return put(b); }
  bool number_integer(number_integer_t v) override {
    doc_.raw_[here()] = std::to_string(v);
    return put(v);
  }
  bool number_unsigned(number_unsigned_t v) override {
    doc_.raw_[here()] = std::to_string(v);
    return put(v);
  }
  bool number_float(number_float_t v, const string_t& s) override {
    if (s.size() > lim_.max_number_chars)
      fail(here(), "a number of at most " + std::to_string(lim_.max_number_chars) + " characters");
    doc_.raw_[here()] = s;
    return put(v);
  }
  bool string(string_t& s) override { return put(s); }
  bool binary(binary_t&) override { fail(here(), "JSON text (no binary values)"); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool key(string_t& k) override {
    json& obj = *stack_.back().value;
    if (obj.contains(k))
      fail(stack_.back().pointer + "/" + pointer_escape(k), "a key that appears once");
    stack_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    std::string what = ex.what();
    const auto p = what.find("parse error");
    if (p != std::string::npos) what = what.substr(p);
    throw std::invalid_argument(doc_.source_ + ": malformed JSON at byte " +
                                std::to_string(position) + ": " + what);
  }

 private:
  struct frame {
    json* value;
    std::string pointer;
    std::string key;  // pending key (objects)
  };
  [[noreturn]] void fail(const std::string& pointer, const std::string& condition) {
    throw std::invalid_argument(doc_.source_ + ": " + (pointer.empty() ? "(top level)" : pointer) +
                                " must be " + condition);
  }
  std::string here() const {
    if (stack_.empty()) return "";
    const frame& f = stack_.back();
    if (f.value->is_object()) return f.pointer + "/" + pointer_escape(f.key);
    return f.pointer + "/" + std::to_string(f.value->size());
  }
  json* place(json v) {
    if (stack_.empty()) {
      doc_.root_ = std::move(v);
      return &doc_.root_;
    }
    json& parent = *stack_.back().value;
    if (parent.is_object()) {
      json& slot = parent[stack_.back().key];
      slot = std::move(v);
      return &slot;
    }
    parent.push_back(std::move(v));
    return &parent.back();
  }
  bool put(json v) {
    place(std::move(v));
    return true;
  }
  bool open(json v) {
    if (static_cast<int>(stack_.size()) >= lim_.max_depth)
      fail(here(), "nested at most " + std::to_string(lim_.max_depth) + " levels deep");
    const std::string ptr = here();
    json* slot = place(std::move(v));
    stack_.push_back({slot, ptr, {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  document& doc_;
  parse_limits lim_;
  std::vector<frame> stack_;
};

inline document document::parse(std::string_view text, std::string source,
                                const parse_limits& lim) {
  if (text.size() > lim.max_bytes)
    throw std::invalid_argument(source + " must be at most " + std::to_string(lim.max_bytes) +
                                " bytes of JSON, got " + std::to_string(text.size()));
  document d;
  d.source_ = std::move(source);
  strict_sax sax(d, lim);
  json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json, true,
                  false);
  return d;
}

inline document document::from_file(const std::string& path, const parse_limits& lim) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read JSON file '" + path + "'");
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size < 0) throw std::invalid_argument("cannot read JSON file '" + path + "'");
  if (static_cast<std::size_t>(size) > lim.max_bytes)
    throw std::invalid_argument(path + " must be at most " + std::to_string(lim.max_bytes) +
                                " bytes of JSON, got " +
                                std::to_string(static_cast<long long>(size)));
  in.seekg(0);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), size);
  return parse(text, path, lim);
}

}  // namespace dpref::io

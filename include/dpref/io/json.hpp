// Strict JSON in, exact JSON out (spec/architecture.md ARCH.JSON).
//
// Reading: `document::parse` refuses duplicate keys, nesting deeper than a limit, texts larger
// than a limit and malformed JSON, each with the JSON path; it keeps the raw text of every
// number so that a real is converted once, from its decimal text, at the caller's precision.
// `node` reads typed values (reals, range-checked integers without fraction or exponent,
// booleans, strings, named enums, vectors, structs with a field list) and refuses wrong types;
// `read_fields` refuses unknown keys. Every error is
//     "<source>: <path> must be <condition>, got <value>"     (std::invalid_argument)
// where <path> is a JSON pointer ("/events/3/sigma") or, for values that came from command-line
// flags, the flag ("--epsilon").
// Writing: `to_value(x)` — double as a JSON number (shortest text that round-trips), every
// other scalar as a decimal string with all its digits; structs through their field list.
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

/// A cursor on one value of a document; every read checks the type and names the path.
/// @spec ARCH.JSON
class node {
 public:
  node(const document& d) : doc_(&d), v_(&d.root()) {}  // NOLINT(google-explicit-constructor)
  node(const document& d, const json& v, std::string pointer)
      : doc_(&d), v_(&v), ptr_(std::move(pointer)) {}

  [[nodiscard]] const json& value() const { return *v_; }
  [[nodiscard]] const std::string& pointer() const { return ptr_; }
  [[nodiscard]] const document& doc() const { return *doc_; }
  /// How messages name this value: "<source>: /a/b" or "--flag".
  [[nodiscard]] std::string where() const { return doc_->display(ptr_); }

  [[noreturn]] void fail(std::string_view condition) const {
    throw std::invalid_argument(where() + " must be " + std::string(condition) + ", got " +
                                shown());
  }
  [[nodiscard]] std::string shown() const {
    if (v_->is_number())
      if (const std::string* raw = doc_->raw_number(ptr_)) return *raw;
    return brief(*v_);
  }

  [[nodiscard]] bool is_object() const { return v_->is_object(); }
  [[nodiscard]] bool is_array() const { return v_->is_array(); }
  [[nodiscard]] bool is_null() const { return v_->is_null(); }

  /// Member `key` of an object (required). @throws std::invalid_argument if absent
  [[nodiscard]] node at(std::string_view key) const {
    if (!v_->is_object()) fail("an object");
    const auto it = v_->find(std::string(key));
    if (it == v_->end())
      throw std::invalid_argument(where() + " must have the key \"" + std::string(key) + "\"");
    return {*doc_, *it, ptr_ + "/" + pointer_escape(key)};
  }
  /// Member `key` if present.
  [[nodiscard]] std::optional<node> find(std::string_view key) const {
    if (!v_->is_object()) fail("an object");
    const auto it = v_->find(std::string(key));
    if (it == v_->end()) return std::nullopt;
    return node{*doc_, *it, ptr_ + "/" + pointer_escape(key)};
  }
  /// Elements of an array (at most max_size). @throws std::invalid_argument otherwise
  [[nodiscard]] std::vector<node> elements(std::size_t max_size = 100000000) const {
    if (!v_->is_array()) fail("an array");
    if (v_->size() > max_size)
      fail("an array of at most " + std::to_string(max_size) + " elements");
    std::vector<node> out;
    out.reserve(v_->size());
    for (std::size_t i = 0; i < v_->size(); ++i)
      out.emplace_back(*doc_, (*v_)[i], ptr_ + "/" + std::to_string(i));
    return out;
  }
  /// Keys of an object, in document order.
  [[nodiscard]] std::vector<std::string> keys() const {
    if (!v_->is_object()) fail("an object");
    std::vector<std::string> out;
    for (auto it = v_->begin(); it != v_->end(); ++it) out.push_back(it.key());
    return out;
  }

  /// A real from a JSON number or a decimal string, converted from its text at Real's
  /// precision.
  template <real_scalar Real>
  [[nodiscard]] Real real() const {
    std::string text;
    if (v_->is_number()) {
      const std::string* raw = doc_->raw_number(ptr_);
      text = raw ? *raw : format_real(v_->get<double>());
    } else if (v_->is_string()) {
      text = v_->get<std::string>();
    } else {
      fail("a number (or a decimal string)");
    }
    try {
      return parse_real<Real>(text, where());
    } catch (const std::invalid_argument&) {
      fail(std::string("a finite decimal number in the range of ") + scalar_name<Real>());
    }
  }
  /// An integer in [lo, hi], written without fraction or exponent (a JSON integer, or a
  /// string of digits for values that came from the command line).
  template <class Int>
  [[nodiscard]] Int integer(Int lo = std::numeric_limits<Int>::lowest(),
                            Int hi = std::numeric_limits<Int>::max()) const {
    std::string text;
    if (v_->is_number_integer()) {
      text = shown();
    } else if (v_->is_string()) {
      text = v_->get<std::string>();
    } else {
      fail("an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
           "] (no fraction, no exponent)");
    }
    try {
      return parse_integer<Int>(text, where(), lo, hi);
    } catch (const std::invalid_argument&) {
      fail("an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
  }
  [[nodiscard]] bool boolean() const {
    if (!v_->is_boolean()) fail("true or false");
    return v_->get<bool>();
  }
  [[nodiscard]] std::string string(std::size_t max_size = 1 << 20) const {
    if (!v_->is_string()) fail("a string");
    if (v_->get_ref<const std::string&>().size() > max_size)
      fail("a string of at most " + std::to_string(max_size) + " characters");
    return v_->get<std::string>();
  }
  template <named_enum E>
  [[nodiscard]] E enumeration() const {
    if (!v_->is_string()) fail("a string naming one of the values");
    try {
      return enum_from_string<E>(v_->get<std::string>(), where());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(e.what()));
    }
  }

 private:
  const document* doc_;
  const json* v_;
  std::string ptr_;
};

template <class T>
void read_value(const node& n, T& out);

/// Reads the fields of `out` from the object at `n` (absent keys keep their defaults) and
/// refuses every key that is not a field: "<where> has unknown key "x" (valid keys: ...)".
/// @spec ARCH.JSON ARCH.FIELDS
template <has_fields T>
void read_fields(const node& n, T& out) {
  if (!n.is_object()) n.fail("an object");
  std::set<std::string> known;
  out.fields([&](std::string_view name, auto& field, std::string_view = {}) {
    known.insert(std::string(name));
    if (const auto m = n.find(name)) read_value(*m, field);
  });
  for (const std::string& k : n.keys())
    if (!known.count(k)) {
      std::string valid;
      for (const auto& v : known) valid.append(valid.empty() ? "" : ", ").append(v);
      throw std::invalid_argument(n.where() + " has unknown key \"" + k +
                                  "\" (valid keys: " + valid + ")");
    }
}

/// Typed reads used by read_fields (one overload per field type).
template <class T>
void read_value(const node& n, T& out) {
  if constexpr (std::is_same_v<T, bool>) {
    out = n.boolean();
  } else if constexpr (std::is_integral_v<T>) {
    out = n.template integer<T>();
  } else if constexpr (real_scalar<T>) {
    out = n.template real<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    out = n.string();
  } else if constexpr (named_enum<T>) {
    out = n.template enumeration<T>();
  } else if constexpr (has_fields<T>) {
    read_fields(n, out);
  } else if constexpr (requires {
                         out.resize(Eigen::Index{});
                         out.rows();
                       }) {  // Eigen vector
    const auto el = n.elements();
    out.resize(static_cast<Eigen::Index>(el.size()));
    for (std::size_t i = 0; i < el.size(); ++i)
      read_value(el[i], out[static_cast<Eigen::Index>(i)]);
  } else if constexpr (requires {
                         typename T::value_type;
                         out.push_back(typename T::value_type{});
                       }) {
    out.clear();
    for (const node& e : n.elements()) {
      typename T::value_type x{};
      read_value(e, x);
      out.push_back(std::move(x));
    }
  } else if constexpr (requires {
                         typename T::value_type;
                         out.has_value();
                       }) {  // optional
    if (n.is_null()) {
      out.reset();
    } else {
      typename T::value_type x{};
      read_value(n, x);
      out = std::move(x);
    }
  } else {
    static_assert(sizeof(T) == 0, "read_value: unsupported field type");
  }
}

/// A scalar as JSON: double as a number, others as a decimal string with all digits.
/// @spec ARCH.JSON
template <real_scalar Real>
json real_value(const Real& x) {
  if constexpr (std::is_same_v<Real, double>) {
    if (!is_finite_value(x)) return format_real(x);  // "inf"/"nan" as text, never a bad number
    return x;
  } else {
    return format_real(x);
  }
}

template <class T>
json to_value(const T& x);

/// Writes the fields of `x` as an object (in field-list order).
template <has_fields T>
json fields_value(const T& x) {
  json out = json::object();
  const_cast<T&>(x).fields([&](std::string_view name, auto& field, std::string_view = {}) {
    out[std::string(name)] = to_value(field);
  });
  return out;
}

template <class T>
json to_value(const T& x) {
  if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T> ||
                std::is_same_v<T, std::string>) {
    return x;
  } else if constexpr (real_scalar<T>) {
    return real_value(x);
  } else if constexpr (named_enum<T>) {
    return std::string(enum_to_string(x));
  } else if constexpr (has_fields<T>) {
    return fields_value(x);
  } else if constexpr (requires {
                         x.rows();
                         x.cols();
                         x(0, 0);
                       }) {
    // Eigen vector (one column) as an array; matrices as arrays of columns
    json a = json::array();
    if (x.cols() == 1) {
      for (Eigen::Index i = 0; i < x.rows(); ++i) a.push_back(to_value(x(i, 0)));
    } else {
      for (Eigen::Index j = 0; j < x.cols(); ++j) {
        json col = json::array();
        for (Eigen::Index i = 0; i < x.rows(); ++i) col.push_back(to_value(x(i, j)));
        a.push_back(std::move(col));
      }
    }
    return a;
  } else if constexpr (requires {
                         x.has_value();
                         *x;
                       }) {
    return x ? to_value(*x) : json(nullptr);
  } else if constexpr (requires {
                         x.begin();
                         x.end();
                       }) {
    json a = json::array();
    for (const auto& e : x) a.push_back(to_value(e));
    return a;
  } else {
    static_assert(sizeof(T) == 0, "to_value: unsupported type");
  }
}

}  // namespace dpref::io

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
#include "dpref/io/json_document.hpp"
#include "dpref/io/number_text.hpp"
#include "dpref/scalar.hpp"

namespace dpref::io {

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
      text = raw                       ? *raw
             : v_->is_number_integer() ? v_->dump()  // exact, also beyond 2^53
                                       : format_real(v_->get<double>());
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
  /// An integer in [lo, hi], written without fraction or exponent: a JSON integer (a string
  /// of digits only for values that came from the command line, which are all text; in a JSON
  /// document "5" is refused, never coerced: HARD.APPLIES).
  template <class Int>
  [[nodiscard]] Int integer(Int lo = std::numeric_limits<Int>::lowest(),
                            Int hi = std::numeric_limits<Int>::max()) const {
    std::string text;
    if (v_->is_number_integer()) {
      text = shown();
    } else if (v_->is_string() && doc_->has_display_name(ptr_)) {
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

namespace detail {
/// Whether read_fields checks applicability (off only inside without_inapplicable).
inline thread_local bool check_applicability = true;
}  // namespace detail

/// Reads the fields of `out` from the object at `n` (absent keys keep their defaults), refuses
/// every key that is not a field: "<where> has unknown key "x" (valid keys: ...)", and every
/// key present whose field does not apply to what was read (T::applicability, HARD.APPLIES):
/// "<where> must be absent: it applies only to ..., got <value>".
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
  // HARD.APPLIES: a field given explicitly must apply to the configuration that was read
  // (an explicit null of an optional field is its default, "absent", and is not refused)
  if (!detail::check_applicability) return;
  for (const auto& [name, reason] : inapplicable_fields(out))
    if (const auto m = n.find(name); m && !m->is_null())
      throw std::invalid_argument(m->where() + " must be absent: it " + reason + ", got " +
                                  m->shown());
}

namespace detail {
template <has_fields T>
void erase_inapplicable(T& x, json& j) {
  if (!j.is_object()) return;
  for (const auto& f : inapplicable_fields(x)) j.erase(f.first);
  x.fields([&](std::string_view name, auto& field, std::string_view = {}) {
    if constexpr (has_fields<std::decay_t<decltype(field)>>) {
      const auto it = j.find(std::string(name));
      if (it != j.end()) erase_inapplicable(field, *it);
    }
  });
}
}  // namespace detail

/// `j` without the keys whose fields do not apply to the T it describes (HARD.APPLIES): for
/// generators that write one full document for several algorithms (the conformance families).
/// @throws std::invalid_argument as read_fields for a document that is not a T
template <has_fields T>
json without_inapplicable(json j) {
  T x{};
  {
    detail::check_applicability = false;
    try {
      read_fields(node(document::from_value(j, "document")), x);
    } catch (...) {
      detail::check_applicability = true;
      throw;
    }
    detail::check_applicability = true;
  }
  detail::erase_inapplicable(x, j);
  return j;
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

/// Writes the fields of `x` as an object (in field-list order), without the fields that do not
/// apply to it (has_applicability, HARD.APPLIES).
template <has_fields T>
json fields_value(const T& x) {
  json out = json::object();
  const auto skip = inapplicable_fields(x);  // HARD.APPLIES: not echoed, so not read back
  const_cast<T&>(x).fields([&](std::string_view name, auto& field, std::string_view = {}) {
    for (const auto& s : skip)
      if (s.first == name) return;
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

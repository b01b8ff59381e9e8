// Command-line flags derived from a field list (spec/architecture.md ARCH.CLI): every field of
// a configuration struct becomes "--<name>" ('_' -> '-'; fields of nested structs get the
// struct's name as a prefix, except in "transparent" sections such as "problem" and "params").
// The flags only collect text; `build` turns them into the same JSON document a `--params` file
// gives, with each value's display name set to its flag, and the library's strict reader does
// the rest (one validation path: the message names the flag and the value).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dpref/io/json.hpp"
#include "dpref/noise_mode.hpp"

namespace dpref::cli {

/// CLI11 check of an unsigned 64-bit integer flag (seeds): digits only, range-checked, so "-1"
/// is refused instead of wrapping to 2^64 − 1 (spec/hardening.md HARD.CATALOGUE).
inline CLI::Validator unsigned_integer() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          (void)io::parse_integer<std::uint64_t>(text, "value");
          return {};
        } catch (const std::invalid_argument&) {
          return "must be an integer in [0, 18446744073709551615], got '" + text + "'";
        }
      },
      "UINT64");
}

/// The flags of one command.
class flag_set {
 public:
  /// Registers a flag for every leaf field of T on `cmd`. JSON pointers start at `root`
  /// (e.g. "" for a whole config); sections named in `transparent` add no flag prefix.
  template <io::has_fields T>
  void add(CLI::App* cmd, const std::string& root = "",
           std::set<std::string> transparent = {"problem", "params", "budget"}) {
    T defaults{};
    visit_fields(cmd, defaults, root, "", transparent);
  }

  /// Adds `--params FILE` (a JSON document of the same shape) to `cmd`.
  void add_params_file(CLI::App* cmd, const std::string& what) {
    cmd->add_option("--params", params_file_,
                    "JSON file with the " + what +
                        " (the schema of spec/architecture.md); flags "
                        "given on the command line override its values");
  }

  /// Sets the JSON file the flags are applied on top of (a positional argument, say).
  void set_params_file(std::string path) { params_file_ = std::move(path); }

  /// The document: --params file (if any) with every given flag applied on top.
  /// @throws std::invalid_argument for an unreadable or malformed file
  [[nodiscard]] io::document build(const std::string& source = "command line") const {
    io::json root = io::json::object();
    std::optional<io::document> file;
    if (!params_file_.empty()) {
      file = io::document::from_file(params_file_);
      if (!file->root().is_object())
        throw std::invalid_argument(params_file_ + ": (top level) must be a JSON object");
      root = file->root();
    }
    std::vector<std::pair<std::string, std::string>> names;  // pointer -> flag
    for (const auto& f : flags_) {
      if (!f->given()) continue;
      if (f->secure_alias && !f->secure_on)
        throw std::invalid_argument(
            "--secure takes no value (it means --" + f->flag.substr(2) +
            " secure; for the idealised release leave it out), got '--secure=false'");
      check_utf8(f->flag, f->value());
      check_parents(root, *f, file ? params_file_ : source);
      root[io::json::json_pointer(f->pointer)] = f->value();
      names.emplace_back(f->pointer, f->flag);
      if (f->is_list)
        for (std::size_t i = 0; i < f->value().size(); ++i)
          names.emplace_back(f->pointer + "/" + std::to_string(i), f->flag);
    }
    io::document d = file ? io::document::rebuild(*file, std::move(root))
                          : io::document::from_value(std::move(root), source);
    for (auto& [p, n] : names) d.set_display_name(p, n);
    return d;
  }

 private:
  struct flag {
    std::string flag, pointer;
    bool is_list = false;
    bool secure_alias = false;  ///< `--secure` given (noise_mode fields)
    bool secure_on = true;      ///< false for `--secure=false` (refused: HARD.APPLIES)
    std::string text;
    std::optional<bool> on;
    std::vector<std::string> items;
    CLI::Option* opt = nullptr;
    [[nodiscard]] bool given() const {
      return on.has_value() || secure_alias || (opt && opt->count() > 0);
    }
    [[nodiscard]] io::json value() const {
      if (on) return *on;
      if (secure_alias) return "secure";
      if (is_list) {
        io::json a = io::json::array();
        for (const auto& s : items) a.push_back(s);
        return a;
      }
      return text;
    }
  };

  /// Every section on the way to a flag's key must be an object (or absent) in the --params
  /// document: `{"params": []}` with `--epsilon 1` is invalid input naming the section and the
  /// flag, not nlohmann's parse_error (an internal error, HARD.APPLIES).
  static void check_parents(const io::json& root, const flag& f, const std::string& source) {
    const io::json* at = &root;
    std::string ptr;
    std::size_t start = 1;
    while (true) {
      const std::size_t slash = f.pointer.find('/', start);
      if (slash == std::string::npos) return;
      const std::string key = unescape(f.pointer.substr(start, slash - start));
      ptr += "/" + io::pointer_escape(key);
      const auto it = at->find(key);
      if (it == at->end()) return;
      if (!it->is_object())
        throw std::invalid_argument(source + ": " + ptr + " must be an object (the flag " + f.flag +
                                    " sets a key in it), got " + io::brief(*it));
      at = &*it;
      start = slash + 1;
    }
  }
  static std::string unescape(const std::string& s) {  // RFC 6901: ~1 -> '/', ~0 -> '~'
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '~' && i + 1 < s.size()) {
        out += s[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        out += s[i];
      }
    }
    return out;
  }

  /// A flag's text must be UTF-8 (a JSON string): refused naming the flag, never an internal
  /// error when the value is echoed (HARD.FUZZ, fuzz target cli_args).
  static void check_utf8(const std::string& flag, const io::json& value) {
    try {
      (void)value.dump();
    } catch (const io::json::type_error&) {
      throw std::invalid_argument(flag + " must be UTF-8 text, got " + io::brief(value));
    }
  }

  /// `--flag=VALUE` must be a boolean word (true/false, yes/no, on/off, 1/0): CLI11 would throw
  /// a bare std::invalid_argument ("unrecognized character") naming neither flag nor value.
  static CLI::Validator bool_text() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
          try {
            (void)CLI::detail::to_flag_value(text);
            return {};
          } catch (const std::exception&) {
            return "must be given alone or as =true|false, got " + io::brief(io::json(text));
          }
        },
        "BOOL");
  }

  static std::string dashed(std::string s) {
    for (char& c : s)
      if (c == '_') c = '-';
    return s;
  }

  template <class T>
  void visit_fields(CLI::App* cmd, T& obj, const std::string& pointer, const std::string& prefix,
                    const std::set<std::string>& transparent) {
    obj.fields([&](std::string_view name, auto& field, std::string_view help = {}) {
      using F = std::decay_t<decltype(field)>;
      const std::string key(name);
      const std::string ptr = pointer + "/" + io::pointer_escape(key);
      if constexpr (io::has_fields<F>) {
        const std::string pre = transparent.count(key) ? prefix : prefix + key + "_";
        visit_fields(cmd, field, ptr, pre, transparent);
      } else {
        add_leaf<F>(cmd, prefix + key, ptr, std::string(help), field);
      }
    });
  }

  /// A list entry's default as shown in --help.
  template <class T>
  static std::string value_text(const T& x) {
    if constexpr (io::named_enum<T>)
      return std::string(io::enum_to_string(x));
    else if constexpr (std::is_same_v<T, std::string>)
      return x;
    else if constexpr (std::is_integral_v<T>)
      return std::to_string(x);
    else
      return io::format_real(x);
  }

  template <class F>
  void add_leaf(CLI::App* cmd, const std::string& key, const std::string& ptr,
                const std::string& help, const F& def) {
    auto f = std::make_unique<flag>();
    f->flag = "--" + dashed(key);
    f->pointer = ptr;
    if (seen_.count(f->flag))
      throw std::logic_error("flag_set: two fields map to the flag " + f->flag);
    seen_.insert(f->flag);
    std::string desc = help;
    if constexpr (std::is_same_v<F, bool>) {
      flag* raw = f.get();
      cmd->add_flag_function(
             f->flag + ",!--no-" + dashed(key), [raw](std::int64_t n) { raw->on = n > 0; },
             desc + (def ? " (default: on)" : " (default: off)"))
          ->check(bool_text());
    } else if constexpr (io::named_enum<F>) {
      std::string choices;
      for (const auto& [v, n] : enum_names(F{}))
        choices.append(choices.empty() ? "" : "|").append(n);
      f->opt = cmd->add_option(
          f->flag, f->text,
          desc + " {" + choices + "} (default: " + std::string(io::enum_to_string(def)) + ")");
      if constexpr (std::is_same_v<F, noise_mode>) {
        // `--secure` is `--<field> secure` (SEC.MODE); giving both is refused by CLI11's excludes.
        flag* raw = f.get();
        if (seen_.count("--secure"))
          throw std::logic_error("flag_set: two noise_mode fields map to the flag --secure");
        seen_.insert("--secure");
        cmd->add_flag_function(
               "--secure",
               [raw](std::int64_t n) {
                 raw->secure_alias = true;
                 raw->secure_on = n > 0;
               },
               "same as " + f->flag +
                   " secure: every released noisy value goes through the lattice mechanisms, "
                   "so the certified guarantee holds for the released doubles")
            ->excludes(f->opt);
      }
    } else if constexpr (requires {
                           typename F::value_type;
                           def.begin();
                         } &&
                         !std::is_same_v<F, std::string>) {
      f->is_list = true;
      std::string shown;
      for (const auto& x : def) shown.append(shown.empty() ? "" : ",").append(value_text(x));
      f->opt = cmd->add_option(f->flag, f->items,
                               desc + " (comma-separated list; default: " +
                                   (shown.empty() ? std::string("empty") : shown) + ")")
                   ->delimiter(',');
    } else if constexpr (requires { def.rows(); }) {
      f->is_list = true;
      std::string shown;
      for (Eigen::Index i = 0; i < def.rows(); ++i)
        shown.append(shown.empty() ? "" : ",").append(value_text(def[i]));
      f->opt = cmd->add_option(f->flag, f->items,
                               desc + " (comma-separated list; default: " +
                                   (shown.empty() ? std::string("empty") : shown) + ")")
                   ->delimiter(',');
    } else if constexpr (requires {
                           typename F::value_type;
                           def.has_value();
                         }) {
      // std::optional<T>: absent by default; a given value is read as a T (a list for vectors)
      using T = typename F::value_type;
      if constexpr (requires(const T& t) { t.rows(); } ||
                    (requires(const T& t) { t.begin(); } && !std::is_same_v<T, std::string>)) {
        f->is_list = true;
        f->opt = cmd->add_option(f->flag, f->items, desc + " (comma-separated list; default: none)")
                     ->delimiter(',');
      } else {
        f->opt = cmd->add_option(f->flag, f->text, desc + " (default: none)");
      }
    } else {
      std::string shown;
      if constexpr (std::is_same_v<F, std::string>)
        shown = def.empty() ? std::string("none") : "'" + def + "'";
      else if constexpr (std::is_integral_v<F>)
        shown = std::to_string(def);
      else
        shown = io::format_real(def);
      f->opt = cmd->add_option(f->flag, f->text, desc + " (default: " + shown + ")");
    }
    flags_.push_back(std::move(f));
  }

  std::vector<std::unique_ptr<flag>> flags_;
  std::set<std::string> seen_;
  std::string params_file_;
};

}  // namespace dpref::cli

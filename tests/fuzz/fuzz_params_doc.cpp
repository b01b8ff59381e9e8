// libFuzzer target for the --params documents of every paper (spec/hardening.md HARD.FUZZ,
// HARD.APPLIES): type confusion, nesting, missing and extra sections, fields that do not apply.
// Input: byte 0 picks the configuration (the run config of dda, pwa, accel, ev, linesearch, or
// the study config of ev and linesearch), byte 1 picks a flag applied on top of the document
// (none, or one of a few flags whose key sits in a nested section: `--epsilon 1` on
// {"params": []} was an internal error), the rest is the JSON text of the --params file. The
// document goes through src/cli/flags.hpp (the file plus the flag), the strict read_fields
// (unknown keys, types, applicability) and validate(). An accepted configuration must also
// round-trip: its echo (io::fields_value, the result's "config") read back gives the same echo
// (a field that does not apply is never echoed, so never refused when fed back).
// Every input is accepted or refused with CLI::ParseError, std::invalid_argument or
// std::domain_error; a crash, a sanitizer report or any other exception fails.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/accel/run.hpp"
#include "dpref/dda/run.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/ev/study.hpp"
#include "dpref/linesearch/params.hpp"
#include "dpref/linesearch/study.hpp"
#include "dpref/pwa/run.hpp"
#include "flags.hpp"

namespace {

const std::string& params_path() {
  static const std::string p = "/tmp/dpref_fuzz_params_doc_" + std::to_string(getpid()) + ".json";
  return p;
}

template <class Config>
void run(const dpref::cli::flag_set& flags) {
  Config cfg;
  try {
    const dpref::io::document doc = flags.build("fuzz");
    dpref::io::read_fields(dpref::io::node(doc), cfg);
    if constexpr (requires { cfg.validate(); })
      cfg.validate();
    else
      cfg.params.validate();
  } catch (const std::invalid_argument&) {
    return;
  } catch (const std::domain_error&) {
    return;
  }
  // the echo contract: what was accepted is echoed without inapplicable fields and reads back
  const dpref::io::json echo = dpref::io::fields_value(cfg);
  Config again;
  dpref::io::read_fields(dpref::io::node(dpref::io::document::parse(echo.dump(), "echo")), again);
  if (dpref::io::fields_value(again) != echo)
    throw std::logic_error("fuzz params_doc: the echoed config does not read back to itself");
}

template <class Config>
void check_config(const std::string& text, std::uint8_t flag_pick) {
  {
    std::ofstream f(params_path(), std::ios::binary | std::ios::trunc);
    f << text;
  }
  CLI::App app{"fuzz"};
  dpref::cli::flag_set flags;
  flags.add<Config>(&app);
  flags.set_params_file(params_path());
  std::vector<std::string> args;  // CLI11 parses a reversed vector
  static const std::vector<std::vector<std::string>> picks = {
      {}, {"1", "--epsilon"}, {"5", "--iterations"}, {"--secure"}, {"3", "--seed"}};
  const auto& pick = picks[flag_pick % picks.size()];
  try {
    args = pick;
    app.parse(args);
  } catch (const CLI::ParseError&) {
    // the flag does not exist for this configuration: the document alone
    CLI::App bare{"fuzz"};
    dpref::cli::flag_set none;
    none.add<Config>(&bare);
    none.set_params_file(params_path());
    std::vector<std::string> empty;
    bare.parse(empty);
    return run<Config>(none);
  }
  run<Config>(flags);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || size > 8192) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);
  switch (data[0] % 7) {
    case 0:
      check_config<dpref::dda::config<double>>(text, data[1]);
      break;
    case 1:
      check_config<dpref::pwa::config<double>>(text, data[1]);
      break;
    case 2:
      check_config<dpref::accel::config<double>>(text, data[1]);
      break;
    case 3:
      check_config<dpref::ev::config<double>>(text, data[1]);
      break;
    case 4:
      check_config<dpref::linesearch::config<double>>(text, data[1]);
      break;
    case 5:
      check_config<dpref::ev::study::config>(text, data[1]);
      break;
    default:
      check_config<dpref::linesearch::study_config>(text, data[1]);
      break;
  }
  return 0;
}

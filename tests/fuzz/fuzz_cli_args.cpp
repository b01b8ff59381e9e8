// libFuzzer target for the command line of `dpref <paper> run` (spec/hardening.md HARD.FUZZ):
// the flags of each paper's configuration (src/cli/flags.hpp: CLI11 parsing, the JSON document
// the flags build) and the library's one validation path (strict read_fields, then validate()).
// Input: the first byte picks the paper, the rest is the argument list, one argument per line.
// Every input is accepted or refused with CLI::ParseError, std::invalid_argument or
// std::domain_error; a crash, a sanitizer report or any other exception fails.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpref/accel/run.hpp"
#include "dpref/dda/run.hpp"
#include "dpref/ev/run.hpp"
#include "dpref/linesearch/run.hpp"
#include "dpref/pwa/run.hpp"
#include "flags.hpp"

namespace {

template <class Config>
void parse_and_validate(const std::vector<std::string>& args) {
  CLI::App app{"fuzz"};
  dpref::cli::flag_set flags;
  flags.add<Config>(&app);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11's order
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError&) {
    return;
  }
  try {
    const dpref::io::document doc = flags.build("fuzz");
    Config cfg;
    dpref::io::read_fields(dpref::io::node(doc), cfg);
    if constexpr (requires { cfg.validate(); })
      cfg.validate();
    else
      cfg.params.validate();
  } catch (const std::invalid_argument&) {
  } catch (const std::domain_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 4096) return 0;
  std::vector<std::string> args;
  std::string cur;
  for (std::size_t i = 1; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) args.push_back(cur);
  if (args.size() > 64) return 0;
  switch (data[0] % 5) {
    case 0:
      parse_and_validate<dpref::ev::config<double>>(args);
      break;
    case 1:
      parse_and_validate<dpref::linesearch::config<double>>(args);
      break;
    case 2:
      parse_and_validate<dpref::dda::config<double>>(args);
      break;
    case 3:
      parse_and_validate<dpref::pwa::config<double>>(args);
      break;
    default:
      parse_and_validate<dpref::accel::config<double>>(args);
      break;
  }
  return 0;
}

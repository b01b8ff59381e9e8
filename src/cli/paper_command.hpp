// The generic `dpref <paper> run` command (spec/architecture.md ARCH.CLI): the flags of a
// configuration's field list, `--params FILE.json`, `--precision`, `--out`; the library reads
// the document (one validation path), runs, and returns the result JSON. The CLI adds nothing:
// no defaults of its own (they are the Params defaults), no science.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "dpref/io/json.hpp"
#include "flags.hpp"
#include "output.hpp"
#include "precision.hpp"

namespace dpref::cli {

/// Options every `run` command shares.
struct run_state {
  flag_set flags;
  std::string precision = "double";
  std::string out;
};

/// Registers `name` under `group`. `runner` is a generic callable
/// `[]<class Real>(const io::document&) -> io::json` (the library's run_json of the paper).
template <class Config, class Runner>
CLI::App* add_run_command(CLI::App& group, const std::string& name, const std::string& help,
                          Runner runner) {
  auto* cmd = group.add_subcommand(name, help);
  auto st = std::make_shared<run_state>();
  st->flags.add<Config>(cmd);
  st->flags.add_params_file(cmd, "configuration");
  cmd->add_option("--precision", st->precision,
                  "scalar type: double, long-double, mp50 or mpfr:DIGITS (default: double); "
                  "every number is read from its decimal text at this precision");
  cmd->add_option("--out", st->out, "write the JSON result to this file (default: stdout)");
  cmd->callback([st, runner] {
    const precision p = parse_precision(st->precision);
    check_output_file(st->out);
    const io::document doc = st->flags.build();
    io::json out = with_precision(
        p, [&]<class Real>() -> io::json { return runner.template operator()<Real>(doc); });
    write_json(out, st->out);
  });
  return cmd;
}

}  // namespace dpref::cli

// `dpref dda run|study` (spec/dda.md DDA.CLI): thin adapters. `run` over dda::run_json
// (include/dpref/dda/json.hpp): flags from dda::config's field list, the library reads,
// validates, calibrates, plans the ledger and runs; here only the over-budget warning on stderr.
// `study` over dda::study::study_json (include/dpref/dda/study.hpp): flags from
// dda::study::config's field list; progress on stderr.
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "dpref/dda/dda.hpp"
#include "flags.hpp"
#include "output.hpp"
#include "paper_command.hpp"
#include "world.hpp"

namespace dpref::cli {
namespace {

/// `dpref dda study`: flags of dda::study::config, --params, -o/--out.
void add_dda_study_command(CLI::App& group) {
  auto* cmd = group.add_subcommand(
      "study", "dda section 5: privacy-utility study (JSON; data: scripts/real_data.sh)");
  struct state {
    flag_set flags;
    std::string out = "dda_study.json";
  };
  auto st = std::make_shared<state>();
  st->flags.add<dda::study::config>(cmd);
  st->flags.add_params_file(cmd, "study configuration");
  cmd->add_option("-o,--out", st->out, "write the JSON to this file (default: dda_study.json)");
  cmd->callback([st] {
    check_output_file(st->out);  // before the study starts
    write_json(dda::study::study_json(st->flags.build(), progress_to_stderr), st->out);
  });
}

}  // namespace

void register_dda_command(CLI::App& app) {
  auto* dda = app.add_subcommand("dda", "dda paper: private distributed dual averaging");
  dda->require_subcommand(1);
  add_run_command<dda::config<double>>(
      *dda, "run",
      "One run of dda Algorithm 1 (DP-DDA): sigma calibrated from public bounds, ledger planned "
      "before any release; prints the result JSON",
      []<class Real>(const io::document& d) {
        // under mpirun the nodes are split over the ranks (spec/distributed.md DIST.DDA)
        io::json out = dda::run_json<Real>(d, world());
        const io::json& pr = out["privacy"];
        if (world().is_root() && pr.value("private", false) && !pr.value("budget_met", true))
          std::cerr << "dpref dda run: WARNING: the certified guarantee (epsilon = "
                    << pr["guarantee"]["epsilon"].dump() << ") exceeds the requested budget "
                    << "(epsilon = " << pr["requested"]["epsilon"].dump()
                    << "): paper_theorem1 calibration reproduced with allow_over_budget\n";
        return out;
      });

  add_dda_study_command(*dda);
}

static const command_registrar dda_registrar(register_dda_command);

}  // namespace dpref::cli

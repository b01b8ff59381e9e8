// `dpref account LEDGER.json`: the certified guarantee of a ledger — the "ledger" a run
// writes, or any {"accounting": {...}, "events": [...]} document (schema: spec/accounting.md
// ACC.LEDGER.JSON; example: examples/account_events.json). Strict: unknown or duplicate keys,
// wrong types, non-integers and invalid values are refused with the JSON path. Text output
// rounds every ε and δ UP; --json prints every digit (the report of
// dpref/accounting/account_report.hpp, shared with the Python package).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>

#include "commands.hpp"
#include "dpref/accounting/account_report.hpp"
#include "dpref/accounting/format.hpp"
#include "flags.hpp"
#include "output.hpp"
#include "precision.hpp"

namespace dpref::cli {
namespace {

using namespace dpref::accounting;

struct account_state {
  std::string file;
  bool as_json = false;
  bool force = false;
  std::string precision = "double";
  std::string out;
  flag_set flags;
};

/// Estimated seconds of a ledger (fractional-order RDP costs about 5 s per Poisson-subsampled
/// Gaussian event and is accounted twice: alone and composed); refused above 120 s unless
/// --force, announced on stderr when forced.
template <real_scalar Real>
void check_work(const io::document& doc, bool force) {
  const ledger<Real> l = read_ledger<Real>(io::node(doc));
  if (!l.options().fractional_orders || l.options().method == accounting_method::pld) return;
  long long heavy = 0;
  for (const auto& e : l.events())
    if (e.sampling && std::holds_alternative<gaussian_mechanism<Real>>(e.what)) ++heavy;
  const long long seconds = heavy * 10;
  if (seconds > 120 && !force)
    throw std::invalid_argument("dpref account: fractional_orders on " + std::to_string(heavy) +
                                " subsampled Gaussian events would take about " +
                                std::to_string(seconds) +
                                " s (> 120 s); pass --force to run it anyway, or use --method pld");
  if (seconds > 5)
    std::fprintf(stderr, "dpref account: fractional orders, about %lld s of work\n", seconds);
}

template <real_scalar Real>
io::json account_json(const io::document& doc, std::string& text, bool force) {
  check_work<Real>(doc, force);
  const account_report<Real> r = account_document<Real>(io::node(doc));
  const guarantee<Real>& g = r.total;
  text += fmt::format("{:<22} {:>12}  {:<30} {}\n", "mechanism", "count", "sampling",
                      "alone (certified, rounded up)");
  for (std::size_t i = 0; i < r.l.events().size(); ++i) {
    const auto& e = r.l.events()[i];
    const guarantee<Real>& alone = r.alone[i];
    std::string sampling = "none";
    if (e.sampling)
      sampling = std::string(io::enum_to_string(e.sampling->scheme)) +
                 (e.sampling->population > 0 ? " " + std::to_string(e.sampling->sample_size) + "/" +
                                                   std::to_string(e.sampling->population)
                                             : " q=" + io::format_real(e.sampling->rate));
    text += fmt::format("{:<22} {:>12}  {:<30} epsilon <= {}, delta <= {}\n", std::string(e.kind()),
                        e.count, sampling, accounting::format_rounded_up(alone.epsilon, 8),
                        accounting::format_rounded_up(alone.delta, 8));
  }
  text += fmt::format("\ncomposed guarantee: (epsilon, delta) = ({}, {})  [{} accountant]\n",
                      accounting::format_rounded_up(g.epsilon, 10),
                      accounting::format_rounded_up(g.delta, 10), io::enum_to_string(g.method));
  if (g.rdp_part) {
    const auto& c = *g.rdp_part;
    const bool at_top = c.at_grid_edge && c.order == Real(r.l.options().max_order);
    text +=
        fmt::format("  Rényi part converted at delta = {}, best order {}{}\n",
                    accounting::format_rounded_up(r.l.options().delta, 6), io::format_real(c.order),
                    at_top ? " (the largest order of the grid: raise --max-order)" : "");
  }
  text += "  (every value is a certified upper bound, printed rounded up)\n";
  return r.json;
}

void register_account_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("account",
                                 "Certified (epsilon, delta) of a ledger of privacy events (JSON)");
  auto st = std::make_shared<account_state>();
  cmd->add_option("file", st->file,
                  "ledger JSON: {\"accounting\": {...}, \"events\": [...]} "
                  "(examples/account_events.json, spec/accounting.md)")
      ->required();
  st->flags.add<accounting_options<double>>(cmd, "/accounting", {});
  cmd->add_flag("--json", st->as_json, "print the result as JSON (every digit)");
  cmd->add_flag("--force", st->force, "run even when the estimated time exceeds 120 s");
  cmd->add_option("--precision", st->precision,
                  "double, long-double, mp50 or mpfr:DIGITS (default: double)");
  cmd->add_option("--out", st->out, "write the output to this file (default: stdout)");
  cmd->callback([st] {
    const precision p = parse_precision(st->precision);
    check_output_file(st->out);
    flag_set& f = st->flags;
    f.set_params_file(st->file);
    const io::document doc = f.build();
    std::string text;
    const io::json out =
        with_precision(p, [&]<class Real>() { return account_json<Real>(doc, text, st->force); });
    if (st->as_json)
      write_json(out, st->out);
    else
      write_text(text, st->out);
  });
}

const command_registrar account_registrar(register_account_command);

}  // namespace
}  // namespace dpref::cli

// `dpref account LEDGER.json`: the certified guarantee of a ledger — the "ledger" a run
// writes, or any {"accounting": {...}, "events": [...]} document (schema: spec/accounting.md
// ACC.LEDGER.JSON; example: examples/account_events.json). Strict: unknown or duplicate keys,
// wrong types, non-integers and invalid values are refused with the JSON path. Text output
// rounds every ε and δ UP; --json prints every digit.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>

#include "commands.hpp"
#include "dpref/accounting/format.hpp"
#include "dpref/accounting/ledger_json.hpp"
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

/// Refuses a ledger whose fractional-order RDP would take more than ~2 minutes (each
/// Poisson-subsampled Gaussian event costs about 5 s on the fractional grid) unless --force.
template <real_scalar Real>
void check_work(const ledger<Real>& l, bool force) {
  if (!l.options().fractional_orders || l.options().method == accounting_method::pld || force)
    return;
  long long heavy = 0;
  for (const auto& e : l.events())
    if (e.sampling && std::holds_alternative<gaussian_mechanism<Real>>(e.what)) ++heavy;
  if (heavy * 5 > 120)
    throw std::invalid_argument("dpref account: fractional_orders on " + std::to_string(heavy) +
                                " subsampled Gaussian events would take about " +
                                std::to_string(heavy * 5) +
                                " s (> 120 s); pass --force to run it anyway, or use --method pld");
}

template <real_scalar Real>
io::json account_json(const io::document& doc, std::string& text, bool force) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const ledger<Real> l = read_ledger<Real>(io::node(doc));
  check_work(l, force);
  const guarantee<Real> g = l.total();
  io::json events = io::json::array();
  text += fmt::format("{:<22} {:>12}  {:<30} {}\n", "mechanism", "count", "sampling",
                      "alone (certified, rounded up)");
  std::size_t done = 0;
  for (const auto& e : l.events()) {
    const guarantee<Real> alone = account<Real>({e}, l.options());
    ++done;
    const double secs = std::chrono::duration<double>(clock::now() - t0).count();
    if (secs > 5)
      std::fprintf(stderr, "dpref account: %zu/%zu events accounted alone (%.0f s)\n", done,
                   l.events().size(), secs);
    io::json je = event_value(e);
    je["alone"] = guarantee_value(alone);
    events.push_back(je);
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
  io::json out = io::json::object();
  out["schema"] = "dpref.account/1";
  out["precision"] = scalar_name<Real>();
  out["ledger"] = ledger_value(l);
  out["guarantee"] = guarantee_value(g);
  out["events"] = std::move(events);
  text += fmt::format("\ncomposed guarantee: (epsilon, delta) = ({}, {})  [{} accountant]\n",
                      accounting::format_rounded_up(g.epsilon, 10),
                      accounting::format_rounded_up(g.delta, 10), io::enum_to_string(g.method));
  if (g.rdp_part) {
    const auto& r = *g.rdp_part;
    out["rdp"] = {{"order", io::real_value(r.order)},
                  {"max_order", l.options().max_order},
                  {"order_at_grid_edge", r.at_grid_edge}};
    const bool at_top = r.at_grid_edge && r.order == Real(l.options().max_order);
    text +=
        fmt::format("  Rényi part converted at delta = {}, best order {}{}\n",
                    accounting::format_rounded_up(l.options().delta, 6), io::format_real(r.order),
                    at_top ? " (the largest order of the grid: raise --max-order)" : "");
  }
  text += "  (every value is a certified upper bound, printed rounded up)\n";
  return out;
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

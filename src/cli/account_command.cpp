// `dpref account FILE.json`: composes a JSON list of privacy events and prints the guarantee
// (human table by default, JSON with --json). spec/accounting.md, ACC.LEDGER.
//
// Input: either an array of events or {"delta": δ, "max_order": α_max, "events": [...]}. Events:
//   {"mechanism": "pure", "eps": ε}                           {"mechanism": "approx", "eps": ε,
//   "delta": δ}
//   {"mechanism": "laplace", "sensitivity": Δ1, "scale": b}   {"mechanism": "vector_laplace", ...}
//   {"mechanism": "exponential", "utility_sensitivity": Δu, "scale": s}
//   {"mechanism": "gaussian", "sensitivity": Δ2, "sigma": σ, "delta": δ}        (exact Balle–Wang)
//   {"mechanism": "gaussian_rdp", "sensitivity": Δ2, "sigma": σ}                  (RDP αΔ²/(2σ²))
//   {"mechanism": "laplace_rdp", "sensitivity": Δ1, "scale": b}
//   {"mechanism": "subsampled_gaussian", "q": q, "noise_multiplier": s}           (MTZ exact RDP)
//   {"mechanism": "subsampled_laplace", "q": q, "sensitivity": Δ1, "scale": b}    (Zhu–Wang)
// each with an optional "count" (repetitions, default 1). RDP events are composed on the
// integer orders 2…max_order and converted (Balle et al. 2020) at "delta" (default 1e-5).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "dpref/accounting/accounting.hpp"

namespace dpref::cli {

namespace {

using namespace dpref::accounting;
using json = nlohmann::json;

double num(const json& e, const char* key) {
  if (!e.contains(key) || !e.at(key).is_number())
    throw std::invalid_argument(fmt::format("event {}: missing numeric field '{}'", e.dump(), key));
  return e.at(key).get<double>();
}

privacy_event<double> parse_event(const json& e, const std::vector<double>& orders) {
  if (!e.is_object() || !e.contains("mechanism") || !e.at("mechanism").is_string())
    throw std::invalid_argument(
        fmt::format("event {}: needs a string field 'mechanism'", e.dump()));
  const std::string m = e.at("mechanism").get<std::string>();
  privacy_event<double> ev;
  ev.kind = m;
  ev.count = e.value("count", 1LL);
  auto p = [&](const char* k) {
    const double v = num(e, k);
    ev.params.emplace_back(k, v);
    return v;
  };
  if (m == "pure") {
    ev.privacy = pure_dp<double>{p("eps")};
  } else if (m == "approx") {
    const double eps = p("eps");
    ev.privacy = approx_dp<double>{eps, p("delta")};
  } else if (m == "laplace") {
    const double s = p("sensitivity");
    ev.privacy = laplace_privacy(s, p("scale"));
  } else if (m == "vector_laplace") {
    const double s = p("sensitivity");
    ev.privacy = vector_laplace_privacy(s, p("scale"));
  } else if (m == "exponential") {
    const double s = p("utility_sensitivity");
    ev.privacy = exponential_mechanism_privacy(s, p("scale"));
  } else if (m == "gaussian") {
    const double s = p("sensitivity"), sigma = p("sigma");
    ev.privacy = analytic_gaussian_privacy(s, sigma, p("delta"));
  } else if (m == "gaussian_rdp") {
    const double s = p("sensitivity");
    ev.privacy = gaussian_rdp_curve(s, p("sigma"), orders);
  } else if (m == "laplace_rdp") {
    const double s = p("sensitivity");
    ev.privacy = laplace_rdp_curve(s, p("scale"), orders);
  } else if (m == "subsampled_gaussian") {
    const double q = p("q");
    ev.privacy = poisson_subsampled_gaussian_rdp(q, p("noise_multiplier"), orders);
  } else if (m == "subsampled_laplace") {
    const double q = p("q"), s = p("sensitivity");
    ev.privacy = poisson_subsampled_rdp_zw(laplace_rdp_curve(s, p("scale"), orders), q);
  } else {
    throw std::invalid_argument(fmt::format("event {}: unknown mechanism '{}'", e.dump(), m));
  }
  return ev;
}

std::string describe(const privacy_event<double>& ev, double delta, json& j) {
  if (const auto* pd = std::get_if<pure_dp<double>>(&ev.privacy)) {
    j["eps"] = pd->eps;
    return fmt::format("eps = {:.6g}", pd->eps);
  }
  if (const auto* ad = std::get_if<approx_dp<double>>(&ev.privacy)) {
    j["eps"] = ad->eps;
    j["delta"] = ad->delta;
    return fmt::format("eps = {:.6g}, delta = {:.3g}", ad->eps, ad->delta);
  }
  const auto& c = std::get<rdp_curve<double>>(ev.privacy);
  const auto one = rdp_to_dp(ev.count == 1 ? c : compose_rdp_steps(c, ev.count), delta);
  j["rdp_orders"] = c.orders;
  j["rdp_eps"] = c.eps;
  j["alone_eps"] = one.guarantee.eps;
  return fmt::format("RDP; alone (x count): eps = {:.6g} at delta = {:.3g} (order {:g})",
                     one.guarantee.eps, delta, one.order);
}

int run_account(const std::string& file, bool as_json, double delta_cli, int max_order_cli) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("dpref account: cannot open " + file);
  const json doc = json::parse(in);
  const json& events = doc.is_array() ? doc : doc.at("events");
  double delta = delta_cli > 0 ? delta_cli : (doc.is_object() ? doc.value("delta", 1e-5) : 1e-5);
  int max_order =
      max_order_cli > 0 ? max_order_cli : (doc.is_object() ? doc.value("max_order", 256) : 256);
  const std::vector<double> orders = integer_orders<double>(2, max_order);
  privacy_ledger<double> ledger;
  for (const json& e : events) ledger.record(parse_event(e, orders));
  const approx_dp<double> total = ledger.total(delta);
  json out;
  out["events"] = json::array();
  std::vector<std::string> rows;
  for (const auto& ev : ledger.events()) {
    json j;
    j["mechanism"] = ev.kind;
    j["count"] = ev.count;
    for (const auto& [k, v] : ev.params) j["params"][k] = v;
    const std::string d = describe(ev, delta, j);
    std::string params;
    for (const auto& [k, v] : ev.params) params += fmt::format("{}={:g} ", k, v);
    rows.push_back(fmt::format("{:<20} {:>8} {:<38} {}", ev.kind, ev.count, params, d));
    out["events"].push_back(j);
  }
  out["total"] = {{"eps", total.eps}, {"delta", total.delta}};
  json note;
  if (auto r = ledger.total_rdp()) {
    const auto conv = rdp_to_dp(*r, delta);
    out["rdp"] = {{"delta", delta},
                  {"eps", conv.guarantee.eps},
                  {"order", conv.order},
                  {"max_order", max_order},
                  {"order_at_grid_edge", conv.at_grid_edge},
                  {"conversion", "Balle et al. 2020"}};
  }
  out["certified"] = "every eps and delta is rounded up from a >= 256-bit MPFR evaluation";
  if (as_json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << fmt::format("{:<20} {:>8} {:<38} {}\n", "mechanism", "count", "parameters",
                           "guarantee");
  for (const auto& r : rows) std::cout << r << "\n";
  std::cout << fmt::format("\ncomposed guarantee: ({:.17g}, {:.6g})-DP\n", total.eps, total.delta);
  if (out.contains("rdp"))
    std::cout << fmt::format("  RDP part converted at delta = {:g}, best order {:g}{}\n", delta,
                             out["rdp"]["order"].get<double>(),
                             out["rdp"]["order_at_grid_edge"].get<bool>()
                                 ? " (AT THE EDGE of the order grid: raise --max-order)"
                                 : "");
  std::cout << "  (certified upper bounds: never below the exact values)\n";
  return 0;
}

}  // namespace

void register_account_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("account", "Compose privacy events from a JSON file");
  auto file = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto delta = std::make_shared<double>(-1.0);
  auto max_order = std::make_shared<int>(-1);
  cmd->add_option("file", *file, "JSON list of events (see examples/account_events.json)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_flag("--json", *as_json, "print the result as JSON");
  cmd->add_option("--delta", *delta, "delta at which RDP events are converted (default 1e-5)");
  cmd->add_option("--max-order", *max_order, "largest integer RDP order (default 256)");
  cmd->callback([=] {
    const int rc = run_account(*file, *as_json, *delta, *max_order);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

static const command_registrar account_registrar(register_account_command);

}  // namespace dpref::cli

// ev claims (spec/ev.md EV.STUDY.*, EV.UNITS, errata EV-E1/EV-E5): Figures 2-4 of ev §VII as
// statistical checks on the grouped instance (taylor base load, m = 500,000, n = 100,000), and
// Theorem 8's sensitivity against the exact worst case (each statistical claim carries the negative
// control that must fail it; their one definition: tests run them through `dpref reproduce`);
// secure mode (SEC.EV): the requested budget is met by the lattice release of the doubles, and its
// utility cost ratio.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "dpref/ev/ev.hpp"
#include "dpref/io/data_path.hpp"
#include "reproduce/claims.hpp"
#include "reproduce/rule.hpp"

namespace dpref::reproduce {
namespace {

namespace st = ev::study;

struct instance {
  ev::problem<double> prob;
  double u_star;
  long long groups;
};

/// The grouped instance of ev §VII (N groups), household (λ = m) or paper (λ = 1) units.
instance make(bool quick, ev::units u) {
  const vector<double> d =
      ev::read_base_load_csv<double>(io::find_data_file("ev/base_load_taylor.csv"));
  const double m = 500000;
  const long long groups = quick ? 20 : 100;
  ev::problem<double> prob(d, m, ev::draw_grouped_specs<double>(7, d.size(), 100000, groups),
                           u == ev::units::household ? ev::household_units(m) : 1.0);
  const auto opt = ev::solve_optimum(prob);
  return {std::move(prob), opt.optimum->value, groups};
}

/// Quick: N = 20 groups, R = 20 runs, the reduced grids of EV.STUDY.*; full: the study's
/// defaults (N = 100, R = 100, the paper's grids).
st::config config(bool quick) {
  st::config c;
  c.paper_delta = false;
  c.fig2 = c.fig3 = c.fig4 = false;
  c.seed = 4242;
  if (quick) {
    c.runs = 20;
    c.iterations_list = {2, 3, 4, 6, 8, 12, 20};
    c.epsilon_list = {0.01, 0.1, 1, 10};
    c.iterations_opt_list = {2, 3, 4, 6, 8, 12, 16, 24};
  }
  return c;
}

std::string size_text(bool quick) {
  return quick ? "N = 20 groups, R = 20 runs per point, reduced grids"
               : "N = 100 groups, R = 100 runs per point, the paper's grids";
}

const std::string kZerr =
    "false pass <= Phi(-5) = 2.9e-7 per check (normal approximation of the run means)";

void flat_in_c(const options& o, results& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto f = make(o.quick, ev::units::household);
  auto cfg = config(o.quick);
  const auto pt = [&](double c) {
    return st::relative_suboptimality(
        f.prob, f.u_star, st::point_params(cfg, c, 6, 0.1, ev::sensitivity_bound::tight), cfg.runs,
        cfg.seed);
  };
  const auto c10 = pt(10), c20 = pt(20);
  const auto flat = st::check_flat(c10, c20, 2);
  // negative control: the same check on [2, 4], where the steps are too short to reach the valley
  const auto steep = st::check_flat(pt(2), pt(4), 2);
  claim c;
  c.id = "EV.STUDY.C";
  c.paper = "ev";
  c.statement = "Fig. 2: the suboptimality is insensitive to the step constant c on [10, 20]";
  c.statistic =
      "log m(20)/m(10) of the mean relative suboptimality (K = 6, eps = 0.1, tight Delta, "
      "household units), SE by the delta method on paired runs; reproduced when |log ratio| + 5 "
      "SE <= log 2 and the negative control (the same check on [2, 4]) fails it, contradicted "
      "when |log ratio| - 5 SE > log 2";
  c.error = kZerr;
  c.error_probability = normal_tail(5);
  c.rule = {
      "abs(log_ratio) + 5 * se <= log(2) and not (abs(control_log_ratio) + 5 * control_se "
      "<= log(2))",
      "abs(log_ratio) - 5 * se > log(2)"};
  c.numbers = {{"log_ratio", flat.estimate},          {"se", flat.se},
               {"ratio", std::exp(flat.estimate)},    {"margin_se", flat.margin_se},
               {"control_log_ratio", steep.estimate}, {"control_se", steep.se}};
  c.result = decide(c);
  c.summary = "m(20)/m(10) = " + fmt(std::exp(flat.estimate)) + " (log " + fmt(flat.estimate) +
              " +- " + fmt(flat.se) +
              "), band factor 2; control m(4)/m(2) = " + fmt(std::exp(steep.estimate));
  c.reduced = o.quick;
  c.size = size_text(o.quick);
  c.seconds = since(t0);
  out.claims.push_back(c);
}

nlohmann::json curve(const std::vector<double>& x, const std::vector<st::point_stats>& p) {
  nlohmann::json j = nlohmann::json::object();
  j["x"] = x;
  std::vector<double> m, se;
  for (const auto& s : p) m.push_back(s.mean), se.push_back(s.se);
  j["mean"] = m;
  j["se"] = se;
  return j;
}

void interior_in_K(const options& o, results& out, ev::units u) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto f = make(o.quick, u);
  auto cfg = config(o.quick);
  cfg.fig3 = true;
  const auto r = st::run_study(f.prob, f.u_star, cfg);
  const auto& chk = r.K_check_tight;  // fresh set 1 at first, best, last K
  bool control_interior = false;      // negative control (household units): noise frozen at K = 6
  if (u == ev::units::household) {
    auto frozen = cfg;
    frozen.calib = st::calibration::noise_independent_of_K;
    control_interior = st::run_study(f.prob, f.u_star, frozen).interior_tight.holds;
  }
  claim c;
  c.paper = "ev";
  c.reduced = o.quick;
  c.size = size_text(o.quick);
  c.error = kZerr;
  c.error_probability = normal_tail(5);
  const double Khat = r.K.x[r.K_best_tight];
  if (u == ev::units::household) {
    c.id = "EV.STUDY.K";
    c.statement = "Fig. 3: the suboptimality has an interior optimum in the iterations K";
    c.statistic =
        "K^ = argmin of the set-0 means over the K grid (c = 10, eps = 0.1, household units); on "
        "the independent set 1 both grid ends exceed K^ by more than 5 paired SE and the negative "
        "control (the noise scale frozen at its K = 6 value, not private) fails the same check "
        "(reproduced); contradicted when K^ is a grid end and the other end is worse by 5 SE";
    const bool at_end = r.K_best_tight == 0 || r.K_best_tight + 1 == r.K.x.size();
    c.rule = {"interior_holds == 1 and control_interior_holds == 0",
              "interior_holds == 0 and K_hat_at_grid_end == 1"};
    c.numbers = {{"K_hat", Khat},
                 {"K_hat_at_grid_end", at_end ? 1.0 : 0.0},
                 {"mean_first", chk[0].mean},
                 {"mean_best", chk[1].mean},
                 {"mean_last", chk[2].mean},
                 {"margin_se", std::isfinite(r.interior_tight.margin_se)
                                   ? r.interior_tight.margin_se
                                   : (r.interior_tight.holds ? 1e300 : -1e300)},
                 {"interior_holds", r.interior_tight.holds ? 1.0 : 0.0},
                 {"control_interior_holds", control_interior ? 1.0 : 0.0}};
    c.summary = "K^ = " + fmt(Khat) + "; set 1: K=" + fmt(r.K.x.front()) + " " + fmt(chk[0].mean) +
                ", K^ " + fmt(chk[1].mean) + ", K=" + fmt(r.K.x.back()) + " " + fmt(chk[2].mean) +
                " (margin " + fmt(r.interior_tight.margin_se) + " SE beyond 5)";
  } else {
    // EV.UNITS / errata EV-E5: U of (7) as printed (λ = 1). Fig. 3 varies by orders of
    // magnitude over K; here the best and worst K differ by less than 1% (at 5 SE): the
    // literal reading contradicts the figure.
    c.id = "EV.UNITS";
    c.statement =
        "Fig. 3 with U of (7) as printed (lambda = 1, c = 10): the suboptimality depends on K "
        "(interior optimum, variation by orders of magnitude)";
    double lo = chk[0].mean, hi = chk[0].mean, se = 0;
    for (const auto& p : chk) lo = std::min(lo, p.mean), hi = std::max(hi, p.mean);
    for (const auto& p : chk) se = std::max(se, p.se);
    const double spread = std::log(hi / lo), spread_se = 2 * se / lo;
    c.statistic =
        "paper units: interior-optimum check as EV.STUDY.K (reproduced if it passes); "
        "contradicted when log(max/min) of the set-1 means at the first, best and last K + 5 SE "
        "< log 1.01 (flat within 1%)";
    c.rule = {"interior_holds == 1",
              "interior_holds == 0 and log_spread + 5 * log_spread_se < log(1.01)"};
    const bool at_end = r.K_best_tight == 0 || r.K_best_tight + 1 == r.K.x.size();
    c.numbers = {{"K_hat", Khat},
                 {"K_hat_at_grid_end", at_end ? 1.0 : 0.0},
                 {"mean_best", chk[1].mean},
                 {"log_spread", spread},
                 {"log_spread_se", spread_se},
                 {"interior_holds", r.interior_tight.holds ? 1.0 : 0.0}};
    c.summary = "every K gives " + fmt(chk[1].mean) +
                " relative suboptimality; log(max/min) = " + fmt(spread) + " +- " + fmt(spread_se) +
                " (K^ = " + fmt(Khat) + ")";
    out.errata.push_back({"EV-E5", "ev", "objective units of (7) vs the step sizes of §VII",
                          "c = 10 with U of (7) (Figs. 2-4)",
                          "flat " + fmt(100 * chk[1].mean) +
                              "% at every K; c must be read in household units (U x m)",
                          "EV_UNITS, dpref reproduce EV.UNITS", true});
  }
  c.result = decide(c);
  c.seconds = since(t0);
  nlohmann::json s = curve(r.K.x, r.K.tight);
  s["units"] = u == ev::units::household ? "household" : "paper";
  out.series.emplace_back(u == ev::units::household ? "ev_K_household" : "ev_K_paper", s.dump());
  out.claims.push_back(c);
}

void slope_in_eps(const options& o, results& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto f = make(o.quick, ev::units::household);
  auto cfg = config(o.quick);
  cfg.fig4 = true;
  const auto r = st::run_study(f.prob, f.u_star, cfg);
  const auto& fit = r.eps.fit_tight;
  auto frozen = cfg;  // negative control (not private): noise frozen at its eps = 0.1 value
  frozen.calib = st::calibration::noise_independent_of_eps;
  const auto control = st::run_study(f.prob, f.u_star, frozen).eps.fit_tight;
  claim c;
  c.id = "EV.STUDY.EPS";
  c.paper = "ev";
  c.statement =
      "Fig. 4: the suboptimality decreases in eps with a log-log slope steeper than Corollary "
      "9's -1/4 (the paper reports -0.698)";
  c.statistic =
      "least-squares log-log slope of the set-1 means at K optimised per eps on set 0; "
      "reproduced when slope + 5 se_mc < -1/4 and the negative control (noise frozen at its eps = "
      "0.1 value, not private) does not pass it, contradicted when slope - 5 se_mc > -1/4";
  c.error = kZerr;
  c.error_probability = normal_tail(5);
  c.rule = {"slope + 5 * se_mc < -0.25 and not (control_slope + 5 * control_se_mc < -0.25)",
            "slope - 5 * se_mc > -0.25"};
  c.numbers = {{"slope", fit.slope},
               {"se_mc", fit.se_mc},
               {"control_slope", control.slope},
               {"control_se_mc", control.se_mc},
               {"ci95_fit_lo", fit.ci95_fit_lo},
               {"ci95_fit_hi", fit.ci95_fit_hi},
               {"paper_slope", -0.698}};
  c.result = decide(c);
  c.summary = "slope " + fmt(fit.slope) + " +- " + fmt(fit.se_mc) + " (fit 95% [" +
              fmt(fit.ci95_fit_lo) + ", " + fmt(fit.ci95_fit_hi) + "]); paper -0.698, bound -0.25";
  c.reduced = o.quick;
  c.size = size_text(o.quick);
  c.seconds = since(t0);
  nlohmann::json s = curve(r.eps.eps, r.eps.tight);
  s["slope"] = fit.slope;
  s["best_K"] = r.eps.best_K_tight;
  out.series.emplace_back("ev_eps", s.dump());
  out.claims.push_back(c);
}

void theorem8(const options& o, results& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const double dr = 13.2, de = 12;
  const double paper = ev::projection_sensitivity(dr, de, 52, ev::sensitivity_bound::paper);
  const double tight = ev::projection_sensitivity(dr, de, 52, ev::sensitivity_bound::tight);
  // a certified lower bound: an adjacent, feasible pair found by search (T = 4; the worst case
  // does not depend on T >= 2, errata EV-E1)
  philox_stream s(4);
  const auto w = ev::search_sensitivity(4, dr, de, o.quick ? 10 : 40, o.quick ? 1500 : 4000, s);
  claim c;
  c.id = "EV.THM8";
  c.paper = "ev";
  c.statement = "Theorem 8: the projection's l2 sensitivity is at most 2 dr + dE (= 38.4)";
  c.statistic =
      "exact worst case sqrt(dr^2 + (dr + dE)^2) (errata EV-E1) <= 2 dr + dE, and the largest "
      "distance of an adjacent feasible pair found by search (a certified lower bound) lies "
      "between the two";
  c.exact = true;
  c.error = "exact (closed form; the search value is an attained distance)";
  c.rule = {"tight <= paper_bound and search_lower_bound <= paper_bound * (1 + 1e-12)",
            "not (tight <= paper_bound and search_lower_bound <= paper_bound * (1 + 1e-12))"};
  c.numbers = {{"paper_bound", paper}, {"tight", tight}, {"search_lower_bound", w.distance}};
  c.result = decide(c);
  c.summary = "bound " + fmt(paper) + " holds; exact worst case " + fmt(tight) +
              ", attained by search " + fmt(w.distance);
  c.reduced = o.quick;
  c.size = o.quick ? "search: 10 restarts x 1500 steps" : "search: 40 restarts x 4000 steps";
  c.seconds = since(t0);
  out.claims.push_back(c);
  out.errata.push_back({"EV-E1", "ev", "Theorem 8 sensitivity of the projection (loose)",
                        fmt(paper), fmt(tight) + " (attained: " + fmt(w.distance) + ")",
                        "EV_SENS_TIGHT, EV_SENS_SEARCH", true});
}

/// SEC.EV: secure Algorithm 2 on the quick instance (N = 20 groups, household units, K = 6,
/// ε = 0.1, c = 10, δr = 13.2, δE = 12, tight Δ): every run's certified ε <= the request and every
/// released coordinate on its grid (exact), and the utility ratio r = mean relative
/// suboptimality secure / idealised over the same seeds (paired SE).
void ev_secure_mode(const options& o, results& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const instance in = make(true, ev::units::household);
  ev::params<double> p;
  p.epsilon = 0.1;
  p.iterations = 6;
  p.step = 10;
  p.optimum = false;
  p.trace = false;
  const int runs = o.quick ? 200 : 1000;
  bool budget_ok = true, grid_ok = true;
  double max_eps = 0;
  std::vector<double> sub_i, sub_s;
  for (int r = 0; r < runs; ++r) {
    const philox_stream stream(9100 + static_cast<std::uint64_t>(r), 1);
    p.release = noise_mode::idealised;
    const auto a = ev::run(in.prob, p, stream);
    p.release = noise_mode::secure;
    const auto b = ev::run(in.prob, p, stream);
    sub_i.push_back((a.averaged_objective - in.u_star) / in.u_star);
    sub_s.push_back((b.averaged_objective - in.u_star) / in.u_star);
    max_eps = std::max(max_eps, b.privacy.guarantee.epsilon);
    budget_ok = budget_ok && b.privacy.guarantee.epsilon <= p.epsilon &&
                b.privacy.noise == noise_mode::secure;
    const auto& events = b.privacy.ledger.events();
    for (Eigen::Index k = 1; k < b.released.cols(); ++k) {
      const int g = std::get<accounting::snapped_vector_laplace_mechanism<double>>(
                        events[static_cast<std::size_t>(k)].what)
                        .grid_exponent;
      for (Eigen::Index t = 0; t < b.released.rows(); ++t) {
        const double u = std::ldexp(b.released(t, k), -g);
        grid_ok = grid_ok && u == std::nearbyint(u);
      }
    }
  }
  const cost_ratio cr = paired_cost_ratio(sub_i, sub_s);
  const double mi = cr.mean_idealised, ms = cr.mean_secure, ratio = cr.ratio, se_ratio = cr.se;
  claim c;
  c.id = "SEC.EV";
  c.paper = "ev";
  c.statement =
      "secure mode (issue 20) meets the requested budget for the released doubles (Algorithm 2, "
      "lattice ℓ2-Laplace); utility cost ratio r = secure / idealised suboptimality";
  c.statistic =
      "exact: every run's certified ε <= 0.1 and every released p̂^(k) coordinate on its grid "
      "2^g (else contradicted); reproduced when also r − 5 SE <= 1.1 (no utility loss above 10% "
      "at 5 paired SE), else not reproduced";
  c.error = "budget and grid exact; the utility part false alarm <= Phi(-5) = 2.9e-7";
  c.error_probability = normal_tail(5);
  c.rule = {"ratio - 5 * se_ratio <= 1.1", "not (budget_ok == 1 and on_grid == 1)"};
  c.numbers = {{"max_certified_eps", max_eps},
               {"requested_eps", p.epsilon},
               {"budget_ok", budget_ok ? 1.0 : 0.0},
               {"on_grid", grid_ok ? 1.0 : 0.0},
               {"subopt_idealised", mi},
               {"subopt_secure", ms},
               {"ratio", ratio},
               {"se_ratio", se_ratio}};
  c.result = decide(c);
  c.summary = "max certified ε " + fmt(max_eps) +
              " <= 0.1, all releases on the lattice; r = " + fmt(ratio) + " +- " + fmt(se_ratio);
  c.reduced = o.quick;
  c.size = std::to_string(runs) + " paired runs, N = 20 groups, K = 6";
  c.seconds = since(t0);
  out.claims.push_back(c);
}

}  // namespace

std::vector<job> ev_jobs() {
  return {
      {"ev", "EV.STUDY.C", false, flat_in_c},
      {"ev", "EV.STUDY.K", false,
       [](const options& o, results& r) { interior_in_K(o, r, ev::units::household); }},
      {"ev", "EV.STUDY.EPS", false, slope_in_eps},
      {"ev", "EV.UNITS", false,
       [](const options& o, results& r) { interior_in_K(o, r, ev::units::paper); }},
      {"ev", "EV.THM8", false, theorem8},
      {"ev", "SEC.EV", false, ev_secure_mode},
  };
}

}  // namespace dpref::reproduce

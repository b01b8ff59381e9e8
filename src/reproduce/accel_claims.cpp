// accel claims (spec/accel.md ACCEL.CLAIMS, ACCEL.CLAIMS_FULL): §5, Figures 3-4: the optimised
// noise schedule of Proposition 4.2 with T' chosen by (4.6) (Remark 4.1), DP-NAG-opt, beats the
// other five methods at c = 1.
#include <algorithm>
#include <array>
#include <cmath>
#include <variant>

#include "dpref/accel/accel.hpp"
#include "reproduce/claims.hpp"
#include "reproduce/rule.hpp"

namespace dpref::reproduce {
namespace {

const char* const kNames[] = {"DP-GD", "DP-SHB", "DP-NAG", "DP-NAG-opt", "DP-MASG", "DP-MASG-opt"};

void nag_opt_best(const options& o, results& out) {
  const auto t0 = std::chrono::steady_clock::now();
  // quick: n = 2000, ε = 50 (nε = 1e5 as in §5), T = 100; full: the paper's n = 1e5, ε = 1,
  // T = 1000 (ACCEL.CLAIMS_FULL)
  const long long n = o.quick ? 2000 : 100000, T = o.quick ? 100 : 1000;
  const double eps = o.quick ? 50 : 1;
  const int R = 20, kWins = 15;
  const auto data = problems::synthetic_logistic_data(n, 20, 20.0, philox_stream(1));
  const auto P = problems::make_logistic<double>(data, 0.01);
  const double Fs = accel::certified_minimum(P, 1e-12).value;
  std::array<std::vector<double>, 6> err;
  for (int a = 0; a < 6; ++a)
    for (int r = 0; r < R; ++r) {
      accel::params<double> p;
      p.iterations = T;
      p.c = 1;
      p.L = P.smoothness();  // the paper's setting, declared public (ACCEL.LPUBLIC)
      p.epsilon = eps;
      if (a == 3 || a == 5) p.E0 = 10.0;
      const philox_stream st(20261121, static_cast<std::uint64_t>(r));
      accel::result<double> res;
      if (a == 0) res = accel::dp_gd::run(P, p, st);
      if (a == 1) res = accel::dp_shb::run(P, p, st);
      if (a == 2) res = accel::dp_nag::run(P, p, st);
      if (a == 3) res = accel::dp_nag_opt::run(P, p, st);
      if (a == 4) res = accel::dp_masg::run(P, p, st);
      if (a == 5) res = accel::dp_masg_opt::run(P, p, st);
      err[static_cast<std::size_t>(a)].push_back(P.value(res.x) - Fs);
    }
  const auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
  };
  const auto wins = [&](std::size_t A, std::size_t B) {
    int w = 0;
    for (int r = 0; r < R; ++r)
      w += err[A][static_cast<std::size_t>(r)] < err[B][static_cast<std::size_t>(r)];
    return w;
  };
  int min_wins = R, max_loss = 0;
  for (const std::size_t b : {0u, 1u, 2u, 4u, 5u}) {
    if (!(mean(err[3]) < mean(err[b]))) min_wins = 0;
    min_wins = std::min(min_wins, wins(3, b));
    if (mean(err[b]) < mean(err[3])) max_loss = std::max(max_loss, wins(b, 3));
  }
  claim c;
  c.id = "ACCEL.CLAIMS";
  c.paper = "accel";
  c.statement =
      "§5 (Figs. 3-4): DP-NAG-opt, the Prop. 4.2 noise schedule with T' minimising (4.6), "
      "reaches the lowest F(x_T) − F* of the six methods at c = 1";
  c.statistic =
      "paired sign test over R = 20 noise streams against each of the five others: reproduced "
      "when DP-NAG-opt wins >= 15/20 runs and has the lower mean in every comparison; "
      "contradicted when some method beats it that way";
  c.error = "false pass <= P[Bin(20, 1/2) >= 15] = " + fmt(sign_tail(R, kWins)) +
            " (the weakest comparison)";
  c.error_probability = sign_tail(R, kWins);
  c.rule = {"min_wins_of_20 >= " + std::to_string(kWins),
            "max_losses_of_20 >= " + std::to_string(kWins)};
  std::string s;
  for (std::size_t a = 0; a < 6; ++a) {
    c.numbers.push_back({std::string("mean_excess_") + kNames[a], mean(err[a])});
    s += std::string(a ? ", " : "") + kNames[a] + " " + fmt(mean(err[a]));
  }
  c.numbers.push_back({"min_wins_of_20", static_cast<double>(min_wins)});
  c.numbers.push_back({"max_losses_of_20", static_cast<double>(max_loss)});
  c.result = decide(c);
  c.summary = "mean F − F*: " + s + "; DP-NAG-opt wins >= " + std::to_string(min_wins) + "/20";
  c.reduced = o.quick;
  c.size = "n = " + std::to_string(n) + ", eps = " + fmt(eps) + ", T = " + std::to_string(T) +
           ", full batch" + (o.quick ? " (paper: n = 1e5, eps = 1)" : "");
  c.size_dependence = "n and eps: the paper's comparison is at n = 1e5, eps = 1";
  c.below_paper_size = o.quick;
  c.seconds = since(t0);
  out.claims.push_back(c);
}

/// SEC.ACCEL.COST (claim): secure mode (lattice release) meets the requested ε for the released
/// doubles, at a utility cost ratio r = mean excess (secure) / mean excess (idealised), same
/// streams.
void secure_cost(const options& o, results& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const long long n = o.quick ? 2000 : 10000, T = 100;
  const double eps = o.quick ? 50 : 5;
  const int R = o.quick ? 10 : 20;
  const auto data = problems::synthetic_logistic_data(n, 20, 20.0, philox_stream(1));
  const auto P = problems::make_logistic<double>(data, 0.01);
  const double Fs = accel::certified_minimum(P, 1e-12).value;
  double max_eps = 0, inflation = 0;
  std::vector<double> excess_i, excess_s;
  bool all_secure = true;
  for (int r = 0; r < R; ++r) {
    accel::params<double> p;
    p.iterations = T;
    p.epsilon = eps;
    p.E0 = 10.0;  // DP-NAG-opt as in ACCEL.CLAIMS
    const philox_stream st(20261121, static_cast<std::uint64_t>(r));
    const auto ideal = accel::dp_nag_opt::run(P, p, st);
    p.release = noise_mode::secure;
    const auto sec = accel::dp_nag_opt::run(P, p, st);
    all_secure = all_secure && sec.privacy.noise == noise_mode::secure;
    max_eps = std::max(max_eps, sec.privacy.guarantee.epsilon);
    for (const auto& e : sec.privacy.ledger.events()) {
      const auto* sl = std::get_if<accounting::snapped_laplace_mechanism<double>>(&e.what);
      if (!sl)
        all_secure = false;
      else
        inflation = std::max(inflation, static_cast<double>(sl->dimension) *
                                            std::ldexp(1.0, sl->grid_exponent) / sl->sensitivity);
    }
    excess_i.push_back(P.value(ideal.x) - Fs);
    excess_s.push_back(P.value(sec.x) - Fs);
  }
  const cost_ratio cr = paired_cost_ratio(excess_i, excess_s);
  const double ratio = cr.ratio;
  claim c;
  c.id = "SEC.ACCEL.COST";
  c.paper = "accel";
  c.statement =
      "secure mode (release = secure, issue 20) meets the requested budget for the released "
      "doubles; utility cost ratio r = mean F − F* (secure) / mean F − F* (idealised)";
  c.statistic =
      "DP-NAG-opt, R runs with the same streams in both modes: reproduced when every secure "
      "ledger is lattice-only (snapped_laplace) with certified ε <= the requested ε (exact) and "
      "r − 5 se <= 1.5 (se by the paired differences); contradicted when some certified ε exceeds "
      "the request";
  c.error =
      "the budget check is exact (certified accountant); r is a Monte-Carlo estimate: a true "
      "r <= 1.5 is reported not reproduced with probability <= P[N(0,1) > 5] = 2.9e-7";
  c.exact = true;
  c.error_probability = 0;
  c.rule = {"utility_cost_ratio - 5 * se_ratio <= 1.5",
            "not (max_certified_eps <= requested_eps) or lattice_only == 0"};
  c.numbers = {{"requested_eps", eps},
               {"max_certified_eps", max_eps},
               {"max_inflation", inflation},
               {"mean_excess_idealised", cr.mean_idealised},
               {"mean_excess_secure", cr.mean_secure},
               {"utility_cost_ratio", ratio},
               {"se_ratio", cr.se},
               {"lattice_only", all_secure ? 1.0 : 0.0}};
  c.result = decide(c);
  c.summary = "certified eps <= " + fmt(max_eps) + " (requested " + fmt(eps) +
              "), inflation d 2^k / Δ1 <= " + fmt(inflation) + ", r = " + fmt(ratio) + " +- " +
              fmt(cr.se);
  c.reduced = o.quick;
  c.size = "n = " + std::to_string(n) + ", d = 20, eps = " + fmt(eps) +
           ", T = " + std::to_string(T) + ", R = " + std::to_string(R);
  c.seconds = since(t0);
  out.claims.push_back(c);
}

}  // namespace

std::vector<job> accel_jobs() {
  return {{"accel", "ACCEL.CLAIMS", false, nag_opt_best},
          {"accel", "SEC.ACCEL.COST", false, secure_cost}};
}

}  // namespace dpref::reproduce

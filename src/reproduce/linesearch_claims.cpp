// linesearch claims (spec/linesearch.md LS.CLAIM.HEADLINE, LS.CLAIM.BUDGET): §5.6's headline
// "DP-BLSGD beats DP-SGD in objective at eps = 0.2" on AER Fertility, for the logistic and the
// hinge loss, and every run's certified eps within its target.
#include <algorithm>
#include <fstream>

#include "dpref/io/dataset.hpp"
#include "dpref/linesearch/linesearch.hpp"
#include "reproduce/claims.hpp"
#include "reproduce/rule.hpp"

namespace dpref::reproduce {
namespace {

namespace ls = dpref::linesearch;

/// The committed 3,000-row subset (quick) or data/real/fertility.csv (full, made by
/// scripts/real_data.sh; the subset when absent).
std::string data_path(const options& o, bool& full_data) {
  full_data = false;
  const std::string sub = o.source_dir + "/tests/regression/data/linesearch_fertility_3000.csv";
  if (!o.quick) {
    const std::string full = o.source_dir + "/data/real/fertility.csv";
    if (std::ifstream(full).good()) {
      full_data = true;
      return full;
    }
  }
  if (!std::ifstream(sub).good())
    throw std::invalid_argument("linesearch data set not found: " + sub);
  return sub;
}

void headline(const options& o, results& out, bool hinge) {
  const auto t0 = std::chrono::steady_clock::now();
  bool full_data = false;
  const std::string path = data_path(o, full_data);
  const auto d = io::read_csv_binary<double>(path);
  const problems::linear_erm<double> P(
      d.X, d.y,
      hinge ? problems::margin_loss<double>::hinge() : problems::margin_loss<double>::logistic());
  const int R = o.quick ? 10 : 20, kWins = o.quick ? 9 : 15;
  ls::params<double> bp;
  bp.epsilon = 0.2;
  ls::params<double> sp;
  sp.algorithm = ls::algorithm::dpsgd;
  sp.epsilon = 0.2;
  sp.noise_multiplier = ls::dp_sgd_sigma(sp) / sp.C_grad;
  int blsgd_better = 0;
  double mb = 0, ms = 0, worst_eps = 0;
  for (int k = 0; k < R; ++k) {
    const auto b = ls::run(P, bp, philox_stream(1000 + static_cast<std::uint64_t>(k)));
    const auto s = ls::run(P, sp, philox_stream(2000 + static_cast<std::uint64_t>(k)));
    worst_eps = std::max(
        {worst_eps, double(b.privacy.guarantee.epsilon), double(s.privacy.guarantee.epsilon)});
    const double fb = P.value(b.w), fs = P.value(s.w);
    blsgd_better += fb < fs;
    mb += fb / R;
    ms += fs / R;
  }
  claim c;
  c.id = hinge ? "REPRO.LS.HINGE" : "LS.CLAIM.HEADLINE";
  c.paper = "linesearch";
  c.statement = std::string(
                    "§5.6 headline: DP-BLSGD reaches a lower objective than DP-SGD at "
                    "eps = 0.2 (") +
                (hinge ? "hinge" : "logistic") + " loss, Fertility)";
  c.statistic = "paired sign test over " + std::to_string(R) +
                " seeds (DP-SGD eta = 1, T = 50, exact subsampled-Gaussian RDP): reproduced "
                "when DP-BLSGD is lower in >= " +
                std::to_string(kWins) + "/" + std::to_string(R) +
                ", contradicted when DP-SGD is lower in >= " + std::to_string(kWins) + "/" +
                std::to_string(R);
  c.error_probability = sign_tail(R, kWins);
  c.error = "P[Bin(" + std::to_string(R) + ", 1/2) >= " + std::to_string(kWins) +
            "] = " + fmt(c.error_probability) + " if the two were exchangeable";
  c.rule = {"blsgd_lower_seeds >= " + std::to_string(kWins),
            "seeds - blsgd_lower_seeds >= " + std::to_string(kWins)};
  c.numbers = {{"mean_F_dp_blsgd", mb},
               {"mean_F_dp_sgd", ms},
               {"blsgd_lower_seeds", static_cast<double>(blsgd_better)},
               {"seeds", static_cast<double>(R)},
               {"max_certified_eps", worst_eps}};
  c.result = decide(c);
  c.summary = "mean F: DP-BLSGD " + fmt(mb) + ", DP-SGD " + fmt(ms) + "; DP-BLSGD lower in " +
              std::to_string(blsgd_better) + "/" + std::to_string(R) + " seeds";
  c.reduced = !full_data;
  c.size = std::to_string(d.X.cols()) + " x " + std::to_string(d.X.rows()) + " (" +
           (full_data ? "full Fertility" : "every 84th row of Fertility; paper: 254,654 rows") +
           ")";
  // the noise scales of §5.4 (sigma_grad, the SVT noise) are fixed by eps and the clipping
  // constants, not by n: at 3,000 rows they swamp the gradient and the step-size test, at the
  // paper's n they do not (spec/linesearch.md LS.CLAIM.HEADLINE)
  c.size_dependence = "n (rows): the paper's Fertility data set has 254,654 rows";
  c.below_paper_size = !full_data;
  c.seconds = since(t0);
  out.claims.push_back(c);
  if (!hinge) {  // LS.CLAIM.BUDGET: certified eps <= target for every run above, and more
    // every algorithm's accountant at other budgets: DP-BLSGD at eps = 0.05 (orders up to 500
    // needed at delta = 1e-8), every algorithm at eps = 1.6 (orders 2..128); the guarantee is the
    // ledger's total, re-accounted
    double worst_ratio = 0, ledger_mismatch = 0;
    const auto budget = [&](const ls::params<double>& p, std::uint64_t seed) {
      const auto r = ls::run(P, p, philox_stream(seed));
      worst_ratio = std::max(worst_ratio, double(r.privacy.guarantee.epsilon / p.epsilon));
      if (r.privacy.ledger.total().epsilon != r.privacy.guarantee.epsilon) ledger_mismatch += 1;
    };
    ls::params<double> p;
    p.epsilon = 0.05;
    budget(p, 3000);
    p.epsilon = 1.6;
    p.max_order = 128;
    budget(p, 3000);
    p.algorithm = ls::algorithm::blsgd_ac;
    budget(p, 3000);
    p.algorithm = ls::algorithm::blsgd;
    p.noise = ls::btls_noise::gaussian;
    budget(p, 3000);
    p.noise = ls::btls_noise::laplace;
    p.algorithm = ls::algorithm::blgd;
    budget(p, 3000);
    p.algorithm = ls::algorithm::dpagd;
    budget(p, 3000);
    p.algorithm = ls::algorithm::dpsgd;
    budget(p, 4000);
    claim b;
    b.id = "LS.CLAIM.BUDGET";
    b.paper = "linesearch";
    b.statement = "§4.3: every algorithm's accountant ends within the privacy budget";
    b.statistic = "largest certified eps (accountant on the run's ledger, delta = 1e-8) over the " +
                  std::to_string(2 * R) +
                  " runs above <= 0.2; DP-BLSGD at eps = 0.05 and blsgd, blsgd_ac, blsgd with "
                  "Gaussian BTLS noise, blgd, dpagd, dpsgd at eps = 1.6: certified eps / target "
                  "<= 1, each the total of the run's ledger re-accounted";
    b.exact = true;
    b.error = "exact (certified accountant, rounded up)";
    b.rule = {"max_certified_eps <= target and max_eps_over_target <= 1 and ledger_mismatches == 0",
              "not (max_certified_eps <= target and max_eps_over_target <= 1 and "
              "ledger_mismatches == 0)"};
    b.numbers = {{"max_certified_eps", worst_eps},
                 {"target", 0.2},
                 {"max_eps_over_target", worst_ratio},
                 {"ledger_mismatches", ledger_mismatch}};
    b.result = decide(b);
    b.summary = "max certified eps " + fmt(worst_eps) + " <= 0.2; other budgets: max eps/target " +
                fmt(worst_ratio);
    b.reduced = c.reduced;
    b.size = c.size;
    b.seconds = 0;
    out.claims.push_back(b);
  }
}

/// SEC.LINESEARCH.COST (claim): secure output perturbation and DP-SGD meet the requested ε for
/// the released doubles; utility cost ratios r = mean excess secure / idealised (same streams).
void linesearch_secure_cost(const options& o, results& out) {
  const auto t0 = std::chrono::steady_clock::now();
  const int R = o.quick ? 40 : 200;
  linesearch::problem_spec<double> s;
  s.synthetic_n = 2000;
  s.mu = 0.01;
  const auto P = linesearch::make_problem(s);
  linesearch::params<double> np;
  np.algorithm = linesearch::algorithm::nonprivate;
  const vector<double> ws = *linesearch::run(P, np, philox_stream(1)).diagnostics.minimiser;
  double max_eps = 0;
  std::vector<double> ei, es;
  bool lattice_only = true;
  for (int r = 0; r < R; ++r) {
    linesearch::params<double> p;
    p.algorithm = linesearch::algorithm::outpert;
    p.epsilon = 1;
    const philox_stream st(20261121, static_cast<std::uint64_t>(r));
    ei.push_back((linesearch::run(P, p, st).w - ws).squaredNorm());
    p.release = noise_mode::secure;
    const auto rs = linesearch::run(P, p, st);
    es.push_back((rs.w - ws).squaredNorm());
    max_eps = std::max(max_eps, rs.privacy.guarantee.epsilon);
    for (const auto& e : rs.privacy.ledger.events())
      lattice_only = lattice_only && e.kind() == "snapped_vector_laplace";
  }
  const cost_ratio cr = paired_cost_ratio(ei, es);
  const double ratio = cr.ratio;
  // DP-SGD (μ = 1e-3, q = 0.1, T = 50, η = 1) at the reference setting n = 20000 (the secure
  // noise multiplier is 9.2x the idealised one, spec/linesearch.md SEC.LINESEARCH.COST: at
  // n = 2000 the excess ratio is 11.5): excess objective F(w) − F(w*), same streams
  s.mu = 1e-3;
  s.synthetic_n = 20000;
  const auto Q = linesearch::make_problem(s);
  const double Fq = *linesearch::run(Q, np, philox_stream(1)).diagnostics.objective;
  std::vector<double> gi, gs;
  const int Rs = o.quick ? 10 : 40;
  for (int r = 0; r < Rs; ++r) {
    linesearch::params<double> p;
    p.algorithm = linesearch::algorithm::dpsgd;
    p.epsilon = 1;
    p.max_order = 64;
    const philox_stream st(20261121, static_cast<std::uint64_t>(r));
    gi.push_back(Q.value(linesearch::run(Q, p, st).w) - Fq);
    p.release = noise_mode::secure;
    const auto rs = linesearch::run(Q, p, st);
    gs.push_back(Q.value(rs.w) - Fq);
    max_eps = std::max(max_eps, rs.privacy.guarantee.epsilon);
    for (const auto& e : rs.privacy.ledger.events())
      lattice_only = lattice_only && e.kind() == "snapped_gaussian";
  }
  const cost_ratio cs = paired_cost_ratio(gi, gs);
  claim c;
  c.id = "SEC.LINESEARCH.COST";
  c.paper = "linesearch";
  c.statement =
      "secure mode (release = secure, issue 20) of output perturbation and DP-SGD meets the "
      "requested budget for the released doubles; utility cost ratios r = mean ‖w − w*‖² "
      "(outpert) and mean F(w) − F(w*) (DP-SGD), secure / idealised";
  c.statistic =
      "R runs each with the same streams: reproduced when every secure ledger is lattice-only "
      "with certified ε <= 1 (exact) and r − 5 se <= 1.5 for both algorithms (se by the paired "
      "differences); contradicted when some certified ε exceeds 1";
  c.error = secure_cost_error;
  c.exact = true;
  c.rule = {
      "utility_cost_ratio - 5 * se_ratio <= 1.5 and dpsgd_cost_ratio - 5 * dpsgd_se_ratio "
      "<= 1.5",
      "not (max_certified_eps <= requested_eps) or lattice_only == 0"};
  c.numbers = {{"requested_eps", 1.0},
               {"max_certified_eps", max_eps},
               {"mean_sq_dist_idealised", cr.mean_idealised},
               {"mean_sq_dist_secure", cr.mean_secure},
               {"utility_cost_ratio", ratio},
               {"se_ratio", cr.se},
               {"dpsgd_mean_excess_idealised", cs.mean_idealised},
               {"dpsgd_mean_excess_secure", cs.mean_secure},
               {"dpsgd_cost_ratio", cs.ratio},
               {"dpsgd_se_ratio", cs.se},
               {"lattice_only", lattice_only ? 1.0 : 0.0}};
  c.result = decide(c);
  c.summary = "certified eps <= " + fmt(max_eps) + " (requested 1), r = " + fmt(ratio) + " +- " +
              fmt(cr.se) + " (outpert), " + fmt(cs.ratio) + " +- " + fmt(cs.se) + " (DP-SGD)";
  c.reduced = o.quick;
  c.size = "synthetic d = 10: outpert (n = 2000, mu = 0.01) R = " + std::to_string(R) +
           ", DP-SGD (n = 20000, mu = 1e-3) R = " + std::to_string(Rs);
  c.seconds = since(t0);
  out.claims.push_back(c);
}

}  // namespace

std::vector<job> linesearch_jobs() {
  return {{"linesearch",
           "LS.CLAIM.HEADLINE",
           false,
           [](const options& o, results& r) { headline(o, r, false); },
           {"LS.CLAIM.BUDGET"}},
          {"linesearch", "REPRO.LS.HINGE", false,
           [](const options& o, results& r) { headline(o, r, true); }},
          {"linesearch", "SEC.LINESEARCH.COST", false, linesearch_secure_cost}};
}

}  // namespace dpref::reproduce

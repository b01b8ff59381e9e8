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
  if (!hinge) {  // LS.CLAIM.BUDGET: certified eps <= target for every run above
    claim b;
    b.id = "LS.CLAIM.BUDGET";
    b.paper = "linesearch";
    b.statement = "§4.3: DP-BLSGD and DP-SGD end within the privacy budget eps = 0.2";
    b.statistic = "largest certified eps (accountant on the run's ledger, delta = 1e-8) over the " +
                  std::to_string(2 * R) + " runs <= 0.2";
    b.exact = true;
    b.error = "exact (certified accountant, rounded up)";
    b.rule = {"max_certified_eps <= target", "not (max_certified_eps <= target)"};
    b.numbers = {{"max_certified_eps", worst_eps}, {"target", 0.2}};
    b.result = decide(b);
    b.summary = "max certified eps " + fmt(worst_eps) + " <= 0.2";
    b.reduced = c.reduced;
    b.size = c.size;
    b.seconds = 0;
    out.claims.push_back(b);
  }
}

/// SEC.LINESEARCH.COST (claim): secure output perturbation meets the requested ε for the
/// released doubles; utility cost ratio r = mean excess objective secure / idealised.
void secure_cost(const options& o, results& out) {
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
  claim c;
  c.id = "SEC.LINESEARCH.COST";
  c.paper = "linesearch";
  c.statement =
      "secure mode (release = secure, issue 20) of output perturbation meets the requested "
      "budget for the released doubles; utility cost ratio r = mean ‖w − w*‖² (secure) / "
      "(idealised)";
  c.statistic =
      "R runs with the same streams: reproduced when every secure ledger is lattice-only with "
      "certified ε <= 1 (exact) and r − 5 se <= 1.5 (se by the paired differences); "
      "contradicted when some certified ε exceeds 1";
  c.error =
      "the budget check is exact (certified accountant); r is a Monte-Carlo estimate: a true "
      "r <= 1.5 is reported not reproduced with probability <= P[N(0,1) > 5] = 2.9e-7";
  c.exact = true;
  c.rule = {"utility_cost_ratio - 5 * se_ratio <= 1.5",
            "not (max_certified_eps <= requested_eps) or lattice_only == 0"};
  c.numbers = {{"requested_eps", 1.0},
               {"max_certified_eps", max_eps},
               {"mean_sq_dist_idealised", cr.mean_idealised},
               {"mean_sq_dist_secure", cr.mean_secure},
               {"utility_cost_ratio", ratio},
               {"se_ratio", cr.se},
               {"lattice_only", lattice_only ? 1.0 : 0.0}};
  c.result = decide(c);
  c.summary = "certified eps <= " + fmt(max_eps) + " (requested 1), r = " + fmt(ratio) + " +- " +
              fmt(cr.se);
  c.reduced = o.quick;
  c.size = "synthetic n = 2000, d = 10, mu = 0.01, outpert, R = " + std::to_string(R);
  c.seconds = since(t0);
  out.claims.push_back(c);
}

}  // namespace

std::vector<job> linesearch_jobs() {
  return {{"linesearch", "LS.CLAIM.HEADLINE", false,
           [](const options& o, results& r) { headline(o, r, false); }},
          {"linesearch", "REPRO.LS.HINGE", false,
           [](const options& o, results& r) { headline(o, r, true); }},
          {"linesearch", "SEC.LINESEARCH.COST", false, secure_cost}};
}

}  // namespace dpref::reproduce

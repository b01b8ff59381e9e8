// `dpref accel run`: one run of an accel algorithm (DP-GD, DP-SHB, DP-NAG, DP-NAG-opt, DP-MASG,
// DP-MASG-opt) on the synthetic logistic-regression problem of accel §5 or on a real data set
// (--data FILE, a CSV from scripts/real_data.sh); prints JSON with the objective trace, the final
// iterate, the noise scales and the privacy ledger. `dpref accel study`: the data and plots of
// the paper's Figures 1-4 (Figures 3-4 also on real data with --data).
// spec/accel.md (ACCEL.GD … ACCEL.MASGOPT, ACCEL.DATA, ACCEL.REALDATA, ACCEL.FSTAR).
#include <fmt/core.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "dpref/accel/accel.hpp"
#include "dpref/problems/real_logistic.hpp"
#include "json_format.hpp"
#include "scalar_format.hpp"

namespace dpref::cli {

void register_accel_command(CLI::App& app);

namespace {

using json = nlohmann::json;

struct accel_options {
  std::string algorithm = "nag-opt";
  std::string precision = "double";
  std::string data;  ///< real data CSV (empty: synthetic)
  long long n = 10000, d = 20, T = 100, m = 0, p = 1, n1 = 0;
  double lambda = 0.01, l1_bound = 0, eps = 1, c = 1, alpha = 0, beta = -1, E0 = -1, L = 0;
  std::uint64_t seed = 20261121, data_seed = 1;
  bool fstar = false, no_trace = false, intercept = false;
};

/// The problem's data: synthetic (n, d, B default 20, data seed) or a real CSV (B default: the
/// schema bound of ACCEL.REALDATA, +1 with an intercept); `info` describes it for the JSON.
struct problem_data {
  problems::logistic_data data;
  json info;
};

problem_data load_problem_data(const std::string& path, long long n, long long d, double l1_bound,
                               bool intercept, std::uint64_t data_seed) {
  problem_data out;
  if (path.empty()) {
    if (intercept)
      throw std::invalid_argument("dpref accel: --intercept needs --data (real data only)");
    const double B = l1_bound > 0 ? l1_bound : 20.0;
    out.data = problems::synthetic_logistic_data(n, d, B, philox_stream(data_seed));
    out.info = {{"source", "synthetic (ACCEL.DATA)"}, {"data_seed", data_seed}};
  } else {
    auto real = problems::load_real_logistic_data(path, l1_bound, intercept);
    out.data = std::move(real.data);
    out.info = {{"source", path},
                {"features", real.feature_names},
                {"intercept", intercept},
                {"schema_l1_bound", real.schema_bound},
                {"l1_bound_from", l1_bound > 0 ? "--l1-bound (declared public)"
                                               : "the column schema (ACCEL.REALDATA)"},
                {"positives", (out.data.labels.array() > 0.0).count()}};
  }
  out.info["n"] = out.data.features.cols();
  out.info["d"] = out.data.features.rows();
  out.info["l1_bound"] = out.data.l1_bound;
  return out;
}

template <real_scalar Real>
accel::result<Real> dispatch(const std::string& a, const problems::logistic_regression<Real>& P,
                             const accel::params<Real>& prm, const philox_stream& s) {
  if (a == "gd") return accel::dp_gd::run(P, prm, s);
  if (a == "shb") return accel::dp_shb::run(P, prm, s);
  if (a == "nag") return accel::dp_nag::run(P, prm, s);
  if (a == "nag-opt") return accel::dp_nag_opt::run(P, prm, s);
  if (a == "masg") return accel::dp_masg::run(P, prm, s);
  if (a == "masg-opt") return accel::dp_masg_opt::run(P, prm, s);
  throw std::invalid_argument(
      "dpref accel run: --algorithm must be one of gd, shb, nag, "
      "nag-opt, masg, masg-opt, got '" +
      a + "'");
}

template <real_scalar Real>
json run_one(const accel_options& o) {
  const auto loaded = load_problem_data(o.data, o.n, o.d, o.l1_bound, o.intercept, o.data_seed);
  const auto& data = loaded.data;
  const Real lambda = parse_scalar<Real>(fmt::format("{:.17g}", o.lambda), "--lambda");
  const auto P = problems::make_logistic<Real>(data, lambda);
  accel::params<Real> prm;
  prm.T = o.T;
  prm.m = o.m;
  prm.eps = parse_scalar<Real>(fmt::format("{:.17g}", o.eps), "--eps");
  prm.c = parse_scalar<Real>(fmt::format("{:.17g}", o.c), "--c");
  prm.alpha = Real(o.alpha);
  prm.L = Real(o.L);
  if (o.beta >= 0) prm.beta = Real(o.beta);
  if (o.E0 >= 0) prm.E0 = Real(o.E0);
  prm.masg_p = o.p;
  prm.masg_n1 = o.n1;
  prm.trace = !o.no_trace;
  const auto r = dispatch(o.algorithm, P, prm, philox_stream(o.seed));
  json out;
  out["algorithm"] = o.algorithm;
  out["precision"] = scalar_name<Real>();
  out["problem"] = {{"kind", "logistic (accel 5.1, errata ACC-E1/E2)"},
                    {"n", P.size()},
                    {"d", P.dimension()},
                    {"lambda", num(lambda)},
                    {"l1_bound", data.l1_bound},
                    {"S1", num(P.l1_sensitivity())},
                    {"mu", num(P.strong_convexity())},
                    {"L_certified", num(P.smoothness())},
                    {"L_public", num(P.public_smoothness())},
                    {"data", loaded.info}};
  out["params"] = {{"T", o.T},
                   {"m", r.batch},
                   {"eps", num(prm.eps)},
                   {"alpha", num(r.alpha)},
                   {"beta", num(r.beta)},
                   {"seed", o.seed},
                   {"masg_p", o.p},
                   {"masg_n1", o.n1}};
  if (o.E0 >= 0) out["params"]["E0"] = o.E0;
  out["iterations"] = r.iterations;
  out["status"] = r.status == accel::run_status::completed ? "completed" : "diverged";
  json tr = json::array();
  for (const Real& v : r.trace) tr.push_back(num(v));
  out["objective_trace"] = tr;
  json x = json::array();
  for (Eigen::Index i = 0; i < r.x.size(); ++i) x.push_back(num(r.x[i]));
  out["x_final"] = x;
  json b = json::array();
  for (const Real& v : r.noise_scales) b.push_back(num(v));
  out["noise_scales"] = b;
  json ev = json::array();
  for (const auto& e : r.ledger.events()) {
    json j;
    j["kind"] = e.kind;
    j["count"] = e.count;
    j["eps"] = num(std::get<accounting::pure_dp<Real>>(e.privacy).eps);
    for (const auto& [k, v] : e.params) j["params"][k] = num(v);
    ev.push_back(j);
  }
  out["ledger"] = {{"events", ev}, {"eps_total", num(r.eps_spent)}, {"delta_total", 0}};
  if (o.fstar) {
    // F* by a certified non-private solve (ACCEL.FSTAR): F(x̂) − F* <= ‖∇F(x̂)‖²/(2μ).
    const auto ref = accel::certified_minimum(P, Real(1) / Real(1000000000000LL));
    out["F_star_estimate"] = num(ref.value);
    out["F_star_gap_bound"] = num(ref.gap_bound);
    out["F_star_certified"] = ref.certified;
  }
  return out;
}

void run_accel(const accel_options& o) {
  json out;
  if (o.precision == "double")
    out = run_one<double>(o);
  else if (o.precision == "mp50")
    out = run_one<mp50>(o);
  else
    throw std::invalid_argument("dpref accel run: --precision must be double or mp50, got '" +
                                o.precision + "'");
  std::cout << out.dump(2) << "\n";
}

// ---------------------------------------------------------------------------- study -------

struct study_options {
  std::string out, png_dir, python = "/usr/bin/python3", data;
  long long n = 100000, d = 20, runs = 20, T_fig1 = 100, T_fig2 = 1000;
  std::string T_list = "100,200,500,1000", m_list = "n,1000", c_list = "0.1,1";
  double eps = 1, lambda = 0.01, l1_bound = 0, E0 = 10;
  std::uint64_t seed = 20261121, data_seed = 1;
  bool paper_L = false;  ///< use the data's L as the paper does (declared public: NOT private)
  bool intercept = false;
};

template <class T>
std::vector<T> parse_list(const std::string& text, const std::string& what) {
  std::vector<T> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t used = 0;
    if constexpr (std::is_same_v<T, long long>) {
      if (item == "n") {  // minibatch "n": the full batch
        out.push_back(0);
        continue;
      }
    }
    try {
      if constexpr (std::is_same_v<T, double>)
        out.push_back(std::stod(item, &used));
      else
        out.push_back(static_cast<T>(std::stoll(item, &used)));
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty())
      throw std::invalid_argument("dpref accel study: " + what +
                                  " must be a comma-separated list, got '" + text + "'");
  }
  return out;
}

// Figure 1: Theorem 3.5 on the 2-D quadratic Q = diag(μ, L) = diag(0.5, 1): ρ (3.18) and the
// bound (3.17) at t = T with C_t = t, σ_T² = (T c_w)², ‖ξ0 − ξ*‖² = 4 (x0 − x* = (1, 1),
// x_{−1} = x0), over a 40×40 (α, β) grid, α ∈ (0, 1/L], β ∈ [0, 1).
json study_figure1(const study_options& o) {
  const double mu = 0.5, L = 1;
  const std::vector<double> lam{mu, L};
  json fig;
  fig["description"] = "accel Figure 1: Theorem 3.5 rate and bound, Q = diag(0.5, 1)";
  fig["T"] = o.T_fig1;
  json alphas = json::array(), betas = json::array();
  const int na = 40, nb = 40;
  for (int i = 1; i <= na; ++i) alphas.push_back(i / (na * L));
  for (int j = 0; j < nb; ++j) betas.push_back(static_cast<double>(j) / nb);
  fig["alpha"] = alphas;
  fig["beta"] = betas;
  json rho = json::array();
  for (int i = 1; i <= na; ++i) {
    json row = json::array();
    for (int j = 0; j < nb; ++j)
      row.push_back(accel::bounds::hb_rate(i / (na * L), double(j) / nb, mu, L));
    rho.push_back(row);
  }
  fig["rho"] = rho;
  for (const double cw : {1e-4, 1e-2}) {
    const double s2 = std::pow(static_cast<double>(o.T_fig1) * cw, 2);
    json b = json::array();
    for (int i = 1; i <= na; ++i) {
      json row = json::array();
      for (int j = 0; j < nb; ++j) {
        const double a = i / (na * L), be = double(j) / nb;
        row.push_back(accel::bounds::hb_rate(a, be, mu, L) < 1
                          ? json(accel::bounds::hb_theorem35_bound(o.T_fig1, 4.0, a, be, lam, s2))
                          : json(nullptr));
      }
      b.push_back(row);
    }
    fig[cw == 1e-4 ? "bound_cw_1e-4" : "bound_cw_1e-2"] = b;
  }
  return fig;
}

// Figure 2: optimal b_t of DP-MASG (Prop 4.2 with the weights of (4.8)), μ = 1, L = 20, p = 1,
// c = 1, S₁ = 1, n = 1, ε = 1, T = T_fig2.
json study_figure2(const study_options& o) {
  const double mu = 1, L = 20;
  const auto s = accel::make_masg_schedule<double>(o.T_fig2, mu, L, 1, 0, 1.0);
  const auto w = accel::bounds::masg_weights(s, o.T_fig2, mu, L);
  const auto opt = accel::prop42(w.a, 1.0, 1, 1.0);
  json fig;
  fig["description"] = "accel Figure 2: optimal b_t of DP-MASG (mu = 1, L = 20, p = 1)";
  fig["T"] = o.T_fig2;
  fig["stage_length"] = s.stage_length;
  fig["b"] = opt.b;
  fig["eps_t"] = opt.eps;
  return fig;
}

// Figures 3–4: the six algorithms on synthetic (or, with --data, real) logistic regression; mean
// over runs of F(x_t) − F*, F* from a certified non-private solve (ACCEL.FSTAR; §5 uses 1000 NAG
// steps), for every (m, c, T). m = 0 or m >= n is the full batch.
json study_figure34(const study_options& o) {
  const auto loaded = load_problem_data(o.data, o.n, o.d, o.l1_bound, o.intercept, o.data_seed);
  const auto P = problems::make_logistic<double>(loaded.data, o.lambda);
  const long long n = P.size();
  const auto ref = accel::certified_minimum(P, 1e-12);
  const double Fs = ref.value;
  json fig;
  fig["description"] = "accel Figures 3-4: mean F(x_t) - F* over runs";
  fig["data"] = loaded.info;
  fig["n"] = n;
  fig["d"] = P.dimension();
  fig["lambda"] = o.lambda;
  fig["eps"] = o.eps;
  fig["runs"] = o.runs;
  fig["F_star"] = Fs;
  fig["F_star_gap_bound"] = ref.gap_bound;
  fig["F_star_certified"] = ref.certified;
  fig["F_star_iterations"] = ref.iterations;
  fig["tag"] =
      o.data.empty() ? std::string("synthetic") : std::filesystem::path(o.data).stem().string();
  fig["L_certified"] = P.smoothness();
  fig["L_public"] = P.public_smoothness();
  fig["uses_data_L"] = o.paper_L;
  fig["mu"] = P.strong_convexity();
  json cases = json::array();
  const char* names[] = {"gd", "shb", "nag", "nag-opt", "masg", "masg-opt"};
  for (const long long m : parse_list<long long>(o.m_list, "--m-list"))
    for (const double c : parse_list<double>(o.c_list, "--c-list"))
      for (const long long T : parse_list<long long>(o.T_list, "--T-list"))
        for (int a = 0; a < 6; ++a) {
          std::vector<double> mean;
          long long Tused = 0;
          for (long long r = 0; r < o.runs; ++r) {
            accel::params<double> p;
            p.T = T;
            p.m = m >= n ? 0 : m;
            p.c = c;
            if (o.paper_L) p.L = P.smoothness();
            p.eps = o.eps;
            p.trace = true;
            if (a == 3 || a == 5) p.E0 = o.E0;
            const philox_stream st(o.seed, static_cast<std::uint64_t>(r));
            const auto res = dispatch<double>(names[a], P, p, st);
            Tused = res.iterations;
            if (mean.empty()) mean.assign(res.trace.size(), 0.0);
            for (std::size_t t = 0; t < res.trace.size() && t < mean.size(); ++t)
              mean[t] += (res.trace[t] - Fs) / static_cast<double>(o.runs);
          }
          cases.push_back({{"algorithm", names[a]},
                           {"m", m == 0 || m >= n ? n : m},
                           {"c", c},
                           {"T", T},
                           {"T_used", Tused},
                           {"mean_excess", mean}});
        }
  fig["cases"] = cases;
  return fig;
}

// Plots of the study JSON (matplotlib, Debian python3-matplotlib), fed to `python - json dir`.
constexpr const char* kPlotScript = R"PY(
import json, math, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
j = json.load(open(sys.argv[1])); d = sys.argv[2]
if "figure1" in j:
    f = j["figure1"]
    fig, ax = plt.subplots(1, 3, figsize=(16, 4.5))
    for i in range(4, len(f["alpha"]), 8):
        ax[0].plot(f["beta"], f["rho"][i], label="alpha = %.3g" % f["alpha"][i])
    ax[0].set_xlabel("beta"); ax[0].set_ylabel("rho of (3.18)"); ax[0].legend()
    for k, key in enumerate(["bound_cw_1e-4", "bound_cw_1e-2"]):
        Z = [[math.log10(v) if v else float("nan") for v in row] for row in f[key]]
        im = ax[k + 1].imshow(Z, origin="lower", aspect="auto",
                              extent=[f["beta"][0], f["beta"][-1], f["alpha"][0], f["alpha"][-1]])
        ax[k + 1].set_xlabel("beta"); ax[k + 1].set_ylabel("alpha")
        ax[k + 1].set_title("log10 bound (3.17), T = %d, %s" % (f["T"], key[6:]))
        fig.colorbar(im, ax=ax[k + 1])
    fig.tight_layout(); fig.savefig(d + "/accel_fig1.png", dpi=110)
if "figure2" in j:
    f = j["figure2"]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(range(1, len(f["b"]) + 1), f["b"])
    ax.set_xlabel("t"); ax.set_ylabel("optimal b_t"); ax.set_title(f["description"])
    fig.tight_layout(); fig.savefig(d + "/accel_fig2.png", dpi=110)
if "figure34" in j:
    f = j["figure34"]
    algs = ["gd", "shb", "nag", "nag-opt", "masg", "masg-opt"]
    tag = f.get("tag", "synthetic")
    stem = "accel_fig34" if tag == "synthetic" else "accel_fig34_" + tag
    for m in sorted({c["m"] for c in f["cases"]}):
        cs = sorted({c["c"] for c in f["cases"] if c["m"] == m})
        fig, ax = plt.subplots(len(cs), 6, figsize=(22, 3.6 * len(cs)), squeeze=False)
        for r, cval in enumerate(cs):
            for a, name in enumerate(algs):
                for c in f["cases"]:
                    if c["m"] == m and c["c"] == cval and c["algorithm"] == name:
                        y = [math.log10(v) if v > 0 else float("nan") for v in c["mean_excess"]]
                        ax[r][a].plot(y, label="T = %d (ran %d)" % (c["T"], c["T_used"]))
                ax[r][a].set_title("%s, c = %g" % (name, cval)); ax[r][a].set_xlabel("t")
                ax[r][a].set_ylabel("log10 E[F(x_t) - F*]"); ax[r][a].legend(fontsize=7)
        fig.suptitle("%s: n = %d, m = %d, eps = %g, %d runs" % (tag, f["n"], m, f["eps"], f["runs"]))
        fig.tight_layout(); fig.savefig(d + "/%s_m%d.png" % (stem, m), dpi=100)
)PY";

void plot_study(const study_options& o) {
  const std::string cmd = o.python + " - '" + o.out + "' '" + o.png_dir + "'";
  FILE* pipe = popen(cmd.c_str(), "w");
  if (pipe == nullptr) throw std::runtime_error("dpref accel study: cannot run " + o.python);
  std::fputs(kPlotScript, pipe);
  if (pclose(pipe) != 0)
    throw std::runtime_error(
        "dpref accel study: plotting failed (is python3-matplotlib installed?)");
}

void run_study(const study_options& o, const std::vector<int>& figures) {
  if (!o.png_dir.empty() && o.out.empty())
    throw std::invalid_argument("dpref accel study: --png-dir needs --out");
  json out;
  out["command"] = "dpref accel study";
  for (const int f : figures) {
    if (f == 1)
      out["figure1"] = study_figure1(o);
    else if (f == 2)
      out["figure2"] = study_figure2(o);
    else if (f == 3)
      out["figure34"] = study_figure34(o);
    else
      throw std::invalid_argument("dpref accel study: --figures entries must be 1, 2 or 3");
  }
  write_json_output(out, o.out, "dpref accel study");
  if (!o.png_dir.empty()) plot_study(o);
}

}  // namespace

void register_accel_command(CLI::App& app) {
  auto* accel_cmd = app.add_subcommand("accel", "Accelerated private optimisation (accel paper)");
  accel_cmd->require_subcommand(1);
  auto o = std::make_shared<accel_options>();
  auto* run = accel_cmd->add_subcommand(
      "run",
      "Run one algorithm on synthetic or real (--data) logistic regression; JSON trace and ledger");
  run->add_option("--algorithm", o->algorithm, "gd | shb | nag | nag-opt | masg | masg-opt")
      ->capture_default_str();
  run->add_option("--precision", o->precision, "double | mp50")->capture_default_str();
  run->add_option("--n", o->n, "examples")
      ->capture_default_str()
      ->check(CLI::Range(1LL, 100000000LL));
  run->add_option("--d", o->d, "dimension")->capture_default_str()->check(CLI::Range(1LL, 10000LL));
  run->add_option("--lambda", o->lambda, "regularisation")->capture_default_str();
  run->add_option("--data", o->data,
                  "real data CSV from scripts/real_data.sh (e.g. data/real/fertility.csv); "
                  "default: synthetic data");
  run->add_flag("--intercept", o->intercept,
                "with --data: append a constant-1 feature (the l1 bound grows by 1)");
  run->add_option("--l1-bound", o->l1_bound,
                  "public bound B on ||u||_1 (S1 = 2B); 0 = 20 (synthetic) or the schema bound "
                  "of --data")
      ->capture_default_str();
  run->add_option("--T", o->T, "iterations")->capture_default_str();
  run->add_option("--m", o->m, "minibatch size (0 = n)")->capture_default_str();
  run->add_option("--eps", o->eps, "privacy budget")->capture_default_str();
  run->add_option("--c", o->c, "step scale, alpha = c/L")->capture_default_str();
  run->add_option("--alpha", o->alpha, "step size (overrides --c)");
  run->add_option("--L", o->L,
                  "public smoothness for alpha = c/L and the schedules (default: the public bound "
                  "B^2/4 + 2 lambda; a value computed from the data is not private)");
  run->add_option("--beta", o->beta,
                  "momentum for shb/nag (default (1-sqrt(mu a))/(1+sqrt(mu a)))");
  run->add_option("--E0", o->E0, "opt variants: choose T' <= T by Remark 4.1 with this E0");
  run->add_option("--p", o->p, "MASG p")->capture_default_str();
  run->add_option("--n1", o->n1, "MASG first stage length (0 = base length)")
      ->capture_default_str();
  run->add_option("--seed", o->seed, "noise/minibatch seed")->capture_default_str();
  run->add_option("--data-seed", o->data_seed, "data seed")->capture_default_str();
  run->add_flag("--fstar", o->fstar, "also report F* from a certified non-private solve");
  run->add_flag("--no-trace", o->no_trace, "omit the objective trace");
  run->callback([o] { run_accel(*o); });

  auto so = std::make_shared<study_options>();
  auto figs = std::make_shared<std::string>();
  auto* study = accel_cmd->add_subcommand(
      "study", "Data of the paper's Figures 1-4 as JSON (figure 3 covers Figures 3 and 4)");
  study->add_option("--figures", *figs,
                    "comma-separated subset of 1,2,3 (default 1,2,3; with --data: 3)");
  study->add_option("--data", so->data,
                    "Figures 3-4 on a real data CSV from scripts/real_data.sh (e.g. "
                    "data/real/fertility.csv) instead of synthetic data");
  study->add_flag("--intercept", so->intercept,
                  "with --data: append a constant-1 feature (the l1 bound grows by 1)");
  study
      ->add_option("--l1-bound", so->l1_bound,
                   "public bound B on ||u||_1; 0 = 20 (synthetic) or the schema bound of --data")
      ->capture_default_str();
  study->add_option("--out", so->out, "JSON output file (default: stdout)");
  study->add_option("--png-dir", so->png_dir, "also write PNG plots there (needs --out)");
  study->add_option("--python", so->python, "Python with matplotlib")->capture_default_str();
  study->add_option("--n", so->n, "examples (Figures 3-4)")->capture_default_str();
  study->add_option("--d", so->d, "dimension")->capture_default_str();
  study->add_option("--runs", so->runs, "runs averaged")->capture_default_str();
  study->add_option("--T-list", so->T_list, "iteration counts")->capture_default_str();
  study->add_option("--m-list", so->m_list, "minibatch sizes (n, 0 or >= n: full batch)")
      ->capture_default_str();
  study->add_option("--c-list", so->c_list, "step scales c, alpha = c/L")->capture_default_str();
  study->add_flag("--paper-L", so->paper_L,
                  "use the data's certified L as the paper does (reproduction only: a data-based "
                  "L is not private); default: the public bound B^2/4 + 2 lambda");
  study->add_option("--eps", so->eps, "privacy budget")->capture_default_str();
  study->add_option("--E0", so->E0, "E0 of Remark 4.1 for the -opt variants")
      ->capture_default_str();
  study->add_option("--T-fig1", so->T_fig1, "T of Figure 1")->capture_default_str();
  study->add_option("--T-fig2", so->T_fig2, "T of Figure 2")->capture_default_str();
  study->add_option("--seed", so->seed, "noise seed (run r uses stream r)")->capture_default_str();
  study->add_option("--data-seed", so->data_seed, "data seed")->capture_default_str();
  study->callback([so, figs] {
    const std::string f = !figs->empty() ? *figs : (so->data.empty() ? "1,2,3" : "3");
    run_study(*so, parse_list<int>(f, "--figures"));
  });
}

static const command_registrar accel_registrar(register_accel_command);

}  // namespace dpref::cli

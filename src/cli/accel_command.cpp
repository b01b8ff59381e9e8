// `dpref accel run|study` (spec/accel.md ACCEL.CLI). `run` is the thin adapter of
// spec/architecture.md ARCH.CLI over accel::run_json (include/dpref/accel/json.hpp): flags
// from accel::config's field list, --params, --precision, --out; the library reads, validates,
// calibrates, plans the ledger and runs; here only the over-budget warning on stderr. `study`
// builds its flags from accel::study_config's field list and writes the library's study_json
// (include/dpref/accel/study.hpp: Figures 1, 2, 3-4), then plots it with the script below
// (matplotlib).
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dpref/accel/accel.hpp"
#include "flags.hpp"
#include "json_format.hpp"
#include "output.hpp"
#include "paper_command.hpp"

namespace dpref::cli {

void register_accel_command(CLI::App& app);

namespace {

struct study_options {
  flag_set flags;
  std::string out, png_dir, python = "/usr/bin/python3";
};

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
    algs = ["gd", "shb", "nag", "nag_opt", "masg", "masg_opt"]
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

void run_study(const study_options& o) {
  if (!o.png_dir.empty() && o.out.empty())
    throw std::invalid_argument("dpref accel study: --png-dir needs --out");
  if (!o.out.empty()) check_output_file(o.out);  // before the study starts
  write_json_output(accel::study_json(o.flags.build(), progress_to_stderr), o.out,
                    "dpref accel study");
  if (!o.png_dir.empty()) plot_study(o);
}

}  // namespace

void register_accel_command(CLI::App& app) {
  auto* accel_cmd = app.add_subcommand("accel", "Accelerated private optimisation (accel paper)");
  accel_cmd->require_subcommand(1);
  // `dpref accel run`: the generic run command over accel::run_json (ARCH.CLI): flags from
  // accel::config's field list, --params, --precision, --out; no defaults or science here
  add_run_command<accel::config<double>>(
      *accel_cmd, "run",
      "Run one accel algorithm (gd, shb, nag, nag_opt, masg, masg_opt) on synthetic or real "
      "(--data) logistic regression and print the result JSON",
      []<class Real>(const io::document& d) {
        io::json out = accel::run_json<Real>(d);
        const io::json& pr = out["privacy"];
        if (pr.value("private", false) && !pr.value("budget_met", true))
          std::cerr << "dpref accel run: WARNING: the certified guarantee (epsilon = "
                    << pr["guarantee"]["epsilon"].dump() << ") exceeds the requested budget "
                    << "(epsilon = " << pr["requested"]["epsilon"].dump()
                    << "): fixed noise_scale run with allow_over_budget\n";
        return out;
      });

  auto so = std::make_shared<study_options>();
  auto* study = accel_cmd->add_subcommand(
      "study", "Data of the paper's Figures 1-4 as JSON (figure 3 covers Figures 3 and 4)");
  so->flags.add<accel::study_config>(study);  // flags from the field list (values only)
  so->flags.add_params_file(study, "study configuration");
  study->add_option("--out", so->out, "JSON output file (default: stdout)");
  study->add_option("--png-dir", so->png_dir, "also write PNG plots there (needs --out)");
  study->add_option("--python", so->python, "Python with matplotlib")->capture_default_str();
  study->callback([so] { run_study(*so); });
}

static const command_registrar accel_registrar(register_accel_command);

}  // namespace dpref::cli

#!/usr/bin/python3
"""PNG plots of `dpref ev study --out study.json` (ev paper, Figures 1-4).

Usage: /usr/bin/python3 scripts/ev_study_plots.py study.json out_dir
(`dpref ev study --out study.json --png-dir out_dir` runs it). Needs matplotlib
(Debian python3-matplotlib). One PNG per figure and units: ev_fig{1,2,3,4}_<units>.png.
Error bars: +-1 standard error over the runs. spec/ev.md EV.STUDY.FULL.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def errbar(ax, x, stats, label, fmt):
    ax.errorbar(x, stats["mean"], yerr=stats["se"], fmt=fmt, capsize=3, label=label)


def main():
    study = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    p = study["config"]  # ev::study::config (spec/ev.md EV.STUDY.CONFIG)
    for units, u in study["units"].items():
        tag = "units = %s" % units
        if "figure1" in u:
            f = u["figure1"]
            t = range(1, len(f["base_load"]) + 1)
            fig, ax = plt.subplots(figsize=(7.5, 4.5))
            ax.plot(t, f["base_load"], "k:", label="base load d")
            ax.plot(t, f["optimum_load"], "k-", label="optimal (certified U*)")
            ax.plot(t, f["private_load_tight"], "b.-",
                    label="Algorithm 2, tight Delta (rel. subopt %.2e)"
                    % f["relative_suboptimality_tight"])
            ax.plot(t, f["private_load_paper"], "r.--",
                    label="Algorithm 2, paper Delta (rel. subopt %.2e)"
                    % f["relative_suboptimality_paper"])
            ax.set_xlabel("time slot t (15 min from 20:00)")
            ax.set_ylabel("load per household (kW)")
            ax.set_title("Fig. 1: eps = %g, K = %d, c = %g, %s (%s)"
                         % (p["epsilon"], p["iterations"], p["step"], f["mode"], tag))
            ax.legend(fontsize=8)
            fig.tight_layout()
            fig.savefig(os.path.join(out, "ev_fig1_%s.png" % units), dpi=110)
            plt.close(fig)
        for key, xlabel, num in (("figure2", "step-size constant c", 2),
                                 ("figure3", "iterations K", 3)):
            if key not in u:
                continue
            f = u[key]
            fig, ax = plt.subplots(1, 2, figsize=(12, 4.5))
            errbar(ax[0], f["x"], f["tight"], "tight Delta (errata EV-E1)", "bo-")
            errbar(ax[0], f["x"], f["paper"], "paper Delta = 2 dr + dE", "rs--")
            ax[0].set_yscale("log")
            ax[0].set_xlabel(xlabel)
            ax[0].set_ylabel("relative suboptimality")
            ax[0].legend(fontsize=8)
            errbar(ax[1], f["x"], f["gain_paper_minus_tight"], "paper - tight (paired)", "go-")
            ax[1].axhline(0, color="k", lw=0.5)
            ax[1].set_xlabel(xlabel)
            ax[1].set_ylabel("suboptimality saved by the tight Delta")
            ax[1].legend(fontsize=8)
            if num == 2:
                sub = "K = %d, eps = %g" % (f["K"], f["eps"])
            else:
                sub = "c = %g, eps = %g, best K: tight %d, paper %d" % (
                    f["c"], f["eps"], f["best_K_tight"], f["best_K_paper"])
            fig.suptitle("Fig. %d: %s, %d runs/point (%s)" % (num, sub, p["runs"], tag))
            fig.tight_layout()
            fig.savefig(os.path.join(out, "ev_fig%d_%s.png" % (num, units)), dpi=110)
            plt.close(fig)
        if "figure4" in u:
            f = u["figure4"]
            fig, ax = plt.subplots(1, 2, figsize=(12, 4.5))
            for which, fmt in (("tight", "bo-"), ("paper", "rs--")):
                fit = f["fit_" + which]
                errbar(ax[0], f["eps"], f[which],
                       "%s Delta: slope %.3f, 95%% CI [%.3f, %.3f]"
                       % (which, fit["slope"], fit["ci95_fit"][0], fit["ci95_fit"][1]), fmt)
            ax[0].set_xscale("log")
            ax[0].set_yscale("log")
            ax[0].set_xlabel("epsilon")
            ax[0].set_ylabel("relative suboptimality (K optimised per eps)")
            ax[0].legend(fontsize=8)
            errbar(ax[1], f["eps"], f["gain_paper_minus_tight"], "paper - tight (paired)", "go-")
            ax[1].set_xscale("log")
            ax[1].axhline(0, color="k", lw=0.5)
            ax[1].set_xlabel("epsilon")
            ax[1].set_ylabel("suboptimality saved by the tight Delta")
            ax[1].legend(fontsize=8)
            fig.suptitle("Fig. 4: c = %g, paper slope -0.698, Corollary 9 -0.25, %d runs (%s)"
                         % (f["c"], p["runs"], tag))
            fig.tight_layout()
            fig.savefig(os.path.join(out, "ev_fig4_%s.png" % units), dpi=110)
            plt.close(fig)


if __name__ == "__main__":
    main()

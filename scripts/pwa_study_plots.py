#!/usr/bin/python3
"""Plots of `dpref pwa study` (pwa paper, Figures 1-3 and the epsilon sweep).

Usage: /usr/bin/python3 scripts/pwa_study_plots.py study.json out_dir
Writes out_dir/pwa_fig1_iterations.png, pwa_fig2_box_size.png, pwa_fig3_pieces.png and
pwa_epsilon_sweep.png for the parts present in the JSON. Error bars: 2 sigma of the mean.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {"M_P": ("tab:red", "o", "M_P (perturb data, Thm 16)"),
         "M_S": ("tab:green", "s", "M_S (perturb solution, Thm 9 scale)"),
         "M_E": ("tab:orange", "^", "M_E (exact exponential mechanism)"),
         "subgradient": ("black", "D", "private subgradient (Alg. 2)")}


def sweep_plot(fig_json, setup, xlabel, title, path, logx=False):
    xs = fig_json["values"]
    fig, ax = plt.subplots(1, 2, figsize=(12, 4.5))
    for name, (color, marker, label) in STYLE.items():
        mech = fig_json["mechanisms"].get(name)
        if mech is None:
            continue
        ax[0].errorbar(xs, mech["mean"], yerr=mech["two_sigma"], color=color, marker=marker,
                       capsize=3, label=label)
        ax[1].errorbar(xs, mech["suboptimality"], yerr=mech["two_sigma"], color=color,
                       marker=marker, capsize=3, label=label)
    ax[0].plot(xs, fig_json["fopt"], "m--", label="true optimum")
    ax[0].set_ylabel("E[f(x)] (2 sigma error bars)")
    ax[1].set_ylabel("E[f(x)] - f_opt")
    ax[1].set_yscale("log")
    for a in ax:
        a.set_xlabel(xlabel)
        if logx:
            a.set_xscale("log")
        a.legend(fontsize=7)
    fig.suptitle("%s (d = %d, eps = %g, %d runs)" % (title, setup["d"], setup["epsilon"],
                                                     setup["runs"]))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    setup = data["setup"]
    if "figure1_iterations" in data:
        f1 = data["figure1_iterations"]
        fig, ax = plt.subplots(figsize=(7, 4.5))
        ax.errorbar(f1["values"], f1["private"]["mean"], yerr=f1["private"]["two_sigma"],
                    color="black", marker="D", capsize=3, label="private subgradient")
        ax.plot(f1["values"], f1["regular"], color="tab:blue", marker="o",
                label="regular subgradient")
        ax.axhline(f1["fopt"], color="m", ls="--", label="true optimum")
        ax.set_xscale("log")
        ax.set_xlabel("iterations k")
        ax.set_ylabel("f(x^(k+1))")
        ax.legend()
        ax.set_title("pwa Figure 1 (m = %d, d = %d, c = %g, eps = %g)" %
                     (setup["m"], setup["d"], setup["c"], setup["epsilon"]))
        fig.tight_layout()
        fig.savefig(os.path.join(out, "pwa_fig1_iterations.png"), dpi=100)
        plt.close(fig)
    if "figure2_box_size" in data:
        sweep_plot(data["figure2_box_size"], setup, "box half-width c",
                   "pwa Figure 2: m = %d" % setup["m"],
                   os.path.join(out, "pwa_fig2_box_size.png"), logx=True)
    if "figure3_pieces" in data:
        sweep_plot(data["figure3_pieces"], setup, "pieces m (nested)",
                   "pwa Figure 3: c = %g" % setup["c"],
                   os.path.join(out, "pwa_fig3_pieces.png"), logx=True)
    if "epsilon_sweep" in data:
        sweep_plot(data["epsilon_sweep"], setup, "epsilon",
                   "suboptimality vs epsilon: m = %d, c = %g" % (setup["m"], setup["c"]),
                   os.path.join(out, "pwa_epsilon_sweep.png"), logx=True)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Plots of `dpref linesearch study` JSON (spec/linesearch.md, section "CLI").

Usage: /usr/bin/python3 scripts/linesearch_study_plots.py study.json outdir
Writes, per data set: <tag>_fig1.png (effect of alpha, beta, noise, q, strategy, zeta at
eps in {0.05, 0.2}: test accuracy and training objective), <tag>_fig2.png (gradient and
objective evaluations vs q at eps = 0.4), <tag>_fig34_<loss>.png (accuracy and objective vs
eps for every algorithm; Figures 3 (logistic) and 4 (hinge / SVM)).
"""
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def tag_of(d):
    base = os.path.basename(d["data"])
    return base.split(".")[0] if base else "synthetic"


def fig1(d, outdir):
    rows = d["figure1"]
    params = []
    for r in rows:
        if r["parameter"] not in params:
            params.append(r["parameter"])
    fig, ax = plt.subplots(2, len(params), figsize=(3.2 * len(params), 6))
    for c, p in enumerate(params):
        for eps, marker in ((0.2, "^"), (0.05, "v")):
            pts = [r for r in rows if r["parameter"] == p and abs(r["eps"] - eps) < 1e-12]
            labels = [r["value"] for r in pts]
            x = list(range(len(pts)))
            ax[0][c].errorbar(x, [r["accuracy"] for r in pts], [r["accuracy_sd"] for r in pts],
                              marker=marker, label="eps = %g" % eps, capsize=2)
            ax[1][c].errorbar(x, [r["objective"] for r in pts], [r["objective_sd"] for r in pts],
                              marker=marker, label="eps = %g" % eps, capsize=2)
            for a in (ax[0][c], ax[1][c]):
                a.set_xticks(x)
                a.set_xticklabels(labels, fontsize=7)
        ax[0][c].set_title(p)
        ax[1][c].set_xlabel(p)
    ax[0][0].set_ylabel("test accuracy")
    ax[1][0].set_ylabel("training objective")
    ax[0][0].legend(fontsize=7)
    fig.suptitle("DP-BLSGD hyper-parameters, %s (n = %d)" % (tag_of(d), d["n"]))
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, tag_of(d) + "_fig1.png"), dpi=100)
    plt.close(fig)


def fig2(d, outdir):
    rows = d["figure2"]
    fig, ax = plt.subplots(1, 1, figsize=(5, 4))
    q = [r["q"] for r in rows]
    ax.plot(q, [r["gradients"] for r in rows], "o-", label="gradient evaluations")
    ax.plot(q, [r["objective_queries"] for r in rows], "s-", label="objective evaluations")
    ax.set_xscale("log")
    ax.set_xlabel("sampling ratio q")
    ax.set_ylabel("evaluations per run")
    ax.legend()
    ax.set_title("eps = 0.4, %s" % tag_of(d))
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, tag_of(d) + "_fig2.png"), dpi=100)
    plt.close(fig)


def fig34(d, outdir):
    for loss, rows in d["figure34"].items():
        algos = []
        for r in rows:
            if r["algorithm"] not in algos:
                algos.append(r["algorithm"])
        fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
        for a in algos:
            pts = sorted((r for r in rows if r["algorithm"] == a), key=lambda r: r["eps"])
            e = [r["eps"] for r in pts]
            ax[0].plot(e, [r["accuracy"] for r in pts], "o-", label=a)
            obj = [r["objective"] for r in pts]
            if not all(v is None or (isinstance(v, float) and math.isnan(v)) for v in obj):
                ax[1].plot(e, [v if v is not None else float("nan") for v in obj], "o-", label=a)
        for a in ax:
            a.set_xscale("log")
            a.set_xlabel("eps")
        ax[0].set_ylabel("test accuracy")
        ax[1].set_ylabel("training objective")
        ax[1].set_yscale("log")
        ax[0].legend(fontsize=7)
        fig.suptitle("%s, %s loss (n = %d)" % (tag_of(d), loss, d["n"]))
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "%s_fig34_%s.png" % (tag_of(d), loss)), dpi=100)
        plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        study = json.load(f)
    os.makedirs(sys.argv[2], exist_ok=True)
    for d in study["datasets"]:
        if "figure1" in d:
            fig1(d, sys.argv[2])
        if "figure2" in d:
            fig2(d, sys.argv[2])
        if "figure34" in d:
            fig34(d, sys.argv[2])


if __name__ == "__main__":
    main()

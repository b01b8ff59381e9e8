#!/usr/bin/python3
"""Plots of `dpref dda study` (spec/dda.md DDA.STUDY): for each data set and regulariser,
suboptimality F(x̄) − F* vs iterations (ε = 0.8 for ℓ2, 0.4 for ℓ1, as dda Figs. 1 and 3) and
final suboptimality / test accuracy vs ε (dda Figs. 2 and 4), for the three calibrations and the
non-private DDA.  Usage: /usr/bin/python3 scripts/dda_study_plots.py dda_study.json [outdir]"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {"non-private": "k-", "paper": "C0-", "sound": "C1-", "rdp": "C2-"}
LABEL = {"non-private": "non-private DDA", "paper": "(a) paper Thm 1 σ",
         "sound": "(b) sound chain σ", "rdp": "(c) RDP σ"}


def main():
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(src))
    runs = json.load(open(src))["runs"]
    groups = {}
    for r in runs:
        groups.setdefault((r["data"], r["reg"]), []).append(r)
    written = []
    for (data, reg), rs in groups.items():
        tag = data.split()[0].replace("/", "_") + "_" + reg
        eps_fig = 0.8 if reg == "l2" else 0.4
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        for k, iota in enumerate(sorted({r["params"]["iota"] for r in rs})):
            ax = axes[k]
            for r in rs:
                p = r["params"]
                if p["iota"] != iota:
                    continue
                if r["variant"] != "non-private" and abs(p["eps"] - eps_fig) > 1e-9:
                    continue
                t = [s["t"] for s in r["trace"]]
                y = [max(s["subopt_xbar"], 1e-12) for s in r["trace"]]
                ax.loglog(t, y, STYLE[r["variant"]], label=LABEL[r["variant"]])
            ax.set_title(f"{data}, {reg}, ι = {iota:g}, ε = {eps_fig:g}")
            ax.set_xlabel("iteration t")
            ax.set_ylabel("F(x̄) − F*")
            ax.legend(fontsize=8)
        fig.tight_layout()
        f1 = os.path.join(out, f"dda_{tag}_iterations.png")
        fig.savefig(f1, dpi=110)
        plt.close(fig)
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        for iota, ls in zip(sorted({r["params"]["iota"] for r in rs}), ["-", "--"]):
            for var in ["paper", "sound", "rdp"]:
                pts = sorted((r["params"]["eps"], r["final"]["subopt_xbar"],
                              r["final"]["test_accuracy"]) for r in rs
                             if r["variant"] == var and r["params"]["iota"] == iota)
                if not pts:
                    continue
                e = [x[0] for x in pts]
                axes[0].semilogy(e, [max(x[1], 1e-12) for x in pts], STYLE[var][:2] + ls,
                                 marker="o", label=f"{LABEL[var]}, ι={iota:g}")
                axes[1].plot(e, [x[2] for x in pts], STYLE[var][:2] + ls, marker="o",
                             label=f"{LABEL[var]}, ι={iota:g}")
            for r in rs:
                if r["variant"] == "non-private" and r["params"]["iota"] == iota:
                    axes[0].axhline(max(r["final"]["subopt_xbar"], 1e-12), color="k", ls=ls,
                                    lw=0.8, label=f"non-private, ι={iota:g}")
                    axes[1].axhline(r["final"]["test_accuracy"], color="k", ls=ls, lw=0.8,
                                    label=f"non-private, ι={iota:g}")
        axes[0].set_xlabel("ε")
        axes[0].set_ylabel("final F(x̄) − F*")
        axes[1].set_xlabel("ε")
        axes[1].set_ylabel("test accuracy")
        axes[0].set_title(f"{data}, {reg}: privacy–utility")
        axes[1].legend(fontsize=7)
        fig.tight_layout()
        f2 = os.path.join(out, f"dda_{tag}_epsilon.png")
        fig.savefig(f2, dpi=110)
        plt.close(fig)
        written += [f1, f2]
    for w in written:
        print("wrote", w)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Plots of `dpref linesearch mlp` (linesearch §5.7, Figure 5 style): test accuracy, training
objective and DP-BLSGD's selected step size against iterations, one line per algorithm.

Usage: linesearch_mlp_plots.py result.json out_dir   (several JSON files: comma-separated,
one line per file and algorithm, e.g. different seeds)
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NAMES = {"blsgd": "DP-BLSGD", "dpsgd": "DP-SGD"}


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    files = [f for f in sys.argv[1].split(",") if f]
    out_dir = sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for k, path in enumerate(files):
        with open(path, encoding="utf-8") as f:
            res = json.load(f)
        for run in res["runs"]:
            name = NAMES.get(run["algorithm"], run["algorithm"])
            g = run["privacy"]["guarantee"]
            label = f"{name} (eps={float(g['epsilon']):.2f} at delta={float(g['delta']):g})"
            if len(files) > 1:
                label += f" [{os.path.basename(path)}]"
            style = "-" if run["algorithm"] == "blsgd" else "--"
            if "non_private" not in run:  # PRIV.RELEASE: checkpoints only with --diagnostics
                sys.exit(f"{path}: no checkpoints; run `dpref linesearch mlp --diagnostics`")
            checkpoints = run["non_private"]["checkpoints"]
            it = [c["iteration"] for c in checkpoints]
            axes[0].plot(it, [c["test_accuracy"] for c in checkpoints], style, label=label)
            axes[1].plot(it, [c["objective"] for c in checkpoints], style, label=label)
            if run["algorithm"] == "blsgd" and run["steps"]:
                steps = run["steps"]
                axes[2].plot(range(1, len(steps) + 1), steps, ".", ms=2, alpha=0.4, label=label)
                w = max(1, len(steps) // 50)
                avg = [sum(steps[i : i + w]) / len(steps[i : i + w]) for i in range(0, len(steps), w)]
                axes[2].plot([i + w / 2 for i in range(0, len(steps), w)], avg, "-", label=f"{name} mean of {w}")
            elif run["algorithm"] == "dpsgd":
                axes[2].axhline(res["config"]["sgd_eta"], ls="--", color="gray", label="DP-SGD eta")
        if k == 0:
            rho = ", ".join(f"{r['algorithm']} rho={r['rho_iter']:.4g}" for r in res["runs"])
            title = (
                f"{res['data']}: {res['input_dimension']}-{res['config']['hidden']}-10 MLP, "
                f"q={res['config']['q']:.4g}, {rho}"
            )
            fig.suptitle(title)
    axes[0].set_ylabel("test accuracy")
    axes[1].set_ylabel("training objective F(w)")
    axes[2].set_ylabel("selected step size")
    axes[2].set_yscale("log")
    for ax in axes:
        ax.set_xlabel("iteration")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "linesearch_mlp.png"), dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())

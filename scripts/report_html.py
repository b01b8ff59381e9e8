#!/usr/bin/python3
"""The HTML report of `dpref reproduce` (spec/reproduce.md REPRO.HTML): one self-contained file
(tables, inline base64 PNG plots made by matplotlib, no external resource) from report.json.

usage: report_html.py REPORT.json OUT.html
"""
import base64
import html
import io
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"reproduced": "#2e7d32", "not reproduced": "#f9a825", "contradicted": "#c62828",
          "inconclusive at this size": "#607d8b"}


def png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def img(b64, alt):
    return f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{b64}"/>' \
           f"<figcaption>{html.escape(alt)}</figcaption></figure>"


def e(x):
    return html.escape(str(x))


def num(x):
    if x is None:
        return "—"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, (int, float)):
        return f"{x:.4g}"
    return e(x)


def table(headers, rows, cls=""):
    out = [f'<table class="{cls}"><thead><tr>' + "".join(f"<th>{e(h)}</th>" for h in headers) +
           "</tr></thead><tbody>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def suboptimality_axes(ax, xlabel, title):
    """Log-log axes of relative suboptimality against xlabel, with the legend."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("relative suboptimality")
    ax.set_title(title)
    ax.legend(fontsize=8)


def plots(rep):
    figs = []
    claims = rep["claims"]
    papers = list(dict.fromkeys(c["paper"] for c in claims))
    if papers:
        fig, ax = plt.subplots(figsize=(7, 3))
        bottom = [0] * len(papers)
        for v, col in COLORS.items():
            h = [sum(1 for c in claims if c["paper"] == p and c["verdict"] == v) for p in papers]
            ax.bar(papers, h, bottom=bottom, color=col, label=v)
            bottom = [b + x for b, x in zip(bottom, h)]
        ax.set_ylabel("claims")
        ax.set_title("Verdicts per paper")
        ax.legend(fontsize=8)
        figs.append((png(fig), "Verdicts per paper (this run)"))
    s = rep.get("series", {})
    if "ev_K_household" in s or "ev_K_paper" in s:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        for key, lab in (("ev_K_household", "household units (λ = m)"),
                         ("ev_K_paper", "(7) as printed (λ = 1)")):
            if key in s:
                d = s[key]
                ax.errorbar(d["x"], d["mean"], yerr=d["se"], marker="o", capsize=2, label=lab)
        suboptimality_axes(ax, "iterations K",
                           "ev Fig. 3 (c = 10, ε = 0.1): EV.STUDY.K and EV.UNITS")
        figs.append((png(fig), "ev: suboptimality vs K in both units (mean ± SE)"))
    if "ev_eps" in s:
        d = s["ev_eps"]
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.errorbar(d["x"], d["mean"], yerr=d["se"], marker="o", capsize=2,
                    label=f"dpref, slope {d['slope']:.3f}")
        x0, y0 = d["x"][0], d["mean"][0]
        ax.plot(d["x"], [y0 * (x / x0) ** -0.25 for x in d["x"]], "--", label="slope −1/4 (Cor. 9)")
        ax.plot(d["x"], [y0 * (x / x0) ** -0.698 for x in d["x"]], ":", label="slope −0.698 (paper)")
        suboptimality_axes(ax, "ε", "ev Fig. 4: EV.STUDY.EPS")
        figs.append((png(fig), "ev: suboptimality vs ε at K optimised per ε"))
    perf = [p for p in rep["performance"] if p.get("ratio") is not None]
    if perf:
        fig, ax = plt.subplots(figsize=(8, 0.45 * len(perf) + 1))
        names = [p["name"] for p in perf]
        ax.barh(names, [p["ratio"] for p in perf], color="#1565c0")
        ax.axvline(1, color="k", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("ratio (dpref / reference, same run)")
        ax.tick_params(axis="y", labelsize=7)
        ax.set_title("Performance ratios")
        figs.append((png(fig), "Performance: ratios measured in this run"))
    return figs


def main():
    src, out = sys.argv[1], sys.argv[2]
    with open(src) as f:
        rep = json.load(f)
    m = rep["machine"]
    t = rep["timings"]
    s = rep["summary"]
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             "<title>dpref reproduce report</title><style>",
             "body{font-family:sans-serif;margin:1.5em;max-width:1400px}"
             "table{border-collapse:collapse;margin:0.5em 0 1.5em 0;font-size:0.85em}"
             "td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:top;text-align:left}"
             "th{background:#eee}.v-reproduced{background:#c8e6c9}"
             ".v-not{background:#fff59d}.v-contradicted{background:#ffcdd2}"
             ".v-inconclusive{background:#cfd8dc}"
             "code{background:#f4f4f4;padding:1px 3px}figure{display:inline-block;margin:0.5em}"
             "figcaption{font-size:0.8em;color:#555}",
             "</style></head><body>",
             "<h1>dpref reproduce — claims of the five papers, re-checked</h1>",
             f"<p><b>Mode:</b> {e(rep['mode'])}"
             + (" (reduced sizes: every row says whether it ran reduced)" if rep["mode"] == "quick"
                else "") + "</p>",
             f"<p><b>Command:</b> <code>{e(rep['command'])}</code><br>"
             f"<b>Commit:</b> <code>{e(rep['commit'])}</code> (dpref {e(rep['version'])}); "
             f"<b>started</b> {e(rep['started'])}<br>"
             f"<b>Machine:</b> {e(m['cpu_model'])}, {e(m['cores'])} cores, "
             f"{m['memory_bytes'] / 2**30:.1f} GiB memory ({e(m.get('hostname', ''))})<br>"
             f"<b>Timings:</b> total {t['total_seconds']:.1f} s (claims {t['claims_seconds']:.1f} s, "
             f"performance {t['performance_seconds']:.1f} s, samplers vs numpy "
             f"{t['samplers_seconds']:.1f} s)</p>",
             f"<p><b>{s['reproduced']}</b> reproduced, <b>{s['not_reproduced']}</b> not reproduced,"
             f" <b>{s['contradicted']}</b> contradicted, <b>{s['inconclusive']}</b> inconclusive at"
             f" this size, of {s['claims']} claims. A verdict is "
             "computed in this run from the numbers shown, with the stated error probability "
             "(probability that the verdict is wrong under the stated model) or exactly. A run "
             "smaller than the paper's in a parameter the claim depends on cannot contradict it: "
             "it is inconclusive at this size (REPRO.VERDICT.SIZE).</p>",
             "<h2>Verdicts</h2>"]
    rows = []
    for c in rep["claims"]:
        cls = {"reproduced": "v-reproduced", "not reproduced": "v-not",
               "contradicted": "v-contradicted",
               "inconclusive at this size": "v-inconclusive"}[c["verdict"]]
        nums = "<br>".join(f"{e(k)} = {num(v)}" for k, v in c["numbers"].items())
        err = "exact" if c["exact"] else f"{c['error_probability']:.3g}"
        rows.append([e(c["paper"]), f"<code>{e(c['id'])}</code>", e(c["statement"]),
                     e(c["statistic"]),
                     f'<span class="{cls}">{e(c["verdict"])}</span><br>{e(c["summary"])}',
                     nums, f"{err}<br><small>{e(c['error'])}</small>",
                     ("reduced: " if c["reduced"] else "full: ") + e(c["size"]),
                     f"{c['seconds']:.2f}"])
    parts.append(table(["paper", "ID", "paper's statement", "statistic and decision rule",
                        "verdict", "numbers", "error probability", "size", "s"], rows,
                       "verdicts"))
    parts.append("<h2>Errata: where dpref departs from the papers</h2>")
    parts.append(table(["ID", "paper", "what", "paper's value", "dpref's value", "test",
                        "measured in this run"],
                       [[f"<code>{e(x['id'])}</code>", e(x["paper"]), e(x["what"]),
                         e(x["paper_value"]), e(x["dpref_value"]), f"<code>{e(x['test'])}</code>",
                         "yes" if x["measured"] else "no (spec/errata.md)"]
                        for x in rep["errata"]], "errata"))
    parts.append("<h2>Performance (measured in this run)</h2>")
    parts.append(table(["measurement", "dpref", "unit", "reference", "reference value", "ratio",
                        "note"],
                       [[e(p["name"]), num(p["value"]), e(p["unit"]), e(p["reference"]),
                         num(p["reference_value"]), num(p["ratio"]), e(p["note"])]
                        for p in rep["performance"]], "performance"))
    parts.append("<h2>Plots</h2>")
    for b64, alt in plots(rep):
        parts.append(img(b64, alt))
    parts.append("<h2>Timings per job</h2>")
    parts.append(table(["job", "seconds"], [[e(j["job"]), f"{j['seconds']:.2f}"]
                                            for j in t["jobs"]], "timings"))
    parts.append("</body></html>\n")
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(parts))
    import os
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Tests of `dpref reproduce` (spec/reproduce.md).

usage:
  check_reproduce.py quick DPREF OUTDIR   REPRO_quick: runs `DPREF reproduce --quick --out OUTDIR`
      (OUTDIR emptied first), validates report.json against spec/schema/report.schema.json and
      checks: every paper present with >= 1 claim, every claim has a verdict, numbers, an error
      statement, and says it ran reduced (or why it is full size: an exact computation at the
      paper's setting); the summary counts match the rows; report.html exists and embeds PNGs;
      the terminal output ends with the verdict table and the path of report.html; the run
      took <= 180 s (REPRO.QUICK).
  check_reproduce.py flags DPREF TMPDIR   REPRO_CMD_flags: bad flags are refused with exit 2/3
      naming the flag, and an unwritable --out is refused before any work.
  check_reproduce.py MODE REPORT_DIR       checks of the quick report (fixture of REPRO_quick):
      schema (REPRO_JSON_schema), verdict (REPRO_VERDICT_rederive), size
      (REPRO_VERDICT_SIZE_rule), errata (REPRO_ERRATA_rows),
      perf (REPRO_PERF_rows), html (REPRO_HTML_selfcontained), abadi (REPRO_ACC_ABADI_claim),
      exact (REPRO_ACC_EXACT_claim), hinge (REPRO_LS_HINGE_claim).
  check_reproduce.py rules-once SOURCE_DIR   REPRO_RULE_ONCE_scan: every claim's verdict comes
      from its rule (decide), check_verdict has no per-claim rule, and no test source states a
      claim's rule again (a gtest suite named after a claim ID).
  check_reproduce.py expect REPORT_DIR ID=VERDICT ...   the regression tests of the papers'
      claims (<ID>_reproduced, ...): each listed claim's settled verdict (reproduced,
      not_reproduced, contradicted, inconclusive) in the report, re-derived from its exported
      rule — the claim's one definition, run by `dpref reproduce`.
  check_reproduce.py committed FULL_DIR QUICK_DIR   REPRO_FULL_COMMITTED: the committed
      reports/full validates, ran --full at a named commit and lists every claim.
  check_reproduce.py run-expect DPREF OUTDIR quick|full ID=VERDICT ...   the same after running
      `DPREF reproduce --quick|--full --claims ID,... --no-html --out OUTDIR` (full-size claims,
      label slow).
"""
import html
import json
import math
import os
import re
import pathlib
import shutil
import subprocess
import sys
import time

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAPERS = ["ev", "pwa", "accel", "linesearch", "dda", "accounting", "audit", "random"]


def fail(msg):
    """Every check of this file fails through here: an AssertionError (exit status 1)."""
    raise AssertionError(msg)


def quick(dpref, out):
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.monotonic()
    p = subprocess.run([dpref, "reproduce", "--quick", "--out", out], capture_output=True,
                       text=True, timeout=900)
    wall = time.monotonic() - t0
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr[-3000:])
    if p.returncode != 0:
        fail(f"exit {p.returncode}")
    rep = json.loads(pathlib.Path(out, "report.json").read_text())
    schema = json.loads((ROOT / "spec" / "schema" / "report.schema.json").read_text())
    jsonschema.validate(rep, schema)
    # negative control of the schema: a row without a verdict is refused
    bad = json.loads(json.dumps(rep))
    del bad["claims"][0]["verdict"]
    try:
        jsonschema.validate(bad, schema)
        fail("schema accepted a claim without a verdict")
    except jsonschema.ValidationError:
        pass
    if rep["mode"] != "quick":
        fail("mode is not quick")
    for paper in PAPERS:
        if not any(c["paper"] == paper for c in rep["claims"]):
            fail(f"paper {paper} has no claim")
    counts = {"reproduced": 0, "not reproduced": 0, "contradicted": 0,
              "inconclusive at this size": 0}
    for c in rep["claims"]:
        if c["verdict"] not in counts:
            fail(f"{c['id']}: verdict {c['verdict']!r}")
        counts[c["verdict"]] += 1
        if not c["numbers"] or not all(isinstance(v, (int, float)) for v in c["numbers"].values()):
            fail(f"{c['id']}: numbers missing or not finite: {c['numbers']}")
        if c["summary"].startswith("failed to run"):
            fail(f"{c['id']}: {c['summary']}")
        if not c["exact"] and not (0 < c["error_probability"] < 0.05):
            fail(f"{c['id']}: statistical verdict without an error probability in (0, 0.05)")
        if not c["size"]:
            fail(f"{c['id']}: no size")
    s = rep["summary"]
    if (s["reproduced"], s["not_reproduced"], s["contradicted"], s["inconclusive"]) != (
            counts["reproduced"], counts["not reproduced"], counts["contradicted"],
            counts["inconclusive at this size"]):
        fail(f"summary {s} does not match the rows {counts}")
    if not any(c["reduced"] for c in rep["claims"]):
        fail("no claim says it ran at reduced size in --quick mode")
    html = pathlib.Path(out, "report.html")
    if not html.exists() or "data:image/png;base64," not in html.read_text():
        fail("report.html missing or without inline PNG")
    if "http://" in html.read_text() or "https://" in html.read_text():
        fail("report.html references an external resource")
    lines = p.stdout.strip().splitlines()
    if not lines[-1].startswith("report.html: ") or not lines[-1].endswith("report.html"):
        fail("the terminal output does not end with the path of report.html")
    if not any(l.startswith("ev ") for l in lines):
        fail("no verdict table in the terminal output")
    ev = [c for c in rep["claims"] if c["id"] == "EV.STUDY.K"]
    if not ev:
        fail("EV.STUDY.K missing")
    print(f"REPRO_quick: {len(rep['claims'])} claims {counts}, wall {wall:.1f} s, "
          f"report total {rep['timings']['total_seconds']:.1f} s")
    if wall > 180:
        fail(f"--quick took {wall:.1f} s > 180 s")
    return 0


def flags(dpref, tmp):
    os.makedirs(tmp, exist_ok=True)
    cases = [
        (["reproduce", "--quick", "--papers", "ev,nope", "--out", tmp], 3, "--papers"),
        (["reproduce", "--quick", "--full", "--out", tmp], 2, "--full"),
        (["reproduce", "--quick"], 2, "--out"),
        (["reproduce", "--quick", "--bogus", "--out", tmp], 2, "--bogus"),
        (["reproduce", "--quick", "--out", "/proc/dpref-not-writable/x"], 3, "--out"),
        (["reproduce", "--quick", "--python", "/nonexistent/python3", "--out", tmp], 3, "--python"),
    ]
    for argv, code, word in cases:
        t0 = time.monotonic()
        p = subprocess.run([dpref] + argv, capture_output=True, text=True, timeout=60)
        dt = time.monotonic() - t0
        msg = p.stdout + p.stderr
        if p.returncode != code or word not in msg:
            fail(f"{argv}: exit {p.returncode} (want {code}), message {msg!r} must name {word}")
        if dt > 10:
            fail(f"{argv}: refused only after {dt:.1f} s (must be before any work)")
        print(f"ok: {' '.join(argv)} -> exit {code} ({msg.strip().splitlines()[-1][:100]})")
    return 0


def load(d):
    return json.loads(pathlib.Path(d, "report.json").read_text())


def claim(rep, cid):
    rows = [c for c in rep["claims"] if c["id"] == cid]
    if len(rows) != 1:
        fail(f"{cid}: {len(rows)} rows")
    return rows[0]


def sign_tail(n, k):
    from math import comb
    return sum(comb(n, i) for i in range(k, n + 1)) / 2 ** n


def check_schema(d):
    rep = load(d)
    schema = json.loads((ROOT / "spec" / "schema" / "report.schema.json").read_text())
    jsonschema.validate(rep, schema)
    for mutate, what in ((lambda r: r["claims"][0].pop("verdict"), "claim without a verdict"),
                         (lambda r: r["claims"][0].update(verdict="maybe"), "unknown verdict"),
                         (lambda r: r.pop("machine"), "report without machine"),
                         (lambda r: r["claims"][0].update(numbers={}), "claim without numbers")):
        bad = json.loads(json.dumps(rep))
        mutate(bad)
        try:
            jsonschema.validate(bad, schema)
            fail(f"schema accepted a {what}")
        except jsonschema.ValidationError:
            print(f"ok: schema refuses a {what}")
    print(f"ok: report.json valid ({len(rep['claims'])} claims)")


def settled(c):
    """REPRO.VERDICT.SIZE (spec/reproduce.md): a contradicting statistic of a run below the
    paper's size, in a parameter the claim depends on, is 'inconclusive at this size'."""
    if (c["statistic_verdict"] == "contradicted" and c["below_paper_size"]
            and c["size_dependence"]):
        return "inconclusive at this size"
    return c["statistic_verdict"]


def check_size(d):
    """REPRO.VERDICT.SIZE: every reported verdict is its statistic's verdict settled by the size
    rule; no run below the paper's size contradicts a size-dependent claim."""
    rep = load(d)
    for c in rep["claims"]:
        if c["verdict"] != settled(c):
            fail(f"{c['id']}: verdict {c['verdict']!r}, the size rule gives {settled(c)!r}")
        if c["below_paper_size"] and c["size_dependence"] and c["verdict"] == "contradicted":
            fail(f"{c['id']}: contradicted below the paper's size ({c['size_dependence']})")
    for cid in ("LS.CLAIM.HEADLINE", "REPRO.LS.HINGE"):  # n-dependent (spec/reproduce.md)
        c = claim(rep, cid)
        if not (c["size_dependence"].startswith("n ") and c["below_paper_size"]):
            fail(f"{cid}: size dependence not declared: {c['size_dependence']!r}")
        print(f"ok: {cid}: statistic {c['statistic_verdict']}, reported {c['verdict']} "
              f"({c['size_dependence']})")
    # negative control: at the paper's size a contradicting statistic stands
    ls = json.loads(json.dumps(claim(rep, "LS.CLAIM.HEADLINE")))
    ls["statistic_verdict"], ls["below_paper_size"] = "contradicted", False
    if settled(ls) != "contradicted":
        fail("size rule: a run at the paper's size was not allowed to contradict")
    ls["below_paper_size"] = True
    if settled(ls) != "inconclusive at this size":
        fail("size rule: a reduced run contradicted a size-dependent claim")
    print("ok: size rule and its negative control")


class RuleError(Exception):
    pass


def _ieee_div(a, b):
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _log(x):
    return -math.inf if x == 0 else math.nan if x < 0 or math.isnan(x) else math.log(x)


def _sqrt(x):
    return math.nan if x < 0 or math.isnan(x) else math.sqrt(x)


def _exp(x):
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _min(*a):
    v = a[0]
    for x in a:
        v = x if x < v else v
    return v


def _max(*a):
    v = a[0]
    for x in a:
        v = x if x > v else v
    return v


FUNCS = {"abs": (1, abs), "sqrt": (1, _sqrt), "log": (1, _log), "exp": (1, _exp),
         "min": (2, _min), "max": (2, _max)}


def eval_rule(expr, numbers):
    """REPRO.RULE: the value of a claim's exported decision rule on its reported numbers.
    An independent evaluator of the grammar of src/reproduce/rule.hpp (a subset of Python's
    expression syntax): IEEE semantics (NaN compares false, x/0 is +-inf), booleans 1 / 0, one
    comparison per operand pair, names only from the claim's numbers (null = NaN)."""
    import ast

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.BoolOp):
            vals = [ev(v) for v in n.values]
            if isinstance(n.op, ast.And):
                return float(all(v != 0 for v in vals))
            return float(any(v != 0 for v in vals))
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return float(ev(n.operand) == 0)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.Compare):
            if len(n.ops) != 1:
                raise RuleError(f"{expr!r}: chained comparison")
            a, b, op = ev(n.left), ev(n.comparators[0]), n.ops[0]
            table = {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b,
                     ast.Eq: a == b, ast.NotEq: a != b}
            if type(op) not in table:
                raise RuleError(f"{expr!r}: operator {type(op).__name__}")
            return float(table[type(op)])
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, ast.Div):
                return _ieee_div(a, b)
            raise RuleError(f"{expr!r}: operator {type(n.op).__name__}")
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in FUNCS:
            arity, f = FUNCS[n.func.id]
            args = [ev(a) for a in n.args]
            if n.keywords or (arity == 1 and len(args) != 1) or (arity == 2 and len(args) < 2):
                raise RuleError(f"{expr!r}: {n.func.id} with {len(args)} argument(s)")
            return float(f(*args))
        if isinstance(n, ast.Constant) and type(n.value) in (int, float):
            return float(n.value)
        if isinstance(n, ast.Name):
            if n.id not in numbers:
                raise RuleError(f"{expr!r}: unknown number {n.id!r}")
            v = numbers[n.id]
            return math.nan if v is None else float(v)
        raise RuleError(f"{expr!r}: unsupported syntax {type(n).__name__}")

    return ev(ast.parse(expr, mode="eval"))


def rule_verdict(rule, numbers):
    if rule["contradicted_if"] and eval_rule(rule["contradicted_if"], numbers) != 0:
        return "contradicted"
    return "reproduced" if eval_rule(rule["reproduced_if"], numbers) != 0 else "not reproduced"


def check_verdict(d):
    """REPRO.RULE: every statistic verdict is its exported rule re-evaluated (independently) on
    the reported numbers; the rule itself is defined once, in the claim's job. Then the
    independent re-derivations of a few numbers, and the spec's known findings."""
    rep = load(d)
    for c in rep["claims"]:
        want = rule_verdict(c["rule"], c["numbers"])
        if c["statistic_verdict"] != want:
            fail(f"{c['id']}: verdict {c['statistic_verdict']!r}, its rule on its numbers gives "
                 f"{want!r} (rule {c['rule']})")
        print(f"ok: {c['id']}: {want} ({c['rule']['reproduced_if']})")
    # negative controls of the evaluator: a changed number flips a verdict; bad rules refused
    ab = claim(rep, "REPRO.ACC.ABADI")
    if rule_verdict(ab["rule"], dict(ab["numbers"], certified_eps=2.0)) != "not reproduced":
        fail("rule evaluator: REPRO.ACC.ABADI at certified eps 2 is still reproduced")
    e1 = claim(rep, "DDA-E1")
    if rule_verdict(e1["rule"], dict(e1["numbers"], chain_eps=0.1)) != "reproduced":
        fail("rule evaluator: DDA-E1 with chain_eps 0.1 is not reproduced")
    for bad in ("1 < 2 < 3", "unknown_name > 0", "__import__('os')", "x[0]", "log(1, 2)"):
        try:
            eval_rule(bad, {"x": 1.0})
            fail(f"rule evaluator accepted {bad!r}")
        except RuleError:
            pass
    if eval_rule("x > 0 or not (x > 0)", {"x": None}) != 1 or eval_rule("x < 1", {"x": None}) != 0:
        fail("rule evaluator: NaN semantics")
    print("ok: rule evaluator negative controls")
    # independent re-derivations (not the rules): error probabilities and errata values
    for cid in ("LS.CLAIM.HEADLINE", "REPRO.LS.HINGE"):
        c = claim(rep, cid)
        R = int(c["numbers"]["seeds"])
        k = 9 if R == 10 else 15
        if abs(c["error_probability"] - sign_tail(R, k)) > 1e-12:
            fail(f"{cid}: error probability {c['error_probability']} != {sign_tail(R, k)}")
    n = claim(rep, "EV.THM8")["numbers"]
    # errata EV-E1, derived here: sqrt(dr^2 + (dr + dE)^2) at dr = 13.2, dE = 12
    if abs(n["tight"] - math.hypot(13.2, 25.2)) > 1e-9 or n["paper_bound"] != 38.4:
        fail(f"EV.THM8: tight {n['tight']} / paper {n['paper_bound']}")
    # the known findings (spec): the claims that must come out this way at the quick size
    V = ("reproduced", "not reproduced", "contradicted")
    for cid, want in (("EV.UNITS", V[2]), ("DDA-E1", V[2]),
                      ("LS.CLAIM.HEADLINE", "inconclusive at this size"),
                      ("EV.STUDY.K", V[0]), ("AUDIT.NEG.LAPLACE", V[0])):
        got = claim(rep, cid)["verdict"]
        if got != want:
            fail(f"{cid}: {got!r}, spec finding is {want!r}")


def check_rules_once(root):
    """REPRO.RULE.ONCE: a claim's verdict is decided only by its rule. In src/reproduce every
    claim's `result` is assigned from decide() and every job sets a rule; this checker's own
    verdict mode has no per-claim branch. Negative control: a synthetic job assigning a verdict
    directly is flagged."""
    root = pathlib.Path(root)
    assign = re.compile(r"\b\w+\.result\s*=(?!=)\s*(\S+)")

    def problems_in(text, name):
        out = [f"{name}: verdict assigned without decide(): {m.group(0).strip()}"
               for m in assign.finditer(text) if not m.group(1).startswith("decide(")]
        if "claim " in text and ".rule = " not in text:
            out.append(f"{name}: claims without a rule")
        return out

    probs = []
    for f in sorted((root / "src" / "reproduce").glob("*_claims.cpp")):
        probs += problems_in(f.read_text(), f.name)
    src = pathlib.Path(__file__).read_text()
    body = src[src.index("def check_verdict(d):"):src.index("def check_rules_once(root):")]
    body = body[:body.index("# independent re-derivations")]
    if re.search(r"\bcid\s*==|elif cid", body):
        probs.append("check_reproduce.py: check_verdict has a per-claim rule")
    # a claim's rule stated again in a test: a gtest suite named after a claim ID
    ids = set()
    for f in sorted((root / "src" / "reproduce").glob("*.cpp")):
        text = f.read_text()
        ids |= set(re.findall(r'\b\w+\.id\s*=\s*"([^"]+)"', text))  # claims a job adds
        ids |= set(re.findall(r'\{"\w+",\s*"([^"]+)",\s*false', text))  # the jobs' names
    suites = {i.replace(".", "_").replace("-", "_") for i in ids}
    suite_re = re.compile(r"\b(?:TEST|TEST_F|TEST_P|RC_GTEST_PROP)\s*\(\s*([A-Za-z0-9_]+)\s*,")

    def restated(text, name):
        return [f"{name}: test suite {m} restates the claim {m} (run it through `dpref "
                f"reproduce` and check_reproduce.py expect)" for m in suite_re.findall(text)
                if m in suites]

    # the regression tests: tests/regression/ and every *claims* / *regression* / *_slow source
    # (unit tests of a component may share a claim's spec ID, e.g. SEC_EV: they test the
    # mechanism, not the claim's statistic)
    for f in sorted((root / "tests").rglob("*.cpp")):
        if "regression" in f.parts or re.search(r"claims|regression|_slow", f.name):
            probs += restated(f.read_text(encoding="utf-8"), str(f.relative_to(root)))
    if probs:
        fail("; ".join(probs))
    neg = problems_in("claim c;\n  c.rule = {\"x > 0\", \"\"};\n  c.result = verdict::reproduced;",
                      "synthetic")
    if len(neg) != 1:
        fail(f"negative control not flagged exactly once: {neg}")
    if len(ids) < 20:
        fail(f"only {len(ids)} claim IDs found in src/reproduce")
    neg2 = restated("TEST(DDA_CLAIMS_EPS, LargerEpsilonLowerLoss) {}",
                    "tests/regression/synthetic_claims.cpp")
    if len(neg2) != 1:
        fail(f"negative control (a restated claim) not flagged exactly once: {neg2}")
    print(f"ok: every claim decided by its rule only, {len(ids)} claim IDs restated by no test; "
          "negative controls flagged")


def expect(d, pairs):
    """Each ID=VERDICT: the claim's settled verdict, which its exported rule must re-derive."""
    rep = load(d)
    names = {"reproduced": "reproduced", "not_reproduced": "not reproduced",
             "contradicted": "contradicted", "inconclusive": "inconclusive at this size"}
    if not pairs:
        fail("expect: no ID=VERDICT given")
    for pair in pairs:
        cid, _, want = pair.partition("=")
        if want not in names:
            fail(f"expect: {pair!r} must be ID=VERDICT with VERDICT in {sorted(names)}")
        c = claim(rep, cid)
        statistic = rule_verdict(c["rule"], c["numbers"])
        if statistic != c["statistic_verdict"]:
            fail(f"{cid}: its rule gives {statistic!r}, the report says {c['statistic_verdict']!r}")
        got, want = settled(c), names[want]
        if got != want or c["verdict"] != got:
            fail(f"{cid}: {got!r} ({c['summary']}), expected {want!r}")
        print(f"ok: {cid} {got}: {c['summary']}")
    return 0


def run_expect(dpref, out, mode, pairs):
    shutil.rmtree(out, ignore_errors=True)
    ids = ",".join(p.partition("=")[0] for p in pairs)
    argv = [dpref, "reproduce", f"--{mode}", "--claims", ids, "--no-html", "--out", out]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr[-2000:]}")
    rep = load(out)
    if sorted(c["id"] for c in rep["claims"]) != sorted(ids.split(",")):
        fail(f"--claims {ids} ran {[c['id'] for c in rep['claims']]}")
    return expect(out, pairs)


def committed(full_dir, quick_dir):
    """REPRO.FULL.COMMITTED: the committed full-size report (reports/full) validates against the
    schema, ran in --full mode on all eight papers at a named commit, lists every claim of the
    registry (the claims of this build's quick report), re-derives every verdict from its
    exported rule, ran every claim at the paper's size (none reduced or below_paper_size), and
    has its HTML page. Negative controls: the same report with one claim removed, or with one
    claim below the paper's size, is refused."""
    rep, quick = load(full_dir), load(quick_dir)
    schema = json.loads((ROOT / "spec" / "schema" / "report.schema.json").read_text())
    jsonschema.validate(rep, schema)

    def problems_of(r):
        out = []
        if r["mode"] != "full":
            out.append(f"mode {r['mode']!r}, not 'full'")
        if sorted(r["papers"]) != sorted(PAPERS) or "selected_claims" in r:
            out.append(f"papers {r['papers']} (a subset)")
        if r["commit"] in ("", "unknown") or r["commit"].endswith("-dirty"):
            out.append(f"commit {r['commit']!r} does not name a commit")
        missing = {c["id"] for c in quick["claims"]} - {c["id"] for c in r["claims"]}
        if missing:
            out.append(f"claims of the registry missing: {sorted(missing)}")
        for c in r["claims"]:
            if rule_verdict(c["rule"], c["numbers"]) != c["statistic_verdict"]:
                out.append(f"{c['id']}: verdict not its rule's")
            if c["reduced"] or c["below_paper_size"]:  # issue 30: every claim at the paper's size
                out.append(f"{c['id']}: ran reduced or below the paper's size ({c['size']})")
        return out

    probs = problems_of(rep)
    if not pathlib.Path(full_dir, "report.html").is_file():
        probs.append("report.html missing")
    if probs:
        fail("; ".join(probs))
    bad = json.loads(json.dumps(rep))
    bad["claims"] = bad["claims"][1:]
    if not problems_of(bad):
        fail("negative control: a report without one claim was accepted")
    small = json.loads(json.dumps(rep))
    small["claims"][0]["below_paper_size"] = True
    if not problems_of(small):
        fail("negative control: a claim below the paper's size was accepted")
    counts = rep["summary"]
    print(f"ok: committed full report at {rep['commit']} ({rep['started']}, "
          f"{rep['timings']['total_seconds']:.0f} s on {rep['machine']['cores']} cores): "
          f"{counts['claims']} claims, {counts['reproduced']} reproduced, "
          f"{counts['not_reproduced']} not reproduced, {counts['contradicted']} contradicted, "
          f"{counts['inconclusive']} inconclusive, all at the paper's size; negative controls refused")
    return 0


def check_errata(d):
    rep = load(d)
    text = (ROOT / "spec" / "errata.md").read_text()
    ids = re.findall(r"\*\*([A-Z]+-E[0-9]+)\*\*", text)
    rows = {e["id"]: e for e in rep["errata"]}
    for i in ids:
        if i not in rows:
            fail(f"erratum {i} (spec/errata.md) has no row")
    measured = [e for e in rep["errata"] if e["measured"]]
    if len(measured) < 4:
        fail(f"only {len(measured)} errata measured in the run")
    if not any(ch.isdigit() for ch in rows["DDA-E4"]["dpref_value"]):
        fail("DDA-E4 has no number")
    # every test named in the table exists (gtest suite, suite.case, or ctest name)
    names = set()
    test_re = re.compile(r"\b(?:TEST|TEST_F|TEST_P|TYPED_TEST|RC_GTEST_PROP|RC_GTEST_FIXTURE_PROP)"
                         r"\s*\(\s*([A-Za-z0-9_]+)\s*,\s*([A-Za-z0-9_]+)")
    for src in (ROOT / "tests").rglob("*.cpp"):
        for a, b in test_re.findall(src.read_text(encoding="utf-8")):
            names.update({a, f"{a}.{b}"})
    for src in (ROOT / "tests").rglob("*.cmake"):
        names.update(re.findall(r"add_test\(\s*NAME\s+([A-Za-z0-9_]+)", src.read_text()))
    for e in rep["errata"]:
        for t in (x.strip() for x in e["test"].split(",")):
            if t.startswith("dpref reproduce"):
                continue
            key = t.replace(".", "_") if "." in t and t.split(".")[0].isupper() and not \
                re.match(r"^[A-Z0-9_]+\.[A-Z][a-z]", t) else t
            if key not in names and not any(n.startswith(key + "_") for n in names):
                fail(f"erratum {e['id']}: test {t!r} does not exist")
    print(f"ok: {len(ids)} errata rows, {len(measured)} measured in the run, every test exists")


def check_perf(d):
    rep = load(d)
    perf = rep["performance"]
    def find(word):
        rows = [p for p in perf if word in p["name"]]
        if not rows:
            fail(f"no performance row for {word!r}")
        return rows
    for word in ("ev Algorithm 2 throughput", "dda", "accel", "auditor", "accountant", "sampler",
                 "PLD (q"):
        for p in find(word):
            if p["ratio"] is None:
                if not p["note"].startswith("absent:"):
                    fail(f"{p['name']}: no ratio and no reason")
                print(f"ok (absent): {p['name']}: {p['note']}")
            else:
                if not (p["ratio"] > 0 and p["value"] > 0 and p["reference_value"] > 0):
                    fail(f"{p['name']}: {p}")
                if abs(p["ratio"] - p["value"] / p["reference_value"]) > 1e-9 * p["ratio"]:
                    fail(f"{p['name']}: ratio != value / reference")
                print(f"ok: {p['name']}: {p['value']:.4g} {p['unit']}, ratio {p['ratio']:.3g}")
    ev = find("ev Algorithm 2 throughput")[0]
    if "identical across threads: yes" not in ev["note"]:
        fail("ev: the 2-thread run released different bytes")


def check_html(d):
    h = pathlib.Path(d, "report.html").read_text()
    rep = load(d)
    for word in ("http://", "https://", "<link", "<script src"):
        if word in h:
            fail(f"report.html has an external reference ({word})")
    n_img = h.count("data:image/png;base64,")
    if n_img < 3:
        fail(f"only {n_img} inline PNGs")
    import base64
    for m in re.finditer(r'data:image/png;base64,([A-Za-z0-9+/=]+)', h):
        if not base64.b64decode(m.group(1)).startswith(b"\x89PNG"):
            fail("an inline image is not a PNG")
    for must in (rep["commit"], rep["machine"]["cpu_model"], "errata", "Performance"):
        if html.escape(must) not in h:
            fail(f"report.html does not show {must!r}")
    for c in rep["claims"]:
        if html.escape(c["id"]) not in h:
            fail(f"claim {c['id']} missing from report.html")
    print(f"ok: report.html self-contained, {n_img} PNGs, {len(rep['claims'])} claims")


def check_abadi(d):
    c = claim(load(d), "REPRO.ACC.ABADI")
    eps, rdp = c["numbers"]["certified_eps"], c["numbers"]["rdp_eps"]
    # the reported value is the tightest certified method: never above the RDP value
    if not (eps <= rdp * (1 + 1e-12)):
        fail(f"tightest certified eps {eps} above the RDP value {rdp}")
    # independent: RDP of the Poisson-subsampled Gaussian (Mironov-Talwar-Zhang, integer orders)
    import mpmath as mp
    mp.mp.dps = 40
    q, s, T, delta = mp.mpf("0.01"), mp.mpf(4), 10000, mp.mpf("1e-5")
    best = best_b = mp.inf
    for a in range(2, 257):
        A = mp.fsum(mp.binomial(a, k) * (1 - q) ** (a - k) * q ** k * mp.e ** ((k * k - k) / (2 * s * s))
                    for k in range(a + 1))
        r = T * mp.log(A) / (a - 1)
        best = min(best, r + mp.log(1 / delta) / (a - 1))  # Mironov 2017, Proposition 3
        # Balle et al. 2020, Theorem 21 (dpref's conversion)
        best_b = min(best_b, r + mp.log(mp.mpf(a - 1) / a) - (mp.log(delta) + mp.log(a)) / (a - 1))
    print(f"dpref certified {eps:.6g} (RDP {rdp:.6g}), independent Mironov conversion "
          f"{float(best):.6g}")
    if not (rdp <= float(best) * (1 + 1e-9)):
        fail("dpref's certified RDP eps is above the independent (looser) conversion")
    if not (eps <= 1.26 and c["verdict"] == "reproduced"):
        fail(f"{c}")
    if abs(rdp - float(best_b)) > 1e-6 * rdp or rdp < float(best_b) * (1 - 1e-12):
        fail(f"dpref RDP {rdp} vs independent Balle conversion {float(best_b)} "
             "(must round up, 1e-6)")
    print(f"ok: independent Balle 2020 conversion {float(best_b):.9g}")


def check_exact(d):
    c = claim(load(d), "REPRO.ACC.EXACT")
    rep = load(d)
    import mpmath as mp
    mp.mp.dps = 40
    rows = [p for p in rep["performance"] if p["name"].startswith("accountant:") and "Gaussians" in p["name"]]
    if len(rows) != 3:
        fail(f"{len(rows)} exact-Gaussian performance rows")
    for p, (sigma, k, delta) in zip(rows, ((5, 100, 1e-5), (1, 10, 1e-6), (20, 1000, 1e-5))):
        mu = mp.sqrt(k) / sigma
        Phi = lambda x: mp.ncdf(x)
        f = lambda e: Phi(mu / 2 - e / mu) - mp.e ** e * Phi(-mu / 2 - e / mu) - mp.mpf(delta)
        ex = float(mp.findroot(f, (mp.mpf("0.001"), mp.mpf(60)), solver="bisect"))
        if abs(p["reference_value"] - ex) > 1e-9 * ex:
            fail(f"{p['name']}: exact {p['reference_value']} vs independent {ex}")
        r = p["value"] / ex
        print(f"ok: {p['name']}: certified {p['value']:.6g}, exact {ex:.6g}, ratio {r:.4f}")
        if not (1 <= r <= 1.25):
            fail(f"ratio {r} outside [1, 1.25]")
    if c["verdict"] != "reproduced":
        fail(c["verdict"])


def check_hinge(d):
    c = claim(load(d), "REPRO.LS.HINGE")
    n = c["numbers"]
    if not (n["mean_F_dp_blsgd"] > 0 and n["mean_F_dp_sgd"] > 0 and n["seeds"] >= 10):
        fail(f"{n}")
    if "hinge" not in c["statement"]:
        fail("not the hinge loss")
    print(f"ok: hinge headline {c['verdict']}: {c['summary']}")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "quick":
        sys.exit(quick(sys.argv[2], sys.argv[3]))
    if mode == "flags":
        sys.exit(flags(sys.argv[2], sys.argv[3]))
    if mode == "expect":
        sys.exit(expect(sys.argv[2], sys.argv[3:]))
    if mode == "committed":
        sys.exit(committed(sys.argv[2], sys.argv[3]))
    if mode == "run-expect":
        sys.exit(run_expect(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
    {"schema": check_schema, "verdict": check_verdict, "size": check_size, "errata": check_errata,
     "perf": check_perf, "html": check_html, "abadi": check_abadi, "exact": check_exact,
     "hinge": check_hinge, "rules-once": check_rules_once}[mode](sys.argv[2])
    sys.exit(0)

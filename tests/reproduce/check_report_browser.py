#!/usr/bin/python3
"""Renders report.html of `dpref reproduce` in headless Chromium and checks it (spec/reproduce.md
REPRO.BROWSER): every <img> loaded (complete and naturalWidth > 0), every <table> has body rows,
and at least one image and one table exist. Saves a screenshot PNG next to the output.

usage: check_report_browser.py REPORT.html SCREENSHOT.png [--break image|table]

--break makes a broken copy first (one image's data corrupted, or one table emptied) and checks
that copy: the negative control, which must FAIL (ctest WILL_FAIL).
Exit codes: 0 pass, 1 fail, 77 skipped (Chromium absent; the reason is printed).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROBE = """<script>
window.addEventListener('load', function () {
  var imgs = Array.from(document.images), tables = Array.from(document.querySelectorAll('table'));
  var r = {images: imgs.length, tables: tables.length,
           broken_images: imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                              .map(function (i) { return i.alt; }),
           empty_tables: tables.filter(function (t) {
                             return t.querySelectorAll('tbody tr').length === 0; })
                               .map(function (t) { return t.className; })};
  var pre = document.createElement('pre');
  pre.id = 'dpref-browser-check';
  pre.textContent = 'DPREF_CHECK ' + JSON.stringify(r) + ' END';
  document.body.appendChild(pre);
});
</script>"""


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def run(browser, args, timeout=180):
    base = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
            "--user-data-dir=" + tempfile.mkdtemp(prefix="dpref-chromium-")]
    return subprocess.run(base + args, capture_output=True, text=True, timeout=timeout)


def main():
    args = sys.argv[1:]
    brk = None
    if "--break" in args:
        i = args.index("--break")
        brk = args[i + 1]
        del args[i:i + 2]
    html_path, shot = args
    browser = chromium()
    if browser is None:
        print("SKIP: Chromium is not installed (Debian package `chromium`, "
              "scripts/install_deps.sh installs it)")
        return 77
    text = open(html_path, encoding="utf-8").read()
    if brk == "image":
        text, n = re.subn(r'src="data:image/png;base64,[A-Za-z0-9+/]{40}',
                          'src="data:image/png;base64,AAAAbroken', text, count=1)
        assert n == 1, "no image to break"
    elif brk == "table":
        text, n = re.subn(r"<tbody>.*?</tbody>", "<tbody></tbody>", text, count=1, flags=re.S)
        assert n == 1, "no table to empty"
    work = tempfile.mkdtemp(prefix="dpref-report-check-")
    probe_path = os.path.join(work, "probe.html")
    with open(probe_path, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", PROBE + "</body>"))
    r = run(browser, ["--virtual-time-budget=10000", "--dump-dom", "file://" + probe_path])
    m = re.search(r"DPREF_CHECK (\{.*?\}) END", r.stdout)
    if not m:
        print("FAIL: no check result in the DOM dump (chromium exit %d)\n%s" %
              (r.returncode, r.stderr[-2000:]))
        return 1
    res = json.loads(m.group(1))
    print("browser check:", json.dumps(res))
    shot_src = probe_path if brk else html_path
    s = run(browser, ["--window-size=1400,5000", "--screenshot=" + os.path.abspath(shot),
                      "file://" + os.path.abspath(shot_src)])
    ok_shot = os.path.exists(shot) and os.path.getsize(shot) > 0
    print(("screenshot: " + shot) if ok_shot else ("FAIL: no screenshot (%s)" % s.stderr[-500:]))
    fails = []
    if res["images"] < 1:
        fails.append("no <img> in the report")
    if res["tables"] < 1:
        fails.append("no <table> in the report")
    if res["broken_images"]:
        fails.append("images not loaded: %s" % res["broken_images"])
    if res["empty_tables"]:
        fails.append("tables without rows: %s" % res["empty_tables"])
    if not ok_shot:
        fails.append("screenshot not written")
    for f in fails:
        print("FAIL:", f)
    if not fails:
        print("PASS: %d images loaded, %d tables with rows" % (res["images"], res["tables"]))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

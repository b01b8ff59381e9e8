#!/usr/bin/env python3
"""Mutation runner (spec/verification.md): for each mutant of tests/mutants/mutants.json (or the
ids given as arguments), apply its one edit to a library header, build its targets in
build/release (cmake --preset release first), run the registered ctest cases matching its regex
and its unit executables directly, record the failing tests, revert the edit and rebuild the
targets. Results: one JSON line per mutant in $DPREF_MUTANT_OUT/results.jsonl (default
/tmp/dpref-mutants). Never commit while it runs: a mutant is applied in the working tree."""
import json, subprocess, sys, time, os, pathlib
ROOT = pathlib.Path(__file__).resolve().parent.parent
MUT = json.load(open(ROOT / 'tests/mutants/mutants.json'))
OUT = pathlib.Path(os.environ.get('DPREF_MUTANT_OUT', '/tmp/dpref-mutants'))
OUT.mkdir(parents=True, exist_ok=True)
want = sys.argv[1:]
env = dict(os.environ, CCACHE_BASEDIR=str(ROOT))
for m in MUT:
    if want and m['id'] not in want: continue
    f = ROOT / m['file']; orig = f.read_text()
    if orig.count(m['old']) != 1:
        print(m['id'], 'OLD TEXT COUNT', orig.count(m['old'])); continue
    f.write_text(orig.replace(m['old'], m['new']))
    t0 = time.time()
    try:
        b = subprocess.run(['nice', '-n', '5', 'cmake', '--build', 'build/release', '-j2', '--target'] + m['targets'],
                           cwd=ROOT, env=env, capture_output=True, text=True)
        tb = time.time() - t0
        if b.returncode != 0:
            res = {'id': m['id'], 'build': 'FAILED', 'log': b.stdout[-2000:]}
        else:
            t1 = time.time()
            extra = (['-L', m['labels']] if 'labels' in m else []) + (['-E', m['exclude']] if 'exclude' in m else [])
            c = subprocess.run(['ctest', '--test-dir', 'build/release', '-R', m['regex'], '--timeout', '600'] + extra,
                               cwd=ROOT, capture_output=True, text=True)
            import re
            open(f"{OUT}/{m['id']}.ctest.log", 'w').write(c.stdout)
            failed = re.findall(r'Test\s+#\d+: (\S+) .*\*\*\*(?:Failed|Exception|Timeout)', c.stdout)
            failed += re.findall(r'Test\s+#\d+: (\S+) .*(?:Exception|Timeout)', c.stdout)
            failed = sorted(set(failed))
            summ = [l for l in c.stdout.splitlines() if 'tests passed' in l]
            # unit executables are not registered in the release preset's ctest: run them directly
            for t in m['targets']:
                exe = ROOT / 'build/release/tests' / t
                if not exe.exists() or t.endswith('audit'): continue
                g = subprocess.run([str(exe), '--gtest_brief=1'], cwd=ROOT / 'build/release/tests',
                                   env=dict(os.environ, RC_PARAMS='seed=20261121 max_success=100'),
                                   capture_output=True, text=True, timeout=1800)
                open(f"{OUT}/{m['id']}.{t}.log", 'w').write(g.stdout[-20000:])
                fl = sorted({l.split('] ')[1].split(' ')[0] for l in g.stdout.splitlines()
                             if l.startswith('[  FAILED  ]') and '] ' in l and ('(' in l or ',' in l)})
                failed += [t + ':' + x for x in fl]
                if g.returncode != 0 and not fl: failed.append(t + ':exit' + str(g.returncode))
            res = {'id': m['id'], 'build_s': round(tb), 'test_s': round(time.time() - t1),
                   'summary': summ, 'failed': failed}
            # gtest case names of failures
            if failed:
                lf = ROOT / 'build/release/Testing/Temporary/LastTest.log'
                cases = sorted({l.split('] ')[1].split(' ')[0] for l in lf.read_text(errors='replace').splitlines() if l.startswith('[  FAILED  ]') and '] ' in l and '(' in l})
                res['cases'] = cases[:20]
    finally:
        f.write_text(orig)
        # rebuild the original (ccache hits) so no later run sees a stale mutated executable
        subprocess.run(['nice', '-n', '5', 'cmake', '--build', 'build/release', '-j2', '--target'] + m['targets'],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    print(json.dumps(res), flush=True)
    with open(OUT / 'results.jsonl', 'a') as o: o.write(json.dumps(res) + '\n')

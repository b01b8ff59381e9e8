#!/usr/bin/python3
"""spec/hardening.md HARD.SAMPLE: `dpref sample` streams its document.

usage: check_sample_stream.py DPREF
  1. The streamed bytes equal an independent serialisation of the parsed document (Python's
     json.dumps(indent=2, sort_keys=True), the layout of nlohmann's dump(2)), for scalar, vector
     and integer samples: the stream is valid JSON in the documented layout.
  2. 3·10^6 samples run with a peak RSS under 64 MB (an in-memory document needs ≈ 540 MB).
Exit 1 on any failure.
"""
import json
import resource
import subprocess
import sys

dpref = sys.argv[1]
failures = []
cases = [
    ["-d", "laplace", "-p", "1", "-n", "7"],
    ["-d", "gaussian", "-p", "2", "-n", "3", "--precision", "mp50", "--seed", "18446744073709551615"],
    ["-d", "vector-laplace", "-p", "0.5", "--dim", "3", "-n", "4", "--precision", "long-double"],
    ["-d", "discrete-gaussian", "-p", "5/2", "-n", "5"],
    ["-d", "bernoulli", "-p", "0.3", "-n", "1"],
]
for args in cases:
    out = subprocess.run([dpref, "sample", *args], capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    n = int(args[args.index("-n") + 1])
    if len(doc["samples"]) != n:
        failures.append(f"{args}: {len(doc['samples'])} samples, expected {n}")
    expected = json.dumps(doc, indent=2, sort_keys=True) + "\n"
    if out != expected:
        failures.append(f"{args}: streamed bytes differ from the dump(2) layout")

count = 3_000_000
proc = subprocess.Popen([dpref, "sample", "-n", str(count)], stdout=subprocess.PIPE)
lines = sum(1 for _ in proc.stdout)
proc.wait()
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
if proc.returncode != 0:
    failures.append(f"-n {count}: exit {proc.returncode}")
if lines != count + 12:  # 10 header lines, one per sample, 2 footer lines
    failures.append(f"-n {count}: {lines} lines, expected {count + 12}")
if peak_mb > 64:
    failures.append(f"-n {count}: peak RSS {peak_mb:.1f} MB > 64 MB (not streamed)")
print(f"check_sample_stream: {len(cases)} layouts, {count} samples in peak RSS {peak_mb:.1f} MB")
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)

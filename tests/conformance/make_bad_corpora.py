#!/usr/bin/python3
"""Writes the corrupted corpora of the check-vectors catalogue cases (tests/cli/catalogue/
cli.jsonl, "conf-corpus-*") under tests/cli/catalogue/data/corpora/: a valid two-family corpus
("ok", Philox vectors of data/conformance) and one copy per corruption that
`dpref check-vectors` must refuse before it runs an implementation (spec/conformance.md
CONF.MANIFEST). Rerun after a change of the MANIFEST format:

    python3 tests/conformance/make_bad_corpora.py
"""
import copy
import hashlib
import json
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "cli" / "catalogue" / "data" / "corpora"
SCHEMA = "dpref.vectors/2"


def family_text(name, vectors):
    body = ",\n".join("  " + json.dumps(v, separators=(", ", ": ")) for v in vectors)
    return (f'{{"schema": "{SCHEMA}",\n "family": "{name}",\n "description": "catalogue",\n'
            f' "vectors": [\n{body}\n ]}}\n')


def entry(name, text, count):
    return {"family": name, "file": name + ".json", "vectors": count,
            "bytes": len(text.encode()), "sha256": hashlib.sha256(text.encode()).hexdigest()}


def write(case, files, manifest):
    d = OUT / case
    for rel, text in files.items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(text)
    if manifest is not None:
        (d / "MANIFEST.json").write_text(
            manifest if isinstance(manifest, str) else json.dumps(manifest, indent=1) + "\n")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    src = json.loads((ROOT / "data" / "conformance" / "random" / "philox.json").read_text())
    a = [v for v in src["vectors"][:2]]
    b = [dict(v, id=v["id"] + "/b") for v in src["vectors"][2:4]]
    for v in a + b:
        v.pop("reference", None)

    def corpus(fa, fb, count_a=None, count_b=None, text_a=None, text_b=None):
        ta = text_a if text_a is not None else family_text("random/a", fa)
        tb = text_b if text_b is not None else family_text("random/b", fb)
        m = {"schema": SCHEMA, "corpus_version": 2, "families": [
            entry("random/a", ta, len(fa) if count_a is None else count_a),
            entry("random/b", tb, len(fb) if count_b is None else count_b)]}
        return {"random/a.json": ta, "random/b.json": tb}, m

    files, m = corpus(a, b)
    write("ok", files, m)
    write("missing-family", {"random/a.json": files["random/a.json"]}, m)
    write("extra-family", {**files, "random/c.json": family_text("random/c", a)}, m)
    write("truncated-manifest", files, json.dumps(m, indent=1)[:150])
    write("no-manifest", files, None)
    f2, m2 = corpus(a, b, count_b=3)
    write("count-mismatch", f2, m2)
    changed = files["random/b.json"].replace('"seed": ', '"seed": 1', 1)
    tampered = dict(files, **{"random/b.json": changed})
    m3 = copy.deepcopy(m)
    m3["families"][1]["bytes"] = len(changed.encode())
    write("digest-mismatch", tampered, m3)
    for case, text in (("empty-family", '{"schema": "%s", "family": "random/b", "vectors": []}\n'),
                       ("object-family", '{"schema": "%s", "family": "random/b", "vectors": {}}\n')):
        f4, m4 = corpus(a, b, count_b=0, text_b=text % SCHEMA)
        write(case, f4, m4)
    dup = [b[0], dict(b[1], id=b[0]["id"])]
    write("duplicate-id", *corpus(a, dup))
    noid = [b[0], {k: v for k, v in b[1].items() if k != "id"}]
    write("missing-id", *corpus(a, noid))
    bad = [b[0], dict(b[1], tolerance={})]
    write("malformed-vector", *corpus(a, bad))
    print(f"wrote {len(list(OUT.iterdir()))} corpora under {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

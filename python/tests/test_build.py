"""PY.BUILD: the package imports from the build tree, its version is the library's, the type
stubs and docstrings are in place; importing it leaves os.environ unchanged and the extension
finds its shipped data next to itself (build tree and an installed-like copy), DPREF_DATA_DIR
still overriding."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import dpref


def test_version_is_the_library_version(source_dir):
    text = (source_dir / "include" / "dpref" / "version.hpp").read_text()
    assert dpref.__version__ == re.search(r'version = "([^"]+)"', text).group(1)


def test_package_layout_stubs_and_docstrings():
    pkg = pathlib.Path(dpref.__file__).parent
    assert (pkg / "py.typed").exists()
    assert (pkg / "__init__.pyi").exists() and (pkg / "_core.pyi").exists()
    for f in (dpref.sample, dpref.account, dpref.audit, dpref.run, dpref.calibrate.gaussian_sigma,
              dpref.geometry.project_capped_simplex, dpref.conformance.check):
        assert f.__doc__ and len(f.__doc__) > 80, f.__name__
    assert "Parameters" in dpref.sample.__doc__ and "precision" in dpref.sample.__doc__


def test_cli_version_matches(cli):
    assert cli.run("--version").stdout.strip() == f"dpref {dpref.__version__}"


# ---- shipped data without environment variables (spec/python.md PY.BUILD, issue 29) --------
# The C++ of the extension finds `shipped:` files relative to itself (io/data_path.hpp): importing
# dpref must not set DPREF_DATA_DIR (or change anything else in os.environ), and a run that needs
# a shipped file (ev's example: base_load = shipped:ev/base_load_taylor.csv) must work from an
# installed-like copy of the package that has its data next to it (a wheel's dpref/share/dpref).

RUN_EV = """
import hashlib, json, os, sys
before = dict(os.environ)
import dpref
assert dict(os.environ) == before, "import dpref changed os.environ"
try:
    r = dpref.run("ev", json.loads(sys.argv[1]))
except ValueError as e:
    print(json.dumps({"error": str(e), "file": dpref.__file__}))
    sys.exit(0)
assert dict(os.environ) == before, "dpref.run changed os.environ"
print(json.dumps({"status": r["status"], "file": dpref.__file__,
                  "digest": hashlib.sha256(json.dumps(r, sort_keys=True).encode()).hexdigest()}))
"""


def _ev_config(source_dir):
    cfg = json.loads((source_dir / "examples" / "ev.json").read_text())
    assert cfg["problem"]["base_load"] == "shipped:ev/base_load_taylor.csv"
    cfg["params"].update({"iterations": 2, "optimum": False})
    for key in ("optimum_max_iterations", "optimum_relative_gap"):
        cfg["params"].pop(key, None)
    return cfg


def _run_ev(source_dir, site, cwd, data_dir=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DPREF_DATA_DIR", "DPREF_SOURCE_DIR", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)
    if data_dir is not None:
        env["DPREF_DATA_DIR"] = str(data_dir)
    r = subprocess.run([sys.executable, "-c", RUN_EV, json.dumps(_ev_config(source_dir))],
                       cwd=cwd, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _installed_copy(tmp_path, source_dir, with_data):
    """A wheel's layout: site/dpref/{*.py, _core*.so} (copies, no links), and with_data
    site/dpref/share/dpref/ev/base_load_taylor.csv."""
    site = tmp_path / "site"
    pkg = site / "dpref"
    pkg.mkdir(parents=True)
    for f in pathlib.Path(dpref.__file__).parent.iterdir():
        if f.is_file():
            shutil.copyfile(f.resolve(), pkg / f.name)
    if with_data:
        shutil.copytree(source_dir / "data" / "ev", pkg / "share" / "dpref" / "ev")
    return site


def test_import_leaves_the_environment_alone(source_dir, tmp_path):
    # from the build tree (the data found at build/<preset>/share/dpref, relative to _core)
    out = _run_ev(source_dir, pathlib.Path(dpref.__file__).parent.parent, tmp_path)
    assert out.get("status") == "completed", out


def test_shipped_data_found_next_to_the_installed_package(source_dir, tmp_path):
    site = _installed_copy(tmp_path, source_dir, with_data=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    out = _run_ev(source_dir, site, work)
    assert out.get("status") == "completed", out
    assert out["file"] == str(site / "dpref" / "__init__.py")
    # the same bytes as the build tree's run
    assert out["digest"] == _run_ev(source_dir, pathlib.Path(dpref.__file__).parent.parent,
                                    work)["digest"]


def test_shipped_data_missing_is_refused_naming_where_it_looked(source_dir, tmp_path):
    # negative control: the same copy without its data folder fails, naming the package's place
    site = _installed_copy(tmp_path, source_dir, with_data=False)
    out = _run_ev(source_dir, site, tmp_path)
    assert "error" in out, out
    assert out["error"].startswith("shipped data file 'ev/base_load_taylor.csv' not found "
                                   f"(looked in: {site / 'dpref' / 'share' / 'dpref'}/ev/"), out


def test_dpref_data_dir_still_overrides(source_dir, tmp_path):
    site = _installed_copy(tmp_path, source_dir, with_data=True)
    default = _run_ev(source_dir, site, tmp_path)
    # a user's folder with another base load (every value x 1.5) wins over the package's
    override = tmp_path / "override"
    (override / "ev").mkdir(parents=True)
    lines = (source_dir / "data" / "ev" / "base_load_taylor.csv").read_text().splitlines()
    scaled = [ln if ln.startswith("#") or not ln[:1].isdigit()
              else f"{ln.split(',')[0]},{float(ln.split(',')[1]) * 1.5!r}" for ln in lines]
    (override / "ev" / "base_load_taylor.csv").write_text("\n".join(scaled) + "\n")
    other = _run_ev(source_dir, site, tmp_path, data_dir=override)
    assert other.get("status") == "completed", other
    assert other["digest"] != default["digest"]
    # and it serves a copy that has no data of its own
    bare = _installed_copy(tmp_path / "bare", source_dir, with_data=False)
    assert _run_ev(source_dir, bare, tmp_path, data_dir=source_dir / "data")["digest"] == \
        default["digest"]

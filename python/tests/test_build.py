"""PY.BUILD: the package imports from the build tree, its version is the library's, the type
stubs and docstrings are in place."""
import pathlib
import re

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

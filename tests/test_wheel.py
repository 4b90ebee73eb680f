"""The wheel carries the whole package (issue 33).

``pip wheel . --no-deps`` (as a user runs it, build isolation included) from a copy of the repository,
installed with ``pip install --no-deps --target``; then, in a fresh interpreter that sees only that target
and the test environment's site-packages (numpy, scipy, pandas, plotly: never the repository), every
subpackage that ``pkgutil.walk_packages`` finds in the source tree imports, ``rocci.__version__`` is the
project's version and ``rocci`` comes from the target.  rocci reads no data file at run time (no
``__file__``-relative path, no ``importlib.resources``); the test checks that the source tree holds none to
ship.  Without PyPI (the build backend, setuptools, is fetched) the test skips, except under
``ROCCI_REQUIRE_BROWSER=1`` (scripts/test.sh's full tier), where it fails.
"""

from __future__ import annotations

import json
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
REQUIRE = os.environ.get("ROCCI_REQUIRE_BROWSER", "") not in ("", "0")
_OFFLINE = ("Could not find a version", "No matching distribution", "Failed to establish a new connection",
            "Temporary failure in name resolution", "Network is unreachable", "Max retries exceeded")


def _subpackages() -> list[str]:
    found = pkgutil.walk_packages([str(ROOT / "rocci")], prefix="rocci.", onerror=lambda name: None)
    return ["rocci"] + sorted(m.name for m in found if m.ispkg)


def _version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # a copy: an in-tree build's build/ and *.egg-info stay out of the checkout
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "site", "build", "dist", "*.egg-info", "__pycache__", ".cache", "test-artifacts",
        ".hypothesis", ".pytest_cache"), symlinks=True)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-w", str(tmp / "dist")],
                          cwd=src, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        log = proc.stdout + proc.stderr
        if any(word in log for word in _OFFLINE) and not REQUIRE:
            pytest.skip("pip wheel needs its build backend (setuptools) from PyPI, which is not reachable")
        pytest.fail(f"pip wheel . --no-deps failed:\n{log[-4000:]}", pytrace=False)
    wheels = list((tmp / "dist").glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_holds_every_subpackage_and_nothing_else(wheel):
    assert wheel.name.startswith(f"rocci_exact-{_version()}-"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    for package in _subpackages():
        assert f"{package.replace('.', '/')}/__init__.py" in names, f"{package} is not in the wheel"
    sources = {str(p.relative_to(ROOT)) for p in (ROOT / "rocci").rglob("*.py")}
    assert sources <= set(names), sorted(sources - set(names))
    tops = {n.split("/")[0] for n in names}
    assert tops == {"rocci", f"rocci_exact-{_version()}.dist-info"}, tops  # no tests/, ui/, app_pages/
    # rocci ships no data files: every file of the package is Python source
    data = [p for p in (ROOT / "rocci").rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and p.suffix != ".py"]
    assert not data, f"files in rocci/ that the wheel must carry (package data): {data}"
    # the console script `rocci` (docs/cli.md) is declared in the wheel's metadata
    entry = zipfile.ZipFile(wheel).read(f"rocci_exact-{_version()}.dist-info/entry_points.txt").decode()
    assert "[console_scripts]" in entry and "rocci = rocci.cli:main" in entry, entry


def test_installed_wheel_imports_every_subpackage_without_the_repository(wheel, tmp_path):
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target",
                           str(target), str(wheel)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    packages = _subpackages()
    code = (
        "import importlib, json, sys\n"
        "import rocci\n"
        f"mods = [importlib.import_module(name) for name in {packages!r}]\n"
        "print(json.dumps({'version': rocci.__version__, 'file': rocci.__file__,\n"
        "                  'files': [m.__file__ for m in mods], 'path': sys.path}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONPATH"] = os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]])
    # -S: no site-packages of the interpreter's own but those on PYTHONPATH (no .pth, so no editable install
    # of the checkout); -P: the working directory is not put on sys.path; it is tmp_path anyway.
    run = subprocess.run([sys.executable, "-S", "-P", "-c", code], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    # the installed console script runs the command line (exit 2 and one line for a missing file)
    script = target / "bin" / "rocci"
    assert script.exists(), sorted(p.name for p in target.iterdir())
    cli = subprocess.run([sys.executable, "-S", "-P", str(script), "compare", "missing.csv", "--label", "y",
                          "--a", "a", "--b", "b"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 2 and cli.stderr.startswith("rocci: error:"), cli.stdout + cli.stderr
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["version"] == _version()
    assert Path(out["file"]).resolve().is_relative_to(target.resolve()), out["file"]
    for path in out["files"]:
        assert Path(path).resolve().is_relative_to(target.resolve()), path
    assert not any(Path(p).resolve() == ROOT for p in out["path"] if p), "the repository is on sys.path"
    assert len(out["files"]) == len(packages) >= 12
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", out["version"])

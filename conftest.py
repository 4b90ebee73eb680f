"""The test tiers (issue 30): the markers, registered here for every test path (``tests`` and the ``rocci``
doctests), and applied by folder so that a new file there is marked without a decorator.

* ``bash scripts/test.sh --quick`` runs what none of these marks: the core, the enumeration oracles, the
  doctests and the figures, in a few minutes;
* ``bash scripts/test.sh`` (and CI) runs everything;
* ``bash scripts/test.sh -m browser`` (``apptest``, ``spark``, ``slow``, ``montecarlo``) runs one tier.

``browser``, ``apptest`` and ``spark`` follow from where a test lives (:func:`pytest_collection_modifyitems`);
``slow`` and ``montecarlo`` are put on the tests themselves (a decorator, or ``pytestmark`` when a whole
module is slow).
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent / "tests"

#: marker -> what it covers (``pytest --markers`` shows these lines)
MARKERS = {
    "slow": "takes more than ~3 s on the 2-core machine; left out of the quick tier",
    "browser": "real-browser test (Playwright + Debian's Chromium, starts the app): everything under tests/browser",
    "apptest": "Streamlit AppTest of the dashboard's pages: everything under tests/app",
    "spark": "runs PySpark in local mode (needs Java 17+): tests/data/test_spark.py and tests using the spark fixture",
    "montecarlo": "seeded Monte Carlo check of an exact law with many replicates",
}


def pytest_configure(config):
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")


def _under(path: Path, folder: Path) -> bool:
    return folder == path or folder in path.parents


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(str(item.path)).resolve()
        if _under(path, TESTS / "browser"):
            item.add_marker(pytest.mark.browser)
        if _under(path, TESTS / "app"):
            item.add_marker(pytest.mark.apptest)
        if "spark" in path.name or "spark" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.spark)

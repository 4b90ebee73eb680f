"""AppTest fixtures: a fresh app session on the Data page or on the ROC page."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from apphelpers import new_app  # noqa: E402


@pytest.fixture
def data_app() -> AppTest:
    at = new_app()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture
def roc_app() -> AppTest:
    at = new_app("app_pages/roc.py")
    assert not at.exception, [e.value for e in at.exception]
    return at

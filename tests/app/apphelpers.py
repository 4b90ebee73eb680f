"""Helpers for the AppTest tests of the dashboard (no browser).

A module with its own name (not conftest) so test modules can import it
without clashing with tests/browser/conftest.py.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]

APP = str(ROOT / "app.py")
TIMEOUT = 120


def serve(root: Path, monkeypatch, files: dict) -> Path:
    """Make ``root`` the dashboard's data directory (ROCCI_DATA_DIR, no scans cached) holding ``files``
    ({relative path: DataFrame}, written as Parquet or CSV by the extension)."""
    from ui.cache import large

    for name, frame in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".csv"):
            frame.to_csv(path, index=False)
        else:
            frame.to_parquet(path, index=False)
    monkeypatch.setenv(large.ENV, str(root))
    large.SCANS.clear()
    return root


def new_app(page: str | None = None, query: dict | None = None) -> AppTest:
    """A fresh app session, run once (on ``page`` if given)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if page:
        at.switch_page(page)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    return at


def upload(at: AppTest, name: str, data: bytes, mime: str = "text/csv") -> AppTest:
    """Upload ``data`` as the file ``name`` on the Data page of ``at`` (as a person does: choose *Upload*,
    drop the file)."""
    at.segmented_control(key="source").set_value("upload").run()
    at.file_uploader(key="upload").set_value((name, data, mime)).run()
    return at


def uploaded_app(data, page: str | None = None, *, name: str = "data.csv") -> AppTest:
    """A fresh session with ``data`` (a DataFrame, written as CSV; a file's Path; or bytes) uploaded on the
    Data page, then ``page`` opened if given."""
    if isinstance(data, Path):
        name, data = data.name, data.read_bytes()
    elif not isinstance(data, bytes):
        data = data.to_csv(index=False).encode()
    at = upload(new_app("app_pages/data.py"), name, data)
    if page:
        at.switch_page(page).run()
    return at


def decode(value):
    """Plotly 6+ stores arrays as {"dtype", "bdata"}; return a numpy array (or the value)."""
    if isinstance(value, dict) and "bdata" in value:
        raw = base64.b64decode(value["bdata"])
        arr = np.frombuffer(raw, dtype=np.dtype(value["dtype"]))
        if "shape" in value:
            shape = [int(s) for s in str(value["shape"]).split(",")]
            arr = arr.reshape(shape)
        return arr
    return value


def figure(at: AppTest, key: str) -> dict:
    """The plotly figure JSON of the chart with widget key ``key``."""
    charts = at.get("plotly_chart")
    for el in charts:
        if el.proto.id.endswith("-" + key):
            return json.loads(el.proto.spec)
    raise AssertionError(f"no chart with key {key!r} among {[el.proto.id for el in charts]}")


def traces(spec: dict, kind: str) -> list[dict]:
    """Traces whose meta[0] is ``kind`` ("roc", "threshold-region", ...)."""
    return [t for t in spec["data"] if isinstance(t.get("meta"), list) and t["meta"] and t["meta"][0] == kind]


def assert_clean(at: AppTest) -> None:
    """No uncaught exception and no error box."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


# Fixtures (imported by the test modules: tests/app has no conftest.py, so its
# helpers cannot clash with another directory's conftest module).


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

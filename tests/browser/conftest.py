"""Real-browser tests: the app served by `streamlit run`, driven by Playwright in Debian's Chromium.

Chromium is Debian's /usr/bin/chromium (never `playwright install`).  Run with
``pytest tests/browser`` (or ``-m browser`` to select them anywhere: the root conftest.py marks every
test here).  The tests are skipped when Chromium or Playwright is missing, unless
``ROCCI_REQUIRE_BROWSER=1`` (set by scripts/test.sh): then they fail.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("ROCCI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 2200}
REQUIRE = os.environ.get("ROCCI_REQUIRE_BROWSER", "") not in ("", "0")


def skip_or_fail(reason: str):
    """Skip -- or fail, when the browser tests are required to run."""
    if REQUIRE:
        pytest.fail(f"{reason} (ROCCI_REQUIRE_BROWSER is set)", pytrace=False)
    pytest.skip(reason)
TIMEOUT_MS = 60_000


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(log_name: str = "streamlit-server.log", env: dict | None = None):
    """A dashboard server on a free loopback port: yields ``(process, url)``; stopped (by its PID) after.

    ``env``: environment variables added for the server (e.g. ``ROCCI_DATA_DIR``)."""
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / log_name, "wb")
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "streamlit", "run", "app.py",
            "--server.headless=true",
            "--server.address=127.0.0.1",
            f"--server.port={port}",
            "--browser.gatherUsageStats=false",
            "--server.fileWatcherType=none",
            "--global.developmentMode=false",
        ],
        cwd=ROOT,
        env=None if env is None else {**os.environ, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {proc.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not become healthy in 60 s; see {log.name}")
            time.sleep(0.3)
        yield proc, url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # the server's own process group (start_new_session)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        log.close()


@pytest.fixture(scope="session")
def app_url():
    """Start the dashboard on a free loopback port; stop it (by its PID) at teardown."""
    with running_server() as (_, url):
        yield url


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright import sync_api
    except ImportError:
        skip_or_fail("playwright is not installed")
    if not Path(CHROMIUM).exists() and shutil.which(CHROMIUM) is None:
        skip_or_fail(f"Chromium not found at {CHROMIUM}")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, app_url):
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture
def large_page(browser, served):
    """A 1400-px page for the Large-data tests; ``served`` (the data directory and its server) is each module's own."""
    context = browser.new_context(viewport={"width": 1400, "height": 2200}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(120_000)
    try:
        yield pg
    finally:
        context.close()


def wait_for_app(page, *, settle_ms: int = 300) -> None:
    """Wait until the current rerun has finished (what Streamlit's own e2e suite does)."""
    page.wait_for_timeout(settle_ms)  # let a rerun that was just triggered start
    page.wait_for_selector("[data-testid='stAppViewContainer']")
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']")
    page.wait_for_function("() => document.querySelectorAll(\"[data-testid='stSkeleton']\").length === 0")


@pytest.fixture
def wait():
    return wait_for_app


@pytest.fixture
def shot():
    """Save a screenshot into test-artifacts/ (gitignored); returns its path."""

    def _shot(page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path))
        return path

    return _shot

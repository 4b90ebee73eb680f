"""A session whose browser has gone stops working (issue 18: one visitor cannot keep a core busy).

Streamlit asks a session's script to stop as soon as its browser disconnects; the script stops at
its next Streamlit call.  Every long computation of the dashboard reports progress to a bar (a
Streamlit call) as it goes, so it stops within one step.  This test starts a long Coverage-lab
simulation on a server of its own, closes the browser, and watches the server's CPU time fall to
idle.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from .conftest import TIMEOUT_MS, VIEWPORT, running_server, wait_for_app

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - conftest skips or fails first
    expect = None


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_share(pid: int, seconds: float = 2.0) -> float:
    """Cores used by the process over the next ``seconds``."""
    start = cpu_seconds(pid)
    time.sleep(seconds)
    return (cpu_seconds(pid) - start) / seconds


@pytest.fixture(scope="module")
def own_server():
    with running_server("streamlit-server-session-gone.log") as (proc, url):
        yield proc, url


def test_a_long_simulation_stops_when_the_browser_leaves(browser, own_server):
    proc, url = own_server
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    # fig. 4.9 (exact paired vertical laws) with 400 test sets per configuration: minutes of work.
    page.goto(url + "/coverage?cov_exp=fig4.9&fig4.9_reps=400")
    wait_for_app(page)
    page.get_by_role("button", name="Run simulation").click()
    expect(page.get_by_text("simulated test sets").first).to_be_visible(timeout=TIMEOUT_MS)
    working = cpu_share(proc.pid)
    assert working > 0.05, f"the simulation should keep the server busy; it used {working:.2f} cores"

    context.close()  # the visitor leaves: the websocket closes
    left = time.monotonic()
    shares = []
    while True:
        shares.append(cpu_share(proc.pid, 2.0))
        if shares[-1] < 0.03:
            break
        assert time.monotonic() - left < 30, (
            f"the server still works for a session that has gone: cores used per 2 s since it left: {shares}")
    assert proc.poll() is None, "the server must survive the visitor leaving"

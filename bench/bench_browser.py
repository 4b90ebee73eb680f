"""Large data in the browser: time from upload to chart and from a control change to redraw.

Starts the dashboard (``streamlit run app.py``) on a free loopback port, drives
Debian's Chromium with Playwright, uploads a CSV of N rows with two models
(default 10⁶) and prints wall-clock times a person would feel:

* upload → the Data page's summary is drawn;
* Data → ROC page: first chart;
* ROC page: a control change (confidence level) → redraw;
* each further page (Cost curves, Compare models, Threshold explorer,
  Folds & classes, when registered): first chart; on Compare models, also the
  time to the verdict panel (ΔAUC, ΔTPR at 10% FPR, cost difference).

Times include Streamlit's rerun and the browser's drawing; they are single
runs on a shared machine, so read them as orders of magnitude.

With ``--models K`` (K > 2) the file holds K models and only the Compare page is timed: upload → the
leaderboard of every model (AUC, TPR at 10% FPR, cost, P(best), DeLong's χ² test; issue 32's target:
6 models × 10⁵ rows under 5 s).

Usage: ``python bench/bench_browser.py [--rows N] [--models K]`` (e.g. ``--rows 10000`` and ``--rows 1000000``);
``--quick``: 2,000 rows, the Data and ROC pages only (a smoke run); ``--json PATH``: every printed time also as a record
(``bench/_record.py``; one run per step, so ``repeats`` is 1).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _record import Record  # noqa: E402
CHROMIUM = os.environ.get("ROCCI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, log):
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false",
         "--server.fileWatcherType=none", "--global.developmentMode=false"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read().decode().strip() == "ok":
                    return proc
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("the server did not start")


def settle(page, heading: str | None = None) -> None:
    """Wait until the rerun a click started has finished and nothing stale is left on screen.

    Streamlit keeps the previous page's elements visible (marked stale) while a
    rerun runs, so "a chart is visible" alone can be the old page's chart: wait
    for the new page's heading, for the script to stop, and for no stale
    element and no skeleton to remain.
    """
    page.wait_for_timeout(100)
    if heading is not None:
        page.get_by_role("heading", name=heading).first.wait_for(timeout=600_000)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=600_000)
    page.wait_for_function(
        "() => document.querySelectorAll(\"[data-testid='stSkeleton'], [data-stale='true']\").length === 0",
        timeout=600_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="2,000 rows, Data and ROC pages only (smoke run)")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the times as a JSON record")
    parser.add_argument("--models", type=int, default=2, help="models in the file (more than 2: the Compare page's "
                        "leaderboard only)")
    args = parser.parse_args()
    rec = Record("bench_browser", argv=sys.argv[1:])
    pages = ("Cost curves", "Compare models", "Threshold explorer", "Folds & classes")
    if args.quick:
        args.rows, pages = 2000, ()
    from playwright.sync_api import expect, sync_playwright

    rng = np.random.default_rng(1)
    n = args.rows
    k = max(2, args.models)
    y = rng.integers(0, 2, n)
    corr = np.full((k, k), 0.6) + 0.4 * np.eye(k)
    z = rng.multivariate_normal(np.zeros(k), corr, n)
    models = z + np.linspace(1.0, 0.5, k)[None, :] * y[:, None]
    tmp = Path(tempfile.mkdtemp())
    path = tmp / ("big_two_models.csv" if k == 2 else f"big_{k}_models.csv")
    names = ["model_a", "model_b"] if k == 2 else [f"model_{i + 1}" for i in range(k)]
    with open(path, "w") as f:
        f.write("label," + ",".join(names) + "\n")
        np.savetxt(f, np.c_[y, models], fmt=["%d"] + ["%.6f"] * k, delimiter=",")
    size = path.stat().st_size
    print(f"{n:,} rows, {k} models: {size / 1e6:.1f} MB")
    if k > 2:
        pages = ()

    def record(key, seconds, **ctx):
        rec.add("browser/" + key, seconds, "s", n=n, file_bytes=size, repeats=1, **ctx)

    port = free_port()
    with open(tmp / "server.log", "wb") as log:
        proc = start_server(port, log)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_context(viewport={"width": 1400, "height": 2000}).new_page()
                page.set_default_timeout(600_000)
                page.goto(f"http://127.0.0.1:{port}")
                settle(page)
                page.get_by_test_id("stButtonGroup").get_by_role("radio", name="Upload a file").first.click()
                settle(page)
                t = time.perf_counter()
                page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(path))
                settle(page)
                # the summary of the uploaded file (not the sample's) is on screen
                page.get_by_test_id("stMetric").filter(has_text="Rows used").filter(has_text=f"{n:,}").first.wait_for(
                    timeout=600_000)
                print(f"upload -> data summary: {time.perf_counter() - t:6.1f} s")
                record("upload_to_summary", time.perf_counter() - t)

                nav = page.get_by_test_id("stSidebarNavLink")
                if k > 2:
                    t = time.perf_counter()
                    nav.filter(has_text="Compare models").click()
                    page.get_by_text("Highest AUC:").first.wait_for(timeout=600_000)
                    elapsed = time.perf_counter() - t
                    print(f"Compare models, leaderboard of {k} models: {elapsed:6.1f} s")
                    record("compare_models/leaderboard", elapsed, models=k)
                    settle(page, "Compare models")
                    elapsed = time.perf_counter() - t
                    print(f"Compare models, page settled (leaderboard and the first pair's verdict): {elapsed:6.1f} s")
                    record("compare_models/leaderboard_and_verdict", elapsed, models=k)
                    browser.close()
                    rec.save(args.json)
                    return
                t = time.perf_counter()
                nav.filter(has_text="ROC curve").click()
                settle(page, "ROC curve")
                expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()
                print(f"ROC page, first chart:  {time.perf_counter() - t:6.1f} s")
                record("roc/first_chart", time.perf_counter() - t)
                slider = page.get_by_test_id("stSlider").first.get_by_role("slider")
                t = time.perf_counter()
                slider.focus()
                slider.press("ArrowLeft")
                settle(page)
                print(f"ROC page, control change -> redraw: {time.perf_counter() - t:6.1f} s")
                record("roc/control_change", time.perf_counter() - t)
                # The floor: a rerun with nothing new to compute (the sidebar's image format switch).
                t = time.perf_counter()
                page.get_by_test_id("stSidebar").get_by_text("SVG", exact=True).click()
                settle(page)
                print(f"ROC page, rerun with nothing to compute: {time.perf_counter() - t:6.1f} s")
                record("roc/rerun_floor", time.perf_counter() - t)
                for title in pages:
                    link = nav.filter(has_text=title)
                    if link.count() == 0:
                        continue
                    t = time.perf_counter()
                    link.click()
                    if title == "Compare models":
                        # The verdict panel: its headline is written once the AUC, ΔTPR-at-10%-FPR and cost
                        # cards are done (or the ΔTPR card offers its button, beyond VERDICT_AUTO_NEG negatives).
                        page.get_by_text("At the 95% level:").first.wait_for(timeout=600_000)
                        waited = page.locator(".st-key-verdict_tpr").get_by_role(
                            "button", name="Compute ΔTPR").count() > 0
                        elapsed = time.perf_counter() - t
                        print(f"Compare models, verdict: {elapsed:6.1f} s"
                              + (" (ΔTPR card waits for its button at this size)" if waited else
                                 " (AUC, ΔTPR at 10% FPR and cost, all computed)"))
                        record("compare_models/verdict", elapsed, delta_tpr_waits_for_button=bool(waited))
                    settle(page, title)
                    first = page.get_by_test_id("stPlotlyChart").first
                    drawn = first.count() > 0
                    elapsed = time.perf_counter() - t
                    print(f"{title}, first chart: {elapsed:6.1f} s"
                          + ("" if drawn else " (no chart on this page for these data)"))
                    exception = page.get_by_test_id("stException").count() > 0
                    if exception:
                        print(f"  !! exception on {title}")
                    slug = title.lower().replace(" & ", "_").replace(" ", "_")
                    record(f"{slug}/first_chart", elapsed, chart_drawn=bool(drawn), exception=exception)
                browser.close()
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
    rec.save(args.json)


if __name__ == "__main__":
    main()

"""Make the screenshots of the README and the documentation site (docs/screenshot_*.png) from a running dashboard.

Starts ``streamlit run app.py`` on a free loopback port, drives Debian's Chromium with Playwright,
uploads a generated fraud-like file (5,000 rows, 16% positives, labels 'fraud'/'ok', three models;
written with a fixed seed) and saves what a person sees on each page, at 1400 px wide, plus the
Compare page on a 390 px phone; the Folds & classes page is shown on the bundled cross-validation sample.

Usage: ``.venv/bin/python scripts/screenshots.py [--out docs] [--only screenshot_data.png,...]``.
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
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("ROCCI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

#: (file name, sidebar title, query string, viewport height, width); the fraud file is uploaded first, except
#: for the pages in ON_SAMPLE, shown on the bundled sample the dashboard opens with (breast_cancer_cv.csv:
#: two models and a fold column)
SHOTS = [
    ("screenshot_data.png", "Data", "", 1300, 1400),
    ("screenshot_compare.png", "Compare models", "", 1500, 1400),
    ("screenshot_roc.png", "ROC curve", "", 1250, 1400),
    ("screenshot_precision.png", "Precision–recall", "", 1300, 1400),
    ("screenshot_cost.png", "Cost curves", "", 1350, 1400),
    ("screenshot_decision.png", "Decision curve", "", 1400, 1400),
    ("screenshot_explorer.png", "Threshold explorer", "", 1100, 1400),
    ("screenshot_clinical.png", "Threshold explorer", "", 1000, 1400),
    ("screenshot_learn.png", "Learn", "", 1400, 1400),
    ("screenshot_coverage.png", "Coverage lab", "", 1200, 1400),
    ("screenshot_compare_phone.png", "Compare models", "", 1500, 390),
    ("screenshot_folds.png", "Folds & classes", "", 1300, 1400),
]
ON_SAMPLE = {"screenshot_folds.png"}
#: shots scrolled to a text of the page first (the clinical panel sits below the explorer's first screen)
SCROLL_TO = {"screenshot_clinical.png": "Clinical accuracy panel"}


def fraud_frame(n: int = 5000, share: float = 0.16, seed: int = 7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    base = rng.normal(size=n)
    frame = pd.DataFrame({"transaction": np.arange(n) + 100_000, "outcome": np.where(y, "fraud", "ok")})
    for name, sep in (("gbm", 1.6), ("logit", 1.2), ("rules", 0.8)):
        z = sep * y + 0.6 * base + rng.normal(size=n)
        frame[name] = np.round(1 / (1 + np.exp(-(z - 1.5))), 4)
    return frame


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def settle(page) -> None:
    page.wait_for_timeout(400)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=300_000)
    page.wait_for_function(
        "() => document.querySelectorAll(\"[data-testid='stSkeleton'], [data-stale='true']\").length === 0",
        timeout=300_000)
    page.wait_for_timeout(800)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs"))
    parser.add_argument("--only", default="", help="comma-separated file names of SHOTS (default: all)")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    unknown = only - {shot[0] for shot in SHOTS}
    if unknown:
        raise SystemExit(f"unknown screenshot(s): {', '.join(sorted(unknown))}")
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    data = tmp / "fraud_scores.csv"
    fraud_frame().to_csv(data, index=False)
    port = free_port()
    with open(tmp / "server.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
             "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false",
             "--server.fileWatcherType=none", "--global.developmentMode=false"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            for _ in range(200):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                        if r.read().decode().strip() == "ok":
                            break
                except OSError:
                    time.sleep(0.3)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for name, title, query, height, width in SHOTS:
                    if only and name not in only:
                        continue
                    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
                    page.set_default_timeout(300_000)
                    page.goto(f"http://127.0.0.1:{port}/")
                    settle(page)
                    if name not in ON_SAMPLE:
                        page.get_by_test_id("stButtonGroup").get_by_role("radio", name="Upload a file").first.click()
                        settle(page)
                        page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(data))
                        settle(page)
                    link = page.get_by_test_id("stSidebarNavLink").filter(has_text=title).first
                    link.evaluate("e => e.click()")
                    settle(page)
                    if page.get_by_test_id("stException").count():
                        raise SystemExit(f"an exception is shown on {title}")
                    if name in SCROLL_TO:
                        page.get_by_text(SCROLL_TO[name], exact=True).first.evaluate(
                            "e => { e.scrollIntoView({block: 'start'}); let p = e.parentElement;"
                            " while (p && !(p.scrollHeight > p.clientHeight && /(auto|scroll)/.test(getComputedStyle(p).overflowY)))"
                            " p = p.parentElement;"
                            " if (p) p.scrollTop -= 140; }")  # the heading clear of the page's top bar
                        page.wait_for_timeout(800)
                    page.screenshot(path=str(out / name))
                    print(f"{name}: {title} at {width} px")
                    page.context.close()
                browser.close()
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)


if __name__ == "__main__":
    main()

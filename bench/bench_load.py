"""Load test of the dashboard (issue 18): does one server hold a team's uploads?

Starts ``streamlit run app.py`` on a free 127.0.0.1 port (loopback only),
drives it with Playwright in Debian's Chromium (``/usr/bin/chromium``) and
prints, phase by phase, the time to the first chart, the errors seen and the
server's resident memory (RSS) over time:

1. ``concurrent``: 8 browser sessions at once, each uploading its own
   10⁵-row CSV, then opening the ROC page (time to first chart);
2. ``large``: 20 different ≈ 90 MB CSVs (1.5·10⁶ rows, three models), one
   session after another: upload, ROC chart, close the session; RSS after each;
3. ``wide``: a 10,000-column CSV (tests/bad_files/corpus.py ``wide_csv``);
4. ``bombs``: two Parquet decompression bombs (2·10⁸ rows; a dictionary
   string bomb), which must give an error message, fast;
5. ``idle``: every session closed; RSS until Streamlit drops the disconnected
   sessions (``server.disconnectedSessionTTL``, 120 s), then after one short
   visit (Streamlit reaps expired sessions only when another one disconnects).

Bounded: at most 8 browser sessions at once (≤ 10), loopback only, every wait
has a timeout and the whole run stops by itself after ``--deadline`` seconds
(default 45 min).  The test files are generated in a temporary directory.

Usage::

    .venv/bin/python bench/bench_load.py                       # everything (~15 min)
    .venv/bin/python bench/bench_load.py --phases large,idle --uploads 5
    .venv/bin/python bench/bench_load.py --quick     # 1 session of 2,000 rows, 1 upload of 5,000 (smoke run)

``--json PATH`` also writes every printed figure as a record (``bench/_record.py``): times in
seconds, RSS in MB, errors, with the load average of each.

Needs playwright (requirements-dev.txt) and Debian's chromium; psutil is used
for RSS when installed, else /proc/PID/status.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _record import Record  # noqa: E402
from tests.bad_files import corpus  # noqa: E402  (the generators of the large files)

#: the record of this run (``--json``): every printed figure
REC = Record("bench_load", argv=sys.argv[1:])


def fmt_rows(rows: int) -> str:
    return {100_000: "10^5", 1_500_000: "1.5*10^6"}.get(rows, f"{rows:,}")


def record_session(phase: str, r: dict, **ctx) -> None:
    """One session's printed figures (time to the Data page, to the first chart, errors)."""
    for k in ("data_page_s", "first_chart_s"):
        REC.add(f"{phase}/{k[:-2]}", r.get(k), "s", file=r["file"], errors=list(r["errors"]), **ctx)

CHROMIUM = os.environ.get("ROCCI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
MAX_SESSIONS = 8  # never more than 10 at once
STEP_TIMEOUT_MS = 300_000


# --- the server and its memory -------------------------------------------------


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB (psutil if installed, else /proc)."""
    try:
        import psutil

        return psutil.Process(pid).memory_info().rss / 1024**2
    except ImportError:
        pass
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Sampler(threading.Thread):
    """Samples the server's RSS every ``every`` seconds, labelled with the current phase."""

    def __init__(self, pid: int, every: float = 1.0):
        super().__init__(daemon=True)
        self.pid, self.every, self.phase = pid, every, "start"
        self.samples: list[tuple[float, str, float]] = []
        self.t0 = time.monotonic()
        self._halt = threading.Event()

    def run(self):
        while not self._halt.is_set():
            try:
                self.samples.append((time.monotonic() - self.t0, self.phase, rss_mb(self.pid)))
            except (OSError, ProcessLookupError):
                return
            self._halt.wait(self.every)

    def stop(self):
        self._halt.set()

    def peak(self, phase: str | None = None) -> float:
        vals = [r for _, p, r in self.samples if phase is None or p == phase]
        return max(vals) if vals else float("nan")


#: glibc settings the Dockerfile uses: arrays of 1 MB or more are mapped and unmapped on their own
#: (glibc otherwise raises that threshold up to 32 MB as arrays are freed, and freed heap memory of
#: a 1.5·10⁶-row column stays in the process), and two malloc arenas instead of 8 per core.
MALLOC_ENV = {"MALLOC_ARENA_MAX": "2", "MALLOC_MMAP_THRESHOLD_": str(1024**2)}


def start_server(log_path: Path, extra: list[str], env: dict | None = None) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false",
         "--server.fileWatcherType=none", "--global.developmentMode=false", *extra],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited ({proc.returncode}); see {log_path}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.read().decode().strip() == "ok":
                    return proc, url
        except OSError:
            time.sleep(0.3)
    stop_server(proc)
    raise RuntimeError("streamlit did not become healthy in 60 s")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)  # the server's own process group
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


# --- one browser session ---------------------------------------------------------


async def wait_app(page, settle_ms: int = 300) -> None:
    await page.wait_for_timeout(settle_ms)
    await page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=STEP_TIMEOUT_MS)
    await page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']",
                                 timeout=STEP_TIMEOUT_MS)
    await page.wait_for_function("() => document.querySelectorAll(\"[data-testid='stSkeleton']\").length === 0",
                                 timeout=STEP_TIMEOUT_MS)


async def page_errors(page) -> list[str]:
    """What a person would see as a failure: exceptions, tracebacks, error boxes (their first line)."""
    found = []
    if await page.get_by_test_id("stException").count():
        found.append("exception box")
    for box in await page.locator("[data-testid='stAlertContentError']").all():
        lines = [ln.strip() for ln in (await box.inner_text()).splitlines() if ln.strip() not in ("", "error")]
        found.append("error: " + (lines[0][:120] if lines else "?"))
    return found


async def session(browser, url: str, path: Path, *, chart: bool = True) -> dict:
    """Open the app, upload ``path``, open the ROC page; time each step."""
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1400})
    page = await ctx.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    out = {"file": path.name, "errors": []}
    try:
        await page.goto(url)
        await wait_app(page)
        await page.get_by_test_id("stButtonGroup").get_by_role("radio", name="Upload a file", exact=True).click()
        await wait_app(page)
        t0 = time.monotonic()
        await page.get_by_test_id("stFileUploader").locator("input[type='file']").set_input_files(str(path))
        # the upload has been read when the sidebar names it (or an error box says why not)
        named = page.get_by_test_id("stSidebar").filter(has_text=path.name)
        failed = page.locator("[data-testid='stAlertContentError'], [data-testid='stException']")
        await named.or_(failed).first.wait_for(state="attached")
        await wait_app(page, settle_ms=500)
        out["data_page_s"] = time.monotonic() - t0
        out["errors"] += await page_errors(page)
        if chart and not out["errors"]:
            await page.get_by_test_id("stSidebarNavLink").filter(has_text="ROC curve").click()
            await wait_app(page)
            await page.get_by_test_id("stPlotlyChart").first.wait_for(state="visible")
            out["first_chart_s"] = time.monotonic() - t0
            out["errors"] += await page_errors(page)
    except Exception as exc:  # a timeout is a finding, not a crash of the bench
        out["errors"].append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
    finally:
        await ctx.close()
    return out


def fmt(r: dict) -> str:
    parts = [f"{r['file']:<22}"]
    for k in ("data_page_s", "first_chart_s"):
        parts.append(f"{k.replace('_s', '')} {r[k]:6.1f} s" if k in r else f"{k.replace('_s', '')}      - ")
    parts.append("errors: " + ("; ".join(r["errors"]) if r["errors"] else "none"))
    return "  ".join(parts)


# --- the phases ------------------------------------------------------------------


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


async def run(args, url: str, sampler: Sampler, tmp: Path) -> None:
    from playwright.async_api import async_playwright

    phases = args.phases.split(",")
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            if "concurrent" in phases:
                n = min(args.sessions, MAX_SESSIONS)
                rows = args.concurrent_rows
                files = [write(tmp / f"rows1e5_{i}.csv", corpus.big_csv(rows=rows, seed=100 + i)) for i in range(n)]
                sampler.phase = "concurrent"
                print(f"\n## {n} concurrent sessions, {fmt_rows(rows)}-row CSVs "
                      f"({files[0].stat().st_size / 1e6:.1f} MB each)", flush=True)
                t0 = time.monotonic()
                results = await asyncio.gather(*(session(browser, url, f) for f in files))
                for r in results:
                    print("  " + fmt(r))
                    record_session("concurrent", r, n=rows, sessions=n, file_bytes=files[0].stat().st_size)
                done, peak, now = time.monotonic() - t0, sampler.peak('concurrent'), rss_mb(sampler.pid)
                print(f"  all done in {done:.1f} s; server RSS peak {peak:.0f} MB, "
                      f"now {now:.0f} MB", flush=True)
                REC.add("concurrent/all_done", done, "s", n=rows, sessions=n)
                REC.add("concurrent/rss_peak", peak, "MB", n=rows, sessions=n)
                REC.add("concurrent/rss_after", now, "MB", n=rows, sessions=n)

            if "large" in phases:
                sampler.phase = "large"
                base = corpus.big_csv(rows=args.large_rows, seed=1000)
                print(f"\n## {args.uploads} large CSVs in turn ({len(base) / 1e6:.0f} MB, {fmt_rows(args.large_rows)} "
                      "rows, 3 models), one session each", flush=True)
                for i in range(args.uploads):
                    # each file different (its own digest, so nothing is shared between them): one more row
                    f = write(tmp / f"big_{i:02d}.csv", base + f"1,{i + 1}.5,0.25,0.125\n".encode())
                    r = await session(browser, url, f)
                    f.unlink()
                    rss = rss_mb(sampler.pid)
                    print(f"  {i + 1:2d}. {fmt(r)}  RSS {rss:5.0f} MB", flush=True)
                    record_session("large", r, n=args.large_rows, upload=i + 1, file_bytes=len(base))
                    REC.add("large/rss_after", rss, "MB", n=args.large_rows, upload=i + 1)
                print(f"  server RSS peak during the large uploads: {sampler.peak('large'):.0f} MB", flush=True)
                REC.add("large/rss_peak", sampler.peak("large"), "MB", n=args.large_rows, uploads=args.uploads,
                        file_bytes=len(base))

            if "wide" in phases:
                sampler.phase = "wide"
                f = write(tmp / "wide_10000_columns.csv", corpus.wide_csv())
                print(f"\n## a 10,000-column CSV ({f.stat().st_size / 1e6:.1f} MB)", flush=True)
                r = await session(browser, url, f)
                print("  " + fmt(r), flush=True)
                print(f"  RSS peak {sampler.peak('wide'):.0f} MB", flush=True)
                record_session("wide", r, columns=10_000, file_bytes=f.stat().st_size)
                REC.add("wide/rss_peak", sampler.peak("wide"), "MB", columns=10_000)

            if "bombs" in phases:
                sampler.phase = "bombs"
                print("\n## Parquet decompression bombs (an error message is expected)", flush=True)
                for name, data in (("bomb_2e8_rows.parquet", corpus.parquet_bomb()),
                                   ("string_bomb.parquet", corpus.parquet_string_bomb())):
                    f = write(tmp / name, data)
                    r = await session(browser, url, f, chart=False)
                    print(f"  {fmt(r)}  ({len(data) / 1e6:.1f} MB file)", flush=True)
                    REC.add("bombs/data_page", r.get("data_page_s"), "s", file=r["file"], errors=list(r["errors"]),
                            file_bytes=len(data), refused=any(e.startswith("error:") for e in r["errors"]))
                print(f"  RSS peak {sampler.peak('bombs'):.0f} MB", flush=True)
                REC.add("bombs/rss_peak", sampler.peak("bombs"), "MB")

            if "idle" in phases:
                sampler.phase = "idle"
                print("\n## every session closed", flush=True)
                waited = 0
                for wait_s in sorted({5, 30, args.ttl + 15}):
                    await asyncio.sleep(max(0, wait_s - waited))
                    waited = max(waited, wait_s)
                    rss = rss_mb(sampler.pid)
                    print(f"  after {wait_s:4d} s: RSS {rss:5.0f} MB", flush=True)
                    REC.add("idle/rss", rss, "MB", after_s=wait_s, ttl=args.ttl)
                # Streamlit reaps expired disconnected sessions when another one disconnects: one short visit.
                ctx = await browser.new_context()
                page = await ctx.new_page()
                await page.goto(url)
                await wait_app(page)
                await ctx.close()
                await asyncio.sleep(5)
                rss = rss_mb(sampler.pid)
                print(f"  after one more short visit: RSS {rss:5.0f} MB", flush=True)
                REC.add("idle/rss_after_visit", rss, "MB", ttl=args.ttl)
        finally:
            await browser.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", default="concurrent,large,wide,bombs,idle")
    ap.add_argument("--sessions", type=int, default=8)
    ap.add_argument("--uploads", type=int, default=20)
    ap.add_argument("--ttl", type=int, default=None,
                    help="server.disconnectedSessionTTL for the server (s); default: .streamlit/config.toml's")
    ap.add_argument("--glibc-defaults", action="store_true",
                    help="run the server without the Dockerfile's MALLOC_* settings")
    ap.add_argument("--deadline", type=int, default=45 * 60, help="stop everything after this many seconds")
    ap.add_argument("--concurrent-rows", type=int, default=100_000, help="rows of each concurrent session's CSV")
    ap.add_argument("--large-rows", type=int, default=1_500_000, help="rows of each large CSV")
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: phases concurrent,large; 1 session of 2,000 rows, 1 upload of 5,000 rows")
    ap.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = ap.parse_args()
    if args.quick:
        args.phases, args.sessions, args.uploads = "concurrent,large", 1, 1
        args.concurrent_rows, args.large_rows = 2000, 5000

    tmp_dir = tempfile.TemporaryDirectory(prefix="rocci-load-")
    tmp = Path(tmp_dir.name)
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    configured = config.get("server", {}).get("disconnectedSessionTTL", 120)
    ttl_flags = [] if args.ttl is None else [f"--server.disconnectedSessionTTL={args.ttl}"]
    args.ttl = configured if args.ttl is None else args.ttl
    env = {} if args.glibc_defaults else MALLOC_ENV
    proc, url = start_server(tmp / "server.log", ttl_flags, env)
    sampler = Sampler(proc.pid)
    sampler.start()
    baseline = rss_mb(proc.pid)
    print(f"# rocci load test  {time.strftime('%Y-%m-%d %H:%M %Z')}  load average {os.getloadavg()}  "
          f"{os.cpu_count()} cores\n# server {url} (pid {proc.pid}), RSS at start {baseline:.0f} MB; "
          f"environment {env or 'glibc defaults'}; disconnectedSessionTTL {args.ttl} s", flush=True)

    def on_deadline(*_):
        raise TimeoutError(f"deadline of {args.deadline} s reached")

    signal.signal(signal.SIGALRM, on_deadline)
    signal.alarm(args.deadline)
    try:
        asyncio.run(run(args, url, sampler, tmp))
    finally:
        signal.alarm(0)
        end = rss_mb(proc.pid) if proc.poll() is None else float("nan")
        stop_server(proc)  # first: nothing below may leave the server running
        sampler.stop()
        sampler.join(timeout=5)
        log = (tmp / "server.log").read_text(errors="replace")
        tracebacks = log.count("Traceback")
        tmp_dir.cleanup()
    print("\n## server RSS over time (MB; one line per 30 s, with the peak of each interval)")
    rows: dict[int, tuple[str, float]] = {}
    for t, phase, r in sampler.samples:
        b = int(t // 30)
        if b not in rows or r > rows[b][1]:
            rows[b] = (phase, r)
    for b, (phase, r) in sorted(rows.items()):
        print(f"  {b * 30:5d} s  {phase:<10} {r:6.0f}")
    print(f"\n# RSS: start {baseline:.0f} MB, peak {sampler.peak():.0f} MB, end {end:.0f} MB; "
          f"tracebacks in the server log: {tracebacks}; load average at the end {os.getloadavg()}")
    REC.add("rss/timeline", None, "MB", every_s=30, peaks=[[b * 30, phase, round(r, 1)] for b, (phase, r) in
                                                          sorted(rows.items())])
    REC.add("rss/start", baseline, "MB", malloc_env=env or "glibc defaults")
    REC.add("rss/peak", sampler.peak(), "MB", malloc_env=env or "glibc defaults")
    REC.add("rss/end", end, "MB", malloc_env=env or "glibc defaults")
    REC.add("server_log/tracebacks", tracebacks, "count")
    REC.add("run/phases", None, "", phases=args.phases.split(","), sessions=args.sessions, uploads=args.uploads,
            ttl=args.ttl, concurrent_rows=args.concurrent_rows, large_rows=args.large_rows)
    REC.save(args.json)


if __name__ == "__main__":
    main()

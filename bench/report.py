#!/usr/bin/env python
"""Run the benchmarks and write the speed tables of docs/speed.md and bench/README.md from their records (issue 17).

::

    python bench/report.py run            # every bench in its own process -> bench/results/<name>.json
    python bench/report.py run --quick    # smoke run, small n (records go to a temporary directory)
    python bench/report.py run --only bench_bands,bench_precision
    python bench/report.py write          # docs/speed.md and bench/README.md from bench/results/*.json
    python bench/report.py check          # exit 1 if they differ from what ``write`` would write

The tables live between marker comments ``<!-- bench:NAME:start -->`` and
``<!-- bench:NAME:end -->``; ``write`` replaces what is between them and nothing
else.  It is deterministic (the same records give the same text) and fails, naming
the table and the missing key, when a record a table needs is absent: it never
leaves stale numbers.  Under each table: the date, git commit, machine, the load
average at the start and end of the run, the repeats behind the medians, and for
each anchor (Monte Carlo, pROC, scikit-learn, numpy.argsort, pandas, the previous
rocci code) whether it was measured in that run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
#: The site's Speed page (the tables were in README.md until issue 33 moved them to the documentation site).
SPEED = ROOT / "docs" / "speed.md"
BENCH_README = HERE / "README.md"
DASH = "—"


# ---------------------------------------------------------------------------
# The runs
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Bench:
    name: str  # the record: bench/results/<name>.json
    script: str
    full: tuple[str, ...]
    quick: tuple[str, ...] | None  # None: not part of the quick run
    timeout: int  # seconds (full run)


#: What ``run`` runs, in this order, each in its own process.  The sizes of the full run are
#: chosen so that the whole run takes about 20-25 minutes on the 2 shared cores; ``quick`` about 3.
BENCHES: tuple[Bench, ...] = (
    Bench("bench_single", "bench_single.py", (), ("--sizes", "1000", "--repeats", "1", "--resamples", "200"), 600),
    Bench("bench_hotspots", "bench_hotspots.py", ("--repeats", "5", "--skip-old"), ("--quick",), 600),
    Bench("bench_compare_cost", "bench_compare_cost.py", (),
          ("--quick", "--max-n", "1000", "--repeats", "1", "--fixed-repeats", "1", "--mc-resamples", "200"), 900),
    Bench("bench_vertical_paired", "bench_vertical_paired.py", (), ("--quick", "--repeats", "1"), 600),
    Bench("bench_bands", "bench_bands.py", (), ("--quick",), 300),
    Bench("bench_precision", "bench_precision.py", (), ("--quick", "--skip-recall"), 600),
    Bench("bench_load_table", "bench_load_table.py", ("--rows", "1e7", "--repeats", "7"), ("--quick",), 900),
    Bench("bench_browser_1e4", "bench_browser.py", ("--rows", "10000"), ("--quick",), 600),
    Bench("bench_browser_1e6", "bench_browser.py", ("--rows", "1000000"), None, 900),
    Bench("bench_browser_six", "bench_browser.py", ("--rows", "100000", "--models", "6"), None, 600),
    Bench("bench_load", "bench_load.py", ("--sessions", "4", "--uploads", "4", "--ttl", "20"), ("--quick",), 1500),
    Bench("bench_gain_depth", "bench_gain_depth.py", (), ("--quick", "--repeats", "1"), 600),
    Bench("bench_near_copy", "bench_near_copy.py", (), ("--quick", "--repeats", "1"), 900),
    Bench("bench_limits", "bench_limits.py", (), ("--quick",), 600),
    Bench("bench_many", "bench_many.py", (), ("--quick",), 300),
    Bench("bench_decision", "bench_decision.py", (), ("--quick",), 900),
    Bench("bench_engine", "bench_engine.py", (), ("--quick",), 600),
)


def run_one(bench: Bench, out_dir: Path, quick: bool, log_dir: Path) -> dict:
    """Run one bench in its own process; its record replaces ``out_dir/<name>.json`` only if it succeeds."""
    args = bench.quick if quick else bench.full
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / f".{bench.name}.json.tmp"
    cmd = [sys.executable, str(HERE / bench.script), *args, "--json", str(tmp)]
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    log = log_dir / f"{bench.name}.log"
    started, t0 = time.strftime("%Y-%m-%d %H:%M:%S"), time.monotonic()
    print(f"[{started}] {bench.name}: {' '.join(['python', 'bench/' + bench.script, *args])}  "
          f"(load {os.getloadavg()[0]:.1f}; output in {log})", flush=True)
    with open(log, "w") as fh:
        try:
            proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=fh, stderr=subprocess.STDOUT,
                                  timeout=bench.timeout if not quick else max(120, bench.timeout // 3))
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    elapsed = time.monotonic() - t0
    ok = rc == 0 and tmp.exists()
    if ok:
        json.loads(tmp.read_text())  # a valid record, or this raises
        tmp.replace(out_dir / f"{bench.name}.json")
    elif tmp.exists():
        tmp.unlink()
    print(f"    {'ok' if ok else 'FAILED (' + str(rc) + ')'} in {elapsed:.0f} s", flush=True)
    return {"bench": bench.name, "command": ["python", f"bench/{bench.script}", *args], "returncode": rc,
            "ok": ok, "started": started, "seconds": round(elapsed, 1), "log": str(log)}


def cmd_run(ns) -> int:
    only = set(ns.only.split(",")) if ns.only else None
    unknown = (only or set()) - {b.name for b in BENCHES}
    if unknown:
        print(f"unknown bench(es): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    if ns.out:
        out = Path(ns.out)
    elif ns.quick:
        out = Path(tempfile.mkdtemp(prefix="rocci-bench-quick-"))
    else:
        out = RESULTS
    log_dir = Path(tempfile.mkdtemp(prefix="rocci-bench-logs-"))
    t0 = time.monotonic()
    runs = []
    for bench in BENCHES:
        if (only and bench.name not in only) or (ns.quick and bench.quick is None):
            continue
        runs.append(run_one(bench, out, ns.quick, log_dir))
    total = time.monotonic() - t0
    if not ns.quick:
        # what ran, how long each took: a full run replaces the manifest, --only updates its benches
        path = out / "report_run.json"
        manifest = {"seconds": round(total, 1), "runs": runs}
        if only and path.exists():
            manifest = json.loads(path.read_text())
            again = {r["bench"]: r for r in runs}
            manifest["runs"] = [again.pop(r["bench"], r) for r in manifest["runs"]] + list(again.values())
            manifest.setdefault("reruns", []).extend(
                {"bench": r["bench"], "started": r["started"], "seconds": r["seconds"]} for r in runs)
        path.write_text(json.dumps(manifest, indent=1) + "\n")
    failed = [r["bench"] for r in runs if not r["ok"]]
    print(f"{'quick ' if ns.quick else ''}run: {len(runs)} benches in {total / 60:.1f} min; records in {out}"
          + (f"; FAILED: {', '.join(failed)} (logs in {log_dir})" if failed else ""), flush=True)
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------
class MissingRecord(LookupError):
    """A record or one of its figures that a table needs is not there."""


class Rec:
    """One record file (``bench/_record.py``), with lookups that fail loudly."""

    def __init__(self, name: str, data: dict, where: str | None = None):
        self.name, self.data = name, data
        self.where = where or f"bench/results/{name}.json"
        self.used: list[dict] = []

    @property
    def path(self) -> str:
        """How the tables name the record (its place in the repository)."""
        return f"bench/results/{self.name}.json"

    def all(self, key: str, **match) -> list[dict]:
        return [e for e in self.data["results"]
                if e["key"] == key and all(e.get(k) == v for k, v in match.items())]

    def entry(self, key: str, **match) -> dict:
        found = self.all(key, **match)
        if not found:
            where = ", ".join(f"{k}={v!r}" for k, v in match.items())
            raise MissingRecord(f"{self.where}: no figure with key {key!r}" + (f" and {where}" if where else ""))
        self.used.append(found[0])
        return found[0]

    def value(self, key: str, **match) -> float | None:
        return self.entry(key, **match)["value"]

    def ns(self, key: str, **match) -> list[int]:
        found = sorted({e["n"] for e in self.all(key, **match) if "n" in e})
        if not found:
            raise MissingRecord(f"{self.where}: no figure with key {key!r}")
        return found


class Records:
    def __init__(self, directory: Path, allow_quick: bool = False):
        self.directory, self.allow_quick = Path(directory), allow_quick
        self.cache: dict[str, Rec] = {}

    def __call__(self, name: str) -> Rec:
        if name not in self.cache:
            path = self.directory / f"{name}.json"
            where = _rel(path)
            if not path.exists():
                raise MissingRecord(f"{where}: no such record (run: python bench/report.py run --only {name})")
            try:
                data = json.loads(path.read_text())
            except ValueError as exc:
                raise MissingRecord(f"{where}: not a valid JSON record ({exc})") from None
            if not self.allow_quick and _is_smoke(data):
                raise MissingRecord(f"{where} is a smoke run ({' '.join(data['argv'])}); run the bench in full")
            self.cache[name] = Rec(name, data, where)
        rec = self.cache[name]
        return rec


def _rel(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _is_smoke(data: dict) -> bool:
    argv = data.get("argv", [])
    return "--quick" in argv or "--sizes" in argv or "--max-n" in argv


# ---------------------------------------------------------------------------
# Formatting (deterministic: the same record gives the same text)
# ---------------------------------------------------------------------------
SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def nan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def fn(n: float) -> str:
    """10³ for powers of ten, 1.5·10⁶ for 1.5e6, else 12,345."""
    n = float(n)
    e = int(math.floor(math.log10(n))) if n > 0 else 0
    if n > 0 and 10**e == n and e >= 3:
        return f"10{str(e).translate(SUP)}"
    if n > 0 and e >= 5 and (n / 10**e) * 10 == round((n / 10**e) * 10):
        return f"{n / 10**e:g}·10{str(e).translate(SUP)}"
    return f"{int(n):,}"


def secs(t) -> str:
    if nan(t):
        return DASH
    if t < 1e-3:
        return f"{t * 1e6:.0f} µs"
    if t < 1.0:
        return f"{t * 1e3:.1f} ms"
    return f"{t:.2f} s"


def ms(t) -> str:
    if nan(t):
        return DASH
    return f"{t * 1e3:.2f} ms" if t < 1e-3 else f"{t * 1e3:.1f} ms"


def s1(t) -> str:
    """Browser steps: seconds to one decimal."""
    return DASH if nan(t) else f"{t:.1f} s"


def ratio(x) -> str:
    if nan(x):
        return DASH
    if x >= 100:
        return f"{x:,.0f}×"
    if x >= 10:
        return f"{x:.1f}×"
    return f"{x:.2f}×"


def mb(b) -> str:
    return DASH if nan(b) else f"{b / 2**20:.1f} MB"


def load1(entries: list[dict]) -> str:
    """The 1-minute load average at the figures of one row ("3.2" or "3.2–4.1")."""
    vals = sorted({round(e["load"][0], 1) for e in entries if e.get("load") and not nan(e["load"][0])})
    if not vals:
        return DASH
    return f"{vals[0]:.1f}" if len(vals) == 1 else f"{vals[0]:.1f}–{vals[-1]:.1f}"


def cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header: list[str], rows: list[list[str]], align: str | None = None) -> str:
    align = align or ("l" + "r" * (len(header) - 1))
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if a == "l" else "---:" for a in align) + "|"]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def _when(date: str) -> str:
    return date.replace("T", " ")[:16] + " UTC"


def _repeats(entries: list[dict]) -> str:
    reps = sorted({int(e["repeats"]) for e in entries if not nan(e.get("value")) and e.get("repeats")})
    if not reps or reps == [1]:
        return "single runs (no median)"
    if len(reps) == 1:
        return f"medians of {reps[0]} repeats"
    text = f"medians of {', '.join(map(str, reps[:-1]))} or {reps[-1]} repeats"
    return text + (" (1: a single run)" if 1 in reps else "")


def source(rec: Rec, anchors: list[str] | None = None) -> str:
    """The line under a table: where the figures come from and in what conditions."""
    d = rec.data
    argv = list(d.get("argv", []))
    if "--json" in argv:
        i = argv.index("--json")
        del argv[i:i + 2]
    script = {"bench_browser_1e4": "bench_browser", "bench_browser_1e6": "bench_browser"}.get(rec.name, rec.name)
    m = d.get("machine", {})
    ls, le = d.get("load_start", [math.nan])[0], d.get("load_end", [math.nan])[0]
    text = (f"`{rec.path}`: `python bench/{script}.py{' ' + ' '.join(argv) if argv else ''}`, "
            f"{_when(d['date'])}, commit `{d['git']}`, {m.get('cores', '?')} cores "
            f"(Python {m.get('python', '?')}, numpy {m.get('numpy', '?')}), "
            f"load average {ls:.1f} at the start and {le:.1f} at the end (1 min); {_repeats(rec.used)}")
    if anchors:
        text += "; " + "; ".join(anchors)
    return text + "."


def generated(body: str, *recs: Rec, anchors: dict[str, list[str]] | None = None) -> str:
    """``body`` and, under it, the source line of each record it used."""
    anchors = anchors or {}
    if len(recs) == 1:
        src = f"_Generated by `bench/report.py` from {source(recs[0], anchors.get(recs[0].name))}_"
    else:
        src = "_Generated by `bench/report.py` from:_\n\n" + "\n".join(
            f"- {source(r, anchors.get(r.name))}" for r in recs)
    return body.rstrip() + "\n\n" + src


def measured(entries: list[dict], name: str) -> str:
    """'<name>: measured in this run' or 'not measured (why)'."""
    got = [e for e in entries if e.get("anchor_measured")]
    if got:
        return f"{name}: measured in this run"
    notes = sorted({e.get("note", "") for e in entries if e.get("note")})
    return f"{name}: not measured in this run" + (f" — {'; '.join(notes)}" if notes else "")


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------
SINGLE_CALLS = [
    ("threshold_ci/wilson/every", "threshold_ci all t, wilson"),
    ("threshold_ci/percentile/99", "threshold_ci 99 t, percentile"),
    ("threshold_ci/percentile/every", "threshold_ci all t, percentile"),
    ("vertical_ci/percentile/99", "vertical_ci 99, percentile"),
    ("vertical_ci/wald/99", "vertical_ci 99, wald"),
]


def _single_anchor_notes(r: Rec) -> list[str]:
    mc = r.all("montecarlo/threshold_ci/percentile/99") + r.all("montecarlo/vertical_ci/percentile/99")
    proc = r.all("pROC/ci.thresholds") + r.all("pROC/ci.se")
    skl = r.all("sklearn/roc_curve")
    return ["numpy.argsort: measured in this run", measured(mc, "Monte Carlo"), measured(proc, "pROC (Rscript)"),
            measured(skl, "scikit-learn")]


def _x_argsort(e: dict) -> str:
    return DASH if nan(e["value"]) else f"{secs(e['value'])} = {ratio(e['ratio_argsort'])}"


def t_speed_single(R: Records) -> str:
    r = R("bench_single")
    rows = []
    for n in r.ns("argsort"):
        base = r.entry("argsort", n=n)
        wil = r.entry("threshold_ci/wilson/every", n=n)
        thr = r.entry("threshold_ci/percentile/99", n=n)
        vert = r.entry("vertical_ci/percentile/99", n=n)
        mct = r.entry("montecarlo/threshold_ci/percentile/99", n=n)
        mcv = r.entry("montecarlo/vertical_ci/percentile/99", n=n)
        rows.append([fn(n), secs(base["value"]), _x_argsort(wil), _x_argsort(thr),
                     ratio(mct.get("speedup")), _x_argsort(vert), ratio(mcv.get("speedup")),
                     load1([base, wil, thr, vert])])
    body = table(["n", "argsort", "`threshold_ci`, every threshold, Wilson (× argsort)",
                  "`threshold_ci`, 99 thresholds, percentile", "Monte Carlo time ÷ this",
                  "`vertical_ci`, 99 FPR levels, percentile", "Monte Carlo time ÷ this", "load"], rows)
    notes = []
    gaps = [e.get("max_gap_sd") for k in ("threshold_ci/percentile/99", "vertical_ci/percentile/99")
            for e in r.all(f"montecarlo/{k}") if not nan(e.get("value"))]
    if gaps:
        mcs = [e for e in r.all("montecarlo/threshold_ci/percentile/99") if not nan(e["value"])]
        notes.append(f"The Monte Carlo bootstrap (B = {mcs[0]['resamples']:,}, vectorised, same run, n ≤ "
                     f"{fn(max(e['n'] for e in mcs))}) "
                     f"gives bounds {min(gaps):.2f}–{max(gaps):.2f} exact standard deviations away from the exact "
                     "ones at most, which is its own noise; the exact bounds have none.")
    proc = [r.entry("pROC/ci.thresholds"), r.entry("pROC/ci.se")]
    if all(e.get("anchor_measured") for e in proc):
        lines = [f"- `{e['call'].split(' (')[0].replace('pROC::', '')}` ({e['call'].split(' (', 1)[1]}: "
                 f"{secs(e['value'])}, against {secs(e['compared_value'])} here ({ratio(e['speedup'])})."
                 for e in proc]
        notes.append(f"R's pROC on the same n = {fn(proc[0]['n'])} data, measured in the same run by Rscript "
                     f"(load {proc[0]['load'][0]:.1f}):\n" + "\n".join(lines))
    else:
        notes.append("R's pROC: not measured in this run (" + proc[0].get("note", "?") + "); no comparison.")
    big = max(r.ns("argsort"))
    skl = [r.entry("sklearn/roc_curve", n=big), r.entry("sklearn/roc_auc_score", n=big)]
    if all(e.get("anchor_measured") for e in skl):
        ours = [r.entry("roc_curve", n=big), r.entry("roc_auc", n=big)]
        notes.append(f"scikit-learn {skl[0].get('version', '')} in the same run at n = {fn(big)} (curves and AUC, "
                     f"no intervals): `roc_curve` {secs(skl[0]['value'])}, `roc_auc_score` {secs(skl[1]['value'])}; "
                     f"rocci's `roc_curve` {secs(ours[0]['value'])}, `roc_auc` with DeLong's interval "
                     f"{secs(ours[1]['value'])}.")
    else:
        notes.append("scikit-learn: not measured in this run (not installed).")
    mem_all = r.entry("peak_memory/threshold_ci/wilson/every", n=big)
    mem_v = r.entry("peak_memory/vertical_ci/percentile/99", n=big)
    notes.append(f"Peak memory at n = {fn(big)} (tracemalloc, beyond the inputs): {mem_all['per_instance']:.0f} "
                 f"bytes per instance for intervals at every threshold (mostly the result itself), "
                 f"{mem_v['per_instance']:.0f} for `vertical_ci`.")
    return generated(body + "\n\n" + "\n\n".join(notes), r, anchors={r.name: _single_anchor_notes(r)})


def t_single(R: Records) -> str:
    """Every table bench_single.py prints, from its record."""
    r = R("bench_single")
    sizes = r.ns("argsort")
    out = []
    header = ["n", "argsort"] + [label + " ×" for _, label in SINGLE_CALLS] + ["load"]
    rows = []
    for n in sizes:
        base = r.entry("argsort", n=n)
        row, used = [fn(n), secs(base["value"])], [base]
        for key, _ in SINGLE_CALLS:
            e = r.entry(key, n=n)
            used.append(e)
            row.append(DASH if nan(e["value"]) else ratio(e["ratio_argsort"]))
        rows.append(row + [load1(used)])
    out.append("**Time: numpy.argsort of the scores (median), and each call as a multiple of it**\n\n"
               + table(header, rows))
    rows = [[fn(n)] + [secs(r.value(key, n=n)) for key, _ in SINGLE_CALLS] for n in sizes]
    out.append("**Time: absolute (median seconds per call; noisy on a shared machine)**\n\n"
               + table(["n"] + [label + " s" for _, label in SINGLE_CALLS], rows))

    def memcell(key, n):
        e = r.entry(f"peak_memory/{key}", n=n)
        return DASH if nan(e["value"]) else f"{mb(e['value'])} ({e['value'] / n:.0f} B/inst)"

    rows = [[fn(n), memcell("argsort", n)] + [memcell(key, n) for key, _ in SINGLE_CALLS] for n in sizes]
    out.append("**Peak memory of one call (tracemalloc, beyond the input arrays; separate pass from timing)**\n\n"
               + table(["n", "argsort"] + [label for _, label in SINGLE_CALLS], rows))

    b = r.all("montecarlo/threshold_ci/percentile/99")[0]["resamples"]
    rows = []
    for n in sizes:
        row = [fn(n)]
        for key in ("threshold_ci/percentile/99", "vertical_ci/percentile/99"):
            mc, ex = r.entry(f"montecarlo/{key}", n=n), r.entry(key, n=n)
            if nan(mc["value"]):
                row += [DASH] * 4
            else:
                row += [secs(mc["value"]), secs(ex["value"]), ratio(mc["speedup"]), f"{mc['max_gap_sd']:.2f}"]
        rows.append(row)
    out.append("**Speed-up over a vectorised Monte Carlo stratified bootstrap computing the same intervals**\n\n"
               + table(["n", f"MC threshold B={b}", "exact threshold", "speed-up", "max gap (sd)",
                        f"MC vertical B={b}", "exact vertical", "speed-up", "max gap (sd)"], rows)
               + "\n\nSpeed-up = Monte Carlo time / exact time; max gap (sd): the largest |MC bound − exact bound|, "
                 "in exact bootstrap standard deviations (Monte Carlo noise alone puts it around 0.2–0.5 with "
                 "B = 2,000). Monte Carlo is run only up to the n shown.")

    proc = [r.entry("pROC/ci.thresholds"), r.entry("pROC/ci.se")]
    rows = []
    for e in proc:
        mc = r.all(f"montecarlo/{e.get('compared_with', '')}", n=e["n"])
        mc_cell = secs(mc[0]["value"]) if mc and not nan(mc[0]["value"]) else DASH
        if e.get("anchor_measured"):
            rows.append([e["call"], secs(e["value"]), secs(e["compared_value"]), ratio(e["speedup"]) + " faster",
                         mc_cell, load1([e])])
        else:
            ours = r.all("threshold_ci/percentile/99" if "thresholds" in e["key"] else "vertical_ci/percentile/99",
                         n=e["n"])
            rows.append([e["call"], "not measured: " + e.get("note", "?"),
                         secs(ours[0]["value"]) if ours else DASH, DASH, mc_cell, DASH])
    out.append(f"**Context: R's pROC at n = {fn(proc[0]['n'])} (Rscript, same data, same run)**\n\n"
               + table(["task", "R pROC (this run)", "rocci exact", "vs pROC", f"Monte Carlo here (B={b})", "load"],
                       rows))

    skl_rows = []
    for n in sizes:
        s1, s2 = r.entry("sklearn/roc_curve", n=n), r.entry("sklearn/roc_auc_score", n=n)
        if not (s1.get("anchor_measured") and s2.get("anchor_measured")):
            continue
        skl_rows.append([fn(n), secs(s1["value"]), secs(r.value("roc_curve", n=n)), secs(s2["value"]),
                         secs(r.value("roc_auc", n=n)), secs(r.value("threshold_ci/wilson/every", n=n))])
    if skl_rows:
        version = r.all("sklearn/roc_curve")[0].get("version", "")
        out.append(f"**Context: scikit-learn {version} in this run (curves and AUC, no intervals)**\n\n"
                   + table(["n", "sklearn roc_curve", "rocci roc_curve", "sklearn roc_auc_score",
                            "rocci roc_auc (+ DeLong CI)", "rocci threshold_ci all t, wilson"], skl_rows))
    else:
        out.append("**Context: scikit-learn** not measured in this run (not installed).")

    if len(sizes) > 1:
        rows = []
        for key, label in [("argsort", "argsort")] + SINGLE_CALLS:
            row = [label]
            for a, b_ in zip(sizes, sizes[1:]):
                ta, tb = r.value(key, n=a), r.value(key, n=b_)
                row.append(DASH if nan(ta) or nan(tb) else f"{tb / ta:.1f}×")
            rows.append(row)
        out.append("**Growth of each call's time per tenfold n** (n log n: ≈ 12–13×; ≈ 1×: a fixed per-level "
                   "cost dominates; compare with argsort's own row)\n\n"
                   + table(["call"] + [f"{fn(a)}→{fn(b_)}" for a, b_ in zip(sizes, sizes[1:])], rows))
    elapsed = r.entry("run/elapsed")
    out.append(f"Binormal data (positives N(1,1), negatives N(0,1), half each, seed {elapsed['seed']}); "
               f"confidence level {elapsed['confidence']}; whole run {elapsed['value']:.0f} s.")
    return generated("\n\n".join(out), r, anchors={r.name: _single_anchor_notes(r)})


HOTSPOT_ROWS = [
    ("threshold_ci/wilson/every", "`threshold_ci` wilson, every threshold", ""),
    ("threshold_ci/percentile/every", "`threshold_ci` percentile, every threshold", "≤ 5×"),
    ("old/threshold_ci/percentile/every/exact_walk", "(the first path: an exact walk per threshold)", ""),
    ("compare_auc/delong", "`compare_auc` (DeLong)", "≤ 3×"),
    ("old/compare_auc/delong/two_argsorts", "(two argsorts and two sorts per model)", ""),
    ("roc_auc/delong", "`roc_auc` (DeLong), one model", ""),
    ("check_labels/bool", "`check_labels`, booleans", ""),
]


def t_hotspots(R: Records) -> str:
    r = R("bench_hotspots")
    rows = []
    n = None
    for key, label, target in HOTSPOT_ROWS:
        e = r.entry(key)
        n = e["n"]
        if nan(e["value"]):
            rows.append([label, e.get("note", "not run"), DASH, DASH, target, DASH])
            continue
        anchor = DASH
        if e.get("anchor_measured"):
            anchor = f"{e['anchor']}: {secs(e['anchor_value'])} = {ratio(e['anchor_ratio_argsort'])}"
        elif "anchor" in e:
            anchor = f"{e['anchor']}: not measured ({e.get('note', '?')})"
        rows.append([label, secs(e["value"]), ratio(e["ratio_argsort"]), anchor, target, load1([e])])
    p = r.entry("pROC/roc.test/delong")
    if p.get("anchor_measured"):
        rows.append(["pROC `roc.test(method=\"delong\")` with its two `roc()` (Rscript)", secs(p["value"]),
                     ratio(p["ratio_argsort"]), f"{ratio(p['speedup'])} rocci's `compare_auc`", "", load1([p])])
    else:
        rows.append(["pROC `roc.test(method=\"delong\")`", "not measured: " + p.get("note", "?"), DASH, DASH, "", DASH])
    body = (f"n = {fn(n)}; each call's median and its median ratio to one `numpy.argsort` of the same scores "
            "timed just before each repeat; the anchor timed the same way in the same run.\n\n"
            + table(["call", "now", "× argsort", "same run: anchor", "target", "load"], rows, "lrrlrr"))
    return generated(body, r, anchors={r.name: [measured([p], "pROC"),
                                                "previous rocci code (from git): measured in this run"]})


FIXED_ROWS = [
    ("fixed/vertical_ci/score/99", "`vertical_ci` score, 99 levels", "≤ 5 ms"),
    ("fixed/vertical_ci/percentile/99", "`vertical_ci` percentile, 99 levels", "≤ 5 ms"),
    ("fixed/compare_thresholds/99", "`compare_thresholds`, 99 total positive rates", "≤ 5 ms"),
    ("fixed/threshold_ci/wilson/99", "`threshold_ci` Wilson, 99 rates", ""),
    ("fixed/threshold_ci/percentile/99", "`threshold_ci` percentile, 99 rates", ""),
    ("fixed/threshold_ci/wilson/every", "`threshold_ci` Wilson, every threshold", ""),
    ("fixed/threshold_ci/percentile/every", "`threshold_ci` percentile, every threshold", ""),
    ("fixed/roc_curve", "`roc_curve`", ""),
    ("fixed/roc_auc/delong", "`roc_auc` (DeLong)", ""),
    ("fixed/compare_auc/delong", "`compare_auc` (DeLong)", ""),
]


def t_hotspots_fixed(R: Records) -> str:
    r = R("bench_hotspots")
    rows = []
    for key, label, target in FIXED_ROWS:
        e = r.entry(key)
        old = ""
        if e.get("anchor_measured"):
            old = f"{ms(e['anchor_value'])} ({e['anchor'].replace('rocci ', '')})"
        elif "anchor" in e:
            old = f"not measured ({e.get('note', '?')})"
        rows.append([label, ms(e["value"]), old, target, load1([e])])
    n = r.entry(FIXED_ROWS[0][0])["n"]
    body = (f"n = {fn(n)} (seed 17, about half positives, model b a noisier copy of model a); each call beside the "
            "previous code (loaded from git by the script), the two interleaved call by call.\n\n"
            + table(["call", "now", "previous code, same run", "target", "load"], rows))
    return generated(body, r, anchors={r.name: ["previous rocci code (from git): measured in this run"]})


def _mc_b(r: Rec) -> str:
    """"B=2000" from the Monte Carlo anchor's name in bench_compare_cost's record."""
    names = sorted({e["anchor"].split(", ")[-1] for e in r.all("compare_thresholds/99") if "anchor" in e})
    return names[0] if names else "B=?"


def t_compare_cost(R: Records) -> str:
    r = R("bench_compare_cost")
    out = []
    rows = []
    for n in r.ns("argsort"):
        base = r.entry("argsort", n=n)
        cmp_ = r.entry("compare_thresholds/99", n=n)
        cells = [r.entry(k, n=n) for k in ("cost_curve/101", "cost_ci/agresti_coull/101", "cost_ci/percentile/101",
                                           "brute_envelope/101")]
        mc = ratio(cmp_["speedup"]) if cmp_.get("anchor_measured") else DASH
        rows.append([fn(n), secs(base["value"]), ratio(cmp_["ratio_argsort"]), mc]
                    + [DASH if nan(e["value"]) else ratio(e["ratio_argsort"]) for e in cells]
                    + [load1([base, cmp_, *cells])])
    out.append("**`compare_thresholds` (99 pairs at equal total positive rate) and cost curves at 101 w, as "
               "multiples of one argsort**\n\n"
               + table(["n", "argsort", "compare_thresholds ×", f"Monte Carlo ({_mc_b(r)}) ÷ exact", "cost_curve ×",
                        "cost_ci ×", "cost_ci percentile ×", "brute-force envelope ×", "load"], rows))
    dm = r.entry("dominance_map/50x50")
    out.append(f"`dominance_map` 50 × 50 at n = {fn(dm['n'])}: {secs(dm['value'])} (load {load1([dm])}).")
    rows = []
    for n in r.ns("compare_cost/stratified/101"):
        es = [r.entry(f"compare_cost/{k}/101", n=n) for k in ("stratified", "full", "full_percentile", "full_direct")]
        rows.append([fn(n), str(es[0]["pairs"])] + [secs(e["value"]) for e in es] + [load1(es)])
    out.append("**`compare_cost` at 101 w** (Agresti–Coull; the exact `p_a_cheaper` = P(C_a* − C_b* < 0) at every "
               "w); full with percentile bounds builds each pair's W × W table (refused beyond 4·10⁷ cells); the "
               "direct route is the earlier O(W³) mixture\n\n"
               + table(["n", "pairs", "stratified", "full", "full, percentile", "full, direct route", "load"], rows))
    rows = []
    for n in r.ns("hull/monotone_chain"):
        for data in ("continuous", "tied"):
            e, base = r.entry("hull/monotone_chain", n=n, data=data), r.entry("hull/argsort", n=n, data=data)
            rows.append([fn(n), data, secs(base["value"]), f"{e['points']:,}", str(e["vertices"]),
                         ratio(e["anchor_ratio_argsort"]), ratio(e["ratio_argsort"]), ratio(e["speedup"]),
                         load1([e])])
    out.append("**The ROC hull behind every cost call**: distinct-score counts and hull of both classes' sorted "
               "scores, as multiples of one argsort of the same scores; the Qhull route (before issue 17) timed in "
               "the same run, vertices checked identical\n\n"
               + table(["n", "scores", "argsort", "points", "vertices", "Qhull route ×", "monotone chain ×",
                        "speed-up", "load"], rows, "llrrrrrrr"))
    rows = []
    big = None
    for data in ("paired", "tied", "equal"):
        base = r.entry("big/argsort", data=data)
        big = base["n"]
        es = [r.entry(f"big/compare_cost/{k}", data=data)
              for k in ("stratified", "full", "full_qhull", "full_law_every_w")]
        rows.append([{"tied": "tied (100 distinct)", "equal": "two equal models"}.get(data, data),
                     secs(base["value"]), str(es[0]["laws"])]
                    + [f"{secs(e['value'])} ({ratio(e['ratio_argsort'])})" for e in es] + [load1(es)])
    out.append(f"**`compare_cost` at n = {fn(big)}, 101 w, Agresti–Coull** (target ≤ 1 s); seconds (× argsort); "
               "laws: the w whose P(ΔC* < 0) needed the exact law (the others are settled within 1e-20 of 0 or 1 by "
               "a Chernoff bound); beside it, in the same run, the full bootstrap with the Qhull hull patched back in "
               "and with the exact law at every w\n\n"
               + table(["data", "argsort", "laws", "stratified", "full", "full, Qhull hull", "full, law at every w",
                        "load"], rows))
    fixed = [("cost_curve", "`cost_curve`"), ("cost_ci", "`cost_ci` (Agresti–Coull)"),
             ("cost_ci/full", "`cost_ci` full"), ("cost_ci/percentile", "`cost_ci` percentile"),
             ("compare_cost", "`compare_cost` (stratified)"), ("compare_cost/full", "`compare_cost` full"),
             ("compare_cost/percentile", "`compare_cost` percentile")]
    base = r.entry("fixed/argsort")
    rows = [[label, ms(e["value"]), ratio(e["ratio_argsort"]), load1([e])]
            for key, label in fixed for e in [r.entry(f"fixed/{key}")]]
    out.append(f"**Fixed costs at n = {fn(base['n'])}, 101 w** (argsort {ms(base['value'])})\n\n"
               + table(["call", "time", "× argsort", "load"], rows))
    mc = r.all("compare_thresholds/99")
    return generated("\n\n".join(out), r, anchors={r.name: [
        measured(mc, "Monte Carlo (compare_thresholds, n ≤ 10⁴)"),
        "Qhull hull and the law at every w: measured in this run"]})


def t_vertical_paired(R: Records) -> str:
    r = R("bench_vertical_paired")
    entries = r.all("compare_vertical/one_level")
    if not entries:
        r.entry("compare_vertical/one_level")  # raises
    cases: dict[tuple, dict[float, dict]] = {}
    for e in entries:
        cases.setdefault((e["n"], e["n_pos"], e["n_neg"], e["scores"], str(e["rho"])), {})[e["fpr"]] = e
    fprs = sorted({e["fpr"] for e in entries})
    rows = []
    for (n, npos, nneg, scores, rho), by in cases.items():
        for f in fprs:
            if f not in by:
                raise MissingRecord(f"{r.where}: no figure with key 'compare_vertical/one_level' and n={n}, "
                                    f"rho={rho}, fpr={f}")
        r.used.extend(by.values())
        rows.append([fn(n), f"{npos}/{nneg}", scores, rho]
                    + [f"{ms(by[f]['value'])} ({ratio(by[f]['ratio_argsort'])})" for f in fprs]
                    + [", ".join(sorted({by[f]["route"] for f in fprs})), load1(list(by.values()))])
    body = ("Median per level; in brackets the multiple of one `numpy.argsort` of the same scores timed in the same "
            "run; the route that computed the joint law of the two thresholds' ranks.\n\n"
            + table(["n", "n+/n−", "scores", "ρ", *[f"FPR {f:g}" for f in fprs], "routes", "load"], rows,
                    "llll" + "r" * len(fprs) + "lr"))
    return generated(body, r, anchors={r.name: [measured(entries, "Monte Carlo")]})


def t_near_copy(R: Records) -> str:
    r = R("bench_near_copy")
    entries = [e for e in r.data["results"] if e["key"].startswith("compare_vertical_near_copy/")]
    if not entries:
        r.entry("compare_vertical_near_copy/…")  # raises
    rows = []
    for e in entries:
        r.used.append(e)
        old = e.get("anchor_value")
        rows.append([fn(e["n"]), f"{e['eps']:g}", secs(e["value"]), ratio(e["ratio_argsort"]),
                     e["note"].split(";")[0].replace("route ", ""),
                     "not run" if old is None or nan(old) else secs(old),
                     "—" if old is None or nan(old) else f"{e['value'] / old:.2f}", load1([e])])
    body = ("`compare_vertical(y, a, b, fpr=[0.1])`, b = a + N(0, ε²), 10% positives: the median time, its multiple "
            "of one `numpy.argsort` of the same scores, the route of the joint law of the two thresholds' ranks, "
            "and the code before the wider routes (the package at its commit, imported under another name) "
            "timed in the same run (not run where it takes minutes).\n\n"
            + table(["n", "ε", "now", "× argsort", "route", "before", "now / before", "load"], rows, "llrrlrrr"))
    return generated(body, r, anchors={r.name: [f"{entries[0]['anchor']}: measured in this run "
                                                 "(except where the table says not run)"]})


BROWSER_STEPS = [
    ("upload_to_summary", "upload → data summary"),
    ("roc/first_chart", "ROC page, first chart (curves, rectangles, AUC intervals)"),
    ("roc/control_change", "ROC page, confidence level changed → redrawn"),
    ("roc/rerun_floor", "ROC page, a rerun with nothing to compute (the floor)"),
    ("cost_curves/first_chart", "Cost curves, first chart (two envelopes, bands, cost difference)"),
    ("compare_models/verdict", "Compare models, **verdict** (ΔAUC, ΔTPR at 10% FPR, cost difference)"),
    ("compare_models/first_chart", "Compare models, first chart"),
    ("threshold_explorer/first_chart", "Threshold explorer, first chart"),
]


def _browser_table(R: Records, steps) -> tuple[str, list[Rec]]:
    recs = [R("bench_browser_1e4"), R("bench_browser_1e6")]
    rows = []
    for key, label in steps:
        row = [label]
        for rec in recs:
            e = rec.entry("browser/" + key)
            text = s1(e["value"])
            if key == "compare_models/verdict":
                text += ("; ΔTPR on a button" if e.get("delta_tpr_waits_for_button") else ", all three")
            if e.get("chart_drawn") is False:
                text += " (no chart for these data)"
            row.append(text)
        rows.append(row)
    sizes = [rec.entry("browser/" + steps[0][0]) for rec in recs]
    header = ["step"] + [f"{fn(e['n'])} rows ({e['file_bytes'] / 1e6:.1f} MB)" for e in sizes]
    rows.append(["load (1 min) during the run"] + [load1(rec.data["results"]) for rec in recs])
    return table(header, rows), recs


def t_speed_browser(R: Records) -> str:
    body, recs = _browser_table(R, BROWSER_STEPS)
    return generated("One run of each size (single runs, no median: read them as orders of magnitude):\n\n" + body,
                     *recs)


def t_browser(R: Records) -> str:
    body, recs = _browser_table(R, BROWSER_STEPS + [("folds_classes/first_chart", "Folds & classes, first page")])
    return generated(body, *recs)


def t_bands(R: Records) -> str:
    r = R("bench_bands")
    rows = []
    for key, label in (("roc_band/100_thresholds", "100 thresholds"), ("roc_band/every_threshold", "every threshold")):
        e = r.entry(key)
        rows.append([f"{label}, n = {fn(e['n'])}", f"{e['rows']:,}", secs(e["value"]), ratio(e["ratio_argsort"]),
                     secs(e["argsort"]), str(e["evaluations"]), f"{e['critical_value']:.6f}",
                     f"{e['joint_probability']:.9f}", f"{e['joint_probability_below']:.9f}", load1([e])])
    body = table(["case", "rows", "median", "× argsort", "argsort", "recursion runs", "c", "P*(band)",
                  "P*(next narrower)", "load"], rows)
    return generated(body, r)


def t_load_table(R: Records) -> str:
    r = R("bench_load_table")
    rows = []
    first = None
    for reader in ("pandas.read_csv", "rocci.load_table", "pyarrow.csv"):
        e = r.entry(f"read_csv/{reader}")
        first = first or e
        rows.append([f"`{reader}`", secs(e["value"]), ratio(e["ratio_pandas"]), f"{e['peak_bytes_per_row']:.1f}",
                     ratio(e["peak_over_final"]), load1([e])])
    body = (f"{first['n']:,} rows, a {first['file_bytes'] / 1e6:.0f} MB CSV; each read in its own process, readers "
            "interleaved; peak memory above the file's bytes (already in memory, as an upload is).\n\n"
            + table(["reader", "median", "× pandas", "peak B/row", "peak / final columns", "load"], rows))
    return generated(body, r, anchors={r.name: ["pandas.read_csv and pyarrow.csv: measured in this run"]})


def t_limits(R: Records) -> str:
    r = R("bench_limits")
    unit = r.entry("argsort/1e6")
    e = r.entry("pr_curve/rows")
    rows = [[f"`pr_curve`, {fn(e['n'])} rows (× argsort of the same scores, {secs(e['argsort'])})", f"`{e['test']}`",
             fn(e["n"]), secs(e["value"]), ratio(e["ratio_argsort"]), f"30× argsort or 3 s: {secs(e['limit'])}",
             ratio(e["limit"] / e["value"]), load1([e])]]
    for x in r.data["results"]:
        if x["key"] in ("argsort/1e6", "pr_curve/rows"):
            continue
        r.used.append(x)
        rows.append([x["label"], f"`{x['test']}`", fn(x["n"]), secs(x["value"]), ratio(x["ratio_argsort"]),
                     secs(x["limit"]), ratio(x["limit"] / x["value"]), load1([x])])
    body = (f"Each check's median and its ratio to one `numpy.argsort` of 10⁶ normal scores "
            f"({secs(unit['value'])} in this run); the limit the test used to assert, and the headroom "
            "(limit / median).\n\n"
            + table(["check", "was asserted in", "n", "median", "× argsort", "former limit", "headroom", "load"],
                    rows, "llrrrrrr"))
    return generated(body, r, anchors={r.name: ["numpy.argsort: measured in this run"]})


def _previous(e: dict) -> str:
    """"3.52 s (4.70×)": the previous rocci code's time and its ratio to now's (— if it was not run)."""
    if not e.get("anchor_measured"):
        return DASH
    return f"{secs(e['anchor_value'])} ({ratio(e['anchor_value'] / e['value'])})"


def t_decision(R: Records) -> str:
    r = R("bench_decision")
    rows, nb, mcs = [], [], []
    for n in r.ns("argsort"):
        base = r.entry("argsort", n=n)
        full, strat = r.entry("net_benefit/full/99", n=n), r.entry("net_benefit/stratified/99", n=n)
        cmp_, mc = r.entry("compare_net_benefit/full/99", n=n), r.entry("montecarlo/net_benefit/full/99", n=n)
        nb += [full, strat]
        mcs.append(mc)
        diffs = [e["max_bound_diff"] for e in (full, strat) if e.get("max_bound_diff") is not None]
        rows.append([fn(n), secs(base["value"]), _x_argsort(full), _previous(full), _x_argsort(strat),
                     _previous(strat), f"{max(diffs):.0e}" if diffs else DASH, _x_argsort(cmp_),
                     f"{_x_argsort(mc)}; {ratio(mc['ratio_exact'])} the exact full",
                     f"{mc['max_bound_gap_sd']:.2f}", load1([base, full, strat, cmp_, mc])])
    prev = sorted({e["anchor"].split("@")[-1] for e in nb if e.get("anchor")})
    b = sorted({str(e["resamples"]) for e in mcs})
    level = ", ".join(sorted({f"{100 * e['level']:g}%" for e in nb}))
    body = (f"Every threshold of the 99-point grid (0.01 … 0.99), {level} percentile intervals; each time as a multiple "
            f"of one `numpy.argsort` of the same risks (target for `net_benefit`: under 20); the package at "
            f"{', '.join(prev) or '?'} (the quantile search before one exact CDF and the atoms between) in the same "
            f"run, and the largest difference of the two codes' bounds; the Monte Carlo bootstrap (B = "
            f"{', '.join(b)}) of the same net benefits, its time over the exact full bootstrap's, and its bounds' "
            "largest distance from the exact ones in exact standard deviations.\n\n"
            + table(["n", "argsort", "`net_benefit` full", "full, before (÷ now)", "stratified",
                     "stratified, before (÷ now)", "max \\|Δ bound\\|", "`compare_net_benefit` full", "Monte Carlo",
                     "MC bound gap (sd)", "load"], rows))
    return generated(body, r, anchors={r.name: ["numpy.argsort: measured in this run",
                                                measured(nb, f"previous rocci code ({', '.join(prev) or '?'})"),
                                                measured(mcs, "Monte Carlo")]})


PRECISION_ROWS = [
    ("precision/one_threshold/top", "precision, one call at one threshold, top (100–10,000 predicted positive)"),
    ("precision/one_threshold/middle", "precision, one threshold, middle (30/50/70% predicted positive)"),
    ("precision/one_threshold/bottom", "precision, one threshold, bottom (99%–all but 10)"),
    ("f1/one_threshold/middle", "F1, middle (50%)"),
    ("mcc/one_threshold/middle", "MCC, middle (50%)"),
    ("precision/full_bootstrap/middle", "precision, full bootstrap, middle (50%)"),
    ("precision/marginal_per_threshold", "marginal time per threshold (9 in one call)"),
    ("precision/recall_99", "99 recall levels"),
    ("precision/recall_99/score", "99 recall levels, score interval"),
    ("precision/every_threshold_whole/score", "every threshold (each distinct score), score interval, one call"),
]


def t_precision(R: Records) -> str:
    r = R("bench_precision")
    base = r.entry("argsort")
    rows = [["numpy.argsort of the scores", secs(base["value"]), DASH, load1([base])]]
    for key, label in PRECISION_ROWS:
        e = r.entry(key)
        if nan(e["value"]):
            rows.append([label, e.get("refused") or e.get("note", DASH), DASH, DASH])
            continue
        t = secs(e["value"])
        if e.get("refused_of_3"):
            t += f"; {e['refused_of_3']} of 3 refused"
        if key == "precision/recall_99":
            t += f" ({ms(e['per_level'])} per level)"
        rows.append([label, t, ratio(e["ratio_argsort"]), load1([e])])
    body = (f"{fn(base['n'])} rows, 10% positives.\n\n"
            + table(["call", "now", "× argsort", "load"], rows))
    return generated(body, r)


def t_load(R: Records) -> str:
    r = R("bench_load")
    ph = r.entry("run/phases")
    out = []
    rows = []

    def sessions_row(phase: str, label: str):
        dp, fc = r.all(f"{phase}/data_page"), r.all(f"{phase}/first_chart")
        if not dp:
            r.entry(f"{phase}/data_page")  # raises
        r.used.extend(dp + fc)
        errors = sorted({err for e in dp for err in e["errors"]})
        dps = [e["value"] for e in dp if not nan(e["value"])]
        fcs = [e["value"] for e in fc if not nan(e["value"])]

        def span(v):
            import statistics

            v = sorted(v)
            return DASH if not v else (f"{v[0]:.1f} s" if len(v) == 1 else
                                       f"{statistics.median(v):.1f} s (max {v[-1]:.1f})")
        return [label, span(dps), span(fcs), "; ".join(errors) if errors else "none", load1(dp)]

    phases = ph["phases"]
    if "concurrent" in phases:
        e = r.entry("concurrent/rss_peak")
        row = sessions_row("concurrent", f"{ph['sessions']} sessions at once, a {fn(ph['concurrent_rows'])}-row CSV "
                                         "each")
        rows.append(row[:4] + [f"{e['value']:.0f} MB", row[4]])
    if "large" in phases:
        e = r.entry("large/rss_peak")
        row = sessions_row("large", f"{ph['uploads']} CSVs of {fn(ph['large_rows'])} rows "
                                    f"({e['file_bytes'] / 1e6:.0f} MB) in turn, one session each")
        after = [x["value"] for x in r.all("large/rss_after")]
        rows.append(row[:4] + [f"{e['value']:.0f} MB (after each: {', '.join(f'{a:.0f}' for a in after)})", row[4]])
    if "wide" in phases:
        e = r.entry("wide/rss_peak")
        row = sessions_row("wide", "a 10,000-column CSV")
        rows.append(row[:4] + [f"{e['value']:.0f} MB", row[4]])
    if "bombs" in phases:
        bombs = r.all("bombs/data_page")
        if not bombs:
            r.entry("bombs/data_page")
        r.used.extend(bombs)
        e = r.entry("bombs/rss_peak")
        refused = sum(bool(b.get("refused")) for b in bombs)
        rows.append([f"{len(bombs)} Parquet decompression bombs", " / ".join(s1(b["value"]) for b in bombs),
                     DASH, f"{refused} of {len(bombs)} refused with a message (expected)", f"{e['value']:.0f} MB",
                     load1(bombs)])
    out.append(table(["phase", "to the Data page (median)", "to the first chart (median)", "errors",
                      "server RSS peak", "load"], rows, "lrrllr"))
    start, peak, end = r.entry("rss/start"), r.entry("rss/peak"), r.entry("rss/end")
    tb = r.entry("server_log/tracebacks")
    line = (f"Server RSS: {start['value']:.0f} MB at start, peak {peak['value']:.0f} MB, {end['value']:.0f} MB at "
            f"the end; tracebacks in the server log: {tb['value']:.0f}. ")
    if "idle" in phases:
        idle = r.all("idle/rss")
        r.used.extend(idle)
        visit = r.entry("idle/rss_after_visit")
        line += ("Every session closed (`disconnectedSessionTTL` " f"{ph['ttl']} s): RSS "
                 + ", ".join(f"{e['value']:.0f} MB after {e['after_s']} s" for e in idle)
                 + f", then {visit['value']:.0f} MB after one more short visit. ")
    env = start.get("malloc_env")
    line += ("Server environment: " + (", ".join(f"`{k}={v}`" for k, v in env.items()) if isinstance(env, dict)
                                       else str(env)) + ".")
    out.append(line)
    return generated("\n\n".join(out), r)


def t_speed_calls(R: Records) -> str:
    """One row per bench for docs/speed.md: each call beside what it is compared with, in the same run."""
    h, c, b = R("bench_hotspots"), R("bench_compare_cost"), R("bench_bands")
    lt, p, v = R("bench_load_table"), R("bench_precision"), R("bench_vertical_paired")
    rows = []

    def row(bench, label, e, beside, extra=()):
        rows.append([f"`{bench}`", label, fn(e["n"]), secs(e["value"]),
                     DASH if nan(e.get("ratio_argsort")) else ratio(e["ratio_argsort"]), beside, load1([e, *extra])])

    e = h.entry("threshold_ci/percentile/every")
    row("bench_hotspots", "`threshold_ci` percentile, every threshold", e,
        f"{e['anchor']}: {secs(e['anchor_value'])} = {ratio(e['anchor_ratio_argsort'])}" if e.get("anchor_measured")
        else f"{e.get('anchor', 'previous code')}: not measured")
    e, pr = h.entry("compare_auc/delong"), h.entry("pROC/roc.test/delong")
    beside = []
    if e.get("anchor_measured"):
        beside.append(f"{e['anchor']}: {secs(e['anchor_value'])} = {ratio(e['anchor_ratio_argsort'])}")
    beside.append(f"pROC `roc.test(delong)` with its two `roc()`: {secs(pr['value'])} = {ratio(pr['ratio_argsort'])}"
                  if pr.get("anchor_measured") else "pROC: not measured in this run")
    row("bench_hotspots", "`compare_auc` (DeLong)", e, "; ".join(beside), [pr])
    big = max(c.ns("argsort"))
    e = c.entry("compare_thresholds/99", n=big)
    mcs = [x for x in c.all("compare_thresholds/99") if x.get("anchor_measured")]
    if not mcs or mcs[-1]["n"] != big:
        row("bench_compare_cost", "`compare_thresholds`, 99 threshold pairs", e, DASH)
    if mcs:
        e = mcs[-1]
        c.used.append(e)
        row("bench_compare_cost", "`compare_thresholds`, 99 threshold pairs", e,
            f"Monte Carlo ({_mc_b(c)}): {secs(e['anchor_value'])}, {ratio(e['speedup'])} this time")
    e = c.entry("cost_curve/101", n=big)
    row("bench_compare_cost", "`cost_curve`, 101 w", e, DASH)
    for data, label in (("paired", "paired data"), ("tied", "tied data (100 distinct scores)"),
                        ("equal", "two equally good models")):
        e = c.entry("big/compare_cost/full", data=data)
        q = c.entry("big/compare_cost/full_qhull", data=data)
        row("bench_compare_cost", f"`compare_cost` full bootstrap, 101 w, {label}", e,
            f"with the former Qhull hull: {secs(q['value'])}", [q])
    e = c.entry("fixed/compare_cost")
    row("bench_compare_cost", "`compare_cost` stratified, 101 w", e, DASH)
    e = b.entry("roc_band/100_thresholds")
    row("bench_bands", "`roc_band`, exact simultaneous band, 100 thresholds", e, DASH)
    e = b.entry("roc_band/every_threshold")
    row("bench_bands", f"`roc_band`, every one of {e['rows']:,} thresholds", e, DASH)
    e, pd_, pa = lt.entry("read_csv/rocci.load_table"), lt.entry("read_csv/pandas.read_csv"), \
        lt.entry("read_csv/pyarrow.csv")
    row("bench_load_table", f"`load_table` of a {e['file_bytes'] / 1e6:.0f} MB CSV", e,
        f"{ratio(e['ratio_pandas'])} `pandas.read_csv` ({secs(pd_['value'])}), peak {ratio(e['peak_over_final'])} "
        f"the final columns; `pyarrow.csv` {ratio(pa['ratio_pandas'])} and {ratio(pa['peak_over_final'])}", [pd_, pa])
    for key, label in (("precision/one_threshold/middle", "`precision_ci` at one threshold (middle of the ranking)"),
                       ("mcc/one_threshold/middle", "`metric_ci` MCC at one threshold"),
                       ("precision/recall_99", "`precision_ci` at 99 recall levels"),
                       ("precision/every_threshold_whole/score",
                        "`precision_ci` score interval at every threshold (each distinct score)")):
        e = p.entry(key)
        row("bench_precision", label, e, DASH)
    vs = v.all("compare_vertical/one_level")
    if not vs:
        v.entry("compare_vertical/one_level")
    nmax = max(x["n"] for x in vs)
    for rho, label in (("0.6", "ρ = 0.6"), ("copy", "a model against a noisy copy of itself")):
        sel = [x for x in vs if x["n"] == nmax and str(x["rho"]) == rho]
        if not sel:
            raise MissingRecord(f"{v.where}: no figure with key 'compare_vertical/one_level' and n={nmax}, rho={rho}")
        worst = max(sel, key=lambda x: x["value"])
        v.used.extend(sel)
        row("bench_vertical_paired", f"`compare_vertical`, one FPR level, {label} (slowest level)", worst, DASH, sel)
    body = table(["bench", "call", "n", "median", "× argsort", "beside it, in the same run", "load"], rows,
                 "llrrrlr")
    return generated(body, h, c, b, lt, p, v, anchors={
        h.name: [measured([pr], "pROC"), "previous rocci code (from git): measured in this run"],
        c.name: [measured(c.all("compare_thresholds/99"), "Monte Carlo"),
                 "the former Qhull hull: measured in this run"],
        lt.name: ["pandas.read_csv and pyarrow.csv: measured in this run"],
        v.name: [measured(vs, "Monte Carlo")]})


#: marker name -> (file, builder)
TABLES: dict[str, tuple[Path, Callable[[Records], str]]] = {
    "speed-single": (SPEED, t_speed_single),
    "speed-calls": (SPEED, t_speed_calls),
    "speed-browser": (SPEED, t_speed_browser),
    "single": (BENCH_README, t_single),
    "hotspots": (BENCH_README, t_hotspots),
    "hotspots-fixed": (BENCH_README, t_hotspots_fixed),
    "compare-cost": (BENCH_README, t_compare_cost),
    "vertical-paired": (BENCH_README, t_vertical_paired),
    "near-copy": (BENCH_README, t_near_copy),
    "bands": (BENCH_README, t_bands),
    "load-table": (BENCH_README, t_load_table),
    "precision": (BENCH_README, t_precision),
    "browser": (BENCH_README, t_browser),
    "load": (BENCH_README, t_load),
    "limits": (BENCH_README, t_limits),
    "decision": (BENCH_README, t_decision),
}

MARKER = re.compile(r"<!-- bench:([a-z0-9-]+):start -->\n(.*?)<!-- bench:\1:end -->", re.S)


class ReportError(Exception):
    pass


def render(text: str, path_label: str, results: Path, allow_quick: bool = False,
           tables: dict | None = None) -> str:
    """``text`` with every marked block regenerated; raises ReportError naming each failing table."""
    tables = TABLES if tables is None else tables
    found = MARKER.findall(text)
    names = [name for name, _ in found]
    starts = re.findall(r"<!-- bench:([a-z0-9-]+):start -->", text)
    if sorted(starts) != sorted(names) or len(set(names)) != len(names):
        raise ReportError(f"{path_label}: unbalanced or repeated bench markers ({', '.join(starts)})")
    errors = []
    R = Records(results, allow_quick=allow_quick)
    blocks = {}
    for name in names:
        if name not in tables:
            errors.append(f"{path_label}: table {name!r} has no generator in bench/report.py")
            continue
        try:
            for rec in R.cache.values():
                rec.used = []
            blocks[name] = tables[name][1](R).rstrip()
        except MissingRecord as exc:
            errors.append(f"{path_label}: table {name!r}: {exc}")
        except (KeyError, TypeError, ValueError) as exc:
            errors.append(f"{path_label}: table {name!r}: malformed record ({type(exc).__name__}: {exc})")
    if errors:
        raise ReportError("\n".join(errors))

    def sub(m):
        name = m.group(1)
        return f"<!-- bench:{name}:start -->\n{blocks[name]}\n<!-- bench:{name}:end -->"

    return MARKER.sub(sub, text)


def targets(ns) -> list[tuple[Path, str]]:
    return [(Path(ns.speed_doc), "docs/speed.md"), (Path(ns.bench_readme), "bench/README.md")]


def _expected(ns) -> tuple[dict[Path, str], dict[Path, str]]:
    old, new, errors = {}, {}, []
    expected_markers = {}
    for name, (path, _) in TABLES.items():
        expected_markers.setdefault(path, []).append(name)
    for path, label in targets(ns):
        text = path.read_text()
        default = SPEED if label == "docs/speed.md" else BENCH_README
        missing = [m for m in expected_markers.get(default, []) if f"<!-- bench:{m}:start -->" not in text]
        if missing and not ns.partial:
            errors.append(f"{label}: markers missing for table(s) {', '.join(missing)}")
            continue
        own = {k: v for k, v in TABLES.items() if v[0] == default}
        try:
            new[path] = render(text, label, Path(ns.results), ns.allow_quick, own)
            old[path] = text
        except ReportError as exc:
            errors.append(str(exc))
    if errors:
        raise ReportError("\n".join(errors))
    return old, new


def cmd_write(ns) -> int:
    try:
        old, new = _expected(ns)
    except ReportError as exc:
        print(f"bench/report.py write: failed, nothing written:\n{exc}", file=sys.stderr)
        return 1
    for path, text in new.items():
        if text != old[path]:
            path.write_text(text)
            print(f"wrote {path}")
        else:
            print(f"unchanged {path}")
    return 0


def cmd_check(ns) -> int:
    try:
        old, new = _expected(ns)
    except ReportError as exc:
        print(f"bench/report.py check: cannot generate the tables:\n{exc}", file=sys.stderr)
        return 1
    stale = [p for p in new if new[p] != old[p]]
    for p in stale:
        import difflib

        diff = difflib.unified_diff(old[p].splitlines(), new[p].splitlines(), str(p), "generated", lineterm="", n=1)
        print("\n".join(list(diff)[:60]), file=sys.stderr)
    if stale:
        print("bench/report.py check: out of date: " + ", ".join(map(str, stale))
              + " (run: python bench/report.py write)", file=sys.stderr)
        return 1
    print("bench/report.py check: docs/speed.md and bench/README.md match bench/results/*.json")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run the benches, each in its own process, writing their records")
    r.add_argument("--quick", action="store_true", help="smoke run with small n (about 3 minutes)")
    r.add_argument("--only", default=None, help="comma-separated bench names: " + ", ".join(b.name for b in BENCHES))
    r.add_argument("--out", default=None, help="directory of the records (default bench/results; with --quick a "
                                               "temporary directory)")
    for name in ("write", "check"):
        s = sub.add_parser(name, help="write the tables" if name == "write" else "exit 1 if a table is stale")
        s.add_argument("--results", default=str(RESULTS), help="directory of the records (default bench/results)")
        s.add_argument("--speed-doc", "--readme", dest="speed_doc", default=str(SPEED),
                       help="the file of the main speed tables (default docs/speed.md; --readme: its name before "
                            "the tables left README.md)")
        s.add_argument("--bench-readme", default=str(BENCH_README))
        s.add_argument("--allow-quick", action="store_true", help="accept smoke-run records")
        s.add_argument("--partial", action="store_true",
                       help="only the marked tables present in the files (default: every table must have its markers)")
    ns = ap.parse_args(argv)
    return {"run": cmd_run, "write": cmd_write, "check": cmd_check}[ns.cmd](ns)


if __name__ == "__main__":
    sys.exit(main())

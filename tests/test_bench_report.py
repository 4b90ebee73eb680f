"""The READMEs' speed tables are generated from the benches' records (issue 17).

* ``bench/report.py write`` turns a small synthetic set of records into tables that state the
  figures and the load average, and gives the same text twice;
* a missing figure makes ``write`` fail, naming the table and the key, and leaves the files alone;
* ``bench/report.py check`` passes on the committed README.md / bench/README.md against the
  committed bench/results/*.json: the READMEs cannot drift from the records;
* every bench script's ``--json`` writes a valid record (each in its smoke mode, all at once in
  subprocesses; a missing R makes the record say that pROC was not measured).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
REPORT = BENCH / "report.py"


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


report = _module("_bench_report", REPORT)


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def _report(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPORT), *args], capture_output=True, text=True, cwd=ROOT,
                          env=_env(), timeout=120)


# ---------------------------------------------------------------------------
# Synthetic records
# ---------------------------------------------------------------------------
def _record(bench: str, results: list[dict]) -> dict:
    return {
        "bench": bench, "argv": ["--repeats", "5"], "date": "2026-11-25T12:34:56+00:00", "git": "abc1234",
        "machine": {"cores": 2, "python": "3.11.7", "numpy": "2.4.6", "platform": "Linux"},
        "load_start": [1.21, 1.0, 0.9], "load_end": [2.54, 1.5, 1.0],
        "results": [{"unit": "s", "repeats": 5, "load": [3.33, 2.0, 1.0], **r} for r in results],
    }


BANDS = _record("bench_bands", [
    {"key": "roc_band/100_thresholds", "value": 0.1234, "n": 10**6, "rows": 101, "ratio_argsort": 456.0,
     "argsort": 0.0625, "evaluations": 13, "critical_value": 3.339013, "joint_probability": 0.950012426,
     "joint_probability_below": 0.94999997},
    {"key": "roc_band/every_threshold", "value": 1.875, "n": 10**4, "rows": 10001, "ratio_argsort": 9876.0,
     "argsort": 0.0002, "evaluations": 24, "critical_value": 3.623358, "joint_probability": 0.950010135,
     "joint_probability_below": 0.949993772, "load": [4.44, 3.0, 2.0]},
])
LOAD_TABLE = _record("bench_load_table", [
    {"key": f"read_csv/{reader}", "value": sec, "n": 10**7, "file_bytes": 409_000_000, "ratio_pandas": rp,
     "peak_bytes": 1.0, "peak_bytes_per_row": pb, "peak_over_final": pf, "final_bytes": 1}
    for reader, sec, rp, pb, pf in (("pandas.read_csv", 7.5, 1.0, 48.5, 2.02),
                                    ("rocci.load_table", 7.875, 1.05, 32.25, 1.33),
                                    ("pyarrow.csv", 12.75, 1.7, 117.5, 4.9))
])

SYNTHETIC_MD = """# Benchmarks (synthetic)

Prose before, with no figure.

<!-- bench:bands:start -->
| stale | table |
|---|---|
| 9.99 s | typed by hand |
<!-- bench:bands:end -->

Prose between.

<!-- bench:load-table:start -->
<!-- bench:load-table:end -->

Prose after.
"""


@pytest.fixture
def synthetic(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    (results / "bench_bands.json").write_text(json.dumps(BANDS))
    (results / "bench_load_table.json").write_text(json.dumps(LOAD_TABLE))
    readme, bench_readme = tmp_path / "README.md", tmp_path / "bench_README.md"
    readme.write_text("# README without speed tables\n")
    bench_readme.write_text(SYNTHETIC_MD)
    args = ["--results", str(results), "--readme", str(readme), "--bench-readme", str(bench_readme), "--partial"]
    return results, bench_readme, args


def test_write_synthetic_records_states_figures_and_load_and_is_deterministic(synthetic):
    results, bench_readme, args = synthetic
    out = _report("write", *args)
    assert out.returncode == 0, out.stderr
    text = bench_readme.read_text()
    # the figures, formatted
    for figure in ("123.4 ms", "456×", "1.88 s", "9,876×", "10,001", "3.339013", "0.950012426",
                   "7.88 s", "1.05×", "32.2", "1.33×", "12.75 s", "4.90×", "409 MB"):
        assert figure in text, figure
    # the load average of each figure and of the run, the repeats, the date, the commit, the command
    assert "| 3.3 |" in text and "| 4.4 |" in text
    assert "load average 1.2 at the start and 2.5 at the end" in text
    assert "medians of 5 repeats" in text
    assert "2026-11-25 12:34 UTC" in text and "`abc1234`" in text
    assert "`python bench/bench_bands.py --repeats 5`" in text
    assert "pandas.read_csv and pyarrow.csv: measured in this run" in text
    # the stale table is gone, the prose outside the markers is untouched
    assert "9.99 s" not in text and "typed by hand" not in text
    for prose in ("Prose before, with no figure.", "Prose between.", "Prose after."):
        assert prose in text
    # deterministic: a second write changes nothing, and check agrees
    again = _report("write", *args)
    assert again.returncode == 0 and "unchanged" in again.stdout
    assert bench_readme.read_text() == text
    assert _report("check", *args).returncode == 0
    # rendering in process gives the same text as the command
    assert report.render(SYNTHETIC_MD, "bench/README.md", results, tables=report.TABLES) == text


def test_write_fails_loudly_on_a_missing_key(synthetic):
    results, bench_readme, args = synthetic
    before = bench_readme.read_text()
    broken = dict(BANDS, results=[r for r in BANDS["results"] if r["key"] != "roc_band/every_threshold"])
    (results / "bench_bands.json").write_text(json.dumps(broken))
    out = _report("write", *args)
    assert out.returncode != 0
    assert "'bands'" in out.stderr and "roc_band/every_threshold" in out.stderr, out.stderr
    assert bench_readme.read_text() == before, "nothing may be written when a table cannot be made"
    assert _report("check", *args).returncode != 0
    # a missing record names the record file
    (results / "bench_load_table.json").unlink()
    out = _report("write", *args)
    assert out.returncode != 0 and "'load-table'" in out.stderr and "bench_load_table.json" in out.stderr


def test_check_fails_when_a_generated_figure_was_edited(synthetic):
    _, bench_readme, args = synthetic
    assert _report("write", *args).returncode == 0
    bench_readme.write_text(bench_readme.read_text().replace("123.4 ms", "99.9 ms"))
    out = _report("check", *args)
    assert out.returncode != 0 and "out of date" in out.stderr


def test_committed_readmes_match_committed_records():
    out = _report("check")
    assert out.returncode == 0, out.stdout + out.stderr


# ---------------------------------------------------------------------------
# Every bench's --json, in its smoke mode
# ---------------------------------------------------------------------------
#: one smoke run per bench script (bench_browser once: both of its records use the same script)
SMOKE = {b.script: b for b in report.BENCHES if b.quick is not None}
SCRIPTS = sorted(p.name for p in BENCH.glob("bench_*.py") if p.name != "bench_scan.py")


def test_every_bench_script_has_a_smoke_run():
    assert sorted(SMOKE) == SCRIPTS


@pytest.fixture(scope="module")
def smoke_records(tmp_path_factory):
    """Run every bench's smoke mode, three at a time (the browser benches mostly wait)."""
    out_dir = tmp_path_factory.mktemp("bench-json")

    def run(bench):
        path = out_dir / f"{bench.name}.json"
        proc = subprocess.run([sys.executable, str(BENCH / bench.script), *bench.quick, "--json", str(path)],
                              capture_output=True, text=True, cwd=ROOT, env=_env(), timeout=240)
        return bench.script, (proc, path)

    benches = sorted(SMOKE.values(), key=lambda b: b.script not in ("bench_load.py", "bench_browser.py"))
    with ThreadPoolExecutor(max_workers=3) as pool:  # the browser benches first: they mostly wait
        return dict(pool.map(run, benches))


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.slow
def test_bench_json_writes_a_valid_record(script, smoke_records):
    proc, path = smoke_records[script]
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    data = json.loads(path.read_text())
    assert data["bench"] == script.removesuffix(".py")
    for field in ("argv", "date", "git", "machine", "load_start", "load_end", "results"):
        assert field in data, field
    assert len(data["load_start"]) == 3 and len(data["load_end"]) == 3
    assert data["results"], "no figure recorded"
    for entry in data["results"]:
        assert isinstance(entry["key"], str) and entry["unit"] is not None
        assert entry["value"] is None or isinstance(entry["value"], (int, float))
        assert len(entry["load"]) == 3
        if "anchor_measured" in entry:
            assert isinstance(entry["anchor_measured"], bool)
            if entry["anchor_measured"] and "anchor_value" in entry:
                assert entry["anchor_value"] is not None
    timed = [e for e in data["results"] if e["unit"] == "s" and e["value"] is not None]
    assert timed, "no time recorded"
    assert all(e["value"] >= 0 for e in timed)


def _has_r() -> bool:
    import shutil

    if shutil.which("Rscript") is None:
        return False
    out = subprocess.run(["Rscript", "-e", "suppressMessages(library(pROC))"], capture_output=True)
    return out.returncode == 0


@pytest.mark.slow
def test_proc_anchor_is_measured_or_says_it_was_not(smoke_records):
    """bench_hotspots runs pROC's roc.test in its smoke run: a figure with R, 'not measured' without."""
    proc, path = smoke_records["bench_hotspots.py"]
    assert proc.returncode == 0, proc.stderr[-2000:]
    entry = next(e for e in json.loads(path.read_text())["results"] if e["key"] == "pROC/roc.test/delong")
    if _has_r():
        assert entry["anchor_measured"] is True and entry["value"] > 0
    else:
        assert entry["anchor_measured"] is False and entry["value"] is None and "not" in entry["note"]
    proc, path = smoke_records["bench_single.py"]
    assert proc.returncode == 0, proc.stderr[-2000:]
    entries = [e for e in json.loads(path.read_text())["results"] if e["key"].startswith("pROC/")]
    assert len(entries) == 2 and all(e["anchor_measured"] is False and e["note"] for e in entries), \
        "at n = 10^3 only, bench_single must record that pROC was not run"

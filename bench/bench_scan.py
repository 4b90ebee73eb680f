"""rocci.scan on a large two-model Parquet file, against pandas reading the same file, in one run.

Generates (once, with DuckDB) a Parquet file of N rows: a label with 10% positives and two models whose
scores are rounded to 4 decimals (as scoring logs usually are).  Then, each step in its own process so
that its peak memory (max RSS) is its own:

* ``scan``: ``rocci.scan`` (the reduction in DuckDB) and, on the counts, ``roc_auc`` (DeLong), ``threshold_ci`` at 99 rates,
  ``vertical_ci`` at 99 FPR levels, ``cost_ci`` at 101 w and ``compare_thresholds`` at 9 rates;
* ``pandas``: ``pandas.read_parquet`` of the three columns and the same four calls on the arrays;
* ``spark`` (``--engine spark`` or ``both``): ``rocci.scan(..., engine="spark")`` in a local Spark
  (``local[2]``): the session's start, the reduction of one model alone (twice: ``first`` pays the JVM's
  warm-up, ``one`` is warm), the reduction of both models and their pair (``read``, as for DuckDB), then
  the same analyses.  The JVM is a separate process:
  its peak resident memory (VmHWM of the java child) is recorded beside the Python process's.

All give the same numbers (checked here on the AUC). Run: ``python bench/bench_scan.py --rows 10000000``
(``--engine spark`` for Spark alone, ``--engine both`` for the three).
``roc_auc``, ``threshold_ci``, ``vertical_ci`` and ``cost_ci`` work on the distinct scores of a table of
counts, ``compare_thresholds`` on the rows of the pair table.  ``--significant-digits K`` rounds the scores in
the reduction (the pair table shrinks; the AUC moves at most by the reported bound, checked against pandas').
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _record import Record, load_average  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, sys, time, resource
import numpy as np
sys.path.insert(0, {root!r})
import rocci
path, how, paired = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
digits = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] != "0" else None
extra = dict()


def jvm_peak():
    # peak resident memory (VmHWM) of the java processes under this one: Spark's driver JVM
    peak, todo = 0, [os.getpid()]
    while todo:
        pid = todo.pop()
        for task in os.listdir(f"/proc/{{pid}}/task"):
            try:
                with open(f"/proc/{{pid}}/task/{{task}}/children") as fh:
                    todo += [int(c) for c in fh.read().split()]
            except OSError:
                pass
        if pid != os.getpid():
            try:
                with open(f"/proc/{{pid}}/cmdline", "rb") as fh:
                    is_java = b"java" in fh.read().split(b"\0")[0]
                with open(f"/proc/{{pid}}/status") as fh:
                    hwm = [int(l.split()[1]) * 1024 for l in fh if l.startswith("VmHWM:")]
                if is_java and hwm:
                    peak = max(peak, hwm[0])
            except OSError:
                pass
    return peak


if how == "spark":
    from pyspark.sql import SparkSession
    t = time.perf_counter()
    spark = (SparkSession.builder.master("local[2]").appName("bench_scan")
             .config("spark.driver.memory", {spark_memory!r}).config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "8")
             .config("spark.sql.warehouse.dir", os.path.join(os.path.dirname(path), "spark-warehouse"))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    extra["session"] = time.perf_counter() - t
    for key in ("first", "one"):  # one model, twice: the first pays the JVM's warm-up (JIT, code generation)
        t = time.perf_counter()
        rocci.scan(path, label="y", scores="a", pos_label=1, engine="spark", spark=spark)
        extra[key] = time.perf_counter() - t
t0 = time.perf_counter()
if how in ("scan", "spark"):
    engine = dict(engine="spark", spark=spark) if how == "spark" else dict()
    res = rocci.scan(path, label="y", scores=["a", "b"], pos_label=1, paired=paired, significant_digits=digits,
                     **engine)
    one, pair = res["a"], (res.paired("a", "b") if paired else None)
    extra["distinct_a"] = int(one.table()[0].size)
    extra["pairs"] = int(pair.score_a.size) if paired else 0
    if digits is not None:
        extra["auc_bound"] = res.rounding["a"].auc_bound
    args1, args2 = (one,), (pair,)
else:
    import pandas as pd
    df = pd.read_parquet(path, columns=["y", "a", "b"])
    y, a, b = df["y"].to_numpy() == 1, df["a"].to_numpy(), df["b"].to_numpy()
    del df
    args1, args2 = (y, a), (y, a, b)
t_read = time.perf_counter() - t0
rates = np.arange(1, 100) / 100
t = time.perf_counter(); auc = rocci.roc_auc(*args1).auc; t_auc = time.perf_counter() - t
t = time.perf_counter(); rocci.threshold_ci(*args1, total_positive_rate=rates); t_thr = time.perf_counter() - t
t = time.perf_counter(); rocci.vertical_ci(*args1, fpr=rates); t_vert = time.perf_counter() - t
t = time.perf_counter(); rocci.cost_ci(*args1, w=np.linspace(0, 1, 101)); t_cost = time.perf_counter() - t
t = time.perf_counter()
if paired:
    rocci.compare_thresholds(*args2, total_positive_rate=rates[9::10])
t_cmp = time.perf_counter() - t
total = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
if how == "spark":
    extra["jvm_peak"] = jvm_peak()
print(json.dumps(dict(read=t_read, roc_auc=t_auc, threshold_ci=t_thr, vertical_ci=t_vert, cost_ci=t_cost,
                      compare_thresholds=t_cmp, total=total, peak=peak, auc=auc, **extra)))
"""


def make_file(path: Path, rows: int) -> None:
    import duckdb

    con = duckdb.connect()
    con.execute(f"""
        COPY (
          SELECT y, round(1 / (1 + exp(-(1.6 * y + 0.6 * z + e1 - 1.5))), 4) AS a,
                    round(1 / (1 + exp(-(1.1 * y + 0.6 * z + e2 - 1.5))), 4) AS b
          FROM (SELECT (random() < 0.1)::INTEGER AS y,
                       sqrt(-2 * ln(random())) * cos(2 * pi() * random()) AS z,
                       sqrt(-2 * ln(random())) * cos(2 * pi() * random()) AS e1,
                       sqrt(-2 * ln(random())) * cos(2 * pi() * random()) AS e2
                FROM range({rows}))
        ) TO '{path}' (FORMAT parquet)""")
    con.close()


def run_child(path: Path, how: str, paired: bool, spark_memory: str = "4g", digits: int | None = None) -> dict:
    code = CHILD.format(root=str(ROOT), spark_memory=spark_memory)
    out = subprocess.run([sys.executable, "-c", code, str(path), how, str(int(paired)), str(digits or 0)],
                         capture_output=True, text=True, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--dir", default=None, help="where the Parquet file is made (default: a temporary directory)")
    ap.add_argument("--single", action="store_true",
                    help="one model only: no pair table (with continuous scores it has about one row per instance)")
    ap.add_argument("--engine", choices=("duckdb", "spark", "both"), default="duckdb",
                    help="duckdb: rocci.scan (DuckDB) and pandas; spark: rocci.scan(engine='spark') in local "
                         "mode; both: the three")
    ap.add_argument("--spark-memory", default="4g", help="spark.driver.memory of the local Spark (default 4g)")
    ap.add_argument("--significant-digits", type=int, default=None,
                    help="round the scores to this many significant digits in the reduction (rocci.scan's "
                         "significant_digits=; the pandas path keeps the raw scores): makes the pair table small")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    rec = Record("bench_scan")
    tmp = Path(args.dir or tempfile.mkdtemp())
    path = tmp / f"scores_{args.rows}.parquet"
    if not path.exists():
        t = time.perf_counter()
        make_file(path, args.rows)
        print(f"made {path} ({path.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - t:.1f} s")
    results = {}
    paths = {"duckdb": ("scan", "pandas"), "spark": ("spark",), "both": ("scan", "pandas", "spark")}[args.engine]
    for how in paths:
        r = run_child(path, how, not args.single, args.spark_memory,
                      args.significant_digits if how != "pandas" else None)
        results[how] = r
        if "error" in r:
            print(f"{how:<7} failed: {r['error']}")
            rec.add(f"scan/{how}/total", None, "s", n=args.rows, note=r["error"])
            continue
        if how == "spark":
            print(f"spark   session start {r['session']:6.2f} s | one model reduced {r['first']:6.2f} s (first), "
                  f"{r['one']:6.2f} s (again) | JVM peak {r['jvm_peak'] / 2**30:5.2f} GiB (Python's below)")
            for key in ("session", "first", "one"):
                rec.add(f"scan/spark/{key}", r[key], "s", n=args.rows, paired=not args.single)
            rec.add("scan/spark/jvm_peak_rss", r["jvm_peak"], "bytes", n=args.rows, paired=not args.single)
        print(f"{how:<7} read/reduce {r['read']:7.2f} s | roc_auc {r['roc_auc']:6.2f} s | threshold_ci {r['threshold_ci']:6.2f} s | vertical_ci "
              f"{r['vertical_ci']:6.2f} s | cost_ci {r['cost_ci']:6.2f} s | compare_thresholds "
              f"{r['compare_thresholds']:6.2f} s | total {r['total']:7.2f} s | peak {r['peak'] / 2**30:5.2f} GiB "
              f"[load {'/'.join(map(str, load_average()))}]")
        for key in ("read", "roc_auc", "threshold_ci", "vertical_ci", "cost_ci", "compare_thresholds", "total"):
            rec.add(f"scan/{how}/{key}", r[key], "s", n=args.rows, paired=not args.single,
                    significant_digits=args.significant_digits if how != "pandas" else None)
        if "distinct_a" in r:
            print(f"        distinct scores of a: {r['distinct_a']:,}; pair table: {r['pairs']:,} rows"
                  + (f"; rounding moves the AUC by at most {r['auc_bound']:.2e}" if "auc_bound" in r else ""))
            rec.add(f"scan/{how}/distinct_a", r["distinct_a"], "rows", n=args.rows)
            rec.add(f"scan/{how}/pair_rows", r["pairs"], "rows", n=args.rows)
            if "auc_bound" in r:
                rec.add(f"scan/{how}/auc_bound", r["auc_bound"], "probability", n=args.rows,
                        significant_digits=args.significant_digits)
        rec.add(f"scan/{how}/peak_rss", r["peak"], "bytes", n=args.rows, paired=not args.single)
    aucs = {how: r["auc"] for how, r in results.items() if "auc" in r}
    if args.significant_digits is not None and "pandas" in aucs:  # rounded counts: the AUC moves within the bound
        raw = aucs.pop("pandas")
        for how in list(aucs):
            gap = abs(aucs[how] - raw)
            print(f"{how}: AUC {aucs[how]:.12f} from rounded scores, raw {raw:.12f}: moved {gap:.2e} "
                  f"(bound {results[how]['auc_bound']:.2e})")
            assert gap <= results[how]["auc_bound"] + 1e-15
    if len(aucs) > 1:
        assert max(aucs.values()) - min(aucs.values()) <= 1e-12, f"the paths disagree: {aucs}"
        print(f"same AUC on every path ({', '.join(aucs)}): {next(iter(aucs.values())):.12f}")
    if "scan" in aucs and "spark" in aucs:
        assert aucs["scan"] == aucs["spark"], "DuckDB's and Spark's counts differ"
    rec.save(args.json)


if __name__ == "__main__":
    main()

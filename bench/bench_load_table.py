"""rocci.load_table on a large CSV beside pandas' C reader and pyarrow.csv, measured in one run (issue 17).

Writes a CSV of ``--rows`` rows (a 0/1 label and two 17-digit score columns, ~41 bytes a row), then
reads it ``--repeats`` times with each reader in turn (interleaved, the order rotated from one repeat to
the next: a read right after another process freed its memory runs at another speed), each read in a fresh Python
process (after one small warm-up read, as in a server that has read a file before) so that its peak
resident memory is its own.  Prints per reader the median seconds, the
ratio to pandas.read_csv in the same run, and the peak memory above the file's bytes (already in
memory, as an upload is) per row and as a multiple of the final columns.  The load average is
printed with the figures.

Usage::

    .venv/bin/python bench/bench_load_table.py                 # 10^7 rows (a 409 MB file), 3 repeats
    .venv/bin/python bench/bench_load_table.py --rows 1e6 --repeats 5
    .venv/bin/python bench/bench_load_table.py --quick         # 2,000 rows, 1 repeat (smoke run)

``--json PATH`` also writes every printed figure as a record (``bench/_record.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _record import Record, load_average  # noqa: E402

CHILD = r"""
import io, json, resource, sys, time
sys.path.insert(0, sys.argv[3])
import pandas as pd
import rocci
which, path = sys.argv[1], sys.argv[2]


def read(raw):
    if which == "pandas.read_csv":
        return pd.read_csv(io.BytesIO(raw))
    if which == "pyarrow.csv":
        import pyarrow.csv as pc
        return pc.read_csv(io.BytesIO(raw)).to_pandas()
    return rocci.load_table(raw, filename="table.csv", max_bytes=2**33)


read(b"label,model_a,model_b\n0,0.25,0.5\n1,0.75,0.5\n")  # warm-up: a server has read a file before
raw = open(path, "rb").read()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
t = time.perf_counter()
df = read(raw)
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - base
print(json.dumps({"seconds": seconds, "peak": peak, "final": int(df.memory_usage(index=False).sum()),
                  "rows": len(df)}))
"""

READERS = ("pandas.read_csv", "rocci.load_table", "pyarrow.csv")


def write_csv(path: Path, rows: int) -> None:
    import pandas as pd

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, rows)
    pd.DataFrame({"label": y, "model_a": rng.normal(size=rows) + y,
                  "model_b": rng.normal(size=rows) + 0.5 * y}).to_csv(path, index=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="2,000 rows, 1 repeat (smoke run)")
    ap.add_argument("--json", default=None, metavar="PATH", help="also write the figures as a JSON record")
    args = ap.parse_args()
    rec = Record("bench_load_table", argv=sys.argv[1:])
    if args.quick:
        args.rows, args.repeats = 2000, 1
    rows = int(args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table.csv"
        write_csv(path, rows)
        size = path.stat().st_size
        print(f"{rows:,} rows, {size / 1e6:.0f} MB CSV; {args.repeats} interleaved runs per reader, each in its own "
              f"process; load {os.getloadavg()[0]:.1f}/{os.getloadavg()[1]:.1f}/{os.getloadavg()[2]:.1f}",
              flush=True)
        got = {r: [] for r in READERS}
        for i in range(args.repeats):
            for r in READERS[i % 3:] + READERS[:i % 3]:  # each reader takes each place in turn (the place matters)
                out = subprocess.run([sys.executable, "-c", CHILD, r, str(path), str(ROOT)],
                                     capture_output=True, text=True, check=True)
                got[r].append(json.loads(out.stdout))
        load = load_average()
    base = float(np.median([g["seconds"] for g in got["pandas.read_csv"]]))
    print(f"{'reader':18s} {'median s':>9s} {'× pandas':>9s} {'peak B/row':>11s} {'peak / final columns':>21s}")
    for r in READERS:
        sec = float(np.median([g["seconds"] for g in got[r]]))
        peak = float(np.median([g["peak"] for g in got[r]]))
        final = got[r][0]["final"]
        print(f"{r:18s} {sec:9.2f} {sec / base:9.2f} {peak / rows:11.1f} {peak / final:21.2f}")
        ctx = {} if r == "pandas.read_csv" else dict(anchor="pandas.read_csv", anchor_value=base, anchor_measured=True)
        rec.add(f"read_csv/{r}", sec, "s", n=rows, file_bytes=size, repeats=args.repeats, ratio_pandas=sec / base,
                peak_bytes=peak, peak_bytes_per_row=peak / rows, peak_over_final=peak / final, final_bytes=final,
                load=load, **ctx)
    print(f"load after: {os.getloadavg()[0]:.1f}/{os.getloadavg()[1]:.1f}/{os.getloadavg()[2]:.1f}")
    rec.save(args.json)


if __name__ == "__main__":
    main()

"""One record format for every benchmark, so the speed tables (docs/speed.md, bench/README.md) are generated, not typed.

Each bench script accepts ``--json PATH`` and, when given, writes what it measured
with :class:`Record`::

    rec = Record("bench_single", argv=sys.argv)
    rec.add("threshold_ci/wilson/every", 0.621, "s", n=10**6, ratio_argsort=8.6,
            anchor="pROC ci.thresholds", anchor_value=13.8, note="median of 5")
    rec.save(args.json)

The file holds the date, the git commit, the machine (cores, Python, numpy), the
load average when the record was created and when it was saved, and one entry per
figure.  ``bench/report.py`` reads these files and writes the tables.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def load_average() -> list[float]:
    """The 1-, 5- and 15-minute load averages (``[nan]*3`` where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # pragma: no cover - Windows
        return [float("nan")] * 3


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return out.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine() -> dict[str, Any]:
    import numpy as np

    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(terse=True),
    }


class Record:
    """The figures of one benchmark run, written as JSON by :meth:`save`."""

    def __init__(self, bench: str, argv: list[str] | None = None):
        self.data: dict[str, Any] = {
            "bench": bench,
            "argv": list(argv if argv is not None else sys.argv[1:]),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "git": git_commit(),
            "machine": machine(),
            "load_start": load_average(),
            "results": [],
        }

    def add(self, key: str, value: float | None, unit: str, **context: Any) -> None:
        """One figure: ``key`` names the quantity (``"<function>/<variant>"``), ``unit`` is
        ``"s"``, ``"ms"``, ``"bytes"``, ``"ratio"``, ``"probability"``…; ``context`` holds
        ``n``, ``ratio_argsort``, ``anchor``, ``anchor_value``, ``repeats``, ``load`` or notes."""
        entry = {"key": key, "value": None if value is None else float(value), "unit": unit}
        entry.update({k: _plain(v) for k, v in context.items()})
        entry.setdefault("load", load_average())
        self.data["results"].append(entry)

    def save(self, path: str | os.PathLike | None) -> None:
        if not path:
            return
        self.data["load_end"] = load_average()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.data, indent=1, allow_nan=True) + "\n")


def _plain(value: Any) -> Any:
    """numpy scalars and arrays to plain JSON values."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return value

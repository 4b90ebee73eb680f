"""The dashboard's "Large data" source: files and SQL under the server's data directory, reduced by rocci.scan.

A server's administrator points the environment variable ``ROCCI_DATA_DIR`` at a directory; the Data
page then lists its Parquet, CSV/TSV and DuckDB files, or takes a SQL query, and :func:`rocci.scan`
reduces the rows to each model's table of distinct scores (and each pair's table of distinct score
pairs) where they live, with DuckDB.  Only those tables reach the dashboard, and every page works from
them (:class:`CountsPrepared`).  Without the variable the source is not offered: a public server does
not expose its file system.

Nothing outside the directory can be read: paths are checked here before any file is looked at
(:func:`source_path`), and :func:`rocci.scan` with ``allowed_root`` checks them again, refuses a link
leading out, limits DuckDB's external access to the directory and runs a query only if it is one
SELECT statement.

Bounds on a server's memory: a reduction that would bring more than :data:`MAX_TABLE_ROWS` rows to
Python is refused (``rocci.scan(max_table_rows=...)``: round the scores), and an analysis that needs
one row per instance is refused above :data:`MAX_INSTANCES` instances (:class:`GuardedCounts`,
:func:`too_large_message`).
"""

from __future__ import annotations

import glob
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st

import rocci
from rocci import data as rdata
from rocci._core.counts import PairedCounts, ScoreCounts

from .store import ResultStore

#: The environment variable that names the server's data directory (unset: no "Large data" source).
ENV = "ROCCI_DATA_DIR"
#: Instances above which the dashboard does not expand counts back to one row per instance, nor runs the
#: analyses whose laws grow with the instances (gain and lift with the depth held fixed);
#: ``ROCCI_MAX_INSTANCES`` changes it (a server with more memory; about 20 bytes per instance and model).
#: Every page runs on the counts at any size otherwise.
MAX_INSTANCES = int(os.environ.get("ROCCI_MAX_INSTANCES", "") or 5_000_000)
#: Rows of a count table (distinct scores of a model, distinct score pairs of a pair) that a scan may
#: bring to the dashboard; beyond, the scan is refused and the message says to round the scores.
MAX_TABLE_ROWS = 2_000_000
#: Files listed on the Data page (the rest can be typed as a path or a glob).
MAX_LISTED = 500
#: Directory entries looked at while listing (a huge directory tree does not slow every rerun).
MAX_WALKED = 20_000
PARQUET = (".parquet", ".pq", ".parq")
CSV = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz")
DATABASES = (".duckdb", ".db", ".ddb")
SUFFIXES = PARQUET + CSV + DATABASES
#: Significant digits offered for rounding the scores inside the reduction (0: as they are).
DIGITS = (0, 2, 3, 4, 5, 6)
#: Distinct values a fold / group column may hold: each is a fold with its own ROC curve (and its own count
#: tables), so a column with more (an id, a date-time, a score) is refused before the scan.
MAX_GROUPS = 100


class TooLarge(rocci.InputError):
    """An analysis needs one row per instance and the counts stand for more than :data:`MAX_INSTANCES`."""


def data_dir() -> Path | None:
    """The server's data directory (``ROCCI_DATA_DIR``, resolved), or None when the variable is unset."""
    text = os.environ.get(ENV, "").strip()
    return Path(text).expanduser().resolve() if text else None


def too_large_message(what: str, n: int) -> str:
    """Why ``what`` is not shown for counts of ``n`` instances, and what to do instead (Markdown)."""
    return (f"{what} needs one row per instance, and these counts stand for **{n:,} instances**, more than "
            f"the dashboard expands on this server ({MAX_INSTANCES:,}). Rounding the scores does not change "
            "the number of instances. Analyse a sample instead (Data page, Large data, SQL query: e.g. "
            "`SELECT * FROM read_parquet('…') USING SAMPLE reservoir(1000000 ROWS) REPEATABLE (1)`), "
            "or run it with the Python API on a machine with the memory for it "
            "(`rocci.scan(...)` then the function on the counts).")


def _check_size(n: int) -> None:
    if n > MAX_INSTANCES:
        raise TooLarge(too_large_message("This analysis", n).replace("**", "").replace("`", ""))


class GuardedCounts(ScoreCounts):
    """A table of counts that expands to one score per instance only up to :data:`MAX_INSTANCES`.

    The functions that work on the distinct scores (ROC curve, AUC, threshold and vertical averaging, cost
    curves and intervals, the simultaneous band, the threshold explorer's tables, curves and threshold
    choices) never expand; the others do, and above the limit get :class:`TooLarge` (an ``InputError``: an
    error box, never an out-of-memory).  An expansion is not kept (the counts are shared by every rerun and
    every page), so memory stays that of the table.
    """

    __slots__ = ()

    @classmethod
    def of(cls, counts: ScoreCounts) -> "GuardedCounts":
        values, n_pos, n_neg = counts.table()
        return cls._from_table(values, n_pos, n_neg, counts.pos_label)

    @property
    def pos(self) -> np.ndarray:
        _check_size(self.n_pos + self.n_neg)
        return np.repeat(self._table[0], self._table[1])

    @property
    def neg(self) -> np.ndarray:
        _check_size(self.n_pos + self.n_neg)
        return np.repeat(self._table[0], self._table[2])


@dataclass(frozen=True, repr=False)
class GuardedPairs(PairedCounts):
    """A pair table whose expansion to instances (``arrays()``) is refused above :data:`MAX_INSTANCES`.

    ``compare_thresholds``, ``compare_auc`` and ``compare_cost`` work on the pair rows (weighted by their
    counts) and never expand it."""

    def arrays(self):
        _check_size(int(self.n_pos.sum()) + int(self.n_neg.sum()))
        return super().arrays()


@dataclass(frozen=True)
class LargeSpec:
    """What to scan: the source under the data directory, the columns, the rounding and the pairs."""

    root: str
    path: str | None = None  # a file or a glob, relative to root; None for a query alone
    table: str | None = None  # a DuckDB database's table
    query: str | None = None  # a SQL query (alone, or on the DuckDB database)
    label: str | None = None
    pos_label: Any = None
    scores: tuple = ()
    digits: int | None = None  # significant digits (None: the scores as they are)
    pairs: bool = True
    group: str | None = None  # a fold / group column: each value's counts too (rocci.scan(group=...))

    def source(self) -> str | None:
        return None if self.path is None else str(Path(self.root) / self.path)

    @property
    def name(self) -> str:
        """A short description: the path, the database's table, or "SQL query"."""
        if self.path is None:
            return "SQL query"
        if self.table is not None and self.query is None:
            return f"{self.path} (table {self.table})"
        return self.path + (" (query)" if self.query is not None else "")


def source_path(root: Path, text: str) -> str:
    """``text`` (a path or glob typed or chosen) as a path relative to ``root``; refused when it leads out.

    The same rule as :func:`rocci.scan`'s ``allowed_root``, applied before any file is looked at.
    """
    text = (text or "").strip()
    if not text:
        raise rocci.InputError("Choose a file, or type a path or a glob under the data directory.")
    given = Path(text)
    full = given if given.is_absolute() else root / given
    has_glob = any(ch in text for ch in "*?[")
    anchor = full.parent if has_glob else full
    while has_glob and any(ch in str(anchor) for ch in "*?["):
        anchor = anchor.parent  # the fixed part of the glob
    real = anchor.resolve()
    if real != root and root not in real.parents:
        raise rocci.InputError(f"{text} is outside the data directory: only files under it can be read.")
    if not has_glob and not full.exists():
        raise rocci.InputError(f"No file {text} in the data directory: check the path.")
    return full.relative_to(root).as_posix() if full.is_relative_to(root) else str(full)


@st.cache_data(ttl=30, max_entries=8, show_spinner=False)
def list_files(root: str) -> tuple[list[str], bool]:
    """Data files under ``root`` (relative paths, sorted) and whether the list was cut short.

    Hidden files and folders are skipped; links are followed only to files inside ``root`` (a link leading
    out is not offered, and would be refused anyway).  At most :data:`MAX_LISTED` files and
    :data:`MAX_WALKED` directory entries; cached for 30 s.
    """
    base = Path(root)
    out: list[str] = []
    walked = 0
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            walked += 1
            if name.startswith(".") or not name.lower().endswith(SUFFIXES):
                continue
            full = Path(dirpath) / name
            try:
                real = full.resolve(strict=True)
            except OSError:
                continue
            if real != base and base not in real.parents:
                continue
            out.append(full.relative_to(base).as_posix())
            if len(out) >= MAX_LISTED:
                return out, True
        if walked >= MAX_WALKED:
            return out, True
    return out, False


def fingerprint(spec_root: str, path: str | None) -> str:
    """A digest of the sizes and modification times of what a scan reads: the file, the files a glob
    matches, or (a query alone, which may read any of them) every listed file of the directory."""
    root = Path(spec_root)
    if path is None:
        files = [root / f for f in list_files(spec_root)[0]]
    elif any(ch in path for ch in "*?["):
        files = [Path(f) for f in sorted(glob.glob(str(root / path), recursive=True))[:MAX_WALKED]]
    else:
        files = [root / path]
    stats = []
    for f in files:
        try:
            st_ = f.stat()
        except OSError:
            continue
        stats.append(f"{f.relative_to(root) if f.is_relative_to(root) else f}\t{st_.st_mtime_ns}\t{st_.st_size}")
    return hashlib.sha256("\n".join(stats).encode("utf-8")).hexdigest()


@st.cache_data(max_entries=16, ttl="1h", show_spinner=False)
def inspect(root: str, path: str | None, table: str | None, query: str | None, stamp: str):
    """:func:`rocci.data.inspect_source`: columns, types and the first 100 rows (``stamp``: :func:`fingerprint`)."""
    return rdata.inspect_source(None if path is None else str(Path(root) / path), table=table, query=query,
                                allowed_root=root, rows=100)


@st.cache_data(max_entries=16, ttl="1h", show_spinner=False)
def label_counts(root: str, path: str | None, table: str | None, query: str | None, label: str, stamp: str) -> dict:
    """:func:`rocci.data.scan_label_counts`: rows per label value (one pass over the label column)."""
    return rdata.scan_label_counts(None if path is None else str(Path(root) / path), label=label, table=table,
                                   query=query, allowed_root=root)


@st.cache_data(max_entries=16, ttl="1h", show_spinner=False)
def group_counts(root: str, path: str | None, table: str | None, query: str | None, group: str, stamp: str) -> dict:
    """Rows per value of the fold / group column, at most :data:`MAX_GROUPS` + 1 values (one pass over that
    column): more than :data:`MAX_GROUPS` values and the column is refused (:func:`too_many_groups`)."""
    return rdata.scan_label_counts(None if path is None else str(Path(root) / path), label=group, table=table,
                                   query=query, allowed_root=root, max_values=MAX_GROUPS)


def too_many_groups(group: str) -> str:
    """Why a fold / group column with more than :data:`MAX_GROUPS` values is refused, and what to do."""
    return (f"The fold / group column {group} has more than {MAX_GROUPS} different values. A fold column holds "
            "the few folds (or runs) each row was scored in, and each value gets its own ROC curve and its own "
            f"count tables. Choose the column of folds, or none; to group by a finer column, bin it in a SQL "
            f"query first (e.g. CAST(id % 10 AS INTEGER) AS fold).")


class CountsPrepared:
    """A scan's counts, with the attributes of :class:`rocci.data.PreparedData` that pages read.

    ``counts[model]`` is a :class:`GuardedCounts`, ``paired(a, b)`` a :class:`GuardedPairs`; there is no
    ``is_positive`` and no ``fold`` array (the rows stay where they are).  With a fold / group column
    (``spec.group``), ``fold_column`` names it and ``scan.groups`` holds each fold's counts, which the fold
    functions take as they are (``rocci.fold_roc_curves(prepared.scan, model=...)``); ``group_sizes`` gives
    each fold's positives and negatives.
    """

    from_counts = True
    fold = None
    one_vs_rest = False

    def __init__(self, scan: rdata.ScanResult, spec: LargeSpec):
        from rocci._core.inputs import _labels_equal

        self.scan = scan
        self.spec = spec
        self.counts = {m: GuardedCounts.of(c) for m, c in scan.counts.items()}
        self.pairs = {}
        for (a, b), p in scan.pairs.items():
            g = GuardedPairs(p.score_a, p.score_b, p.n_pos, p.n_neg, (a, b), p.pos_label)
            g._margins.update({0: self.counts[a], 1: self.counts[b]})
            self.pairs[(a, b)] = g
        self.scores = self.counts
        self.score_columns = list(scan.counts)
        self.label = spec.label
        self.pos_label = scan.pos_label
        self.n_rows_in = scan.n_rows_in
        self.n_rows_used = scan.n_rows_used
        self.n_dropped = scan.n_dropped
        self.dropped_by_column = dict(scan.dropped_by_column)
        self.negative_labels = tuple(v for v in scan.label_counts if not _labels_equal(v, scan.pos_label))
        self.rounding = dict(scan.rounding)
        self.fold_column = spec.group
        self.group_sizes = dict(scan.group_sizes)

    @property
    def n_folds(self) -> int:
        """Distinct values of the fold / group column among the rows used (0 without one)."""
        return len(self.group_sizes)

    @property
    def n_dropped_group(self) -> int:
        """Rows dropped because their fold / group value is missing (0 without a group column)."""
        return int(self.dropped_by_column.get(str(self.fold_column), 0)) if self.fold_column is not None else 0

    @property
    def n_pos(self) -> int:
        return next(iter(self.counts.values())).n_pos

    @property
    def n_neg(self) -> int:
        return next(iter(self.counts.values())).n_neg

    @property
    def n_instances(self) -> int:
        return self.n_pos + self.n_neg

    @property
    def neg_label(self):
        return self.negative_labels[0] if self.negative_labels else None

    def has_pair(self, a: str, b: str) -> bool:
        return (a, b) in self.pairs or (b, a) in self.pairs

    def paired(self, a: str, b: str) -> GuardedPairs:
        """The two models' pair table, model ``a`` first."""
        if (a, b) in self.pairs:
            return self.pairs[(a, b)]
        if (b, a) in self.pairs:
            p = self.pairs[(b, a)]
            g = GuardedPairs(p.score_b, p.score_a, p.n_pos, p.n_neg, (a, b), p.pos_label)
            g._margins.update({0: self.counts[a], 1: self.counts[b]})
            self.pairs[(a, b)] = g
            return g
        raise rocci.InputError(f"The pair ({a}, {b}) was not reduced: on the Data page, tick \"Reduce pairs\" "
                               "and scan again to compare two models.")

    def instances(self, model: str) -> tuple[np.ndarray, np.ndarray]:
        """``(is_positive, scores)`` of one model, one row per instance (positives first), up to the limit."""
        c = self.counts[model]
        values, n_pos, n_neg = c.table()
        _check_size(c.n_pos + c.n_neg)
        y = np.concatenate([np.ones(c.n_pos, dtype=bool), np.zeros(c.n_neg, dtype=bool)])
        s = np.concatenate([np.repeat(values, n_pos), np.repeat(values, n_neg)])
        return y, s


#: Scans, shared by the sessions (keyed by the spec and the files' sizes and times), bounded by bytes.
SCANS = ResultStore(max_entries=6)


def digest(spec: LargeSpec, stamp: str) -> str:
    """The key of a scan (and the dataset's digest): the spec and the files' :func:`fingerprint`."""
    return hashlib.sha256(f"large\n{spec!r}\n{stamp}".encode("utf-8")).hexdigest()


def dataset(spec: LargeSpec, stamp: str):
    """The session's :class:`ui.state.Dataset` for a scan of ``spec``."""
    from .. import state

    return state.Dataset(name=spec.name, kind="large", digest=digest(spec, stamp), raw=b"", spec=spec)


def stored(key: str) -> CountsPrepared | None:
    return SCANS.get(key)


def run_scan(spec: LargeSpec, key: str) -> CountsPrepared:
    """The scan of ``spec`` (from :data:`SCANS`, or run now with a progress bar and a spinner that counts
    the seconds: one step per pass over the data, as :func:`rocci.scan` reports them)."""
    hit = SCANS.get(key)
    if hit is not None:
        return hit
    from ..text import md_escape

    bar = st.progress(0.0, text="Starting the scan…")

    def progress(done: int, total: int, step: str) -> None:
        text = "Scan finished." if done >= total else f"Pass {done + 1} of {total}: {step}…"
        bar.progress(min(done / total, 1.0), text=md_escape(text))

    try:
        with st.spinner(f"Scanning {md_escape(spec.name)} with DuckDB (the rows stay on the server's disk)…",
                        show_time=True):
            result = rocci.scan(
                spec.source(), label=spec.label, scores=list(spec.scores), pos_label=spec.pos_label,
                table=spec.table, query=spec.query, significant_digits=spec.digits,
                paired=bool(spec.pairs and len(spec.scores) > 1), allowed_root=spec.root, group=spec.group,
                max_table_rows=MAX_TABLE_ROWS, progress=progress)
    finally:
        bar.empty()
    prepared = CountsPrepared(result, spec)
    SCANS.put(key, prepared)
    return prepared

"""The data a command reads: a table in memory (:func:`rocci.load_table`) or counts made where it lives
(:func:`rocci.scan`).

Either way a command gets a :class:`Dataset`: the rows read, used and dropped, the positive class and how
it was chosen, and the arguments the statistics take (``(y, score_a, score_b)`` arrays, or one
:class:`rocci.PairedCounts`), so that one call such as ``rocci.compare_auc(*data.paired(a, b))`` serves
both routes.
"""

from __future__ import annotations

import glob
import math
import numbers
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._core.errors import InputError
from ..data import (guess_columns, label_values, prepare_binary, scan, scan_label_counts, suggest_pos_label,
                    suggest_pos_label_from_counts)
from ..data.io import load_table

#: Sources read by :func:`rocci.scan` without ``--scan``: a DuckDB database, a folder, a glob.
DATABASE_SUFFIXES = (".duckdb", ".db", ".ddb")
_SCAN_FILES = (".parquet", ".pq", ".parq", ".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz")


@dataclass
class Dataset:
    """The rows a command analyses, as arrays (a file read whole) or counts (a scan).

    Attributes
    ----------
    source : str
        What was read (a path, a glob, a database table).
    label : str
        The label column.
    pos_label : object
        The positive class, as it appears in the label column.
    pos_note : str
        How the positive class was chosen: ``"given with --pos"`` or rocci's guess and its reason.
    models : list of str
        The score columns read.
    n_rows, n_used : int
        Rows read, and rows with the label and every score present.
    dropped_by_column : dict of str to int
        Rows missing a value in each column (a row missing several counts in each).
    n_pos, n_neg : int
        Positives and negatives among the rows used.
    from_counts : bool
        True when :func:`rocci.scan` made counts (the statistics then take
        :class:`rocci.ScoreCounts` / :class:`rocci.PairedCounts`).
    """

    source: str
    label: str
    pos_label: Any
    pos_note: str
    models: list
    n_rows: int
    n_used: int
    dropped_by_column: dict
    n_pos: int
    n_neg: int
    from_counts: bool = False
    prepared: Any = field(default=None, repr=False)  # rocci.data.PreparedData (a file)
    scanned: Any = field(default=None, repr=False)  # rocci.ScanResult (a scan)

    @property
    def rows_dropped(self) -> int:
        """Rows left out because the label or a score was missing."""
        return self.n_rows - self.n_used

    def single(self, model: str) -> tuple:
        """The arguments of a one-model function: ``(y, score)`` or ``(ScoreCounts,)``."""
        if self.from_counts:
            return (self.scanned[model],)
        return self.prepared.is_positive, self.prepared.scores[model]

    def paired(self, a: str, b: str) -> tuple:
        """The arguments of a two-model function: ``(y, score_a, score_b)`` or ``(PairedCounts,)``."""
        if self.from_counts:
            return (self.scanned.paired(a, b),)
        return self.prepared.is_positive, self.prepared.scores[a], self.prepared.scores[b]

    def pos_text(self) -> str:
        """``positive class 'malignant' (guessed: ...)``."""
        return f"positive class {_label_repr(self.pos_label)} ({self.pos_note})"


def is_scan_source(source: str, *, force: bool = False) -> bool:
    """Whether ``source`` goes to :func:`rocci.scan`: asked (``--scan``), a folder, a DuckDB database, or a glob."""
    if force:
        return True
    path = Path(source)
    if path.is_dir() or str(source).lower().endswith(DATABASE_SUFFIXES):
        return True
    return not path.exists() and any(ch in str(source) for ch in "*?[")


def scan_target(source: str) -> str:
    """A folder becomes the glob of its Parquet files (else of its CSV/TSV files); anything else is kept."""
    path = Path(source)
    if not path.is_dir():
        return str(source)
    for pattern in ("*.parquet", "*.pq", "*.parq", "*.csv", "*.tsv"):
        if glob.glob(os.path.join(glob.escape(str(path)), pattern)):
            return os.path.join(str(path), pattern)
    raise InputError(f"The folder {source} holds no Parquet or CSV/TSV file to scan "
                     f"({', '.join(_SCAN_FILES)}).")


def load_data(source: str, *, label: str, models: list | None, pos: str | None, scan_it: bool = False,
              table: str | None = None, pairs: list | None = None) -> Dataset:
    """Read ``source`` into a :class:`Dataset`: a file with :func:`rocci.load_table` (CSV, TSV, Parquet, xlsx)
    and :func:`rocci.data.prepare_binary`, or counts with :func:`rocci.scan` (``scan_it``, a folder, a glob,
    a DuckDB database).

    Parameters
    ----------
    source : str
        A path (or a glob, a folder, a DuckDB database for the scan).
    label : str
        The label column.
    models : list of str or None
        The score columns; ``None``: rocci's guess (:func:`rocci.data.guess_columns`; a file only).
    pos : str or None
        The positive class as typed (``"1"``, ``"malignant"``), matched to the label's values; ``None``:
        rocci's guess (:func:`rocci.data.suggest_pos_label`), said in :attr:`Dataset.pos_note`.
    scan_it : bool
        Scan even a single file.
    table : str, optional
        The table of a DuckDB database.
    pairs : list of (str, str), optional
        The pairs of models whose joint counts a scan makes (for the two-model statistics).

    Raises
    ------
    rocci.InputError
        Whatever the reader or the checks refuse: a missing file, an unknown column, a label with one class...
    """
    if table is not None and not scan_it and not is_scan_source(source):
        raise InputError("--table names a table of a DuckDB database (.duckdb): it goes with a database or --scan.")
    if str(source).lower().endswith(DATABASE_SUFFIXES) and table is None:
        raise InputError(f"{source} is a DuckDB database: name the table to read with --table.")
    if scan_it or is_scan_source(source):
        return _load_scan(source, label=label, models=models, pos=pos, table=table, pairs=pairs)
    return _load_file(source, label=label, models=models, pos=pos)


def _load_file(source: str, *, label: str, models: list | None, pos: str | None) -> Dataset:
    columns = None if models is None else list(dict.fromkeys([label, *models]))
    df = load_table(source, columns=columns)
    if models is None:
        guessed = guess_columns(df)
        models = [c for c in guessed["scores"] if c != label and c != guessed["fold"]]
        if not models:
            raise InputError(f"No score column found in {source} besides the label {label!r}: name them with "
                             "--models A,B.")
    if pos is not None:
        pos_label, note = match_label(pos, label_values(df, label), label), "given with --pos"
    else:
        guess = suggest_pos_label(df, label)
        pos_label, note = guess.value, f"guessed: {guess.text}; choose another with --pos"
    prep = prepare_binary(df, label=label, scores=models, pos_label=pos_label)
    return Dataset(source=str(source), label=label, pos_label=_py(prep.pos_label), pos_note=note,
                   models=list(models), n_rows=prep.n_rows_in, n_used=prep.n_rows_used,
                   dropped_by_column={str(k): int(v) for k, v in prep.dropped_by_column.items()},
                   n_pos=prep.n_pos, n_neg=prep.n_neg, prepared=prep)


def _load_scan(source: str, *, label: str, models: list | None, pos: str | None, table: str | None,
               pairs: list | None) -> Dataset:
    target = scan_target(source)
    counts = scan_label_counts(target, label=label, table=table)
    values = list(counts)
    if len(values) < 2:
        raise InputError(f"Only one label value found in {label!r} ({', '.join(map(_label_repr, values)) or 'none'}):"
                         " both classes are needed, positives and negatives. Check that this is the label column.")
    if pos is not None:
        pos_label, note = match_label(pos, values, label), "given with --pos"
    else:
        guess = suggest_pos_label_from_counts(counts)
        pos_label, note = guess.value, f"guessed: {guess.text}; choose another with --pos"
    if models is None:
        raise InputError("Name the score columns to scan (--scores A,B).")
    result = scan(target, label=label, scores=list(models), pos_label=pos_label, table=table,
                  paired=[tuple(p) for p in pairs or []])
    n_pos = int(next(iter(result.counts.values())).n_pos)
    n_neg = int(next(iter(result.counts.values())).n_neg)
    described = str(target) if table is None else f"{target}, table {table}"
    return Dataset(source=described, label=label, pos_label=_py(result.pos_label), pos_note=note,
                   models=list(models), n_rows=result.n_rows_in, n_used=result.n_rows_used,
                   dropped_by_column={str(k): int(v) for k, v in result.dropped_by_column.items()},
                   n_pos=n_pos, n_neg=n_neg, from_counts=True, scanned=result)


def match_label(text: str, values: list, column: str) -> Any:
    """The value of the label column that ``--pos`` names: the same text, else the same number.

    >>> match_label("1", [0, 1], "y"), match_label("Malignant", ["benign", "malignant"], "label")
    (1, 'malignant')
    """
    values = [_py(v) for v in values]
    for same in (lambda v: str(v) == text, lambda v: str(v).strip().lower() == text.strip().lower()):
        found = [v for v in values if same(v)]
        if len(found) == 1:
            return found[0]
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None and math.isfinite(number):
        found = [v for v in values if isinstance(v, numbers.Number) and float(v) == number]
        if len(found) == 1:
            return found[0]
    shown = ", ".join(_label_repr(v) for v in values[:10]) + (", ..." if len(values) > 10 else "")
    raise InputError(f"--pos {text!r} is not a value of the label column {column!r}; its values are {shown}.")


def _py(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _label_repr(value: Any) -> str:
    value = _py(value)
    return repr(value) if isinstance(value, str) else str(value)

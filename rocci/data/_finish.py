"""What every reader of :func:`rocci.data.io.load_table` shares: the size limit, the magic bytes of each
format, and the checks that finish a table (duplicate and requested columns, header guesses)."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from .._core.inputs import InputError

_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe", r"\s+": "whitespace"}


# a header cell that is a number: the file may have no header row
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$")


def _delimiter_name(delimiter: str) -> str:
    return _DELIMITER_NAMES.get(delimiter, repr(delimiter))


#: Default size limit of :func:`load_table`, in bytes (200 MiB).
DEFAULT_MAX_BYTES = 200 * 1024**2


_ZIP_MAGIC = b"PK\x03\x04"


_PARQUET_MAGIC = b"PAR1"


_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .xls, .doc


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _too_large(size: int, max_bytes: int, label: str) -> InputError:
    return InputError(
        f"{_cap(label)} is too large ({_human_bytes(size)}); the limit is "
        f"{_human_bytes(max_bytes)}. Use a smaller file (e.g. fewer rows or only the "
        "label and score columns), or raise max_bytes."
    )


def _human_bytes(n: int) -> str:
    if n >= 1024**3:
        return f"{n / 1024**3:.1f} GiB"
    if n >= 1024**2:
        return f"{n / 1024**2:.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n} bytes"


def _numeric_header(cells: list) -> bool:
    """True when every (non-blank) header cell is a number: the header row may be missing."""
    texts = [str(c).strip() for c in cells if c is not None and str(c).strip() != ""]
    return bool(texts) and len(texts) == len(cells) and all(
        (isinstance(c, (int, float)) and not isinstance(c, bool)) or _NUMBER.match(t) is not None
        for c, t in zip(cells, texts)
    )


def _no_header_warning(label: str, cells: list) -> str:
    shown = ", ".join(str(c).strip() for c in cells[:4]) + (", …" if len(cells) > 4 else "")
    return (
        f"Every cell of the first row of {label} is a number ({shown}): the file seems to have "
        "no header row, so its first row of data is used as the column names and is not "
        "counted as data. Add a header row naming the columns (e.g. label,score) and load "
        "the file again."
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _check_duplicates(names: list[str], label: str, *, headerless: bool = False) -> None:
    seen: set[str] = set()
    dups: list[str] = []
    for n in names:
        if n == "":
            continue
        if n in seen and n not in dups:
            dups.append(n)
        seen.add(n)
    if dups:
        shown = ", ".join(repr(d) for d in dups)
        hint = (
            " Every cell of the first row is a number: the file seems to have no header row. "
            "Add a header row naming the columns (e.g. label,score)."
            if headerless else " Every column needs its own name; rename the duplicates and try again."
        )
        raise InputError(f"{_cap(label)} has duplicate column names: {shown}.{hint}")


def _check_columns_argument(columns: Any) -> list | None:
    """`columns` of :func:`load_table` as a list of names (None: every column)."""
    if columns is None:
        return None
    if isinstance(columns, str):
        columns = [columns]
    try:
        out = list(columns)
    except TypeError:
        raise InputError(f"columns ({columns!r}) must be a list of column names.") from None
    if not out or not all(isinstance(c, str) for c in out):
        raise InputError(f"columns ({columns!r}) must be a non-empty list of column names (text).")
    if len(set(out)) != len(out):
        raise InputError(f"columns ({columns!r}) names a column more than once.")
    return out


def _check_requested(columns: list, available: list[str], label: str) -> None:
    missing = [c for c in columns if c not in available]
    if missing:
        shown = ", ".join(repr(c) for c in available[:12]) + (
            f", ... ({len(available)} in all)" if len(available) > 12 else ""
        )
        raise InputError(
            f"{_cap(label)} has no column {missing[0]!r}. Its columns are: {shown}."
        )


def _finish(
    df: pd.DataFrame,
    label: str,
    *,
    delimiter: str | None,
    columns: list | None = None,
    notes: list[str] | None = None,
) -> pd.DataFrame:
    df.columns = [c.strip() if isinstance(c, str) else c for c in df.columns]
    _check_duplicates([str(c) for c in df.columns], label)
    if df.shape[1] == 0:
        raise InputError(f"{_cap(label)} has no columns. Choose a file that contains a table.")
    if len(df) == 0:
        raise InputError(
            f"{_cap(label)} has a header but no data rows. Add the data rows below the "
            "header and try again."
        )
    if df.shape[1] == 1 and columns is None:
        if delimiter is not None:
            name = _delimiter_name(delimiter)
            hint = (
                f" This usually means the delimiter was not recognised (it was read as "
                f"{name}-delimited, header {str(df.columns[0])[:60]!r}). Use commas, "
                "semicolons, tabs or pipes between columns."
            )
        else:
            hint = ""
        raise InputError(
            f"{_cap(label)} has a single column, but at least two are needed (a label "
            f"column and a score column).{hint}"
        )
    if columns is not None:
        df = df[list(columns)]
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index(drop=True)
    df.attrs["warnings"] = list(notes or [])
    return df

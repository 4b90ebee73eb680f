"""Tables as CSV, apart from any widget: provenance columns, spreadsheet-formula neutralising, the bytes."""

from __future__ import annotations

from typing import Any

import pandas as pd

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def with_provenance(frame: pd.DataFrame, model: str, **fields) -> pd.DataFrame:
    """The results table plus columns saying how it was made (the model first, then ``fields``), for the CSV."""
    out = frame.copy()
    out.insert(0, "model", str(model))
    for k, v in fields.items():
        out[k] = v
    return out


def neutralise(value: Any) -> Any:
    """``value`` with a leading ``'`` if it is text that a spreadsheet would run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def safe_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` whose text cells, column names and index are neutralised."""
    out = df.copy()
    for col in out.columns:
        s = out[col]
        if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
            continue
        if pd.api.types.is_bool_dtype(s):
            continue
        out[col] = s.map(neutralise).astype(object)
    out.columns = [neutralise(str(c)) for c in out.columns]
    if not isinstance(out.index, pd.RangeIndex):
        out.index = pd.Index([neutralise(str(i)) for i in out.index],
                             name=None if out.index.name is None else neutralise(str(out.index.name)))
    return out


def csv_bytes(df: pd.DataFrame, *, index: bool = False) -> bytes:
    """UTF-8 CSV of ``df`` with formulas neutralised; numbers exactly as computed.

    Each float is written as its shortest text that reads back to the same
    float (Python's ``repr``: ``0.1``, not ``0.10000000000000001``;
    ``0.30000000000000004`` stays, since that is the value), so a reader
    gets every bit back and no binary noise.  Integer columns stay integers;
    missing values are empty cells, infinities ``inf``/``-inf``.
    """
    # float_format=None is pandas' shortest round-trip repr (a "%.17g" format would add the noise).
    return safe_frame(df).to_csv(index=index, lineterminator="\n", float_format=None).encode("utf-8")


def table_title(label: str) -> str:
    """"Download the ROC table (CSV)" -> "The ROC table": a button's label as a heading."""
    text = label.strip()
    if text.lower().startswith("download "):
        text = text[len("download "):]
    if text.endswith("(CSV)"):
        text = text[: -len("(CSV)")].rstrip()
    return text[:1].upper() + text[1:]

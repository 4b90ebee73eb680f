"""Tables as CSV, apart from any widget: provenance columns, spreadsheet-formula neutralising, the bytes.

The neutralising and the bytes are :mod:`rocci.plots.report`'s (the HTML report attaches the same CSV).
"""

from __future__ import annotations

import pandas as pd

from rocci.plots.report import FORMULA_PREFIXES, csv_bytes, neutralise, safe_frame  # noqa: F401  (re-exported)


def with_provenance(frame: pd.DataFrame, model: str, **fields) -> pd.DataFrame:
    """The results table plus columns saying how it was made (the model first, then ``fields``), for the CSV."""
    out = frame.copy()
    out.insert(0, "model", str(model))
    for k, v in fields.items():
        out[k] = v
    return out


def table_title(label: str) -> str:
    """"Download the ROC table (CSV)" -> "The ROC table": a button's label as a heading."""
    text = label.strip()
    if text.lower().startswith("download "):
        text = text[len("download "):]
    if text.endswith("(CSV)"):
        text = text[: -len("(CSV)")].rstrip()
    return text[:1].upper() + text[1:]

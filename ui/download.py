"""CSV downloads that are safe to open in a spreadsheet.

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return is read as a formula by Excel, LibreOffice and Google Sheets ("CSV
injection").  :func:`neutralise` prefixes such cells with a single quote.
Column names and index labels are neutralised the same way.  Numeric columns
are written as numbers: a negative number is data, not a formula, and quoting
it would turn it into text.
"""

from __future__ import annotations

from typing import Any, Callable

import pandas as pd
import streamlit as st

from .csv import (  # noqa: F401  (re-exported: the pages and tests import them from ui.download)
    FORMULA_PREFIXES,
    csv_bytes,
    neutralise,
    safe_frame,
    table_title,
    with_provenance,
)


def download_csv(
    df: "pd.DataFrame | Callable[[], pd.DataFrame]",
    *,
    label: str,
    file_name: str,
    key: str,
    help: str | None = None,
) -> None:
    """A download button for ``df`` as a neutralised CSV.

    ``df`` may be a function returning the frame: it then runs only when the
    button is clicked (for large tables such as the exact ROC curve).
    """
    from . import report  # the report lists every table the page offers

    report.current().add_table(df, table_title(label))
    if callable(df):
        make = df
        data: Any = lambda: csv_bytes(make())  # noqa: E731
    else:
        data = csv_bytes(df)
    st.download_button(
        label,
        data=data,
        file_name=file_name,
        mime="text/csv",
        key=key,
        help=help,
        icon=":material/download:",
        on_click="ignore",
    )

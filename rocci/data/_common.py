"""Shared helpers of the data steps: column checks, value previews, name lists for the guesses."""

from __future__ import annotations

import re
from typing import Any, Hashable, Iterable

import numpy as np
import pandas as pd

from .._core.inputs import InputError


# Names are compared after lower-casing and removing spaces, '-', '_' and '.'.
_LABEL_NAMES = (
    "label", "labels", "y", "ytrue", "truelabel", "target", "class", "classlabel",
    "outcome", "disease", "diagnosis", "truth", "groundtruth", "response",
)
_FOLD_NAMES = ("fold", "folds", "cv", "cvfold", "foldid", "run", "split", "resample")
_ID_NAMES = (
    "id", "ids", "index", "idx", "row", "rowid", "rownumber", "instance", "instanceid",
    "sample", "sampleid", "patient", "patientid", "subject", "subjectid", "key", "uid",
)
_POSITIVE_WORDS = (
    "1", "yes", "y", "true", "t", "positive", "pos", "+", "+1", "malignant", "disease",
    "diseased", "case", "cases", "abnormal", "present", "sick", "ill", "fraud",
    "fraudulent", "spam", "event", "failure", "fail", "failed", "defect", "defective",
    "anomaly", "outlier", "target", "signal", "churn", "churned", "churner", "default",
    "defaulted", "bad", "died", "dead", "death", "deceased", "cancer", "tumor", "tumour",
    "infected", "attack", "intrusion", "malware", "phishing", "clicked", "click",
    "converted", "conversion", "purchase", "purchased", "responder", "left", "exited",
    "readmitted", "relapse", "hit", "alarm", "detected",
)
# Names of columns that usually hold scores: preferred when preselecting models.
_SCORE_WORDS = (
    "score", "prob", "proba", "probability", "pred", "prediction", "predicted", "yhat",
    "yscore", "yprob", "logit", "margin", "decision", "confidence", "risk", "model", "clf",
    "classifier", "output", "p",
)
_SCORE_TOKEN = re.compile(r"[a-z]+")
#: Models preselected at most by :func:`guess_columns` (a wide file must not preselect thousands).
MAX_GUESSED_SCORES = 6
#: Rows looked at to rank candidate score columns and to rule out label columns.
_SAMPLE_ROWS = 10_000


def _norm(name: Any) -> str:
    return re.sub(r"[\s\-_.]+", "", str(name)).lower()


def _py(value: Any) -> Any:
    """A NumPy scalar as the matching Python scalar, anything else unchanged."""
    return value.item() if isinstance(value, np.generic) else value


def _preview(values: Iterable[Any], k: int = 5) -> str:
    vals = list(values)
    shown = ", ".join(repr(_py(v)) for v in vals[:k])
    return shown + (f", ... ({len(vals)} in all)" if len(vals) > k else "")


def _columns_list(df: pd.DataFrame) -> str:
    return _preview(list(df.columns), k=12)


def _check_column(df: pd.DataFrame, column: Any, what: str) -> None:
    if isinstance(column, (list, tuple, set, np.ndarray)) or not isinstance(column, Hashable):
        raise InputError(f"{what} must be one column name, not {column!r}.")
    if column not in df.columns:
        raise InputError(
            f"{what} column {column!r} is not in the table. Available columns: "
            f"{_columns_list(df)}."
        )


def _is_numeric(series: pd.Series) -> bool:
    return _numeric_dtype(series.dtype)


def _numeric_dtype(dtype: Any) -> bool:
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


def _maybe_nested_dtype(dtype: Any) -> bool:
    """Only object and arrow columns can hold lists or structs."""
    return dtype == object or isinstance(dtype, pd.ArrowDtype)


_NESTED_KINDS = (
    ((list, tuple, np.ndarray), "lists"),
    ((dict,), "structs (records with named fields)"),
    ((set, frozenset), "sets"),
)


def _nested_kind(series: pd.Series, *, sample: int | None = None) -> str | None:
    """What a column holds when its values are not single values (lists, structs...), else None.

    Parquet list and struct columns arrive as NumPy arrays and dicts in an
    ``object`` column (or as an arrow ``list``/``struct``/``map`` dtype); they
    cannot be labels, scores or folds.  `sample` looks at the first values only.
    """
    dtype = series.dtype
    if isinstance(dtype, pd.ArrowDtype):
        import pyarrow as pa

        t = dtype.pyarrow_dtype
        if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
            return "lists"
        if pa.types.is_struct(t):
            return "structs (records with named fields)"
        if pa.types.is_map(t):
            return "maps (key-value pairs)"
        return None
    if dtype != object:
        return None
    values = series.to_numpy()
    if sample is not None:
        values = values[:sample]
    for v in values:
        for types, kind in _NESTED_KINDS:
            if isinstance(v, types):
                return kind
    return None


def _check_scalar(df: pd.DataFrame, column: Any, what: str) -> None:
    """InputError if `column` holds lists, structs or other nested values."""
    kind = _nested_kind(df[column])
    if kind is not None:
        raise InputError(
            f"{what} column {column!r} holds {kind}, not single values (a nested column, as "
            f"Parquet allows; its type is {_dtype_text(df[column])}). {what} column needs one "
            f"value per row{', a number' if what == 'The score' else ''}: choose another column, "
            "or save the file with this column flattened into plain columns."
        )


def _dtype_text(series: pd.Series) -> str:
    dtype = series.dtype
    if isinstance(dtype, pd.ArrowDtype):
        return str(dtype.pyarrow_dtype)
    first = next((v for v in series.to_numpy()[:1000] if v is not None), None)
    if isinstance(first, dict):
        return "struct<" + ", ".join(str(k) for k in list(first)[:5]) + ">"
    if isinstance(first, (list, tuple, np.ndarray)):
        return "list"
    return str(dtype)


def _is_id_like(name: Any) -> bool:
    n = _norm(name)
    if n in _ID_NAMES or n.startswith("unnamed"):
        return True
    raw = str(name).lower()
    return raw.endswith(("_id", " id", "-id", ".id")) or re.search(r"[a-z]ID$", str(name)) is not None



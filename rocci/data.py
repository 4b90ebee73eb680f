"""Preparing a loaded table for analysis.

A table read by :func:`rocci.load_table` goes through these steps before
any curve is computed:

1. :func:`long_to_wide` -- only for the long layout (one row per instance
   and model): one score column per model.
2. :func:`guess_columns`, :func:`label_values`, :func:`guess_pos_label` --
   sensible defaults for the label, score, fold and positive-class choices.
3. :func:`prepare_binary` -- drop (and count) rows with missing values,
   check the label is binary and the scores are finite numbers; returns a
   :class:`PreparedData`.
4. :func:`summarize` -- a one-row-per-model table: counts, ties, ranges.

Nothing here changes a value: rows are dropped (and counted) or an
:class:`~rocci.InputError` explains what to fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Sequence

import numpy as np
import pandas as pd

from ._validation import InputError

__all__ = [
    "PreparedData",
    "guess_columns",
    "score_candidates",
    "PosLabelGuess",
    "suggest_pos_label",
    "label_values",
    "guess_pos_label",
    "prepare_binary",
    "long_to_wide",
    "summarize",
]

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


# --------------------------------------------------------------------------
# guesses
# --------------------------------------------------------------------------


def _distinct_counts(frame: pd.DataFrame) -> dict:
    """Number of distinct non-missing values of each column of `frame` (vectorised for numbers)."""
    out: dict = {}
    numeric = [c for c, t in zip(frame.columns, frame.dtypes) if _numeric_dtype(t)]
    if numeric:
        # one block (a wide file's columns are separate blocks: selecting them costs more)
        values = frame if len(numeric) == frame.shape[1] else frame[numeric]
        block = np.sort(values.to_numpy(dtype=float, na_value=np.nan), axis=0)
        ok = ~np.isnan(block)
        new = np.ones(block.shape, dtype=bool)
        new[1:] = block[1:] != block[:-1]
        counts = np.count_nonzero(new & ok, axis=0)
        out.update(zip(numeric, (int(k) for k in counts)))
    for c in frame.columns:
        if c not in out:
            try:
                out[c] = int(frame[c].nunique(dropna=True))
            except TypeError:  # unhashable values (lists, dicts)
                out[c] = -1
    return out


def _looks_like_key(values: pd.Series, distinct: int) -> bool:
    """True for an integer-valued column whose (first) values are all different: an identifier."""
    n = int(values.notna().sum())
    if n < 20 or distinct != n:
        return False
    try:
        v = values.dropna().to_numpy(dtype=float)
    except (TypeError, ValueError):
        return False
    return bool(np.all(np.isfinite(v)) and np.all(v == np.round(v)))


def _looks_like_score(name: Any) -> bool:
    words = _SCORE_TOKEN.findall(str(name).lower())
    return any(w in _SCORE_WORDS or w.startswith(("prob", "pred", "score")) for w in words)


def guess_columns(df: pd.DataFrame, *, max_scores: int | None = MAX_GUESSED_SCORES) -> dict:
    """Guess which columns hold the label, the scores and the folds.

    Parameters
    ----------
    df : pandas.DataFrame
        A table as returned by :func:`rocci.load_table`.
    max_scores : int or None, default 6
        At most this many score columns are guessed (``None``: all of them).
        A file with thousands of numeric columns must not preselect
        thousands of models.

    Returns
    -------
    dict
        ``{"label": name or None, "scores": [names], "fold": name or None}``:

        * ``label`` -- the first column named like a label (``label``,
          ``y``, ``y_true``, ``target``, ``class``, ``outcome``,
          ``disease``, ``diagnosis``, ``truth``...; case, spaces,
          ``-``, ``_`` and ``.`` ignored); otherwise the first column with
          exactly two distinct non-missing values; otherwise ``None``.
        * ``fold`` -- the first column named ``fold``, ``folds``, ``cv``,
          ``run``, ``split`` (or ``cv_fold``, ``fold_id``, ``resample``),
          other than the label; otherwise ``None``.
        * ``scores`` -- candidate score columns (see :func:`score_candidates`),
          at most `max_scores` of them, in table order: names that look like
          scores first (``score``, ``prob``, ``pred``, ``p_...``, ``model``...),
          then the columns with the most distinct values.

    Notes
    -----
    These are only defaults to pre-fill a form: nothing is checked here.
    :func:`prepare_binary` validates the final choice.  Columns of lists or
    structs (nested Parquet types) are never guessed.  The work is bounded:
    distinct values are counted on the first 10,000 rows (exactly only for
    the few columns that could be a two-class label), in one vectorised
    pass over the numeric columns.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"id": [1, 2], "Target": ["a", "b"], "fold": [1, 2],
    ...                    "m1": [0.2, 0.7], "m2": [0.1, 0.9]})
    >>> guess_columns(df)
    {'label': 'Target', 'scores': ['m1', 'm2'], 'fold': 'fold'}
    """
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"guess_columns needs a pandas DataFrame, not a {type(df).__name__}.")
    columns = list(df.columns)
    head = df if len(df) <= _SAMPLE_ROWS else df.iloc[:_SAMPLE_ROWS]
    nested = {
        c for c, t in zip(columns, df.dtypes)
        if _maybe_nested_dtype(t) and _nested_kind(head[c], sample=1000) is not None
    }
    if nested:
        distinct = _distinct_counts(head[[c for c in columns if c not in nested]]) if len(columns) > len(nested) else {}
    else:
        distinct = _distinct_counts(head)
    normed = [_norm(c) for c in columns]

    label = None
    for wanted in _LABEL_NAMES:
        label = next((c for c, n in zip(columns, normed) if n == wanted and c not in nested), None)
        if label is not None:
            break
    if label is None:
        for c, n in zip(columns, normed):
            if c in nested or n in _FOLD_NAMES or distinct.get(c, 0) > 2 or _is_id_like(c):
                continue  # more than two values in the first rows: not a two-class label
            if distinct.get(c) == 2 if len(df) <= _SAMPLE_ROWS else df[c].dropna().nunique() == 2:
                label = c
                break

    fold = None
    for wanted in _FOLD_NAMES:
        fold = next((c for c, n in zip(columns, normed) if n == wanted and c != label and c not in nested), None)
        if fold is not None:
            break

    scores = [c for c in score_candidates(df, label=label, fold=fold) if c not in nested]
    # An integer column whose every value differs (customer numbers, row numbers) is a key, not a
    # score: not preselected (still offered), unless its name says it is a score.
    keys = [c for c in scores if distinct.get(c, 0) == len(head) and not _looks_like_score(c)
            and _looks_like_key(head[c], distinct[c])]
    if len(keys) < len(scores):
        scores = [c for c in scores if c not in keys]
    if max_scores is not None and len(scores) > max_scores:
        scores = _rank_scores(scores, distinct)[: max(0, int(max_scores))]
        scores = [c for c in columns if c in scores]
    return {"label": label, "scores": scores, "fold": fold}


def score_candidates(df: pd.DataFrame, *, label: Any = None, fold: Any = None) -> list:
    """Every column that could be a score column, in table order.

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    label, fold : column name, optional
        Columns to leave out (the label and the fold column).

    Returns
    -------
    list
        The numeric columns (booleans excluded) other than `label`, `fold`
        and id-like columns (``id``, ``index``, ``row``, ``sample_id``, names
        ending in ``_id``, pandas' ``Unnamed: 0``...).
    """
    return [
        c for c, t in zip(df.columns, df.dtypes)
        if c != label and c != fold and _numeric_dtype(t) and not _is_id_like(c)
    ]


def _rank_scores(candidates: list, distinct: dict) -> list:
    """Candidates best first: score-like names, then more distinct values (≤ 2 values last)."""
    order = {c: i for i, c in enumerate(candidates)}
    return sorted(
        candidates,
        key=lambda c: (not _looks_like_score(c), distinct.get(c, 0) <= 2, -distinct.get(c, 0), order[c]),
    )


def label_values(df: pd.DataFrame, label: Any) -> list:
    """Distinct non-missing values of the label column, sorted.

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    label : column name
        The label column.

    Returns
    -------
    list
        The distinct values as Python scalars (``1``, not ``numpy.int64(1)``),
        sorted; values of mixed types are sorted by type name, then text.

    Raises
    ------
    rocci.InputError
        If `label` is not a column of `df`, or holds lists or structs
        (nested Parquet columns) instead of single values.
    """
    _check_column(df, label, "The label")
    _check_scalar(df, label, "The label")
    values = [_py(v) for v in pd.unique(df[label].dropna())]
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=lambda v: (type(v).__name__, str(v)))


def guess_pos_label(values: Sequence[Any]) -> Any:
    """Guess which label value is the positive class.

    Parameters
    ----------
    values : sequence
        The distinct label values, e.g. from :func:`label_values`.

    Returns
    -------
    value or None
        ``True`` for booleans; ``1`` when the other value is ``0`` or ``-1``;
        otherwise the one value whose text (case and surrounding space
        ignored) is a usual name of a positive class -- ``'1'``, ``'yes'``,
        ``'true'``, ``'positive'``, ``'pos'``, ``'+'``, ``'malignant'``,
        ``'disease'``, ``'case'``, ``'abnormal'``, ``'present'``,
        ``'fraud'``, ``'spam'``, ``'event'``, ``'churn'``, ``'default'``,
        ``'fail'``... .  ``None`` when no value or more than one value
        qualifies (e.g. labels ``1`` and ``2``); :func:`suggest_pos_label`
        then falls back on the rarer class.

    Examples
    --------
    >>> guess_pos_label(["benign", "malignant"])
    'malignant'
    >>> guess_pos_label([0, 1])
    1
    >>> guess_pos_label([1, 2]) is None
    True
    """
    vals = [_py(v) for v in values]
    vals = [v for v in vals if not (isinstance(v, float) and np.isnan(v))]
    if not vals:
        return None
    if all(isinstance(v, bool) for v in vals):
        return True if True in vals else None
    numeric = [v for v in vals if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(numeric) == len(vals):
        distinct = set(numeric)
        if 1 in distinct and distinct <= {0, 1, -1}:
            return next(v for v in vals if v == 1)
        return None
    matches = [
        v for v in vals
        if isinstance(v, (str, bool, int, float)) and str(v).strip().lower() in _POSITIVE_WORDS
    ]
    return matches[0] if len(matches) == 1 else None


_REASON_TEXT = {
    "boolean": "True/False labels: True is positive",
    "numeric": "0/1 labels: 1 is positive",
    "keyword": "a usual name for the positive class",
    "rarer": "the rarer class",
    "tie": "the two classes are the same size, so the last value in sorted order is preselected; check it",
    "one-class": "only one label value found; both classes are needed",
    "many": "more than two classes: choose the class to analyse against the rest",
    "unknown": "no value looks like the positive class",
}


@dataclass(frozen=True)
class PosLabelGuess:
    """A suggested positive class, and why (see :func:`suggest_pos_label`).

    Attributes
    ----------
    value : scalar or None
        The suggested label value; ``None`` when there is no sensible
        suggestion (one class only, or several classes and no keyword).
    reason : str
        ``"boolean"``, ``"numeric"``, ``"keyword"``, ``"rarer"``, ``"tie"``,
        ``"one-class"``, ``"many"`` or ``"unknown"``.
    share : float
        Fraction of the rows with a label that hold `value` (``nan`` without
        a value).
    n_classes : int
        Number of distinct label values.
    counts : dict
        Rows per label value (missing labels left out).
    """

    value: Any
    reason: str
    share: float
    n_classes: int
    counts: dict = field(default_factory=dict, compare=False)

    @property
    def text(self) -> str:
        """The reason in plain words, e.g. ``"the rarer class, 12%"``."""
        base = _REASON_TEXT.get(self.reason, self.reason)
        if self.reason == "numeric" and self.counts:
            base = "/".join(str(v) for v in sorted(self.counts)) + " labels: 1 is positive"
        if self.value is None or self.reason == "tie" or not np.isfinite(self.share):
            return base
        pct = 100.0 * self.share
        shown = f"{pct:.0f}%" if pct >= 1 or pct == 0 else f"{pct:.2g}%"
        return f"{base}, {shown}"


def suggest_pos_label(df: pd.DataFrame, label: Any) -> PosLabelGuess:
    """Suggest the positive class of a label column, and say why.

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    label : column name
        The label column.

    Returns
    -------
    PosLabelGuess
        In this order: ``True`` for booleans; ``1`` for 0/1 and -1/1
        labels; the one value whose text is a usual name of a positive class
        (:func:`guess_pos_label`: ``'yes'``, ``'positive'``, ``'churn'``,
        ``'fraud'``, ``'default'``, ``'malignant'``, ``'spam'``...);
        otherwise, with two classes, the rarer one (positives are usually
        the minority: churners, frauds, patients) -- or, for two classes of
        the same size, the last in sorted order.  No suggestion for a single
        class, or for more than two classes without a keyword.

    Raises
    ------
    rocci.InputError
        If `label` is not a column of `df`, or holds lists or structs.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"status": ["stay"] * 7 + ["leave"] * 3})
    >>> g = suggest_pos_label(df, "status")
    >>> g.value, g.reason, g.text
    ('leave', 'rarer', 'the rarer class, 30%')
    """
    values = label_values(df, label)
    count_of = {_py(k): int(v) for k, v in df[label].value_counts(dropna=True).items()}
    if not values:
        return PosLabelGuess(None, "unknown", float("nan"), 0, count_of)
    if len(values) == 1:
        return PosLabelGuess(None, "one-class", float("nan"), 1, count_of)
    total = sum(count_of.values())

    def share(v: Any) -> float:
        return count_of.get(v, 0) / total if total else float("nan")

    guess = guess_pos_label(values)
    if guess is not None:
        if isinstance(guess, bool):
            reason = "boolean"
        elif isinstance(guess, (int, float)):
            reason = "numeric"
        else:
            reason = "keyword"
        return PosLabelGuess(guess, reason, share(guess), len(values), count_of)
    if len(values) > 2:
        return PosLabelGuess(None, "many", float("nan"), len(values), count_of)
    a, b = values
    if count_of.get(a, 0) == count_of.get(b, 0):
        return PosLabelGuess(b, "tie", share(b), 2, count_of)
    rarer = a if count_of.get(a, 0) < count_of.get(b, 0) else b
    return PosLabelGuess(rarer, "rarer", share(rarer), 2, count_of)


# --------------------------------------------------------------------------
# PreparedData
# --------------------------------------------------------------------------


@dataclass(repr=False)
class PreparedData:
    """A table checked and ready for analysis; see :func:`prepare_binary`.

    Attributes
    ----------
    y_true : numpy.ndarray, shape (n_rows_used,)
        The label values as read (not recoded).
    pos_label : scalar
        The label value of the positive class.
    is_positive : numpy.ndarray of bool, shape (n_rows_used,)
        ``y_true == pos_label``.
    scores : dict of str to numpy.ndarray of float, shape (n_rows_used,)
        One finite float array per score column, in the order given.
    fold : numpy.ndarray or None
        The fold values of the rows used, or ``None`` without a fold column.
    n_rows_in : int
        Rows of the table.
    n_rows_used : int
        Rows kept (no missing value in any used column).
    n_dropped : int
        ``n_rows_in - n_rows_used``.
    dropped_by_column : dict of column name to int
        For every used column, the number of rows missing a value there.  A
        row missing several values counts once in `n_dropped` and once in
        each of its columns here.
    label : column name
        The label column.
    score_columns : list
        The score columns, in order.
    fold_column : column name or None
        The fold column.
    row_index : numpy.ndarray of int
        Positions (0-based) in the input table of the rows used.
    negative_labels : tuple
        The label values counted as negative: one, or several when one class
        is analysed against the rest (``one_vs_rest=True``).
    """

    y_true: np.ndarray
    pos_label: Any
    is_positive: np.ndarray
    scores: dict
    fold: np.ndarray | None
    n_rows_in: int
    n_rows_used: int
    n_dropped: int
    dropped_by_column: dict
    label: Any
    score_columns: list
    fold_column: Any = None
    row_index: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    negative_labels: tuple = ()

    @property
    def n_pos(self) -> int:
        """Number of positive instances."""
        return int(np.count_nonzero(self.is_positive))

    @property
    def n_neg(self) -> int:
        """Number of negative instances."""
        return int(self.is_positive.size - np.count_nonzero(self.is_positive))

    @property
    def neg_label(self) -> Any:
        """The label value of the negative class (the first of them, one class against the rest)."""
        if self.negative_labels:
            return _py(self.negative_labels[0])
        neg = self.y_true[~self.is_positive]
        return _py(neg[0]) if neg.size else None

    @property
    def one_vs_rest(self) -> bool:
        """True when several label values count as negative (one class against the rest)."""
        return len(self.negative_labels) > 1

    def __repr__(self) -> str:
        dropped = ", ".join(f"{k!r}: {v}" for k, v in self.dropped_by_column.items() if v)
        lines = [
            "PreparedData(",
            f"    label={self.label!r}, pos_label={_py(self.pos_label)!r}, "
            f"neg_label={self.neg_label!r},",
            f"    scores={list(self.score_columns)!r},",
            f"    fold={self.fold_column!r}"
            + (f" ({len(pd.unique(self.fold))} folds)," if self.fold is not None else ","),
            f"    n_rows_in={self.n_rows_in}, n_rows_used={self.n_rows_used}, "
            f"n_dropped={self.n_dropped}" + (f" ({dropped})" if dropped else "") + ",",
            f"    n_pos={self.n_pos}, n_neg={self.n_neg},",
            ")",
        ]
        return "\n".join(lines)


# --------------------------------------------------------------------------
# prepare_binary
# --------------------------------------------------------------------------


def _to_float(values: pd.Series, column: Any) -> np.ndarray:
    """Convert a score column (no missing values) to float, or explain why not."""
    if pd.api.types.is_bool_dtype(values) or _is_numeric(values):
        try:
            return values.to_numpy(dtype=float)
        except (TypeError, ValueError):
            pass
    converted = pd.to_numeric(values, errors="coerce")
    bad = values[converted.isna()]
    if len(bad):
        uniq = list(pd.unique(bad))
        hint = ""
        if any(isinstance(v, str) and re.fullmatch(r"\s*[+-]?\d+,\d+\s*", v) for v in uniq):
            hint = (
                " The values look like numbers with a decimal comma: save the file with "
                "decimal points, or as semicolon-delimited CSV so the decimal comma is recognised."
            )
        raise InputError(
            f"Score column {column!r} holds text that is not a number in {len(bad)} "
            f"row{'s' if len(bad) != 1 else ''}: {_preview(uniq)}. Scores must be numbers; "
            f"fix or remove these rows, or choose another score column.{hint}"
        )
    return converted.to_numpy(dtype=float)


def prepare_binary(
    df: pd.DataFrame,
    *,
    label: Any,
    scores: Any,
    pos_label: Any = None,
    fold: Any = None,
    one_vs_rest: bool = False,
) -> PreparedData:
    """Check a table and extract the label, scores and folds for analysis.

    Parameters
    ----------
    df : pandas.DataFrame
        The table (wide layout: one score column per model; see
        :func:`long_to_wide` for the long layout).
    label : column name
        The column of true classes.  After missing values are dropped it
        must hold exactly two distinct values.
    scores : column name or list of column names
        One score column per model (higher = more positive).  Numbers, or
        text that pandas can read as numbers.
    pos_label : scalar, optional
        The label value of the positive class.  May be omitted only when
        the labels are 0/1, -1/1 or booleans (then 1 or ``True``), also when
        written as text (``'0'``/``'1'``: then ``'1'``); for any other labels
        say which is positive (:func:`suggest_pos_label` gives a suggestion
        and its reason).
    fold : column name, optional
        A fold / group column (cross-validation output), kept as is.
    one_vs_rest : bool, default False
        Allow a label column with more than two classes: `pos_label` (then
        required) is the positive class and every other class is negative.
        The label values are kept as read; `negative_labels` lists the
        classes counted as negative.

    Returns
    -------
    PreparedData
        The label values, a boolean positive mask, one float array per
        score column, the folds, and counts of the rows used and dropped.

    Raises
    ------
    rocci.InputError
        If a column is missing or named twice; if a chosen column holds
        lists or structs (nested Parquet columns); if a score column holds
        non-numeric text (the message shows some of it) or infinite
        values; if no rows are left once missing values are dropped; if the
        label does not hold exactly two classes; if `pos_label` is not one
        of the label values, or is needed and not given.

    Notes
    -----
    Rows with a missing value (``NaN``, ``None``, an empty cell) in any used
    column -- the label, every score column, the fold -- are dropped and
    counted, in total (`n_dropped`) and per column (`dropped_by_column`).
    Nothing else is changed: label values are kept as read, and scores are
    only converted to float.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": ["a", "b", "b", None], "s": [0.1, 0.8, 0.6, 0.3]})
    >>> p = prepare_binary(df, label="y", scores="s", pos_label="b")
    >>> p.n_rows_used, p.n_dropped, p.dropped_by_column
    (3, 1, {'y': 1, 's': 0})
    >>> p.is_positive
    array([False,  True,  True])
    """
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"prepare_binary needs a pandas DataFrame, not a {type(df).__name__}.")
    if df.columns.has_duplicates:
        dups = list(pd.unique(df.columns[df.columns.duplicated()]))
        raise InputError(
            f"The table has duplicate column names: {_preview(dups)}. Rename them first."
        )

    _check_column(df, label, "The label")
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
        score_columns = [scores]
    else:
        score_columns = list(scores)
    if not score_columns:
        raise InputError("Choose at least one score column (one per model).")
    for s in score_columns:
        _check_column(df, s, "The score")
    repeated = [s for i, s in enumerate(score_columns) if s in score_columns[:i]]
    if repeated:
        raise InputError(
            f"Score column {repeated[0]!r} is listed more than once. List each model once."
        )
    if label in score_columns:
        raise InputError(
            f"Column {label!r} is chosen as both the label and a score column; the label "
            "holds the true classes and cannot also be a score."
        )
    if fold is not None:
        _check_column(df, fold, "The fold")
        if fold == label or fold in score_columns:
            raise InputError(
                f"Column {fold!r} is chosen as the fold column and also as the label or a "
                "score column; choose a separate fold column or none."
            )

    _check_scalar(df, label, "The label")
    for s in score_columns:
        _check_scalar(df, s, "The score")
    if fold is not None:
        _check_scalar(df, fold, "The fold")

    used = [label, *score_columns] + ([fold] if fold is not None else [])
    missing = {c: df[c].isna().to_numpy() for c in used}
    dropped_by_column = {c: int(m.sum()) for c, m in missing.items()}
    any_missing = np.logical_or.reduce(list(missing.values()))
    keep = ~any_missing
    n_rows_in = len(df)
    n_used = int(keep.sum())
    if n_used == 0:
        detail = ", ".join(f"{c!r}: {n}" for c, n in dropped_by_column.items() if n)
        raise InputError(
            f"No rows are left: every one of the {n_rows_in} rows has a missing value in a "
            f"chosen column (missing per column: {detail or 'none'}). Check the column choice."
            if n_rows_in else "The table has no rows."
        )
    rows = df.loc[keep]

    score_arrays: dict = {}
    for s in score_columns:
        arr = _to_float(rows[s], s)
        n_inf = int(np.isinf(arr).sum())
        if n_inf:
            raise InputError(
                f"Score column {s!r} has {n_inf} infinite value{'s' if n_inf != 1 else ''} "
                "(inf or -inf). Scores must be finite numbers: replace or remove these rows."
            )
        score_arrays[s] = arr

    y_true = rows[label].to_numpy()
    classes = label_values(rows, label)
    if len(classes) < 2:
        raise InputError(
            f"Only one label value found: {_preview(classes)} (label column {label!r}, "
            f"{n_used} rows used); both classes are needed, positives and negatives. "
            "Check that this is the label column, or add instances of the other class."
        )
    if len(classes) > 2 and not one_vs_rest:
        raise InputError(
            f"The label column {label!r} holds {len(classes)} distinct values "
            f"({_preview(classes, k=8)}); it must hold exactly two (the positive and the "
            "negative class). Choose a binary label column, recode the labels, or analyse "
            "one class against all the others (one_vs_rest=True with that class as pos_label)."
        )
    if len(classes) > 2 and pos_label is None:
        raise InputError(
            f"One class against the rest: say which of the {len(classes)} classes of {label!r} "
            f"is positive ({_preview(classes, k=8)}); all the others count as negative."
        )

    if pos_label is None:
        if set(classes) in ({0, 1}, {-1, 1}) or all(isinstance(c, bool) for c in classes):
            pos_label = True if all(isinstance(c, bool) for c in classes) else 1
        elif set(classes) in ({"0", "1"}, {"-1", "1"}):  # numbers read as text (quoted, xlsx text cells)
            pos_label = "1"
        else:
            suggestion = suggest_pos_label(rows, label)
            hint = (f", e.g. pos_label={suggestion.value!r} ({suggestion.text})"
                    if suggestion.value is not None else "")
            raise InputError(
                f"Say which label value is the positive class: the label column {label!r} "
                f"holds {_preview(classes)}{hint}. (pos_label may be left out only for "
                "0/1, -1/1 or True/False labels.)"
            )
    else:
        pos_label = _py(pos_label)
        if isinstance(pos_label, float) and np.isnan(pos_label):
            matches = []
        else:
            matches = [c for c in classes if c == pos_label]
        if not matches:
            raise InputError(
                f"pos_label ({pos_label!r}) is not a value of the label column {label!r}; "
                f"it must be one of {_preview(classes)}."
            )
        pos_label = matches[0]

    is_positive = np.asarray(rows[label].to_numpy() == pos_label, dtype=bool)
    fold_values = rows[fold].to_numpy() if fold is not None else None
    negative_labels = tuple(c for c in classes if not (c == pos_label))

    return PreparedData(
        y_true=y_true,
        pos_label=pos_label,
        is_positive=is_positive,
        scores=score_arrays,
        fold=fold_values,
        n_rows_in=n_rows_in,
        n_rows_used=n_used,
        n_dropped=n_rows_in - n_used,
        dropped_by_column=dropped_by_column,
        label=label,
        score_columns=list(score_columns),
        fold_column=fold,
        row_index=np.flatnonzero(keep),
        negative_labels=negative_labels,
    )


# --------------------------------------------------------------------------
# long_to_wide
# --------------------------------------------------------------------------


def _same_values(a: pd.Series, b: pd.Series) -> np.ndarray:
    """Element-wise equality, with two missing values counting as equal."""
    a_vals, b_vals = a.to_numpy(dtype=object), b.to_numpy(dtype=object)
    eq = np.array([x == y for x, y in zip(a_vals, b_vals)], dtype=bool)
    return eq | (pd.isna(a).to_numpy() & pd.isna(b).to_numpy())


def long_to_wide(
    df: pd.DataFrame,
    *,
    model: Any,
    score: Any,
    id: Any = None,
    label: Any = None,
) -> pd.DataFrame:
    """Turn the long layout (one row per instance and model) into the wide one.

    Parameters
    ----------
    df : pandas.DataFrame
        Long table: a column naming the model, a column of scores, and the
        instance's other columns (label, fold, ...) repeated for each model.
    model : column name
        The column naming the model of each row.
    score : column name
        The column of scores.
    id : column name, optional
        A column identifying the instance.  With it, rows are matched by id
        (each (id, model) pair must occur once, and every model must score
        every id).  Without it, the k-th row of each model is the k-th
        instance (every model must have the same number of rows).
    label : column name, optional
        The label column, checked to agree across models for each instance.
        By default it is guessed (:func:`guess_columns`); pass it explicitly
        if the guess could be wrong.

    Returns
    -------
    pandas.DataFrame
        One row per instance, in the order of the first model's rows: every
        column except `model` and `score`, taken from the first model's
        rows, then one score column per model, in order of first
        appearance, named by the model (as text).

    Raises
    ------
    rocci.InputError
        If a column is missing; a model name is missing or clashes with
        another column; with `id`, an (id, model) pair repeats or a model
        misses some ids; without `id`, models have different numbers of
        rows; or the labels of an instance differ between models.

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"model": ["a", "a", "b", "b"], "y": [0, 1, 0, 1],
    ...                      "s": [0.2, 0.9, 0.4, 0.7]})
    >>> long_to_wide(long, model="model", score="s")
       y    a    b
    0  0  0.2  0.4
    1  1  0.9  0.7
    """
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"long_to_wide needs a pandas DataFrame, not a {type(df).__name__}.")
    _check_column(df, model, "The model")
    _check_column(df, score, "The score")
    if model == score:
        raise InputError("The model column and the score column must be different columns.")
    if id is not None:
        _check_column(df, id, "The id")
        if id in (model, score):
            raise InputError("The id column must differ from the model and score columns.")
    if len(df) == 0:
        raise InputError("The table has no rows.")
    _check_scalar(df, model, "The model")
    _check_scalar(df, score, "The score")
    if id is not None:
        _check_scalar(df, id, "The id")

    n_missing_model = int(df[model].isna().sum())
    if n_missing_model:
        raise InputError(
            f"The model column {model!r} is empty in {n_missing_model} row"
            f"{'s' if n_missing_model != 1 else ''}. Every row must name its model."
        )

    models = list(pd.unique(df[model]))
    names = [str(_py(m)) for m in models]
    others = [c for c in df.columns if c not in (model, score)]
    clash = [n for n in names if n in [str(c) for c in others]]
    if len(set(names)) != len(names):
        raise InputError(
            f"The model names {_preview(models)} become duplicate column names as text. "
            "Give the models distinct names."
        )
    if clash:
        raise InputError(
            f"Model name {clash[0]!r} is also the name of another column; rename the model "
            "or that column."
        )
    if len(models) < 1:
        raise InputError("The model column names no model.")

    if label is None:
        guessed = guess_columns(df.drop(columns=[model, score]))["label"]
        label = guessed
    else:
        _check_column(df, label, "The label")
        if label in (model, score):
            raise InputError("The label column must differ from the model and score columns.")

    groups = {m: df[df[model] == m] for m in models}
    first = groups[models[0]]

    if id is not None:
        n_missing_id = int(df[id].isna().sum())
        if n_missing_id:
            raise InputError(
                f"The id column {id!r} is empty in {n_missing_id} row"
                f"{'s' if n_missing_id != 1 else ''}. Every row needs an id to be matched."
            )
        dup = df.duplicated(subset=[id, model], keep=False)
        if dup.any():
            pairs = df.loc[dup, [id, model]].drop_duplicates().head(5)
            shown = ", ".join(f"({_py(i)!r}, {_py(m)!r})" for i, m in pairs.itertuples(index=False))
            raise InputError(
                f"Some (id, model) pairs occur more than once: {shown}. Each model must score "
                f"each instance once; remove the repeated rows or choose another id column."
            )
        ids = pd.Index(first[id])
        wide = first[others].reset_index(drop=True)
        for m, name in zip(models, names):
            g = groups[m].set_index(id)
            missing_ids = ids.difference(g.index, sort=False)
            extra_ids = g.index.difference(ids, sort=False)
            if len(missing_ids) or len(extra_ids):
                if len(missing_ids):
                    what = f"has no score for id {_preview(list(missing_ids))}"
                else:
                    what = (
                        f"scores id {_preview(list(extra_ids))}, which model "
                        f"{str(_py(models[0]))!r} does not"
                    )
                raise InputError(
                    f"Model {name!r} {what}. Every model must score the same instances; "
                    "remove the unmatched rows."
                )
            g = g.loc[ids]
            if label is not None and m is not models[0]:
                same = _same_values(g[label].reset_index(drop=True), wide[label])
                if not same.all():
                    k = int(np.flatnonzero(~same)[0])
                    raise InputError(
                        f"The label {label!r} of id {_py(ids[k])!r} is "
                        f"{_py(wide[label].iloc[k])!r} for model {names[0]!r} but "
                        f"{_py(g[label].iloc[k])!r} for model {name!r}. The same instance must "
                        "have the same label for every model."
                    )
            wide[name] = g[score].to_numpy()
        return wide

    counts = {name: len(groups[m]) for m, name in zip(models, names)}
    if len(set(counts.values())) > 1:
        shown = ", ".join(f"{n!r}: {c}" for n, c in counts.items())
        raise InputError(
            f"The models have different numbers of rows ({shown}). Without an id column the "
            "k-th row of each model is taken as the same instance, so every model needs the "
            "same rows in the same order; add an id column, or fix the missing rows."
        )
    wide = first[others].reset_index(drop=True)
    for m, name in zip(models, names):
        g = groups[m].reset_index(drop=True)
        if label is not None and m is not models[0]:
            same = _same_values(g[label], wide[label])
            if not same.all():
                k = int(np.flatnonzero(~same)[0])
                raise InputError(
                    f"Row {k + 1} of model {name!r} has label {_py(g[label].iloc[k])!r} but row "
                    f"{k + 1} of model {names[0]!r} has {_py(wide[label].iloc[k])!r}. Without an "
                    "id column rows are paired by their order within each model, so every model "
                    "must list the instances in the same order; add an id column or sort the rows."
                )
        wide[name] = g[score].to_numpy()
    return wide


# --------------------------------------------------------------------------
# summarize
# --------------------------------------------------------------------------

SUMMARY_COLUMNS = (
    "model", "rows", "positives", "negatives", "distinct_scores", "tied_scores",
    "pos_neg_ties", "min", "max", "mean_positive", "mean_negative",
)


def summarize(prepared: PreparedData) -> pd.DataFrame:
    """A one-row-per-model summary of prepared data.

    Parameters
    ----------
    prepared : PreparedData
        The output of :func:`prepare_binary`.

    Returns
    -------
    pandas.DataFrame
        One row per score column, with columns

        * ``model`` -- the score column's name;
        * ``rows``, ``positives``, ``negatives`` -- instances used;
        * ``distinct_scores`` -- number of distinct score values;
        * ``tied_scores`` -- instances sharing their score with at least one
          other instance;
        * ``pos_neg_ties`` -- distinct score values held by both a positive
          and a negative instance (these make diagonal ROC segments);
        * ``min``, ``max`` -- score range;
        * ``mean_positive``, ``mean_negative`` -- mean score of each class.

    Notes
    -----
    Missing values dropped before analysis are in
    ``prepared.n_dropped`` and ``prepared.dropped_by_column``.
    """
    if not isinstance(prepared, PreparedData):
        raise InputError(
            f"summarize needs the result of prepare_binary, not a {type(prepared).__name__}."
        )
    pos = prepared.is_positive
    records = []
    for name in prepared.score_columns:
        s = prepared.scores[name]
        values, inverse, counts = np.unique(s, return_inverse=True, return_counts=True)
        pos_at = np.bincount(inverse, weights=pos, minlength=values.size)
        neg_at = counts - pos_at
        records.append({
            "model": name,
            "rows": int(s.size),
            "positives": int(pos.sum()),
            "negatives": int((~pos).sum()),
            "distinct_scores": int(values.size),
            "tied_scores": int(counts[counts > 1].sum()),
            "pos_neg_ties": int(np.count_nonzero((pos_at > 0) & (neg_at > 0))),
            "min": float(s.min()),
            "max": float(s.max()),
            "mean_positive": float(s[pos].mean()),
            "mean_negative": float(s[~pos].mean()),
        })
    return pd.DataFrame.from_records(records, columns=list(SUMMARY_COLUMNS))

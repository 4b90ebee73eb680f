"""Steps 3 and 4: prepare_binary (drop and count missing rows, check the classes and scores) and summarize."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np
import pandas as pd

from .._core.inputs import InputError
from ._common import _check_column, _check_scalar, _is_numeric, _preview, _py
from .guess import label_values, suggest_pos_label


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
    score_columns = _chosen_columns(df, label, scores, fold)
    used = [label, *score_columns] + ([fold] if fold is not None else [])
    keep, dropped_by_column = _rows_without_missing(df, used)
    rows = df.loc[keep]
    score_arrays = {s: _finite_scores(rows[s], s) for s in score_columns}
    classes = _checked_classes(rows, label, one_vs_rest=one_vs_rest, pos_label=pos_label)
    pos_label = _positive_class(rows, label, classes, pos_label)

    n_rows_in, n_used = len(df), int(keep.sum())
    return PreparedData(
        y_true=rows[label].to_numpy(),
        pos_label=pos_label,
        is_positive=np.asarray(rows[label].to_numpy() == pos_label, dtype=bool),
        scores=score_arrays,
        fold=rows[fold].to_numpy() if fold is not None else None,
        n_rows_in=n_rows_in,
        n_rows_used=n_used,
        n_dropped=n_rows_in - n_used,
        dropped_by_column=dropped_by_column,
        label=label,
        score_columns=list(score_columns),
        fold_column=fold,
        row_index=np.flatnonzero(keep),
        negative_labels=tuple(c for c in classes if not (c == pos_label)),
    )


# The steps of prepare_binary, in order.


def _chosen_columns(df: pd.DataFrame, label: Any, scores: Any, fold: Any) -> list:
    """Step 1: the label, score and fold columns exist, are distinct and hold scalars.

    Returns the score columns as a list (a single name becomes a list of one).
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
    return score_columns


def _rows_without_missing(df: pd.DataFrame, used: list) -> tuple[np.ndarray, dict]:
    """Step 2: the rows with no missing value in a used column, and the count dropped per column."""
    missing = {c: df[c].isna().to_numpy() for c in used}
    dropped_by_column = {c: int(m.sum()) for c, m in missing.items()}
    keep = ~np.logical_or.reduce(list(missing.values()))
    if not keep.any():
        detail = ", ".join(f"{c!r}: {n}" for c, n in dropped_by_column.items() if n)
        raise InputError(
            f"No rows are left: every one of the {len(df)} rows has a missing value in a "
            f"chosen column (missing per column: {detail or 'none'}). Check the column choice."
            if len(df) else "The table has no rows."
        )
    return keep, dropped_by_column


def _finite_scores(values: pd.Series, column: Any) -> np.ndarray:
    """Step 3: a score column as finite floats (text that reads as numbers is converted)."""
    arr = _to_float(values, column)
    n_inf = int(np.isinf(arr).sum())
    if n_inf:
        raise InputError(
            f"Score column {column!r} has {n_inf} infinite value{'s' if n_inf != 1 else ''} "
            "(inf or -inf). Scores must be finite numbers: replace or remove these rows."
        )
    return arr


def _checked_classes(rows: pd.DataFrame, label: Any, *, one_vs_rest: bool, pos_label: Any) -> list:
    """Step 4: the label holds two classes (or more, one class against the rest)."""
    classes = label_values(rows, label)
    if len(classes) < 2:
        raise InputError(
            f"Only one label value found: {_preview(classes)} (label column {label!r}, "
            f"{len(rows)} rows used); both classes are needed, positives and negatives. "
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
    return classes


def _positive_class(rows: pd.DataFrame, label: Any, classes: list, pos_label: Any) -> Any:
    """Step 5: the positive class, as it appears in the label column.

    Given: it must be one of the classes.  Not given: 1 (or ``True``, or ``'1'``)
    for 0/1, -1/1 and boolean labels; otherwise an error with a suggestion.
    """
    if pos_label is None:
        if set(classes) in ({0, 1}, {-1, 1}) or all(isinstance(c, bool) for c in classes):
            return True if all(isinstance(c, bool) for c in classes) else 1
        if set(classes) in ({"0", "1"}, {"-1", "1"}):  # numbers read as text (quoted, xlsx text cells)
            return "1"
        suggestion = suggest_pos_label(rows, label)
        hint = (f", e.g. pos_label={suggestion.value!r} ({suggestion.text})"
                if suggestion.value is not None else "")
        raise InputError(
            f"Say which label value is the positive class: the label column {label!r} "
            f"holds {_preview(classes)}{hint}. (pos_label may be left out only for "
            "0/1, -1/1 or True/False labels.)"
        )
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
    return matches[0]


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


def summarize_counts(counts) -> pd.DataFrame:
    """:func:`summarize` from each model's table of counts (:class:`rocci.ScoreCounts`, e.g. a scan's).

    Parameters
    ----------
    counts : mapping of model name to ScoreCounts
        For example ``rocci.scan(...).counts``.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`summarize` (:data:`SUMMARY_COLUMNS`), each computed
        from the distinct scores and their numbers of positives and negatives
        (means weighted by the counts); nothing is expanded to one row per instance.
    """
    from .._core.counts import ScoreCounts

    records = []
    for name, c in dict(counts).items():
        if not isinstance(c, ScoreCounts):
            raise InputError(f"summarize_counts needs each model's ScoreCounts; {name!r} is a {type(c).__name__}.")
        values, n_pos, n_neg = c.table()
        at = n_pos + n_neg
        records.append({
            "model": name,
            "rows": int(at.sum()),
            "positives": int(c.n_pos),
            "negatives": int(c.n_neg),
            "distinct_scores": int(values.size),
            "tied_scores": int(at[at > 1].sum()),
            "pos_neg_ties": int(np.count_nonzero((n_pos > 0) & (n_neg > 0))),
            "min": float(values[0]),
            "max": float(values[-1]),
            "mean_positive": float(np.dot(values, n_pos.astype(float)) / c.n_pos),
            "mean_negative": float(np.dot(values, n_neg.astype(float)) / c.n_neg),
        })
    return pd.DataFrame.from_records(records, columns=list(SUMMARY_COLUMNS))

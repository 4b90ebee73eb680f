"""Step 2: sensible defaults for the label, score, fold and positive-class choices."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from .._core.inputs import InputError
from ._common import (
    _FOLD_NAMES,
    _LABEL_NAMES,
    _POSITIVE_WORDS,
    _SAMPLE_ROWS,
    _SCORE_TOKEN,
    _SCORE_WORDS,
    MAX_GUESSED_SCORES,
    _check_column,
    _check_scalar,
    _is_id_like,
    _maybe_nested_dtype,
    _nested_kind,
    _norm,
    _numeric_dtype,
    _py,
)


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
        two = []  # two-valued columns, in order
        for c, n in zip(columns, normed):
            if c in nested or n in _FOLD_NAMES or distinct.get(c, 0) > 2 or _is_id_like(c):
                continue  # more than two values in the first rows: not a two-class label
            if distinct.get(c) == 2 if len(df) <= _SAMPLE_ROWS else df[c].dropna().nunique() == 2:
                two.append(c)
        # The first whose values name a positive class ('churned'/'stayed' before '2026-09'/'2026-10'), else
        # the first.
        named = [c for c in two if any(str(v).strip().lower() in _POSITIVE_WORDS for v in head[c].dropna().unique())]
        label = (named or two or [None])[0]

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
    return _suggest(values, count_of)


def suggest_pos_label_from_counts(counts: dict) -> PosLabelGuess:
    """:func:`suggest_pos_label` from the rows per label value (e.g. :func:`rocci.data.scan_label_counts`).

    The same rules and reasons, for a label column that was counted where it lives instead of read.

    Examples
    --------
    >>> suggest_pos_label_from_counts({"stay": 7, "leave": 3}).value
    'leave'
    """
    count_of = {_py(k): int(v) for k, v in counts.items() if k is not None and not _is_missing(k)}
    values = list(count_of)
    try:
        values = sorted(values)
    except TypeError:
        values = sorted(values, key=lambda v: (type(v).__name__, str(v)))
    return _suggest(values, count_of)


def _is_missing(value) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _suggest(values: list, count_of: dict) -> PosLabelGuess:
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


# --- several classes: which columns hold each class's scores (rocci.folds.multiclass) ----------------


_AFFIXES = ("p", "pr", "prob", "proba", "probability", "score", "scores", "s", "pred", "prediction", "yscore", "yprob")


def _norm_class(text: Any) -> str:
    return re.sub(r"[^0-9a-z]+", "", str(text).lower())


def match_score_columns(columns, classes) -> dict:
    """Guess the score column of each class from the column names.

    A column scores class ``c`` when its name is ``c`` (as text), or is ``c``
    after lower-casing and removing everything but letters and digits, or is
    ``c`` with a usual prefix or suffix (``p_``, ``prob_``, ``proba_``,
    ``score_``, ``pred_``, ``_prob``, ``_score``...).  A class gets a column
    only if exactly one column matches at the first rule that finds one, and
    a column goes to one class at most.

    Parameters
    ----------
    columns : sequence
        Column names of the table.
    classes : sequence
        The class values.

    Returns
    -------
    dict
        ``{class: column or None}``, in the order of ``classes``.

    Examples
    --------
    >>> match_score_columns(["id", "label", "p_setosa", "p_versicolor", "p_virginica"],
    ...                     ["setosa", "versicolor", "virginica"])
    {'setosa': 'p_setosa', 'versicolor': 'p_versicolor', 'virginica': 'p_virginica'}
    """
    cols = list(columns)
    norm = {c: _norm_class(c) for c in cols}
    used: set = set()
    out: dict = {}
    for cls in classes:
        text, key = str(cls), _norm_class(cls)
        rules = (
            lambda c: str(c) == text,
            lambda c: key != "" and norm[c] == key,
            lambda c: key != "" and any(norm[c] in (a + key, key + a) for a in _AFFIXES),
        )
        found = None
        for rule in rules:
            hits = [c for c in cols if c not in used and rule(c)]
            if len(hits) == 1:
                found = hits[0]
                break
            if len(hits) > 1:
                break
        out[cls] = found
        if found is not None:
            used.add(found)
    return out


def class_columns(df: pd.DataFrame, *, max_classes: int = 50) -> list:
    """Columns that can hold a class with more than two values.

    A column qualifies when it has between 3 and ``max_classes`` distinct
    non-missing values, is not a float column with fractional values (those
    are scores), is not named like an id or a fold, and either has a
    label-like name (``label``, ``class``, ``target``...) or every one of its
    values has a numeric score column found by :func:`match_score_columns`.
    Label-like names come first.

    Returns
    -------
    list of column names
    """
    from ._common import _FOLD_NAMES, _LABEL_NAMES, _is_id_like
    from ._common import _norm as _dnorm

    numeric = [c for c in df.columns
               if pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])]
    found = []
    for c in df.columns:
        if _is_id_like(c) or _dnorm(c) in _FOLD_NAMES:
            continue
        s = df[c].dropna()
        if pd.api.types.is_bool_dtype(s):
            continue
        if pd.api.types.is_float_dtype(s) and not np.all(np.mod(s.to_numpy(), 1) == 0):
            continue
        k = s.nunique()
        if not 3 <= k <= max_classes:
            continue
        if _dnorm(c) in _LABEL_NAMES:
            found.append(c)
            continue
        values = pd.unique(s)
        matched = match_score_columns([x for x in numeric if x != c], [_py(v) for v in values])
        if all(col is not None for col in matched.values()):
            found.append(c)
    return sorted(found, key=lambda c: (_dnorm(c) not in _LABEL_NAMES, list(df.columns).index(c)))

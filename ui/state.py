"""The loaded dataset and its column mapping, per browser session.

Everything lives in ``st.session_state`` (one per user); nothing mutable is
shared between users at module level.

- ``dataset``: :class:`Dataset` -- the raw bytes of the file, its name and the
  SHA-256 digest that keys every cache.  A newcomer gets the default bundled
  sample, so every page shows something at once.
- ``mapping``: :class:`ColumnMapping` -- which column is the label, which label
  value is positive, which columns are scores, etc.  Set by the Data page;
  other pages fall back to the guesses of :func:`guess_mapping`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

#: Bundled samples, in the order offered, with a one-line description each.
SAMPLES: dict[str, str] = {
    "breast_cancer_cv.csv": "Breast cancer — 569 tumours, two models (logistic, naive Bayes), 5-fold CV scores",
    "heart_disease_test20.csv": "Heart disease — 20 patients, logistic regression (Tanagra tutorial)",
    "thesis_example.csv": "Thesis example — 20 positives, 40 negatives (Gadoury 2009, ch. 2)",
    "wine_cv.csv": "Wine — 178 wines, 3 cultivars, class probabilities from 5-fold CV (Folds & classes page)",
}
DEFAULT_SAMPLE = "breast_cancer_cv.csv"

#: Score columns of the samples whose other numeric columns are predictors,
#: not scores (see data/README.md).
SAMPLE_SCORES: dict[str, tuple] = {
    "heart_disease_test20.csv": ("score",),
}


@dataclass(frozen=True)
class Dataset:
    """A loaded file: its name, where it came from, its bytes and their digest.

    ``kind="large"``: data under the server's data directory, reduced to counts by
    ``rocci.scan`` (no bytes in the session): ``spec`` is the scan's
    :class:`ui.cache.large.LargeSpec` and ``digest`` a digest of the spec and of the
    files' sizes and modification times.
    """

    name: str
    kind: str  # "sample", "upload" or "large"
    digest: str
    raw: bytes = field(repr=False, compare=False)
    spec: Any = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.raw)


@dataclass(frozen=True)
class ColumnMapping:
    """How the table's columns are read.

    ``layout="wide"``: one score column per model (``scores``).
    ``layout="long"``: one row per (instance, model); ``model`` names the model
    column, ``score`` the score column and ``id`` (optional) the instance id;
    ``scores`` then lists the chosen models (values of the model column).
    """

    layout: str = "wide"
    label: str | None = None
    pos_label: Any = None
    scores: tuple = ()
    fold: str | None = None
    model: str | None = None
    score: str | None = None
    id: str | None = None
    #: Several label classes: ``pos_label`` against all the others (shown on the Data page and sidebar).
    one_vs_rest: bool = False

    def key(self) -> str:
        """A stable text key for caches (types kept: ``1`` and ``'1'`` differ)."""
        return repr(self)


def digest_bytes(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def sample_names() -> list[str]:
    """Bundled samples that are present in data/."""
    return [name for name in SAMPLES if (DATA_DIR / name).is_file()]


def sample_dataset(name: str) -> Dataset:
    """The bundled sample ``name`` (one of :data:`SAMPLES`)."""
    if name not in SAMPLES:
        raise KeyError(name)
    raw = (DATA_DIR / name).read_bytes()
    return Dataset(name=name, kind="sample", digest=digest_bytes(raw), raw=raw)


def upload_dataset(name: str, raw: bytes) -> Dataset:
    return Dataset(name=str(name), kind="upload", digest=digest_bytes(raw), raw=bytes(raw))


def get_dataset() -> Dataset | None:
    """The session's dataset; the default sample for a new session (None if missing)."""
    ds = st.session_state.get("dataset")
    if ds is None:
        names = sample_names()
        if not names:
            return None
        name = DEFAULT_SAMPLE if DEFAULT_SAMPLE in names else names[0]
        ds = sample_dataset(name)
        st.session_state["dataset"] = ds
    return ds


def set_dataset(ds: Dataset) -> bool:
    """Make ``ds`` the session's dataset; True when it changed."""
    old = st.session_state.get("dataset")
    if old is not None and old.digest == ds.digest and old.name == ds.name:
        return False
    st.session_state["dataset"] = ds
    st.session_state.pop("mapping", None)
    return True


def get_mapping(ds: Dataset) -> ColumnMapping | None:
    """The mapping the user chose for ``ds`` (None: not chosen yet)."""
    stored = st.session_state.get("mapping")
    if stored is not None and stored[0] == ds.digest:
        return stored[1]
    return None


def set_mapping(ds: Dataset, mapping: ColumnMapping) -> None:
    st.session_state["mapping"] = (ds.digest, mapping)


def guess_mapping(df) -> ColumnMapping:
    """Pre-filled choices for a freshly loaded table (rocci.data's guesses).

    A table with a column named like "model" and one named like "score" is
    taken to be in the long layout.  At most
    :data:`rocci.data.MAX_GUESSED_SCORES` score columns are preselected (a
    10,000-column file must not preselect 9,999 models); the positive label
    is :func:`rocci.data.suggest_pos_label`'s (a usual name such as 'churn',
    else the rarer class), so that a file with labels 'churn'/'stay' works on
    every page at once.

    Parameters
    ----------
    df : pandas.DataFrame
        The table, as read by :func:`rocci.load_table`.

    Returns
    -------
    ColumnMapping
        The guesses; the Data page shows them, says why, and lets the user
        change them.
    """
    from rocci import data as rdata

    long = looks_long(df)
    if long:
        lg = guess_long(df)
        rest = df.drop(columns=[c for c in (lg["model"], lg["score"], lg["id"]) if c is not None])
        g = rdata.guess_columns(rest)
    else:
        g = rdata.guess_columns(df)
    label = g.get("label")
    pos = None
    if label is not None:
        try:
            pos = rdata.suggest_pos_label(df, label).value
        except Exception:  # a guess must never break the page
            pos = None
    if long:
        try:
            models = tuple(str(v) for v in df[lg["model"]].dropna().unique())[:50]
        except Exception:
            models = ()
        models = models[: rdata.MAX_GUESSED_SCORES]
        return ColumnMapping(
            layout="long", label=label, pos_label=pos, scores=models, fold=g.get("fold"),
            model=lg["model"], score=lg["score"], id=lg["id"],
        )
    scores = tuple(s for s in g.get("scores", []) if s != label)
    if not scores:
        # No numeric column: pre-select the first other column anyway, so the
        # page explains what is wrong with it (e.g. "holds text: 'abc'")
        # instead of only asking for a score column.
        others = [c for c in df.columns if c not in (label, g.get("fold"))]
        scores = tuple(others[-1:])
    return ColumnMapping(layout="wide", label=label, pos_label=pos, scores=scores, fold=g.get("fold"))


def data_key(ds: Dataset, mapping: ColumnMapping) -> str:
    """Cache key of the prepared data: digest of the bytes + the mapping."""
    return hashlib.sha256((ds.digest + "\n" + mapping.key()).encode("utf-8")).hexdigest()


_MODEL_NAMES = ("model", "models", "classifier", "method", "algorithm", "learner", "system")
_SCORE_NAMES = ("score", "scores", "prob", "probability", "proba", "prediction", "pred", "yscore", "yprob", "yhat")


def _norm(name: Any) -> str:
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


def guess_long(df) -> dict:
    """Guesses for the long layout: ``{"model", "score", "id"}`` column names (or None)."""
    import pandas as pd

    cols = list(df.columns)
    norm = {c: _norm(c) for c in cols}
    model = next((c for c in cols if norm[c] in _MODEL_NAMES), None)
    if model is None:
        model = next(
            (c for c in cols if not pd.api.types.is_numeric_dtype(df[c]) and 1 < df[c].nunique() <= 20),
            None,
        )
    score = next((c for c in cols if norm[c] in _SCORE_NAMES), None)
    if score is None:
        score = next(
            (c for c in cols if c != model and pd.api.types.is_float_dtype(df[c])),
            None,
        )
    ident = next((c for c in cols if norm[c] in ("id", "ids", "instance", "instanceid", "rowid", "sampleid")), None)
    return {"model": model, "score": score, "id": ident}


def looks_long(df) -> bool:
    """True when the table has a model column and a score column by name."""
    names = {_norm(c) for c in df.columns}
    return bool(names & set(_MODEL_NAMES)) and bool(names & set(_SCORE_NAMES))
